package secret

import (
	"strings"
	"testing"
)

// TestArticles: the texts that name an action type take "an" before a
// vowel ("an offer action"), not "a offer action" (newcomer trial finding
// 17, articles).
func TestArticles(t *testing.T) {
	g := Game{}
	at := mustTime(t, "2026-03-24T10:00:00Z") // Tuesday, Auction Phase
	if r, text := g.NotTaken("offer", "#auctions", at); r != WrongChannel || !strings.HasPrefix(text, "an offer action must be posted in #game-actions") {
		t.Errorf("NotTaken(offer) = %q, %q", r, text)
	}
	if _, text := g.NotTaken(ActionBid, "#game-actions", at); !strings.HasPrefix(text, "a bid action must be posted in #auctions") {
		t.Errorf("NotTaken(bid) = %q", text)
	}
	g.Settings = map[string]Settings{"item": {Phase: Bartering}}
	if r, text := g.NotTaken("item", DefaultChannel, at); r != WrongPhase || !strings.HasPrefix(text, "an item action may be taken only in the bartering phase") {
		t.Errorf("NotTaken(item) = %q, %q", r, text)
	}
}
