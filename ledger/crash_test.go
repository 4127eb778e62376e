package ledger_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/sealedhq/sealed/ledger"
)

// Environment of the crash test's writer child (the test binary re-run).
const (
	envCrashDB  = "SEALED_LEDGER_CRASH_DB"
	envCrashKey = "SEALED_LEDGER_CRASH_KEY"
)

// TestMain runs the crash writer when the test binary is started as one.
func TestMain(m *testing.M) {
	if db := os.Getenv(envCrashDB); db != "" {
		os.Exit(crashWriter(db, os.Getenv(envCrashKey)))
	}
	os.Exit(m.Run())
}

// crashWriter appends forever from 8 goroutines and writes "index
// leafhash" to stdout, one write per line, after each acknowledged
// append. It runs until killed.
func crashWriter(db, key string) int {
	l, err := openLedger(nil, db, ledger.Options{KeyFile: key, CheckpointInterval: 20 * time.Millisecond})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	var mu sync.Mutex
	pid := os.Getpid()
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ; i++ {
				body := commitBody(fmt.Sprintf("pid%d-g%d-%d", pid, g, i), hashA)
				idx, err := l.Append(context.Background(), []byte(body))
				if err != nil {
					fmt.Fprintln(os.Stderr, err)
					os.Exit(3)
				}
				e, err := l.Entry(idx)
				if err != nil {
					fmt.Fprintln(os.Stderr, err)
					os.Exit(3)
				}
				line := fmt.Sprintf("%d %s\n", idx, hex.EncodeToString(e.LeafHash[:]))
				mu.Lock()
				os.Stdout.WriteString(line) // unbuffered: one write(2) per line
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return 0
}

// TestCrash kills a writer process with SIGKILL at random moments, 50
// times. After each kill, every index it acknowledged must be present with
// the leaf hash it reported, and the audit must be clean.
func TestCrash(t *testing.T) {
	if testing.Short() {
		t.Skip("crash test skipped in -short mode")
	}
	dir := t.TempDir()
	db, key := filepath.Join(dir, "crash.db"), filepath.Join(dir, "crash.key")
	if _, err := initLedger(db, testOrigin, key); err != nil {
		t.Fatal(err)
	}
	seed := uint64(time.Now().UnixNano())
	t.Logf("random seed %d", seed)
	rnd := rand.New(rand.NewPCG(seed, 0))
	total := 0
	for round := range 50 {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), envCrashDB+"="+db, envCrashKey+"="+key)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Duration(20+rnd.IntN(300)) * time.Millisecond)
		if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		err := cmd.Wait()
		if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() {
			t.Fatalf("round %d: writer ended before the kill: %v\n%s", round, err, stderr.String())
		}
		acked := map[int64]string{}
		sc := bufio.NewScanner(&stdout)
		for sc.Scan() {
			f := strings.Fields(sc.Text())
			if len(f) != 2 || len(f[1]) != 64 {
				continue // a line cut by the kill cannot be an acknowledgement
			}
			i, err := strconv.ParseInt(f[0], 10, 64)
			if err != nil {
				t.Fatalf("round %d: bad line %q", round, sc.Text())
			}
			acked[i] = f[1]
		}
		total += len(acked)
		l, err := openLedger(t, db, ledger.Options{KeyFile: key})
		if err != nil {
			t.Fatalf("round %d: reopening after the kill: %v", round, err)
		}
		for i, want := range acked {
			e, err := l.Entry(i)
			if err != nil {
				t.Fatalf("round %d: acknowledged entry %d lost: %v", round, i, err)
			}
			if got := hex.EncodeToString(e.LeafHash[:]); got != want {
				t.Fatalf("round %d: entry %d has leaf hash %s, the writer acknowledged %s", round, i, got, want)
			}
		}
		rep, err := l.Audit(context.Background(), nil)
		if err != nil {
			t.Fatalf("round %d: audit after the kill: %v", round, err)
		}
		if !rep.OK {
			t.Fatalf("round %d: audit after the kill: %s", round, rep.Problem)
		}
		if err := l.Close(); err != nil {
			t.Fatal(err)
		}
	}
	if total == 0 {
		t.Fatal("the writers acknowledged nothing: the test proved nothing")
	}
	t.Logf("%d acknowledged appends over 50 kills", total)
}
