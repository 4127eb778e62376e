package lots

import (
	"cmp"
	"fmt"
	"slices"
	"time"

	"github.com/sealedhq/sealed/rules/secret"
)

// concludeLots decides every bid and every lot (seed 004, subrule
// "Bidding"; readings S6, S7, S8), updating out's points and lots won. It
// runs after placeHands, so points include the Hands' prizes.
func concludeLots(in Input, players map[string]bool, out *Outcome) ([]BidResult, []LotResult) {
	actions := slices.Clone(in.Bids)
	slices.SortStableFunc(actions, func(a, b BidAction) int { return byPost(a.Posted, a.Index, b.Posted, b.Index) })
	active := map[string]bool{}
	for _, l := range in.Lots {
		active[l] = true
	}

	var results []BidResult
	type current struct {
		result int // index in results of the bid that stands
		amount amount
		since  time.Time
		index  int64
	}
	standing := map[string]map[string]*current{} // player -> lot -> bid
	fail := func(r *BidResult, reading, rule, text string) {
		r.Status, r.Why = Failed, secret.Explanation{Rule: rule, Reading: reading, Text: text}
	}
	for _, a := range actions {
		perLot := map[string]int{}
		for _, b := range a.Bids {
			perLot[b.Lot]++
		}
		for _, b := range a.Bids {
			results = append(results, BidResult{Player: a.Player, Lot: b.Lot, Amount: b.Amount, Index: a.Index, Posted: a.Posted})
			r := &results[len(results)-1]
			amount, whole := wholeAmount(b.Amount)
			switch {
			case !whole:
				fail(r, secret.ReadingBidFailures, secret.RuleBidding, fmt.Sprintf("bid %q is not a whole number greater than zero", b.Amount))
			case perLot[b.Lot] > 1:
				fail(r, secret.ReadingBidFailures, secret.RuleBidding, fmt.Sprintf("the action bids %d times on lot %s: all its bids on that lot fail", perLot[b.Lot], b.Lot))
			case in.Lots != nil && !active[b.Lot]:
				fail(r, "", secret.RuleBidding, fmt.Sprintf("lot %s is not an active lot", b.Lot))
			case !players[a.Player]:
				r.Status, r.Why = Withdrawn, secret.Explanation{Rule: secret.RuleBidding, Text: fmt.Sprintf(
					"%s ceased to be a player: their bids are withdrawn and cease to be bids", a.Player)}
			default:
				// A later action's bid on the same lot replaces the earlier;
				// only a start or an increase moves the bid's time (S7).
				if standing[a.Player] == nil {
					standing[a.Player] = map[string]*current{}
				}
				c := standing[a.Player][b.Lot]
				if c == nil {
					standing[a.Player][b.Lot] = &current{result: len(results) - 1, amount: amount, since: a.Posted, index: a.Index}
					break
				}
				prev := &results[c.result]
				prev.Status, prev.Why = Replaced, secret.Explanation{Rule: secret.RuleBidding, Reading: secret.ReadingPriority, Text: fmt.Sprintf(
					"replaced by the bid of %s posted at ledger index %d", b.Amount, a.Index)}
				if amount.greater(c.amount) {
					c.since, c.index = a.Posted, a.Index
				}
				c.result, c.amount = len(results)-1, amount
			}
		}
	}

	// S6: a player whose otherwise successful bids sum past their points
	// loses all of them. A bid past 2^63-1 is past any player's points.
	for player, bids := range standing {
		points, sum, over, huge := out.Points[player], int64(0), false, -1
		for _, c := range bids {
			if c.amount.big != nil {
				if over = true; huge < 0 || c.result < huge {
					huge = c.result // the first in order of post, for a stable text
				}
				continue
			}
			if c.amount.n > points-sum {
				over = true
			}
			sum += min(c.amount.n, points-sum) // saturates at points; no overflow
		}
		if !over {
			continue
		}
		text := fmt.Sprintf("%s's otherwise successful bids add up to more than their %d points: all their bids fail", player, points)
		if huge >= 0 {
			text += fmt.Sprintf(" (a bid of %s is more than any player's points)", results[huge].Amount)
		}
		for _, c := range bids {
			fail(&results[c.result], secret.ReadingBidFailures, secret.RuleBidding, text)
		}
		delete(standing, player)
	}

	lots := in.Lots
	if lots == nil {
		seen := map[string]bool{}
		for _, a := range actions {
			for _, b := range a.Bids {
				if !seen[b.Lot] {
					seen[b.Lot] = true
					lots = append(lots, b.Lot)
				}
			}
		}
		slices.SortFunc(lots, func(a, b string) int {
			return cmp.Or(cmp.Compare(len(a), len(b)), cmp.Compare(a, b))
		})
	}
	var lotResults []LotResult
	for _, lot := range lots {
		lr := LotResult{Lot: lot}
		var rs []int
		for player, bids := range standing {
			if c := bids[lot]; c != nil {
				lr.Priority = append(lr.Priority, Standing{Player: player, Amount: c.amount.n, Since: c.since, Index: c.index})
				rs = append(rs, c.result)
			}
		}
		slices.SortFunc(lr.Priority, func(a, b Standing) int {
			return cmp.Or(-cmp.Compare(a.Amount, b.Amount), byPost(a.Since, a.Index, b.Since, b.Index))
		})
		if len(lr.Priority) == 0 {
			lr.Why = secret.Explanation{Rule: secret.RuleBidding, Text: "no bid stands on the lot: it is not transferred"}
			lotResults = append(lotResults, lr)
			continue
		}
		win := lr.Priority[0]
		lr.Winner, lr.Price = win.Player, win.Amount
		priceText := fmt.Sprintf("first-price: %s loses the %d points bid", win.Player, win.Amount)
		if in.Pricing == SecondPrice {
			lr.Price = 0
			if len(lr.Priority) > 1 {
				lr.Price = lr.Priority[1].Amount
			}
			priceText = fmt.Sprintf("second-price: %s loses %d points, the bid next in priority (0 when bidding alone)", win.Player, lr.Price)
		}
		lr.Why = secret.Explanation{Rule: secret.RuleBidding, Reading: secret.ReadingPricing, Text: fmt.Sprintf(
			"transferred to %s, first of %d standing bids in priority (higher bid, then earlier post that started or last raised the bid, then lower ledger index); %s",
			win.Player, len(lr.Priority), priceText)}
		out.Points[win.Player] -= lr.Price
		out.LotsWon[win.Player] = append(out.LotsWon[win.Player], lot)
		for _, i := range rs {
			r := &results[i]
			if r.Player == win.Player {
				r.Status = Won
				r.Why = secret.Explanation{Rule: secret.RuleBidding, Reading: secret.ReadingPriority, Text: fmt.Sprintf("has priority on lot %s and takes it for %d points", lot, lr.Price)}
				continue
			}
			pos := slices.IndexFunc(lr.Priority, func(s Standing) bool { return s.Player == r.Player })
			r.Status = Outbid
			r.Why = secret.Explanation{Rule: secret.RuleBidding, Reading: secret.ReadingPriority, Text: fmt.Sprintf(
				"stands %d of %d in priority on lot %s, behind %s", pos+1, len(lr.Priority), lot, win.Player)}
		}
		lotResults = append(lotResults, lr)
	}
	return results, lotResults
}
