package lots

import (
	"testing"
	"time"

	"github.com/sealedhq/sealed/rules/secret"
)

// Every expected outcome below was worked by hand from seed 004, rule
// "Auctions" (subrules "Bidding", "Submitting a Hand", "Prizes") and the
// readings S6-S8 of docs/design.md; the working is in the comments.

var monday = time.Date(2026, 3, 23, 0, 0, 0, 0, time.UTC)

func at(h, m int) time.Time {
	return monday.Add(time.Duration(h)*time.Hour + time.Duration(m)*time.Minute)
}

// bids builds a bid action from a declaration text, parsed by the
// package that parses reveals.
func bids(t *testing.T, player string, index int64, posted time.Time, decl string) BidAction {
	t.Helper()
	d, err := secret.ParseDeclaration(secret.ActionBid, []byte(decl))
	if err != nil {
		t.Fatalf("declaration %q: %v", decl, err)
	}
	return BidAction{Player: player, Index: index, Posted: posted, Bids: d.Bids}
}

func hand(t *testing.T, player string, index int64, posted time.Time, decl string) HandAction {
	t.Helper()
	d, err := secret.ParseDeclaration(secret.ActionHand, []byte(decl))
	if err != nil {
		t.Fatalf("declaration %q: %v", decl, err)
	}
	return HandAction{Player: player, Index: index, Posted: posted, Cards: d.Hand}
}

func cards(t *testing.T, s ...string) []secret.Card {
	t.Helper()
	var cs []secret.Card
	for _, x := range s {
		c, err := secret.ParseCard(x)
		if err != nil {
			t.Fatal(err)
		}
		cs = append(cs, c)
	}
	return cs
}

