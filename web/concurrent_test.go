package web

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestConcurrentReadsDuringAppends: readers look commitments, players,
// entries, replays and the checkpoint up while POSTs append new commits,
// so that the judgement is invalidated, re-checked and recomputed (and
// its players judged in the background) under the readers' feet. Every
// answer is the fixture's (newFixture), and every appended commitment is
// found with its player once a checkpoint covers it. Under go test -race
// it checks that the site's caches (judgeCache, searchIndex, the view and
// scratch pools, the shared header values) are safe for concurrent use:
// no other test reads while the ledger grows (trial 10a: without it, a
// searchIndex.merge that took no lock passed the whole package).
func TestConcurrentReadsDuringAppends(t *testing.T) {
	f := newFixture(t)
	s := f.server(t, func(o *Options) { o.WriteRate, o.WriteBurst = 1e6, 1e6 })
	bid := readVector(t, "bid")
	reads := []struct {
		target   string
		status   int
		contains string
	}{
		{"/c/" + bid.Commitment, 200, ">revealed<"},
		{"/api/v1/commitments/" + bid.Commitment, 200, `"player":"alice"`},
		{"/search?q=alice", 303, "/ledger?player=alice"},
		{"/ledger?player=mallory", 200, "mallory posted a bid commitment"},
		{"/entry/3", 200, "alice"},
		{"/replay/" + f.digest["auction"], 200, "Clean:"},
		{"/replay/7", 200, "Negotiation Games"},
		{"/api/v1/replays/" + f.digest["tampered"] + "/report", 200, `"price"`},
		{"/checkpoint", 200, "test.sealed.invalid/web\n"},
		{"/", 200, "Latest checkpoint"},
	}
	const readers, rounds, appends = 4, 3, 12
	appended := make(chan struct{}) // closed when the appends are done
	var wg sync.WaitGroup
	for r := range readers {
		wg.Go(func() {
			// At least rounds rounds, and on until the appends are done.
			for round := 0; ; round++ {
				if round >= rounds {
					select {
					case <-appended:
						return
					default:
					}
				}
				for i := range reads {
					rd := reads[(i+r)%len(reads)]
					w := do(s, "GET", rd.target, "")
					if w.Code != rd.status || !strings.Contains(w.Body.String()+w.Header().Get("Location"), rd.contains) {
						t.Errorf("reader %d round %d: GET %s: %d, want %d with %q; body:\n%.300s", r, round, rd.target, w.Code, rd.status, rd.contains, w.Body.String())
					}
				}
			}
		})
	}
	wg.Go(func() {
		defer close(appended)
		for i := range appends {
			f.clk.set(f.now.Add(-time.Duration(appends-i) * time.Minute))
			player := fmt.Sprintf("racer%02d", i)
			sum := sha256.Sum256([]byte(player))
			c := hex.EncodeToString(sum[:])
			body := `{"kind":"commit","player":"` + player + `","action_type":"bid","channel":"#auctions","commitment":"` + c + `"}`
			w := do(s, "POST", "/api/v1/entries", body, "Authorization", "Bearer "+testToken, "Content-Type", "application/json")
			if w.Code != 201 {
				t.Errorf("append %s: %d %s", player, w.Code, w.Body.String())
				continue
			}
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			_, err := f.w.WaitCheckpoint(ctx, int64(10+i))
			cancel()
			if err != nil {
				t.Errorf("waiting for the checkpoint of %s: %v", player, err)
				continue
			}
			if w := do(s, "GET", "/api/v1/commitments/"+c, ""); w.Code != 200 || !strings.Contains(w.Body.String(), `"player":"`+player+`"`) {
				t.Errorf("GET the commitment of %s: %d %s", player, w.Code, w.Body.String())
			}
		}
	})
	wg.Wait()
}
