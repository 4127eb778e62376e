package web

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/sealedhq/sealed/ledger"
)

// TestSearchSeedCommitmentAndPlayer: a seed commitment (the hash of a
// seed-commit entry) is found and goes to its entry; a player's name goes
// to the entries naming the player, which lists exactly them; an unknown
// name is a 404 that names it, escaped.
func TestSearchSeedCommitmentAndPlayer(t *testing.T) {
	f := newFixture(t)
	// printf %s 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f | sha256sum
	const seedCommitment = "6c86c6aac5fb24bcf5d9939cb7d7d5645ce39418f449e03b262dd4fa14b4b92b"
	f.add(t, "seed-commit", "2026-03-08T12:00:00Z", &ledger.Body{Kind: ledger.KindSeedCommit, Game: "auction", MatchID: "m9",
		RulesVersion: "auction-0.2", Config: []byte(`{"players":3}`), Commitment: seedCommitment})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := f.w.WaitCheckpoint(ctx, 10); err != nil {
		t.Fatal(err)
	}
	s := f.server(t, nil)
	for _, q := range []string{seedCommitment, "sha256:" + strings.ToUpper(seedCommitment)} {
		w := do(s, "GET", "/search?q="+url.QueryEscape(q), "")
		if want := fmt.Sprintf("/entry/%d", f.idx["seed-commit"]); w.Code != http.StatusSeeOther || w.Header().Get("Location") != want {
			t.Errorf("search %q: %d to %q, want 303 to %q", q, w.Code, w.Header().Get("Location"), want)
		}
	}
	// alice's entries, by the fixture's table: the commit at 0, the reveal at 3.
	w := do(s, "GET", "/ledger?player=alice", "")
	if w.Code != http.StatusOK {
		t.Fatalf("/ledger?player=alice: %d", w.Code)
	}
	body := w.Body.String()
	for _, want := range []string{`href="/entry/0"`, `href="/entry/3"`, "2 entries"} {
		if !strings.Contains(body, want) {
			t.Errorf("/ledger?player=alice lacks %q", want)
		}
	}
	for _, absent := range []string{`href="/entry/1"`, `href="/entry/4"`, `href="/entry/6"`} {
		if strings.Contains(body, absent) {
			t.Errorf("/ledger?player=alice has %q, an entry of another player", absent)
		}
	}
	w = do(s, "GET", "/search?q="+url.QueryEscape("<b>zed</b>"), "")
	if w.Code != http.StatusNotFound || !strings.Contains(w.Body.String(), "&lt;b&gt;zed&lt;/b&gt;") || strings.Contains(w.Body.String(), "<b>zed") {
		t.Errorf("search of an unknown name: %d %s", w.Code, w.Body.String())
	}
	if w := do(s, "GET", "/ledger?player=zed", ""); w.Code != http.StatusNotFound {
		t.Errorf("/ledger?player=zed: %d, want 404", w.Code)
	}
}
