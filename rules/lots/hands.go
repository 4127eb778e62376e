package lots

import (
	"fmt"
	"slices"
	"strings"

	"github.com/sealedhq/sealed/rules/secret"
)

// placeHands checks, places and destroys the week's Hands and gives their
// prizes (seed 004, subrules "Submitting a Hand" and "Prizes"), updating
// out's points and possessions.
func placeHands(in Input, players map[string]bool, ranker Ranker, out *Outcome) []HandResult {
	hands := slices.Clone(in.Hands)
	// Most recent first, so each player's first valid Hand is the one placed.
	slices.SortStableFunc(hands, func(a, b HandAction) int { return -byPost(a.Posted, a.Index, b.Posted, b.Index) })
	results := make([]HandResult, len(hands))
	var valid []int // indexes into results of the Hands to place
	placedPlayer := map[string]int{}
	for i, h := range hands {
		r := HandResult{Player: h.Player, Index: h.Index, Posted: h.Posted, Cards: slices.Clone(h.Cards)}
		if reason := checkHand(h, players, in.Possessions[h.Player]); reason != "" {
			r.Status = Failed
			r.Why = secret.Explanation{Rule: secret.RuleSubmittingHand, Text: reason}
		} else if j, ok := placedPlayer[h.Player]; ok {
			r.Status = Superseded
			r.Why = secret.Explanation{Rule: secret.RulePrizes, Text: fmt.Sprintf(
				"placement goes by the most recently submitted Hand: the Hand posted at ledger index %d", results[j].Index)}
		} else {
			placedPlayer[h.Player] = i
			valid = append(valid, i)
		}
		results[i] = r
	}
	// Best first; equal hands keep post order and share a place (1, 1, 3).
	slices.SortStableFunc(valid, func(a, b int) int { return -ranker.Compare(results[a].Cards, results[b].Cards) })
	for k, i := range valid {
		r := &results[i]
		r.Status = Placed
		r.Place = k + 1
		if k > 0 && ranker.Compare(r.Cards, results[valid[k-1]].Cards) == 0 {
			r.Place = results[valid[k-1]].Place
		}
		r.Strength = ranker.Name(r.Cards)
		if r.Place <= len(in.Prizes) {
			r.Prize = in.Prizes[r.Place-1]
		}
		r.Why = secret.Explanation{Rule: secret.RulePrizes, Text: fmt.Sprintf(
			"placed %d of %d by hand strength (%s); its cards are destroyed and it gains %d points, before lots are given out",
			r.Place, len(valid), r.Strength, r.Prize)}
		out.Points[r.Player] += r.Prize
		out.Possessions[r.Player] = slices.DeleteFunc(out.Possessions[r.Player], func(c secret.Card) bool {
			return slices.Contains(r.Cards, c)
		})
	}
	return results
}

// checkHand returns why a Hand fails, or "": its player must still be a
// player and it must specify five distinct cards in their possession.
func checkHand(h HandAction, players map[string]bool, possession []secret.Card) string {
	if !players[h.Player] {
		return fmt.Sprintf("%s is not a player at the revelation date", h.Player)
	}
	if len(h.Cards) != 5 {
		return fmt.Sprintf("a Hand specifies five cards, this one %d", len(h.Cards))
	}
	for i, c := range h.Cards {
		if slices.Contains(h.Cards[:i], c) {
			return fmt.Sprintf("card %s is repeated: a Hand specifies five distinct cards", c)
		}
	}
	var missing []string
	for _, c := range h.Cards {
		if !slices.Contains(possession, c) {
			missing = append(missing, c.String())
		}
	}
	if len(missing) > 0 {
		return fmt.Sprintf("%s not in %s's possession", strings.Join(missing, ", "), h.Player)
	}
	return ""
}
