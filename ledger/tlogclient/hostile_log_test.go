package tlogclient_test

import (
	"context"
	"crypto/rand"
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"testing"

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

// TestAuditHugeCheckpointSize (trial 16): `sealed ledger audit --url` against a
// log whose signed checkpoint claims 2^62 entries panics ("makeslice: cap
// out of range" in Client.Audit, which allocates the stored hashes of the
// claimed size before fetching a tile) and prints a Go stack trace. The
// audit should fail (the log does not serve that tree) with an error.
func TestAuditHugeCheckpointSize(t *testing.T) {
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

// TestSplitBundleStopsAtWidth (trial 16): SplitBundle reads a whole bundle
// before comparing its entry count with the width, keeping a slice for
// every entry: an answer of 64 MiB of zero bytes (Fetch's limit; 33
// million empty entries, where a bundle holds at most 256) made
// `sealed ledger audit --url` run 35 s and peak at 5.2 GB of memory
// before it said "entry bundle: 33554432 entries, want 256". The 257th
// entry already decides it.
func TestSplitBundleStopsAtWidth(t *testing.T) {
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
