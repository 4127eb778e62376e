package tlogtest

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// Witness is a running litewitness.
type Witness struct {
	URL         string // http://127.0.0.1:PORT
	VerifierKey string // as litewitness prints it (cosignature/v1 vkey)
	DB          string // its SQLite database, for witnessctl
	stderr      *syncBuffer
}

// syncBuffer is a bytes.Buffer safe for one writer and readers.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// Log returns what litewitness has written to stderr so far.
func (w *Witness) Log() string { return w.stderr.String() }

// AddLog runs witnessctl add-log and add-key for the log origin and its
// verifier key.
func (w *Witness) AddLog(t testing.TB, origin, vkey string) {
	t.Helper()
	ctl := Tool(t, "witnessctl")
	for _, args := range [][]string{{"add-log", "-db", w.DB, "-origin", origin}, {"add-key", "-db", w.DB, "-origin", origin, "-key", vkey}} {
		if out, err := exec.Command(ctl, args...).CombinedOutput(); err != nil {
			t.Fatalf("witnessctl %v: %v\n%s", args, err, out)
		}
	}
}

// StartWitness starts a dedicated ssh-agent holding a new Ed25519 key and
// a litewitness named name using it, listening on 127.0.0.1 only; both
// are stopped when the test ends.
func StartWitness(t testing.TB, name string) *Witness {
	t.Helper()
	lw := Tool(t, "litewitness")
	Tool(t, "witnessctl")
	agent, keygen, add := Tool(t, "ssh-agent"), Tool(t, "ssh-keygen"), Tool(t, "ssh-add")
	// Unix socket paths are short: use a short temp dir.
	dir, err := os.MkdirTemp("", "lw")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	key := filepath.Join(dir, "k")
	if out, err := exec.Command(keygen, "-q", "-t", "ed25519", "-N", "", "-f", key).CombinedOutput(); err != nil {
		t.Fatalf("ssh-keygen: %v\n%s", err, out)
	}
	sock := filepath.Join(dir, "s")
	ag := exec.Command(agent, "-D", "-a", sock)
	if err := ag.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ag.Process.Kill(); ag.Wait() })
	waitFor(t, func() bool { _, err := os.Stat(sock); return err == nil })
	addCmd := exec.Command(add, key)
	addCmd.Env = append(os.Environ(), "SSH_AUTH_SOCK="+sock)
	if out, err := addCmd.CombinedOutput(); err != nil {
		t.Fatalf("ssh-add: %v\n%s", err, out)
	}
	fp, err := exec.Command(keygen, "-l", "-f", key+".pub").Output()
	if err != nil {
		t.Fatal(err)
	}
	fields := strings.Fields(string(fp))
	if len(fields) < 2 {
		t.Fatalf("ssh-keygen -l: %q", fp)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	w := &Witness{URL: "http://" + addr, DB: filepath.Join(dir, "w.db"), stderr: &syncBuffer{}}
	// witnessctl creates the database; litewitness opens it.
	cmd := exec.Command(lw, "-db", w.DB, "-name", name, "-ssh-agent", sock, "-key", fields[1], "-listen", addr)
	cmd.Stderr = w.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Signal(syscall.SIGINT); cmd.Wait() })
	re := regexp.MustCompile(`vkey=(\S+)`)
	waitFor(t, func() bool {
		c, err := net.Dial("tcp", addr)
		if err == nil {
			c.Close()
		}
		return err == nil && re.MatchString(w.stderr.String())
	})
	w.VerifierKey = re.FindStringSubmatch(w.stderr.String())[1]
	return w
}

func waitFor(t testing.TB, ok func() bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for !ok() {
		select {
		case <-ctx.Done():
			t.Fatal(fmt.Errorf("timed out waiting for a test program to start"))
		case <-time.After(20 * time.Millisecond):
		}
	}
}
