package auction

import (
	"fmt"

	"github.com/cockroachdb/apd/v3"
)

// Payout is the split of a paid table's pot (seed 000, "Winning"; docs/design.md
// B3), in the table's currency, exact. Pot == Rake + the sum of Amounts.
type Payout struct {
	Pot     apd.Decimal   // Stake * Players
	Rake    apd.Decimal   // Pot * Config.Rake, rounded down to the payout unit
	Amounts []apd.Decimal // by seat; 0 for a seat that forfeits its stake
}

// decCtx is the context of payout arithmetic: 34 significant digits (far
// more than stakes up to 10^12 in units down to 10^-12 need), quotients
// rounded toward -infinity so that rounding down to the unit never rounds
// a quotient up past an integer first.
var decCtx = func() *apd.Context {
	c := apd.BaseContext.WithPrecision(34)
	c.Rounding = apd.RoundFloor
	return c
}()

// defaultUnit is the payout unit when Config.PayoutUnit is nil.
var defaultUnit = apd.New(1, -2)

// floorToUnit sets d to the largest multiple of unit not above x.
func floorToUnit(d, x, unit *apd.Decimal) error {
	var q apd.Decimal
	if _, err := decCtx.Quo(&q, x, unit); err != nil {
		return err
	}
	if _, err := decCtx.Floor(&q, &q); err != nil {
		return err
	}
	_, err := decCtx.Mul(d, &q, unit)
	return err
}

// Payouts splits a paid table's pot (Config.Paid) among the seats given the
// final ranking (Rank; one Standing per seat). It returns nil, nil for a
// table without a stake.
//
// The pot is Stake * Players. The rake is Pot * Config.Rake rounded down to
// the payout unit; the rest is shared in proportion to positive profit
// (Standing.Score), each share rounded down to the unit; a seat whose
// profit is 0 or negative forfeits (gets 0). If no seat made a profit, the
// seats ranked first share it equally, rounded down. What rounding leaves
// over goes to the first-ranked seat, the lowest seat among ties, so that
// Rake plus the Amounts equals Pot exactly (docs/design.md B3). Amounts carry the
// exponent of the payout unit or of the stake, whichever is finer.
//
// It returns an error wrapping ErrConfig for an invalid config, one naming
// the ranking if it does not have one entry per seat, or an apd error if
// the arithmetic overflows (it cannot within Validate's bounds).
func Payouts(cfg Config, ranking []Standing) (*Payout, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if !cfg.Paid() {
		return nil, nil
	}
	if len(ranking) != cfg.Players {
		return nil, fmt.Errorf("ranking has %d entries, expected one per seat (%d)", len(ranking), cfg.Players)
	}
	unit := defaultUnit
	if cfg.PayoutUnit != nil {
		unit = cfg.PayoutUnit
	}
	p := &Payout{Amounts: make([]apd.Decimal, cfg.Players)}
	if _, err := decCtx.Mul(&p.Pot, cfg.Stake, apd.New(int64(cfg.Players), 0)); err != nil {
		return nil, err
	}
	if cfg.Rake != nil {
		var r apd.Decimal
		if _, err := decCtx.Mul(&r, &p.Pot, cfg.Rake); err != nil {
			return nil, err
		}
		if err := floorToUnit(&p.Rake, &r, unit); err != nil {
			return nil, err
		}
		// A rake written "-0" is the fraction 0: the pot's share is 0,
		// never "-0.00".
		p.Rake.Negative = p.Rake.Negative && !p.Rake.IsZero()
	}
	var net apd.Decimal
	if _, err := decCtx.Sub(&net, &p.Pot, &p.Rake); err != nil {
		return nil, err
	}

	var total int64
	for _, s := range ranking {
		if s.Seat < 0 || s.Seat >= cfg.Players {
			return nil, fmt.Errorf("ranking names seat %d, expected 0..%d", s.Seat, cfg.Players-1)
		}
		if s.Score > 0 {
			total += int64(s.Score)
		}
	}
	first := -1 // the first-ranked seat, lowest seat among ties
	for _, s := range ranking {
		if s.Rank == 1 && (first < 0 || s.Seat < first) {
			first = s.Seat
		}
	}
	if first < 0 {
		return nil, fmt.Errorf("ranking has no seat ranked 1")
	}
	var share apd.Decimal
	if total == 0 {
		k := 0
		for _, s := range ranking {
			if s.Rank == 1 {
				k++
			}
		}
		if _, err := decCtx.Quo(&share, &net, apd.New(int64(k), 0)); err != nil {
			return nil, err
		}
		if err := floorToUnit(&share, &share, unit); err != nil {
			return nil, err
		}
	}
	var paid apd.Decimal
	for _, s := range ranking {
		a := &p.Amounts[s.Seat]
		switch {
		case total == 0 && s.Rank == 1:
			a.Set(&share)
		case total > 0 && s.Score > 0:
			var x apd.Decimal
			if _, err := decCtx.Mul(&x, &net, apd.New(int64(s.Score), 0)); err != nil {
				return nil, err
			}
			if _, err := decCtx.Quo(&x, &x, apd.New(total, 0)); err != nil {
				return nil, err
			}
			if err := floorToUnit(a, &x, unit); err != nil {
				return nil, err
			}
		}
		if _, err := decCtx.Add(&paid, &paid, a); err != nil {
			return nil, err
		}
	}
	var rest apd.Decimal
	if _, err := decCtx.Sub(&rest, &net, &paid); err != nil {
		return nil, err
	}
	if _, err := decCtx.Add(&p.Amounts[first], &p.Amounts[first], &rest); err != nil {
		return nil, err
	}
	// Print every amount with the same number of places.
	exp := unit.Exponent
	if cfg.Stake.Exponent < exp {
		exp = cfg.Stake.Exponent
	}
	if exp > 0 {
		exp = 0
	}
	for _, d := range append([]*apd.Decimal{&p.Pot, &p.Rake}, ptrs(p.Amounts)...) {
		if _, err := decCtx.Quantize(d, d, exp); err != nil {
			return nil, err
		}
	}
	return p, nil
}

func ptrs(ds []apd.Decimal) []*apd.Decimal {
	out := make([]*apd.Decimal, len(ds))
	for i := range ds {
		out[i] = &ds[i]
	}
	return out
}
