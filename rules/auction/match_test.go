package auction

import (
	"encoding/hex"
	"errors"
	"strings"
	"testing"
)

// The hand-worked cases below use seed 000102...1f with 3 seats and 3
// items, whose values table is testdata/values_3x3.txt (from the Python
// reference script of docs/rng.md):
//
//	item 1: seat 0 = 20, seat 1 = 49, seat 2 = 18
//	item 2: seat 0 = 20, seat 1 = 46, seat 2 = 55
//	item 3: seat 0 = 54, seat 1 = 46, seat 2 = 5
//
// Tie-breaks on that seed draw from "auction-0.2/tiebreak": intn(3), intn(3),
// intn(2) give 0, 1, 0, computed with the same script:
//
//	s = Stream(bytes(range(32)), "auction-0.2/tiebreak")
//	print(s.intn(3), s.intn(3), s.intn(2))   # 0 1 0
//
// Every expected outcome was worked out by hand from the rules of seed 000.

var handSeed, _ = hex.DecodeString("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f")

const timeout = -1 // a missed bid in the bid tables below

func handConfig(p Pricing) Config {
	c := DefaultConfig()
	c.Players, c.Items, c.TalkRounds, c.Pricing = 3, 3, 0, p
	return c
}

// playBids plays bids[item][seat] (timeout for a missed bid) and returns the
// match.
func playBids(t *testing.T, cfg Config, bids [][]int) *Match {
	t.Helper()
	m, err := NewMatch(handSeed, cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range bids {
		for s, b := range row {
			a := Action{Kind: Bid, Seat: s, Amount: b}
			if b == timeout {
				a = Action{Kind: Timeout, Seat: s}
			}
			if _, err := m.Apply(a); err != nil {
				t.Fatal(err)
			}
		}
	}
	return m
}

type wantResult struct {
	sold                         bool
	winner, price, value, profit int
	tie                          bool
}

func checkResults(t *testing.T, m *Match, want []wantResult) {
	t.Helper()
	got := m.Results()
	if len(got) != len(want) {
		t.Fatalf("%d results, want %d", len(got), len(want))
	}
	for i, w := range want {
		g := got[i]
		if g.Item != i+1 || g.Sold != w.sold || g.Winner != w.winner || g.Price != w.price || g.Value != w.value || g.Profit != w.profit || g.TieBreak != w.tie {
			t.Errorf("item %d: got sold=%v winner=%d price=%d value=%d profit=%d tie=%v, want %+v",
				i+1, g.Sold, g.Winner, g.Price, g.Value, g.Profit, g.TieBreak, w)
		}
	}
}

func checkPlayers(t *testing.T, m *Match, want [][3]int) {
	t.Helper()
	for s, w := range want {
		if p := m.Player(s); p.Credits != w[0] || p.Profit != w[1] || p.ItemsWon != w[2] {
			t.Errorf("seat %d: credits %d profit %d items %d, want %v", s, p.Credits, p.Profit, p.ItemsWon, w)
		}
	}
}

// caseBids: item 1 [10 30 25], item 2 [15 40 50], item 3 [60 45 0].
var caseBids = [][]int{{10, 30, 25}, {15, 40, 50}, {60, 45, 0}}

func TestFirstPrice(t *testing.T) {
	m := playBids(t, handConfig(FirstPrice), caseBids)
	// Each winner pays its own bid: seat 1 pays 30 for 49 (+19), seat 2
	// pays 50 for 55 (+5), seat 0 pays 60 for 54 (-6, the winner's curse).
	checkResults(t, m, []wantResult{
		{true, 1, 30, 49, 19, false},
		{true, 2, 50, 55, 5, false},
		{true, 0, 60, 54, -6, false},
	})
	checkPlayers(t, m, [][3]int{{40, -6, 1}, {70, 19, 1}, {50, 5, 1}})
	checkRanking(t, m.Ranking(), []Standing{{1, 1, 19, 70}, {2, 2, 5, 50}, {0, 3, -6, 40}})
	if !m.Over() || m.Turn().Phase != PhaseOver {
		t.Errorf("match not over after 3 items: %+v", m.Turn())
	}
}

func TestSecondPrice(t *testing.T) {
	m := playBids(t, handConfig(SecondPrice), caseBids)
	// Each winner pays the highest other bid: 25 (49-25 = 24), 40
	// (55-40 = 15), 45 (54-45 = 9).
	checkResults(t, m, []wantResult{
		{true, 1, 25, 49, 24, false},
		{true, 2, 40, 55, 15, false},
		{true, 0, 45, 54, 9, false},
	})
	checkPlayers(t, m, [][3]int{{55, 9, 1}, {75, 24, 1}, {60, 15, 1}})
	checkRanking(t, m.Ranking(), []Standing{{1, 1, 24, 75}, {2, 2, 15, 60}, {0, 3, 9, 55}})
}

func TestSecondPriceLoneBidderPaysZero(t *testing.T) {
	// B1: the highest other bid is 0 when nobody else bid.
	m := playBids(t, handConfig(SecondPrice), [][]int{{0, 12, 0}})
	checkResults(t, m, []wantResult{{true, 1, 0, 49, 49, false}})
	checkPlayers(t, m, [][3]int{{100, 0, 0}, {100, 49, 1}, {100, 0, 0}})
}

func TestTieBreaks(t *testing.T) {
	// Item 1: three-way tie at 30 among seats [0 1 2]; intn(3) = 0 -> seat
	// 0, pays 30 for 20 (-10). Item 2: three-way tie at 25; intn(3) = 1 ->
	// seat 1, pays 25 for 46 (+21). Item 3: seats 1 and 2 tie at 10 over
	// seat 0's 5; intn(2) = 0 -> seat 1, pays 10 for 46 (+36).
	m := playBids(t, handConfig(FirstPrice), [][]int{{30, 30, 30}, {25, 25, 25}, {5, 10, 10}})
	checkResults(t, m, []wantResult{
		{true, 0, 30, 20, -10, true},
		{true, 1, 25, 46, 21, true},
		{true, 1, 10, 46, 36, true},
	})
	checkPlayers(t, m, [][3]int{{70, -10, 1}, {65, 57, 2}, {100, 0, 0}})
}

func TestTieSecondPrice(t *testing.T) {
	// Under second pricing a tie at the top costs the top bid: the highest
	// other bid is the tied one. Same draws: item 1 -> seat 0 pays 30.
	m := playBids(t, handConfig(SecondPrice), [][]int{{30, 30, 30}})
	checkResults(t, m, []wantResult{{true, 0, 30, 20, -10, true}})
}

func TestAllZeroUnsold(t *testing.T) {
	m := playBids(t, handConfig(FirstPrice), [][]int{{0, 0, 0}, {0, 0, timeout}, {timeout, timeout, timeout}})
	checkResults(t, m, []wantResult{{false, -1, 0, 0, 0, false}, {false, -1, 0, 0, 0, false}, {false, -1, 0, 0, 0, false}})
	checkPlayers(t, m, [][3]int{{100, 0, 0}, {100, 0, 0}, {100, 0, 0}})
	// Nobody moved: everyone shares rank 1.
	checkRanking(t, m.Ranking(), []Standing{{0, 1, 0, 100}, {1, 1, 0, 100}, {2, 1, 0, 100}})
}

func TestMissedBidIsZero(t *testing.T) {
	// Seat 0 misses its bid; seat 1's 20 beats seat 2's 10. The revealed
	// bids are [0 20 10]; under second pricing seat 1 pays 10 (49-10 = 39).
	m := playBids(t, handConfig(SecondPrice), [][]int{{timeout, 20, 10}})
	checkResults(t, m, []wantResult{{true, 1, 10, 49, 39, false}})
	if b := m.Results()[0].Bids; b[0] != 0 || b[1] != 20 || b[2] != 10 {
		t.Errorf("revealed bids %v, want [0 20 10]", b[:3])
	}
}

func TestBidAboveCreditsIsIllegal(t *testing.T) {
	m := playBids(t, handConfig(FirstPrice), [][]int{{90, 0, 0}}) // seat 0 has 10 credits left
	before := *m
	_, err := m.Apply(Action{Kind: Bid, Seat: 0, Amount: 11})
	var ie *IllegalActionError
	if !errors.As(err, &ie) || ie.Rule != RuleBidRange || ie.Seat != 0 || ie.Item != 2 {
		t.Fatalf("bid 11 with 10 credits: error %v, want bid-range for seat 0 on item 2", err)
	}
	if !strings.Contains(err.Error(), "outside 0..10") {
		t.Errorf("error %q does not say the legal range", err)
	}
	if m.seat != before.seat || m.bidding != before.bidding || m.item != before.item || m.credits != before.credits || m.bids != before.bids {
		t.Errorf("illegal bid changed the match")
	}
	if _, err := m.Apply(Action{Kind: Bid, Seat: 0, Amount: -1}); !isRule(err, RuleBidRange) {
		t.Errorf("bid -1: error %v, want bid-range", err)
	}
	// The whole balance is a legal bid.
	if _, err := m.Apply(Action{Kind: Bid, Seat: 0, Amount: 10}); err != nil {
		t.Errorf("bid 10 with 10 credits: %v", err)
	}
}

func isRule(err error, r Rule) bool {
	var ie *IllegalActionError
	return errors.As(err, &ie) && ie.Rule == r
}

func TestTalkLegality(t *testing.T) {
	cfg := handConfig(FirstPrice)
	cfg.TalkRounds = 2
	m, err := NewMatch(handSeed, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if tr := m.Turn(); tr != (Turn{Item: 1, Phase: PhaseTalk, Seat: 0, Round: 1}) {
		t.Fatalf("first turn %+v", tr)
	}
	cases := []struct {
		a    Action
		rule Rule
	}{
		{Action{Kind: Pass, Seat: 1}, RuleTurnOrder},
		{Action{Kind: Bid, Seat: 0, Amount: 5}, RulePhase},
		{Action{Kind: Say, Seat: 0}, RuleSayMessage},
		{Action{Kind: Say, Seat: 0, Message: strings.Repeat("é", 281)}, RuleMessageLength},
	}
	for _, c := range cases {
		if _, err := m.Apply(c.a); !isRule(err, c.rule) {
			t.Errorf("%+v: error %v, want rule %s", c.a, err, c.rule)
		}
	}
	// 280 characters is legal even though it is 560 bytes.
	if _, err := m.Apply(Action{Kind: Say, Seat: 0, Message: strings.Repeat("é", 280)}); err != nil {
		t.Fatalf("280-character say: %v", err)
	}
	// Seats 1, 2, then round 2 for seats 0, 1, 2; a timeout is a pass.
	for _, a := range []Action{{Kind: Pass, Seat: 1}, {Kind: Timeout, Seat: 2}, {Kind: Pass, Seat: 0}, {Kind: Pass, Seat: 1}} {
		if _, err := m.Apply(a); err != nil {
			t.Fatal(err)
		}
	}
	if tr := m.Turn(); tr != (Turn{Item: 1, Phase: PhaseTalk, Seat: 2, Round: 2}) {
		t.Fatalf("turn %+v, want seat 2 round 2", tr)
	}
	if _, err := m.Apply(Action{Kind: Pass, Seat: 2}); err != nil {
		t.Fatal(err)
	}
	if tr := m.Turn(); tr != (Turn{Item: 1, Phase: PhaseBid, Seat: 0}) {
		t.Fatalf("turn %+v, want the bid phase", tr)
	}
	if _, err := m.Apply(Action{Kind: Say, Seat: 0, Message: "hi"}); !isRule(err, RulePhase) {
		t.Errorf("say in the bid phase: %v", err)
	}
	if _, err := m.Apply(Action{Kind: Bid, Seat: 0, Amount: 1, Message: strings.Repeat("x", 281)}); !isRule(err, RuleMessageLength) {
		t.Errorf("281-character bid message: %v", err)
	}
}

func TestApplyAfterOver(t *testing.T) {
	m := playBids(t, handConfig(FirstPrice), [][]int{{0, 0, 0}, {0, 0, 0}, {0, 0, 0}})
	if _, err := m.Apply(Action{Kind: Bid, Seat: 0}); !isRule(err, RuleMatchOver) {
		t.Errorf("bid after the end: %v", err)
	}
}

func TestConfigValidate(t *testing.T) {
	for _, c := range []struct {
		edit func(*Config)
		want string
	}{
		{func(c *Config) { c.Players = 2 }, "players is 2, expected 3..8"},
		{func(c *Config) { c.Items = 0 }, "items is 0"},
		{func(c *Config) { c.ValueMin, c.ValueMax = 10, 9 }, "value_max is 9, expected value_min (10)"},
		{func(c *Config) { c.Pricing = "third" }, `pricing is "third", expected "first" or "second"`},
		{func(c *Config) { c.TalkRounds = -1 }, "talk_rounds is -1"},
		{func(c *Config) { c.Rake = dec("1") }, "rake is 1, expected a fraction in [0, 1)"},
		{func(c *Config) { c.Stake = dec("-1") }, "stake is -1"},
		{func(c *Config) { c.Stake = dec("NaN") }, "stake is NaN"},
		{func(c *Config) { c.PayoutUnit = dec("0") }, "payout_unit is 0"},
		// Reviewer's case: stake 0.001 with the default unit 0.01 would pay
		// 0.003 to the first seat, not a multiple of the unit.
		{func(c *Config) { c.Stake = dec("0.001") }, "stake 0.001 is not a whole number of payout units (0.01)"},
		{func(c *Config) { c.Stake, c.PayoutUnit = dec("10"), dec("0.3") }, "stake 10 is not a whole number of payout units (0.3)"},
	} {
		cfg := DefaultConfig()
		c.edit(&cfg)
		err := cfg.Validate()
		if !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("error %v, want ErrConfig containing %q", err, c.want)
		}
	}
	d := DefaultConfig()
	if err := d.Validate(); err != nil {
		t.Errorf("default config: %v", err)
	}
}
