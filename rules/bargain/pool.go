package bargain

import (
	"fmt"

	"github.com/sealedhq/sealed/rules/rng"
)

// Pairings is the pairing schedule P of seed 002 ("The table"): match m is
// played by the seats Pairings[m mod 3].
var Pairings = [3][2]int{{0, 1}, {0, 2}, {1, 2}}

// MatchPlan is everything the seed decides for one match.
type MatchPlan struct {
	// Match is the 0-based match index m.
	Match int
	// Seats are seat A (side 0) and seat B (side 1), Pairings[m mod 3].
	// Payoff arrays are in this order.
	Seats [2]int
	// Opener is the seat (0..2, not the side) that moves on turn 1.
	Opener int
	// Pool is the item counts, each 1..4, total 5..7.
	Pool Vector
	// Values are seat A's and seat B's per-item values, each in V(Pool).
	Values [2]Vector
}

// OpenerSide returns the side (0 for seat A, 1 for seat B) of the opener.
func (p *MatchPlan) OpenerSide() int {
	if p.Opener == p.Seats[0] {
		return 0
	}
	return 1
}

// PairingFor returns match m's seats [A, B] and its opener: Pairings[m mod
// 3], opened by A when (m div 3) mod 2 == 0 and by B otherwise (seed 002,
// "The table"). m must be >= 0; a negative m returns an error.
func PairingFor(m int) (seats [2]int, opener int, err error) {
	if m < 0 {
		return seats, 0, fmt.Errorf("match index %d is negative; expected 0 or more", m)
	}
	seats = Pairings[m%3]
	if (m/3)%2 == 0 {
		return seats, seats[0], nil
	}
	return seats, seats[1], nil
}

// matchLabels caches the stream labels of matches 0..5.
var matchLabels = func() (l [maxMatches]string) {
	for m := range l {
		l[m] = rng.LabelBargainMatch(m)
	}
	return l
}()

// DrawMatch derives match m's plan from a 32-byte seed, drawing from the
// stream labelled "bargaining/match/<m>" (docs/design.md, "Bargaining pools";
// seed 002, "The pool and the valuations"): counts [Range(1,4) x3] until the
// total is 5..7, at most 32 tries, else [3,2,2]; A = V[Intn(|V|)], then
// B = V[Intn(|V|)], B alone redrawn at most 16 times while some item type
// is worth 0 to both; if it still is, B is the first entry of V compatible
// with A. It returns an error for a seed that is not 32 bytes or a
// negative m.
func DrawMatch(seed []byte, m int) (MatchPlan, error) {
	src, err := rng.NewSource(seed)
	if err != nil {
		return MatchPlan{}, fmt.Errorf("bargaining pool of match %d: %w", m, err)
	}
	return drawMatch(src, m)
}

// drawMatch derives match m's plan from the seed's source (see DrawMatch).
func drawMatch(src *rng.Source, m int) (MatchPlan, error) {
	var p MatchPlan
	seats, opener, err := PairingFor(m)
	if err != nil {
		return p, err
	}
	label := ""
	if m < len(matchLabels) {
		label = matchLabels[m]
	} else {
		label = rng.LabelBargainMatch(m)
	}
	s := src.Stream(label)
	p.Match, p.Seats, p.Opener = m, seats, opener
	p.Pool, p.Values, err = drawPoolValues(s)
	if err != nil {
		return p, fmt.Errorf("bargaining pool of match %d: %w", m, err)
	}
	return p, nil
}

// source is the part of *rng.Stream the pool draws use.
type source interface {
	Range(lo, hi int) int
	Intn(n uint64) uint64
}

// drawPoolValues makes the draws of one match from its stream.
func drawPoolValues(s source) (Vector, [2]Vector, error) {
	var values [2]Vector
	pool, ok := FallbackCounts, false
	for try := 0; try < CountDraws && !ok; try++ {
		c := Vector{s.Range(MinCount, MaxCount), s.Range(MinCount, MaxCount), s.Range(MinCount, MaxCount)}
		if n := c.Sum(); n >= MinPoolItems && n <= MaxPoolItems {
			pool, ok = c, true
		}
	}
	table, err := valueTable(pool)
	if err != nil {
		return pool, values, err
	}
	n := uint64(len(table))
	a := table[s.Intn(n)]
	b := table[s.Intn(n)]
	for redraw := 0; redraw < ValueRedraws && !bothValued(a, b); redraw++ {
		b = table[s.Intn(n)]
	}
	if !bothValued(a, b) {
		found := false
		for _, v := range table {
			if bothValued(a, v) {
				b, found = v, true
				break
			}
		}
		if !found {
			// Unreachable for counts 1..4 with total 5..7 (TestEveryValuationHasPartner).
			return pool, values, fmt.Errorf("no valuation in V(%v) is compatible with %v", pool, a)
		}
	}
	values[0], values[1] = a, b
	return pool, values, nil
}

// DrawSchedule derives the plans of matches 0..matches-1 from a 32-byte
// seed (see DrawMatch). It returns an error for a seed that is not 32 bytes
// or a negative count.
func DrawSchedule(seed []byte, matches int) ([]MatchPlan, error) {
	if matches < 0 {
		return nil, fmt.Errorf("match count %d is negative", matches)
	}
	src, err := rng.NewSource(seed)
	if err != nil {
		return nil, fmt.Errorf("bargaining pools: %w", err)
	}
	plans := make([]MatchPlan, matches)
	for m := range plans {
		p, err := drawMatch(src, m)
		if err != nil {
			return nil, err
		}
		plans[m] = p
	}
	return plans, nil
}