func conclude(t *testing.T, in Input) *Outcome {
	t.Helper()
	out, err := Conclude(in)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func lot(t *testing.T, out *Outcome, name string) LotResult {
	t.Helper()
	for _, l := range out.Lots {
		if l.Lot == name {
			return l
		}
	}
	t.Fatalf("no result for lot %s in %+v", name, out.Lots)
	return LotResult{}
}

func bidStatus(t *testing.T, out *Outcome, player, lotName string) []Status {
	t.Helper()
	var s []Status
	for _, b := range out.Bids {
		if b.Player == player && b.Lot == lotName {
			s = append(s, b.Status)
		}
	}
	return s
}

func TestEqualBidsGoToEarlierPost(t *testing.T) {
	// Lot 1: alice and bob both bid 10. Bob's post appeared at 09:00 (its
	// ledger index 7 is higher, a referee imported it late); alice's at
	// 10:00 with index 5. S7: equal bids, the earlier post has priority:
	// bob. First-price: bob 30 - 10 = 20, alice keeps 50.
	// Lot 2: carol and dave bid 4 at the same instant; the lower ledger
	// index (carol, 8) has priority. carol 9 - 4 = 5.
	out := conclude(t, Input{
		Points: map[string]int64{"alice": 50, "bob": 30, "carol": 9, "dave": 9},
		Bids: []BidAction{
			bids(t, "alice", 5, at(10, 0), "bid 10 on lot 1"),
			bids(t, "bob", 7, at(9, 0), "I bid 10 on lot 1"),
			bids(t, "dave", 9, at(11, 0), "bid 4 on lot 2"),
			bids(t, "carol", 8, at(11, 0), "bid 4 on lot 2"),
		},
	})
	if l := lot(t, out, "1"); l.Winner != "bob" || l.Price != 10 || len(l.Priority) != 2 || l.Priority[1].Player != "alice" {
		t.Fatalf("lot 1 = %+v, want bob first, alice second, price 10", l)
	}
	if l := lot(t, out, "2"); l.Winner != "carol" || l.Price != 4 {
		t.Fatalf("lot 2 = %+v, want carol at 4", l)
	}
	want := map[string]int64{"alice": 50, "bob": 20, "carol": 5, "dave": 9}
	for p, n := range want {
		if out.Points[p] != n {
			t.Errorf("points of %s = %d, want %d", p, out.Points[p], n)
		}
	}
	if s := bidStatus(t, out, "alice", "1"); len(s) != 1 || s[0] != Outbid {
		t.Errorf("alice's bid = %v, want outbid", s)
	}
}

func TestSumPastPointsLosesAll(t *testing.T) {
	// carol has 20 points and bids 15 on lot 1 and 10 on lot 2: 25 > 20,
	// so both fail (S6). dave's 5 on lot 2 is then the only bid: he takes
	// it, 12 - 5 = 7. Lot 1 has no bid left and is not transferred.
	out := conclude(t, Input{
		Points: map[string]int64{"carol": 20, "dave": 12},
		Bids: []BidAction{
			bids(t, "carol", 3, at(1, 0), "bid 15 on lot 1\nbid 10 on lot 2"),
			bids(t, "dave", 4, at(2, 0), "bid 5 on lot 2"),
		},
	})
	for _, l := range []string{"1", "2"} {
		if s := bidStatus(t, out, "carol", l); len(s) != 1 || s[0] != Failed {
			t.Errorf("carol's bid on lot %s = %v, want failed", l, s)
		}
	}
	if l := lot(t, out, "1"); l.Winner != "" {
		t.Errorf("lot 1 went to %q, want no transfer", l.Winner)
	}
	if l := lot(t, out, "2"); l.Winner != "dave" || l.Price != 5 {
		t.Errorf("lot 2 = %+v, want dave at 5", l)
	}
	if out.Points["carol"] != 20 || out.Points["dave"] != 7 {
		t.Errorf("points = %v, want carol 20, dave 7", out.Points)
	}
	// Exactly the points is not past them: 12 = 12 stands.
	out = conclude(t, Input{
		Points: map[string]int64{"dave": 12},
		Bids:   []BidAction{bids(t, "dave", 4, at(2, 0), "bid 5 on lot 2; bid 7 on lot 3")},
	})
	if out.Points["dave"] != 0 || len(out.LotsWon["dave"]) != 2 {
		t.Errorf("dave bidding all 12 points: points %d, lots %v; want 0 and two lots", out.Points["dave"], out.LotsWon["dave"])
	}
}

func TestDuplicatedLotInOneActionFails(t *testing.T) {
	// erin's one action bids 5 and 7 on lot 1 and 3 on lot 2: both lot-1
	// bids fail (S6), the lot-2 bid stands and wins. frank's 2 on lot 1
	// then takes lot 1. erin 10 - 3 = 7, frank 10 - 2 = 8.
	out := conclude(t, Input{
		Points: map[string]int64{"erin": 10, "frank": 10},
		Bids: []BidAction{
			bids(t, "erin", 1, at(1, 0), "bid 5 on lot 1; bid 7 on LOT 1; bid 3 on lot 2"),
			bids(t, "frank", 2, at(2, 0), "bid 2 on lot 1"),
		},
	})
	if s := bidStatus(t, out, "erin", "1"); len(s) != 2 || s[0] != Failed || s[1] != Failed {
		t.Fatalf("erin's lot-1 bids = %v, want both failed", s)
	}
	if s := bidStatus(t, out, "erin", "2"); len(s) != 1 || s[0] != Won {
		t.Fatalf("erin's lot-2 bid = %v, want won", s)
	}
	if l := lot(t, out, "1"); l.Winner != "frank" {
		t.Fatalf("lot 1 went to %q, want frank", l.Winner)
	}
	if out.Points["erin"] != 7 || out.Points["frank"] != 8 {
		t.Fatalf("points = %v, want erin 7, frank 8", out.Points)
	}
}

func TestNotWholeNumbersFail(t *testing.T) {
	// S6: 0, -3 and 2.5 are not whole numbers > 0 and fail; 15.0 is the
	// whole number 15 and stands (the value counts, not the spelling).
	out := conclude(t, Input{
		Points: map[string]int64{"gus": 100},
		Bids:   []BidAction{bids(t, "gus", 1, at(1, 0), "bid 0 on lot 1; bid -3 on lot 2; bid 2.5 on lot 3; bid 15.0 on lot 4")},
	})
	for _, l := range []string{"1", "2", "3"} {
		if s := bidStatus(t, out, "gus", l); len(s) != 1 || s[0] != Failed {
			t.Errorf("gus's bid on lot %s = %v, want failed", l, s)
		}
	}
	if out.Points["gus"] != 85 {
		t.Errorf("gus's points = %d, want 100 - 15 = 85", out.Points["gus"])
	}
}

func TestFirstAndSecondPrice(t *testing.T) {
	// Lot 1: alice 30, bob 20, carol 10. Lot 2: bob alone, 5.
	// First-price: alice pays 30, bob pays 5.
	// Second-price (S8): alice pays bob's 20, bob alone pays 0.
	in := Input{
		Points: map[string]int64{"alice": 100, "bob": 100, "carol": 100},
		Bids: []BidAction{
			bids(t, "carol", 1, at(1, 0), "bid 10 on lot 1"),
			bids(t, "bob", 2, at(2, 0), "bid 20 on lot 1; bid 5 on lot 2"),
			bids(t, "alice", 3, at(3, 0), "bid 30 on lot 1"),
		},
	}
	first := conclude(t, in)
	if first.Points["alice"] != 70 || first.Points["bob"] != 95 || first.Points["carol"] != 100 {
		t.Errorf("first-price points = %v, want alice 70, bob 95, carol 100", first.Points)
	}
	in.Pricing = SecondPrice
	second := conclude(t, in)
	if second.Points["alice"] != 80 || second.Points["bob"] != 100 || second.Points["carol"] != 100 {
		t.Errorf("second-price points = %v, want alice 80, bob 100, carol 100", second.Points)
	}
	if l := lot(t, second, "1"); l.Winner != "alice" || l.Price != 20 {
		t.Errorf("second-price lot 1 = %+v, want alice at 20", l)
	}
}

func TestWithdrawnBidder(t *testing.T) {
	// hal bid 50 but ceased to be a player: his bid is withdrawn and ivy's
	// 10 takes lot 1.
	out := conclude(t, Input{
		Players: []string{"ivy"},
		Points:  map[string]int64{"hal": 100, "ivy": 100},
		Bids: []BidAction{
			bids(t, "hal", 1, at(1, 0), "bid 50 on lot 1"),
			bids(t, "ivy", 2, at(2, 0), "bid 10 on lot 1"),
		},
	})
	if s := bidStatus(t, out, "hal", "1"); len(s) != 1 || s[0] != Withdrawn {
		t.Fatalf("hal's bid = %v, want withdrawn", s)
	}
	if l := lot(t, out, "1"); l.Winner != "ivy" || l.Price != 10 {
		t.Fatalf("lot 1 = %+v, want ivy at 10", l)
	}
}

func TestInactiveLotFails(t *testing.T) {
	out := conclude(t, Input{
		Lots:   []string{"1"},
		Points: map[string]int64{"ivy": 100},
		Bids:   []BidAction{bids(t, "ivy", 2, at(2, 0), "bid 10 on lot 1; bid 10 on lot 9")},
	})
	if s := bidStatus(t, out, "ivy", "9"); len(s) != 1 || s[0] != Failed {
		t.Fatalf("bid on inactive lot 9 = %v, want failed", s)
	}
	if out.Points["ivy"] != 90 {
		t.Fatalf("ivy's points = %d, want 90", out.Points["ivy"])
	}
}

func TestLaterActionRaisesOrLowers(t *testing.T) {
	// S7's "most recent start or increase": jo starts 10 on lot 1 at 01:00
	// and raises to 12 at 05:00; kim bids 12 at 03:00. Equal bids: kim's
	// bid was last started/raised earlier (03:00 < 05:00): kim has priority.
	// Had jo lowered instead (to 12 from 14), jo's time stays 01:00 and jo
	// has priority.
	raise := conclude(t, Input{
		Points: map[string]int64{"jo": 100, "kim": 100},
		Bids: []BidAction{
			bids(t, "jo", 1, at(1, 0), "bid 10 on lot 1"),
			bids(t, "kim", 2, at(3, 0), "bid 12 on lot 1"),
			bids(t, "jo", 3, at(5, 0), "bid 12 on lot 1"),
		},
	})
	if l := lot(t, raise, "1"); l.Winner != "kim" {
		t.Errorf("after jo's raise: lot 1 went to %q, want kim", l.Winner)
	}
	lower := conclude(t, Input{
		Points: map[string]int64{"jo": 100, "kim": 100},
		Bids: []BidAction{
			bids(t, "jo", 1, at(1, 0), "bid 14 on lot 1"),
			bids(t, "kim", 2, at(3, 0), "bid 12 on lot 1"),
			bids(t, "jo", 3, at(5, 0), "bid 12 on lot 1"),
		},
	})
	if l := lot(t, lower, "1"); l.Winner != "jo" || l.Price != 12 {
		t.Errorf("after jo's decrease: lot 1 = %+v, want jo at 12", l)
	}
	if s := bidStatus(t, lower, "jo", "1"); len(s) != 2 || s[0] != Replaced || s[1] != Won {
		t.Errorf("jo's bids = %v, want replaced then won", s)
	}
}

func TestHands(t *testing.T) {
	// lee: 9H 8H 4H 3H 2H, a flush. may: 9C 8D 7S 6H 5C, a straight.
	// ned: AS AS KD QC JH repeats AS: fails. oli: TS TC TD 2S 2C, but oli
	// does not hold 2C: fails. A flush beats a straight: lee 1st, may 2nd.
	// Prizes 20 and 5.
	//
	// Placements come before lots: lee has 10 points and bids 25 on lot 1;
	// with the 20-point prize first, 25 <= 30 stands and wins (30 - 25 = 5).
	// Concluded the other way round, 25 > 10 would fail under S6.
	out := conclude(t, Input{
		Points: map[string]int64{"lee": 10, "may": 0, "ned": 0, "oli": 0},
		Possessions: map[string][]secret.Card{
			"lee": cards(t, "9H", "8H", "4H", "3H", "2H", "KS"),
			"may": cards(t, "9C", "8D", "7S", "6H", "5C"),
			"ned": cards(t, "AS", "KD", "QC", "JH", "TH"),
			"oli": cards(t, "TS", "TC", "TD", "2S", "2H"),
		},
		Prizes: []int64{20, 5},
		Hands: []HandAction{
			hand(t, "may", 11, at(1, 0), "hand: 9C 8D 7S 6H 5C"),
			hand(t, "lee", 12, at(2, 0), "I submit a hand: 9h, 8h, 4h, 3h, 2h"),
			hand(t, "ned", 13, at(3, 0), "hand: AS AS KD QC JH"),
			hand(t, "oli", 14, at(4, 0), "hand: TS TC TD 2S 2C"),
		},
		Bids: []BidAction{bids(t, "lee", 20, at(5, 0), "bid 25 on lot 1")},
	})
	want := map[string]struct {
		status Status
		place  int
	}{"lee": {Placed, 1}, "may": {Placed, 2}, "ned": {Failed, 0}, "oli": {Failed, 0}}
	for _, h := range out.Hands {
		if w := want[h.Player]; h.Status != w.status || h.Place != w.place {
			t.Errorf("%s's Hand: %s place %d (%s), want %s place %d", h.Player, h.Status, h.Place, h.Why.Text, w.status, w.place)
		}
	}
	if out.Points["lee"] != 5 || out.Points["may"] != 5 {
		t.Errorf("points = %v, want lee 10+20-25 = 5, may 0+5 = 5", out.Points)
	}
	if l := lot(t, out, "1"); l.Winner != "lee" {
		t.Errorf("lot 1 went to %q, want lee (prize given before lots)", l.Winner)
	}
	// The placed Hands' cards are destroyed; lee keeps KS, may has none.
	if got := out.Possessions["lee"]; len(got) != 1 || got[0].String() != "KS" {
		t.Errorf("lee's cards after = %v, want [KS]", got)
	}
	if got := out.Possessions["may"]; len(got) != 0 {
		t.Errorf("may's cards after = %v, want none", got)
	}
	// Failed Hands destroy nothing.
	if got := out.Possessions["ned"]; len(got) != 5 {
		t.Errorf("ned's cards after = %v, want all five kept", got)
	}
}

func TestEqualHandsSharePlace(t *testing.T) {
	// Two ace-high straights in different suits are equal: both placed 1,
	// the next hand (a pair) placed 3.
	out := conclude(t, Input{
		Points: map[string]int64{"a": 0, "b": 0, "c": 0},
		Possessions: map[string][]secret.Card{
			"a": cards(t, "AS", "KH", "QD", "JC", "TS"),
			"b": cards(t, "AH", "KD", "QC", "JS", "TH"),
			"c": cards(t, "9S", "9H", "2D", "3C", "4S"),
		},
		Hands: []HandAction{
			hand(t, "c", 1, at(1, 0), "hand: 9S 9H 2D 3C 4S"),
			hand(t, "a", 2, at(2, 0), "hand: AS KH QD JC TS"),
			hand(t, "b", 3, at(3, 0), "hand: AH KD QC JS TH"),
		},
	})
	places := map[string]int{}
	for _, h := range out.Hands {
		places[h.Player] = h.Place
	}
	if places["a"] != 1 || places["b"] != 1 || places["c"] != 3 {
		t.Fatalf("places = %v, want a 1, b 1, c 3", places)
	}
}

func TestConcludeRejectsBadInput(t *testing.T) {
	for _, in := range []Input{
		{Points: map[string]int64{"a": -1}},
		{Prizes: []int64{-5}},
		{Lots: []string{"1", "1"}},
		{Pricing: 7},
	} {
		if _, err := Conclude(in); err == nil {
			t.Errorf("Conclude(%+v) accepted bad input", in)
		}
	}
}
