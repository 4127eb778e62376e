package tlogclient_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/sealedhq/sealed/internal/tlogtest"
	"github.com/sealedhq/sealed/ledger"
	"github.com/sealedhq/sealed/ledger/tiles"
	"github.com/sealedhq/sealed/ledger/tlogclient"
	"golang.org/x/mod/sumdb/note"
)

// hugeCheckpoint serves h, but answers /checkpoint with note.
type hugeCheckpoint struct {
	h    http.Handler
	note []byte
}

func (s *hugeCheckpoint) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == "/checkpoint" {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Write(s.note)
		return
	}
	s.h.ServeHTTP(w, r)
}

// TestHugeCheckpointSize (trial 18): a log whose operator signs a
// checkpoint of a tree size its tiles do not hold (2^62, 2^62+1, 2^63-1:
// legal sizes) must fail the client's checks (a tile it cannot serve),
// not crash or hang it. Audit preallocates 32 bytes per stored hash of the
// claimed size (makeslice panics: `sealed ledger audit --url` dies with a
// stack trace and exit 2; at 2^40 it runs out of memory), and Watch and
// ProveInclusion spin forever in tlog.ProveTree/ProveRecord above 2^62
// (maxpow2): a cron `watch ... || mail` then never raises its alarm.
func TestHugeCheckpointSize(t *testing.T) {
	log := tlogtest.NewLog(t, "example.com/huge")
	first := log.Fill(t, 5, "h")
	signer := log.Signer(t)
	for _, size := range []int64{1 << 62, 1<<62 + 1} {
		msg, err := note.Sign(&note.Note{Text: ledger.FormatCheckpoint("example.com/huge", size, first.Root)}, signer)
		if err != nil {
			t.Fatal(err)
		}
		srv := httptest.NewServer(&hugeCheckpoint{h: &tiles.Handler{Store: log.Store}, note: msg})
		defer srv.Close()
		c := &tlogclient.Client{URL: srv.URL, VerifierKey: log.VerifierKey}
		ctx := context.Background()
		for _, tc := range []struct {
			name string
			f    func() error
		}{
			{"Audit", func() error { _, err := c.Audit(ctx, nil); return err }},
			{"Watch", func() error { _, err := c.Watch(ctx, []byte(first.Note)); return err }},
			{"ProveInclusion", func() error { _, err := c.ProveInclusion(ctx, 3); return err }},
		} {
			done := make(chan error, 1)
			go func() {
				defer func() {
					if r := recover(); r != nil {
						done <- fmt.Errorf("panic: %v", r)
					}
				}()
				done <- tc.f()
			}()
			select {
			case err := <-done:
				if err == nil {
					t.Errorf("size %d: %s accepted the checkpoint", size, tc.name)
				} else if strings.HasPrefix(err.Error(), "panic: ") {
					t.Errorf("size %d: %s: %v; want an error", size, tc.name, err)
				}
			case <-time.After(3 * time.Second):
				t.Errorf("size %d: %s still running after 3s; want an error (the log serves no tile of that tree)", size, tc.name)
			}
		}
	}
}
