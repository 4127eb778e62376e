package auction

import (
	"testing"

	"github.com/cockroachdb/apd/v3"
)

func dec(s string) *apd.Decimal {
	d, _, err := apd.NewFromString(s)
	if err != nil {
		panic(err)
	}
	return d
}

func paidConfig(stake, rake string) Config {
	c := handConfig(FirstPrice)
	c.Stake, c.Rake = dec(stake), dec(rake)
	return c
}

func checkPayout(t *testing.T, p *Payout, pot, rake string, amounts ...string) {
	t.Helper()
	if p == nil {
		t.Fatal("no payout for a paid table")
	}
	if p.Pot.String() != pot || p.Rake.String() != rake {
		t.Errorf("pot %s rake %s, want %s %s", &p.Pot, &p.Rake, pot, rake)
	}
	if len(p.Amounts) != len(amounts) {
		t.Fatalf("%d amounts, want %d", len(p.Amounts), len(amounts))
	}
	sum := new(apd.Decimal).Set(&p.Rake)
	for s, w := range amounts {
		if g := p.Amounts[s].String(); g != w {
			t.Errorf("seat %d payout %s, want %s", s, g, w)
		}
		decCtx.Add(sum, sum, &p.Amounts[s])
	}
	if sum.Cmp(&p.Pot) != 0 {
		t.Errorf("rake + payouts = %s, pot %s", sum, &p.Pot)
	}
}

func TestPayoutRakeAndLoser(t *testing.T) {
	// The first-price case (TestFirstPrice): profits seat 0 -6, seat 1 19,
	// seat 2 5. Stake 10, 5% rake, worked by hand:
	//   pot 3 * 10 = 30.00, rake 30 * 0.05 = 1.50, to share 28.50;
	//   seat 1: 28.50 * 19/24 = 22.5625 -> 22.56; seat 2: 28.50 * 5/24 =
	//   5.9375 -> 5.93; seat 0 lost money and forfeits: 0.00;
	//   remainder 28.50 - 28.49 = 0.01 to the first-ranked seat 1: 22.57.
	//   1.50 + 22.57 + 5.93 = 30.00.
	cfg := paidConfig("10", "0.05")
	m := playBids(t, cfg, caseBids)
	p, err := Payouts(cfg, m.Ranking())
	if err != nil {
		t.Fatal(err)
	}
	checkPayout(t, p, "30.00", "1.50", "0.00", "22.57", "5.93")
}

func TestPayoutNobodyProfits(t *testing.T) {
	// TestSharedRanksInMatch's table: nobody made a profit (0, 0, -5);
	// seats 0 and 1 share rank 1 and split the pot. Stake 1, 5% rake:
	//   pot 3.00, rake 0.15, to share 2.85; 2.85 / 2 = 1.425 -> 1.42 each;
	//   remainder 0.01 to seat 0 (lowest seat ranked first): 1.43, 1.42, 0.
	cfg := paidConfig("1", "0.05")
	m := playBids(t, cfg, [][]int{{0, 0, 0}, {0, 0, 60}, {0, 0, 0}})
	p, err := Payouts(cfg, m.Ranking())
	if err != nil {
		t.Fatal(err)
	}
	checkPayout(t, p, "3.00", "0.15", "1.43", "1.42", "0.00")
}

func TestPayoutRakeRoundsDown(t *testing.T) {
	// Stake 0.35, 7% rake, unit 0.05, one winner: pot 1.05; 1.05 * 0.07 =
	// 0.0735 -> 0.05 (rounded down to the unit); seat 1 takes 1.00.
	cfg := paidConfig("0.35", "0.07")
	cfg.PayoutUnit = dec("0.05")
	m := playBids(t, cfg, [][]int{{0, 30, 0}})
	p, err := Payouts(cfg, m.Ranking())
	if err != nil {
		t.Fatal(err)
	}
	checkPayout(t, p, "1.05", "0.05", "0.00", "1.00", "0.00")
}

func TestPayoutFreeTableAndBadRanking(t *testing.T) {
	cfg := handConfig(FirstPrice)
	if p, err := Payouts(cfg, nil); p != nil || err != nil {
		t.Errorf("free table: %v, %v; want nil, nil", p, err)
	}
	cfg = paidConfig("1", "0")
	if _, err := Payouts(cfg, []Standing{{Seat: 0, Rank: 1}}); err == nil {
		t.Error("a ranking with one entry for three seats was accepted")
	}
}

func TestPayoutRakeNegativeZero(t *testing.T) {
	// A rake written "-0" (trial 5b, finding 7) is the fraction 0: the
	// TestPayoutRakeAndLoser table without a rake, worked by hand: pot
	// 30.00, rake 0.00, to share 30.00; seat 1: 30 * 19/24 = 23.75, seat 2:
	// 30 * 5/24 = 6.25, seat 0 0.00; no remainder.
	cfg := paidConfig("10", "-0")
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	m := playBids(t, cfg, caseBids)
	p, err := Payouts(cfg, m.Ranking())
	if err != nil {
		t.Fatal(err)
	}
	checkPayout(t, p, "30.00", "0.00", "0.00", "23.75", "6.25")
}
