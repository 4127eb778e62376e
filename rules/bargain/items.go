package bargain

// Fixed sizes and limits of the Negotiation Games (seed 002, "The table",
// "The pool and the valuations", "The two actions", "The turn cliff").
const (
	// Seats is the number of seats at the table (seed 002, "The table").
	Seats = 3
	// NumItems is the number of item types: books, hats, balls, in that order.
	NumItems = 3
	// PoolValue is what the whole pool is worth to each seat of a match.
	PoolValue = 10
	// MinCount and MaxCount bound each item count of a pool.
	MinCount, MaxCount = 1, 4
	// MinPoolItems and MaxPoolItems bound the total number of items in a pool.
	MinPoolItems, MaxPoolItems = 5, 7
	// MaxValue is the largest per-item value in a value table V(c).
	MaxValue = 10
	// CountDraws is how many count triples are drawn before settling on
	// FallbackCounts (docs/design.md, "Bargaining pools").
	CountDraws = 32
	// ValueRedraws is how many times seat B's values are redrawn while some
	// item type is worthless to both seats.
	ValueRedraws = 16
	// MaxMessageRunes caps a public message, counted in Unicode code points.
	MaxMessageRunes = 200
	// MaxNotesRunes caps private notes, counted in Unicode code points.
	MaxNotesRunes = 400
	// DefaultMatches and DefaultMaxTurns are the defaults of an episode.
	DefaultMatches, DefaultMaxTurns = 6, 10
	// MinMaxTurns and MaxMaxTurns bound maxTurns, which must also be even.
	MinMaxTurns, MaxMaxTurns = 2, 12
	// MatchKind is the kind of every match in negotiation.replay.v1.
	MatchKind = "bargaining"
)

// ItemNames names the item types in their fixed order.
var ItemNames = [NumItems]string{"books", "hats", "balls"}

// FallbackCounts is the pool used when CountDraws count triples all miss the
// 5..7 window.
var FallbackCounts = Vector{3, 2, 2}

// Vector is one number per item type, in the order books, hats, balls: a
// pool's counts, a seat's per-item values (0..10), or a take vector (how
// many of each item a seat takes, 0..count).
type Vector [NumItems]int

// Dot returns the sum over item types of v[i]*w[i]: the worth of a take
// vector v to a seat with values w.
func (v Vector) Dot(w Vector) int { return v[0]*w[0] + v[1]*w[1] + v[2]*w[2] }

// Sum returns the total number of items in v.
func (v Vector) Sum() int { return v[0] + v[1] + v[2] }

// Minus returns v - w element by element: with v a pool and w a take vector,
// what the opponent receives.
func (v Vector) Minus(w Vector) Vector { return Vector{v[0] - w[0], v[1] - w[1], v[2] - w[2]} }

// bothValued reports whether no item type is worth 0 to both a and b.
func bothValued(a, b Vector) bool {
	return a[0]+b[0] > 0 && a[1]+b[1] > 0 && a[2]+b[2] > 0
}
