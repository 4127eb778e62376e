package pgstore_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"reflect"
	"slices"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/sealedhq/sealed/ledger"
	"github.com/sealedhq/sealed/ledger/pgstore"
)

// writerProc is a writer process (this test binary in writer mode, see
// TestMain) and the acknowledgements it printed.
type writerProc struct {
	cmd    *exec.Cmd
	stderr bytes.Buffer
	first  chan struct{} // closed at the first acknowledgement
	done   chan struct{} // closed once stdout is read to its end
	acks   map[int64][]byte
	bad    []string // lines that do not parse
}

// startWriter starts a writer process appending to the ledger at url:
// count commit entries with the given prefix (0: until killed).
func startWriter(t *testing.T, url, key, prefix string, count int) *writerProc {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	w := &writerProc{first: make(chan struct{}), done: make(chan struct{}), acks: map[int64][]byte{}}
	w.cmd = exec.Command(exe, "-test.run=^$")
	w.cmd.Env = append(os.Environ(), writerEnv+"="+url, writerKey+"="+key, writerPrefix+"="+prefix, writerCount+"="+strconv.Itoa(count))
	w.cmd.Stderr = &w.stderr
	out, err := w.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := w.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go w.read(out)
	return w
}

// read collects the lines "INDEX BODY" until out ends.
func (w *writerProc) read(out io.Reader) {
	defer close(w.done)
	sc := bufio.NewScanner(out)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		idx, body, ok := bytes.Cut(sc.Bytes(), []byte(" "))
		i, err := strconv.ParseInt(string(idx), 10, 64)
		if !ok || err != nil {
			w.bad = append(w.bad, sc.Text())
			continue
		}
		if len(w.acks) == 0 {
			close(w.first)
		}
		if _, dup := w.acks[i]; dup {
			w.bad = append(w.bad, "index printed twice: "+sc.Text())
		}
		w.acks[i] = bytes.Clone(body)
	}
}

// wait waits for the process to end and its output to be read; it
// returns the process's error with its standard error.
func (w *writerProc) wait() error {
	<-w.done
	if err := w.cmd.Wait(); err != nil {
		return fmt.Errorf("%v: %s", err, w.stderr.Bytes())
	}
	return nil
}

// gather merges the acknowledgements of writers, failing t on an index
// acknowledged twice.
func gather(t *testing.T, all map[int64][]byte, writers ...*writerProc) {
	t.Helper()
	for _, w := range writers {
		for _, b := range w.bad {
			t.Errorf("writer output: %q", b)
		}
		for i, body := range w.acks {
			if prev, ok := all[i]; ok {
				t.Fatalf("index %d acknowledged twice: %s and %s", i, prev, body)
			}
			all[i] = body
		}
	}
}

// checkAcked checks that every acknowledged entry is in the store with
// its body: the leaf's members are the body's plus integrated_at
// (compared as parsed JSON, independently of the ledger's canonical
// form).
func checkAcked(t *testing.T, s *pgstore.Store, acks map[int64][]byte) {
	t.Helper()
	ctx := context.Background()
	n, err := s.Size(ctx)
	if err != nil {
		t.Fatal(err)
	}
	found := 0
	for from := int64(0); from < n; from += 4096 {
		es, err := s.EntryRange(ctx, from, from+4096)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range es {
			body, ok := acks[e.Index]
			if !ok {
				continue
			}
			found++
			var leaf, want map[string]any
			if err := json.Unmarshal(e.Leaf, &leaf); err != nil {
				t.Fatalf("entry %d: %v", e.Index, err)
			}
			if err := json.Unmarshal(body, &want); err != nil {
				t.Fatalf("acknowledged body %d: %v", e.Index, err)
			}
			if _, ok := leaf["integrated_at"]; !ok {
				t.Errorf("entry %d has no integrated_at: %s", e.Index, e.Leaf)
			}
			delete(leaf, "integrated_at")
			if !reflect.DeepEqual(leaf, want) {
				t.Errorf("entry %d is %s; the writer was acknowledged %s", e.Index, e.Leaf, body)
			}
		}
	}
	if found != len(acks) {
		var missing []int64
		for i := range acks {
			if i >= n {
				missing = append(missing, i)
			}
		}
		slices.Sort(missing)
		t.Fatalf("%d of %d acknowledged entries are in the log (size %d); missing e.g. %v", found, len(acks), n, missing[:min(len(missing), 10)])
	}
}

