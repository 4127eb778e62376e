package tlogclient_test

import (
	"context"
	"crypto/rand"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"runtime"
	"testing"
	"time"

	"github.com/sealedhq/sealed/ledger/tlogclient"
	"golang.org/x/mod/sumdb/note"
)

// hostileLog serves a checkpoint of the given size, signed with a fresh
// key, and answers every tile with 404: a log (or whoever holds its key)
// that claims a tree it does not serve.
func hostileLog(t *testing.T, size int64) (url, vkey string) {
	t.Helper()
	skey, vkey, err := note.GenerateKey(rand.Reader, "hostile.example/log")
	if err != nil {
		t.Fatal(err)
	}
	signer, err := note.NewSigner(skey)
	if err != nil {
		t.Fatal(err)
	}
	msg, err := note.Sign(&note.Note{Text: fmt.Sprintf("hostile.example/log\n%d\nAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=\n", size)}, signer)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/checkpoint" {
			w.Write(msg)
			return
		}
		http.NotFound(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL, vkey
}

// TestTrial16AuditHugeCheckpointSize: `sealed ledger audit --url` against a
// log whose signed checkpoint claims 2^62 entries panics ("makeslice: cap
// out of range" in Client.Audit, which allocates the stored hashes of the
// claimed size before fetching a tile) and prints a Go stack trace. The
// audit should fail (the log does not serve that tree) with an error.
func TestTrial16AuditHugeCheckpointSize(t *testing.T) {
	for _, size := range []int64{1 << 62, 1<<63 - 1} {
		t.Run(fmt.Sprint(size), func(t *testing.T) {
			url, vkey := hostileLog(t, size)
			c := &tlogclient.Client{URL: url, VerifierKey: vkey}
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("Audit of a checkpoint of size %d panicked: %v", size, r)
				}
			}()
			if _, err := c.Audit(context.Background(), nil); err == nil {
				t.Errorf("Audit of a checkpoint of size %d whose tiles are all 404 passed", size)
			}
		})
	}
}

// TestTrial16SplitBundleStopsAtWidth: SplitBundle reads a whole bundle
// before comparing its entry count with the width, keeping a slice for
// every entry: an answer of 64 MiB of zero bytes (Fetch's limit; 33
// million empty entries, where a bundle holds at most 256) made
// `sealed ledger audit --url` run 35 s and peak at 5.2 GB of memory
// before it said "entry bundle: 33554432 entries, want 256". The 257th
// entry already decides it.
func TestTrial16SplitBundleStopsAtWidth(t *testing.T) {
	b := make([]byte, 1<<20) // 512 Ki empty entries
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, err := tlogclient.SplitBundle(b, 256)
	runtime.ReadMemStats(&after)
	if err == nil {
		t.Fatal("a bundle of 512 Ki entries passed as one of 256")
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 1<<20 {
		t.Errorf("SplitBundle of a 1 MiB answer for a bundle of width 256 allocated %d bytes before refusing it (%v)", alloc, err)
	}
}

// TestTrial16ProveHugeCheckpointReturns: `sealed ledger prove --url URL
// --index 5` against a log whose signed checkpoint claims 2^62 entries
// (tiles all 404) never returns: tlog.ProveRecord loops in maxpow2 at 100%
// CPU before asking for a tile. `sealed ledger watch` does the same
// (tlog.ProveTree) when the new checkpoint claims that size: a cron job
// that never ends and never alerts. Run in a child process, which is
// killed after 10 s.
func TestTrial16ProveHugeCheckpointReturns(t *testing.T) {
	if os.Getenv("TRIAL16_CHILD") == "" {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestTrial16ProveHugeCheckpointReturns$", "-test.count=1")
		cmd.Env = append(os.Environ(), "TRIAL16_CHILD=1")
		out, err := cmd.CombinedOutput()
		if ctx.Err() != nil {
			t.Fatal("Client.ProveInclusion against a checkpoint of size 2^62 did not return within 10 s (killed)")
		}
		if err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		return
	}
	url, vkey := hostileLog(t, 1<<62)
	c := &tlogclient.Client{URL: url, VerifierKey: vkey}
	if _, err := c.ProveInclusion(context.Background(), 5); err == nil {
		t.Error("ProveInclusion from a log whose tiles are all 404 passed")
	}
}
