package verify

import (
	"errors"
	"strings"
	"testing"

	"github.com/sealedhq/sealed/rules/secret"
)

// TestConcludeRefusesLookalikePlayer: a --points (or --possessions) key
// that is no player of the ledger but renders like one (here "\u0430lice",
// with U+0430 CYRILLIC SMALL LETTER A, for the bidder "alice"; "Zoe\u0308",
// the NFD form of the bidder "Zo\u00eb") is refused naming both, instead of
// concluding with the real player counted as no longer a player and their
// bids withdrawn (trial 10c: alice's revealed bid of 15 on lot 1 was
// "withdrawn", and "\u0430lice 50 -> 50" listed in the points, silently).
// A name like no player's is still a player who holds points and bid
// nothing.
func TestConcludeRefusesLookalikePlayer(t *testing.T) {
	tl := newTestLedger(t)
	a := tl.post("2026-03-23T09:00:00Z", "alice", "bid", "alice")
	tl.reveal("2026-03-27T09:00:00Z", "alice", a, "alice")
	tl.post("2026-03-23T10:00:00Z", "Zo\u00eb", "bid", "dan")
	h, err := LoadHistory(tl.l)
	if err != nil {
		t.Fatal(err)
	}
	base := LotsOptions{Week: secret.Week{Year: 2026, Number: 13}, Now: instant(t, "2026-03-29T00:00:00Z")}
	for _, c := range []struct {
		o                   LotsOptions
		field, name, player string
	}{
		{LotsOptions{Points: map[string]int64{"\u0430lice": 50, "Zo\u00eb": 5}}, "points", "\u0430lice", "alice"},
		{LotsOptions{Points: map[string]int64{"alice": 50, "Zoe\u0308": 5}}, "points", "Zoe\u0308", "Zo\u00eb"},
		{LotsOptions{Points: map[string]int64{"alice": 50, "Zo\u00eb": 5}, Possessions: map[string][]secret.Card{"\u0430lice": nil}}, "possessions", "\u0430lice", "alice"},
	} {
		o := base
		o.Points, o.Possessions = c.o.Points, c.o.Possessions
		_, err := ConcludeLots(h, o)
		var le *LookalikePlayerError
		if !errors.As(err, &le) {
			t.Errorf("%s %q: err %v, want a *LookalikePlayerError", c.field, c.name, err)
			continue
		}
		if le.Field != c.field || le.Name != c.name || le.Player != c.player {
			t.Errorf("%s %q: got %+v, want field %s, player %q", c.field, c.name, le, c.field, c.player)
		}
		if !strings.Contains(err.Error(), "looks like the player") {
			t.Errorf("%s %q: %v", c.field, c.name, err)
		}
	}
	o := base
	o.Points = map[string]int64{"alice": 50, "Zo\u00eb": 5, "bob": 7}
	got, err := ConcludeLots(h, o)
	if err != nil {
		t.Fatal(err)
	}
	// alice bid 15 on lot 1 and 5 on lot 2 (testdata/actions/alice).
	if p := got.Outcome.Points["alice"]; p != 30 {
		t.Errorf("alice's points after = %d, want 50 - 15 - 5 = 30", p)
	}
}
