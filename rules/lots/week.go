package lots

import (
	"github.com/sealedhq/sealed/rules/secret"
)

// FromJudgement returns the week's input actions from a judgement: the bid
// and Hand actions posted in week w (in the calendar's zone) that were
// revealed with a parsed declaration, in the judgement's order. Actions
// that failed, or are still pending or matured, are left out: only
// successful secret actions reach the conclusion. Judge at the week's
// revelation date (or later) so every reveal is in.
func FromJudgement(j *secret.Judgement, cal secret.Calendar, w secret.Week) (bids []BidAction, hands []HandAction) {
	for _, a := range j.Actions {
		if a.State != secret.Revealed || a.Declaration == nil || cal.WeekOf(a.Posted.At) != w {
			continue
		}
		switch a.Post.ActionType {
		case secret.ActionBid:
			bids = append(bids, BidAction{Player: a.Post.Player, Index: a.Post.Index, Posted: a.Posted.At, Bids: a.Declaration.Bids})
		case secret.ActionHand:
			hands = append(hands, HandAction{Player: a.Post.Player, Index: a.Post.Index, Posted: a.Posted.At, Cards: a.Declaration.Hand})
		}
	}
	return bids, hands
}
