package lots

import (
	"math"
	"strings"
	"testing"

	"github.com/sealedhq/sealed/rules/secret"
)

// TestBidsBeyondInt64ArePastAnyPoints: 99999999999999999999999999999 and
// 9223372036854775808 (2^63, one more than the largest int64) are whole
// numbers > 0, so they are bids; no player can have that many points, so
// S6 fails all of the player's otherwise successful bids, with the S6
// reason, not "not a whole number". Worked by hand: pat (100 points) bids
// 5 on lot 1 with them: all three fail, lot 1 is not transferred, pat
// keeps 100. quinn (2^63-1 points, the most an int64 holds) bids 2^63 on
// lot 10: past his points too. rey bids 2^63 on lot 4, then replaces it by
// 7 in a later action: the 7 stands alone and takes lot 4, 20 - 7 = 13.
func TestBidsBeyondInt64ArePastAnyPoints(t *testing.T) {
	out := conclude(t, Input{
		Points: map[string]int64{"pat": 100, "quinn": math.MaxInt64, "rey": 20},
		Bids: []BidAction{
			bids(t, "pat", 1, at(1, 0), "bid 99999999999999999999999999999 on lot 4\nbid 9223372036854775808 on lot 10\nbid 5 on lot 1"),
			bids(t, "quinn", 2, at(2, 0), "bid 9223372036854775808 on lot 10"),
			bids(t, "rey", 3, at(3, 0), "bid 9223372036854775808 on lot 5"),
			bids(t, "rey", 4, at(4, 0), "bid 7 on lot 5"),
		},
	})
	for _, b := range out.Bids {
		switch {
		case b.Player == "rey" && b.Index == 3:
			if b.Status != Replaced {
				t.Errorf("rey's first bid: %s, want replaced", b.Status)
			}
		case b.Player == "rey":
			if b.Status != Won {
				t.Errorf("rey's bid of 7: %s (%s), want won", b.Status, b.Why.Text)
			}
		default:
			if b.Status != Failed || b.Why.Reading != secret.ReadingBidFailures || !strings.Contains(b.Why.Text, "more than their") || strings.Contains(b.Why.Text, "not a whole number") {
				t.Errorf("%s's bid %s on lot %s: %s %q, want failed: more than their points (S6)", b.Player, b.Amount, b.Lot, b.Status, b.Why.Text)
			}
		}
	}
	if l := lot(t, out, "1"); l.Winner != "" {
		t.Errorf("lot 1 went to %q, want no transfer", l.Winner)
	}
	if l := lot(t, out, "5"); l.Winner != "rey" || l.Price != 7 {
		t.Errorf("lot 5 = %+v, want rey at 7", l)
	}
	if out.Points["pat"] != 100 || out.Points["quinn"] != math.MaxInt64 || out.Points["rey"] != 13 {
		t.Errorf("points %v, want pat 100, quinn 9223372036854775807, rey 13", out.Points)
	}
}

// TestPointsThatCanOverflowAreRefused: points are int64; a player with
// 9223372036854775807 points who places first with a prize of 10 would end
// with 9223372036854775817, which int64 cannot hold (it wrapped to
// -9223372036854775799). Conclude refuses points plus the largest prize
// past 2^63-1 as bad input; exactly 2^63-1 is fine.
func TestPointsThatCanOverflowAreRefused(t *testing.T) {
	hand := []secret.Card{}
	for _, s := range []string{"AS", "KS", "QS", "JS", "TS"} {
		c, err := secret.ParseCard(s)
		if err != nil {
			t.Fatal(err)
		}
		hand = append(hand, c)
	}
	in := Input{
		Points:      map[string]int64{"rich": math.MaxInt64},
		Possessions: map[string][]secret.Card{"rich": hand},
		Prizes:      []int64{10},
		Hands:       []HandAction{{Player: "rich", Index: 1, Posted: at(1, 0), Cards: hand}},
	}
	_, err := Conclude(in)
	if err == nil || !strings.Contains(err.Error(), "9223372036854775807") || !strings.Contains(err.Error(), `"rich"`) {
		t.Fatalf("Conclude with 2^63-1 points and a prize of 10: %v, want an error naming rich and the limit", err)
	}
	in.Points["rich"] = math.MaxInt64 - 10
	out := conclude(t, in)
	if out.Points["rich"] != math.MaxInt64 {
		t.Fatalf("points after = %d, want 9223372036854775797 + 10 = 9223372036854775807", out.Points["rich"])
	}
}
