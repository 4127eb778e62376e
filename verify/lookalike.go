package verify

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/sealedhq/sealed/ledger"
	"github.com/sealedhq/sealed/rules/secret"
)

// LookalikePlayerError is returned by ConcludeLots for a name in its
// Points, Players or Possessions that is no player of the ledger but
// renders like one: it has the Unicode confusable skeleton
// (ledger.Skeleton, UTS #39) of Player, first named by commit entry
// Index (another normalisation form, "Zoe\u0308" for "Zo\u00eb"; a
// Cyrillic letter for a Latin one). The ledger refuses a second player
// of one skeleton (docs/ledger.md "Player names"), so the name can only
// mean Player; concluded as given, Player would count as no longer a
// player and their bids would be withdrawn.
type LookalikePlayerError struct {
	Field  string // "points", "players" or "possessions"
	Name   string // the name given
	Player string // the ledger's player it looks like
	Index  int64  // the first commit entry naming Player
}

func (e *LookalikePlayerError) Error() string { return e.Field + ": " + e.Detail() }

// Detail is the error without its field.
func (e *LookalikePlayerError) Detail() string {
	return fmt.Sprintf("%q (%s) is no player of the ledger, but looks like the player %q (%s) first named by commit entry %d: both have the Unicode confusable skeleton %q (UTS #39); concluded with it, %q would count as no longer a player and their bids be withdrawn",
		e.Name, strconv.QuoteToASCII(e.Name), e.Player, strconv.QuoteToASCII(e.Player), e.Index, ledger.Skeleton(e.Player), e.Player)
}

// checkLookalikes returns a *LookalikePlayerError for the first name (in
// the order points, players, possessions; by name within each) that is
// not a player of h but has the confusable skeleton of one.
func checkLookalikes(h secret.History, o LotsOptions) error {
	players := map[string]bool{}
	bySkeleton := map[string]secret.Post{}
	for _, p := range h.Posts {
		if players[p.Player] {
			continue
		}
		players[p.Player] = true
		sk := ledger.Skeleton(p.Player)
		if q, ok := bySkeleton[sk]; !ok || p.Index < q.Index {
			bySkeleton[sk] = p
		}
	}
	check := func(field string, names []string) error {
		slices.Sort(names)
		for _, n := range names {
			if players[n] {
				continue
			}
			if p, ok := bySkeleton[ledger.Skeleton(n)]; ok {
				return &LookalikePlayerError{Field: field, Name: n, Player: p.Player, Index: p.Index}
			}
		}
		return nil
	}
	keys := func(m map[string]int64) []string {
		out := make([]string, 0, len(m))
		for k := range m {
			out = append(out, k)
		}
		return out
	}
	if err := check("points", keys(o.Points)); err != nil {
		return err
	}
	if err := check("players", slices.Clone(o.Players)); err != nil {
		return err
	}
	var held []string
	for k := range o.Possessions {
		held = append(held, k)
	}
	return check("possessions", held)
}
