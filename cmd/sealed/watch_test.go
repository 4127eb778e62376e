package main

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sealedhq/sealed/internal/tlogtest"
	"github.com/sealedhq/sealed/ledger/tiles"
)

type swapHandler struct {
	mu sync.Mutex
	h  http.Handler
}

func (s *swapHandler) set(h http.Handler) { s.mu.Lock(); s.h = h; s.mu.Unlock() }
func (s *swapHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	h := s.h
	s.mu.Unlock()
	h.ServeHTTP(w, r)
}

// TestWatchCLI: `ledger watch` exits 0 on the first run and on a grown
// log, 1 on the log cut and re-signed with the same key (a rollback),
// printing both checkpoints, and keeps the state file as it was.
func TestWatchCLI(t *testing.T) {
	log := tlogtest.NewLog(t, "example.com/watch")
	log.Fill(t, 20, "a")
	h := &swapHandler{}
	h.set(&tiles.Handler{Store: log.Store})
	srv := httptest.NewServer(h)
	defer srv.Close()
	state := filepath.Join(t.TempDir(), "state")
	watch := func() (int, string) {
		code, out, errOut := sealed("ledger", "watch", "--url", srv.URL, "--vkey", log.VerifierKey, "--state", state)
		return code, out + errOut
	}
	if code, out := watch(); code != 0 || !strings.Contains(out, "first checkpoint seen, size 20") {
		t.Fatalf("first run: %d %s", code, out)
	}
	log.Fill(t, 40, "a")
	if code, out := watch(); code != 0 || !strings.Contains(out, "size 40 extends") {
		t.Fatalf("grown log: %d %s", code, out)
	}
	saved, _ := os.ReadFile(state)
	cut := tlogtest.SameKey(t, log)
	cut.Fill(t, 30, "a")
	h.set(&tiles.Handler{Store: cut.Store})
	code, out := watch()
	served, _, _ := tiles.Checkpoint(context.Background(), cut.Store)
	if code != 1 || !strings.Contains(out, "rollback") || !strings.Contains(out, string(saved)) || !strings.Contains(out, string(served)) {
		t.Errorf("rollback: %d %s", code, out)
	}
	if now, _ := os.ReadFile(state); string(now) != string(saved) {
		t.Error("the state file changed after a failed watch")
	}
	// A state file that holds no checkpoint of this log (garbage, or
	// another log's) is bad input naming --state (trial 16), not the
	// log's failure with a hint about the URL; it is left as it was.
	other := tlogtest.NewLog(t, "example.com/other")
	other.Fill(t, 3, "o")
	otherCP, _, _ := tiles.Checkpoint(context.Background(), other.Store)
	for _, bad := range [][]byte{[]byte("not a checkpoint\n"), otherCP} {
		os.WriteFile(state, bad, 0o644)
		code, out := watch()
		if code != 2 || !strings.Contains(out, "--state "+state+" does not hold a checkpoint of this log") || !strings.Contains(out, "hint: give --state") {
			t.Errorf("a state file holding %.20q: %d %s", bad, code, out)
		}
		if now, _ := os.ReadFile(state); string(now) != string(bad) {
			t.Error("a state file that does not open was rewritten")
		}
	}
}

// TestServeWitnesses: `sealed serve --witnesses FILE` submits the log's
// checkpoint to a real litewitness and serves it cosigned at /checkpoint.
func TestServeWitnesses(t *testing.T) {
	w := tlogtest.StartWitness(t, "example.com/sw")
	dir := t.TempDir()
	db, vkey := newFileLedger(t, dir, "example.com/serve", 3)
	w.AddLog(t, "example.com/serve", vkey)
	pol := filepath.Join(dir, "witnesses")
	os.WriteFile(pol, []byte("witness "+w.VerifierKey+" "+w.URL+"\n"), 0o644)
	a := &app{in: strings.NewReader(""), out: io.Discard, errOut: io.Discard}
	err := serveUntil(t, func(ctx context.Context, ready func(string)) error {
		return runServe(ctx, a, &serveOptions{DB: db, Addr: "127.0.0.1:0", Zone: "UTC", Witnesses: pol, ready: ready})
	}, func(u string) {
		deadline := time.Now().Add(20 * time.Second)
		for {
			_, body := get(t, u+"checkpoint")
			if strings.Contains(body, "\n— example.com/sw ") {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("no cosignature served after 20 s:\n%s\nlitewitness: %s", body, w.Log())
			}
			time.Sleep(100 * time.Millisecond)
		}
		if code, out, errOut := sealed("ledger", "audit", "--url", u, "--vkey", vkey, "--witness", w.VerifierKey); code != 0 || !strings.Contains(out, "cosigned by example.com/sw") {
			t.Errorf("audit --url with the witness: %d %s %s", code, out, errOut)
		}
		// The in-process client's pool may hold a connection it dialed but
		// never used; the server's Shutdown waits 5 s for such a one.
		http.DefaultTransport.(*http.Transport).CloseIdleConnections()
	})
	if err != nil {
		t.Fatal(err)
	}
}