// audit runs the ledger's audit on url (read-only) and fails t unless it
// is clean and covers want entries.
func audit(t *testing.T, url string, want int64) {
	t.Helper()
	l := mustOpen(t, url, ledger.Options{ReadOnly: true})
	rep, err := l.Audit(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if !rep.OK || rep.Size != want {
		t.Fatalf("audit: %+v (problem %v); want OK with %d entries", rep, rep.Problem, want)
	}
}

// TestWriterProcesses: 8 processes, each appending 10,000 entries from
// 64 goroutines, get the indexes 0..79,999 without a gap or a duplicate,
// and the audit is clean.
func TestWriterProcesses(t *testing.T) {
	procs, each := 8, 10000
	if testing.Short() {
		procs, each = 4, 1000
	}
	url, key := newLedger(t)
	start := time.Now()
	var ws []*writerProc
	for p := range procs {
		ws = append(ws, startWriter(t, url, key, fmt.Sprintf("proc%d", p), each))
	}
	for _, w := range ws {
		if err := w.wait(); err != nil {
			t.Fatalf("writer: %v", err)
		}
	}
	elapsed := time.Since(start)
	acks := map[int64][]byte{}
	gather(t, acks, ws...)
	total := int64(procs * each)
	if int64(len(acks)) != total {
		t.Fatalf("%d appends acknowledged; want %d", len(acks), total)
	}
	for i := range total {
		if _, ok := acks[i]; !ok {
			t.Fatalf("index %d was not acknowledged (indexes must be 0..%d)", i, total-1)
		}
	}
	t.Logf("%d processes appended %d entries in %v (%.0f appends/s)", procs, total, elapsed.Round(time.Millisecond), float64(total)/elapsed.Seconds())
	s := openStore(t, url, pgstore.Options{ReadOnly: true})
	if n, err := s.Size(context.Background()); err != nil || n != total {
		t.Fatalf("Size = %d, %v; want %d", n, err, total)
	}
	checkAcked(t, s, acks)
	audit(t, url, total)
}

// TestKillWriters: writer processes killed (SIGKILL) at random moments
// while appending lose no acknowledged entry, and leave a log that
// audits clean. Each round starts two writers and kills each at a random
// moment after its first acknowledgement.
func TestKillWriters(t *testing.T) {
	rounds := 50
	if testing.Short() {
		rounds = 5
	}
	url, key := newLedger(t)
	acks := map[int64][]byte{}
	start := time.Now()
	for r := range rounds {
		var ws []*writerProc
		for k := range 2 {
			ws = append(ws, startWriter(t, url, key, fmt.Sprintf("round%d-%d", r, k), 0))
		}
		var wg sync.WaitGroup
		for _, w := range ws {
			wg.Add(1)
			go func() {
				defer wg.Done()
				select {
				case <-w.first:
					time.Sleep(rand.N(300 * time.Millisecond))
				case <-w.done:
				case <-time.After(60 * time.Second):
				}
				w.cmd.Process.Signal(syscall.SIGKILL)
			}()
		}
		wg.Wait()
		for _, w := range ws {
			err := w.wait()
			if ws, ok := w.cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
				t.Fatalf("round %d: the writer ended before it was killed (%v)", r, err)
			}
			if len(w.acks) == 0 {
				t.Fatalf("round %d: a writer acknowledged nothing: %s", r, w.stderr.Bytes())
			}
		}
		gather(t, acks, ws...)
	}
	t.Logf("%d rounds in %v, %d appends acknowledged", rounds, time.Since(start).Round(time.Millisecond), len(acks))
	s := openStore(t, url, pgstore.Options{ReadOnly: true})
	checkAcked(t, s, acks)
	n, err := s.Size(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	audit(t, url, n)
}
