package bargain

import (
	"fmt"
	"sync"

	"github.com/cockroachdb/apd/v3"
)

// ScorePlaces is the number of decimal places score and giveaway are
// printed with (docs/bargain.md, "Exact decimals").
const ScorePlaces = 4

// decimalContext divides with 34 significant digits; Quantize then rounds
// half up (away from zero) to ScorePlaces places. A quotient of two small
// integers never rounds to an exact half at 34 digits, so the two steps
// give the correctly rounded result.
var decimalContext = apd.BaseContext.WithPrecision(34)

// Results are an episode's tallies and scores (seed 002, "Scoring"). Index
// s is seat s.
type Results struct {
	// Points[s] is the sum of u(s), 0..10 each, over the matches s played.
	Points [Seats]int
	// Matches[s] is matchesPlayed[s]: the matches s played that reached a
	// matchEnd.
	Matches [Seats]int
	// Deals[s] is how many of those ended "deal".
	Deals [Seats]int
	// Scores[s] is points[s] / (10 * matchesPlayed[s]), in [0, 1], or 0 when
	// s played no settled match, rounded half up to ScorePlaces places.
	Scores [Seats]apd.Decimal
	// Giveaway[s] is the mean over s's settled matches of (opponent's u -
	// s's u), in [-10, 10], or 0 when s played none, rounded half up (away
	// from zero) to ScorePlaces places.
	Giveaway [Seats]apd.Decimal
	// Given[s] is the sum over s's settled matches of (opponent's u - s's
	// u), -10*Matches[s]..10*Matches[s]: the numerator of Giveaway[s].
	Given [Seats]int
	// MatchesPlayed is the number of matches that reached a matchEnd.
	MatchesPlayed int
	// MaxMatches is the number of scheduled matches, 3 or 6.
	MaxMatches int
	// Reason is "complete" or "deadline", or "" while the episode is running.
	Reason Reason
}

// Results returns the episode's results so far: the tallies over the
// matches settled up to now, and Reason once the episode has ended.
func (e *Episode) Results() Results {
	var r Results
	e.ResultsInto(&r)
	return r
}

// ResultsInto writes the episode's results into r, reusing r's decimals.
func (e *Episode) ResultsInto(r *Results) {
	r.Points, r.Matches, r.Deals = e.points, e.played, e.deals
	r.MatchesPlayed, r.MaxMatches = e.settled, e.cfg.Matches
	for s := range r.Given {
		r.Given[s] = e.given[s] - e.taken[s]
	}
	r.Reason = ""
	if e.done {
		r.Reason = e.reason
	}
	for s := 0; s < Seats; s++ {
		n := e.played[s]
		if scoreTable, giveTable := ratioTables(); n < len(scoreTable) {
			r.Scores[s].Set(&scoreTable[n][e.points[s]])
			r.Giveaway[s].Set(&giveTable[n][e.given[s]-e.taken[s]+PoolValue*n])
			continue
		}
		ratio(&r.Scores[s], int64(e.points[s]), int64(PoolValue*n))
		ratio(&r.Giveaway[s], int64(e.given[s]-e.taken[s]), int64(n))
	}
}

// ratioTables returns scoreTable and giveTable: scoreTable[n][p] is the
// score of p points over n settled matches, and
// giveTable[n][d+10n] the giveaway of a summed difference d, both computed
// once by ratio for every n a seat can play in a legal episode (0..4), so
// that re-simulating an episode divides nothing; made when first needed,
// not at every start of a program that imports the package.
var ratioTables = sync.OnceValues(func() (score, give [][]apd.Decimal) { return buildRatioTables(4) })

func buildRatioTables(maxPlayed int) (score, give [][]apd.Decimal) {
	score = make([][]apd.Decimal, maxPlayed+1)
	give = make([][]apd.Decimal, maxPlayed+1)
	for n := 0; n <= maxPlayed; n++ {
		score[n] = make([]apd.Decimal, PoolValue*n+1)
		for p := range score[n] {
			ratio(&score[n][p], int64(p), int64(PoolValue*n))
		}
		give[n] = make([]apd.Decimal, 2*PoolValue*n+1)
		for k := range give[n] {
			ratio(&give[n][k], int64(k-PoolValue*n), int64(n))
		}
	}
	return score, give
}

// ratio sets d to num/den rounded half up to ScorePlaces places, or to 0
// with ScorePlaces places when den is 0.
func ratio(d *apd.Decimal, num, den int64) {
	if den == 0 {
		num = 0
		den = 1
	}
	var n, q apd.Decimal
	n.SetInt64(num)
	d.SetInt64(den)
	if _, err := decimalContext.Quo(&q, &n, d); err != nil {
		panic(fmt.Sprintf("bargain: dividing %d by %d: %v", num, den, err)) // unreachable: den != 0
	}
	if _, err := decimalContext.Quantize(d, &q, -ScorePlaces); err != nil {
		panic(fmt.Sprintf("bargain: rounding %s: %v", q.String(), err)) // unreachable: |q| <= 10
	}
}

// FormatDecimal prints d with exactly ScorePlaces places after rounding
// half up, e.g. "0.6250" or "-1.5000"; it is how scores and giveaway are
// printed in replays and tables.
func FormatDecimal(d *apd.Decimal) string {
	var q apd.Decimal
	if _, err := decimalContext.Quantize(&q, d, -ScorePlaces); err != nil {
		return d.Text('f')
	}
	return q.Text('f')
}

// EngineScore returns seat s's score as the engine computes it, a float64
// (score in sim.nim): float64(points) / (10.0 * float64(matchesPlayed)), or
// 0.0 when the seat settled no match. Both operands are exact, so the
// result is the correctly rounded quotient, the same in every IEEE 754
// language. s must be 0..Seats-1.
func (r *Results) EngineScore(s int) float64 {
	if r.Matches[s] == 0 {
		return 0
	}
	return float64(r.Points[s]) / (float64(PoolValue) * float64(r.Matches[s]))
}

// EngineGiveaway returns seat s's giveaway as the engine computes it, a
// float64 (giveaway in sim.nim): float64(given - taken) /
// float64(matchesPlayed), or 0.0 when the seat settled no match. s must be
// 0..Seats-1.
func (r *Results) EngineGiveaway(s int) float64 {
	if r.Matches[s] == 0 {
		return 0
	}
	return float64(r.Given[s]) / float64(r.Matches[s])
}
