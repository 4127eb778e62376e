package auction

import (
	"fmt"
	"unicode/utf8"

	"github.com/sealedhq/sealed/rules/rng"
)

// Turn says whose turn it is: the item (1-based), the phase, the seat, and
// for a talk turn the round (1-based).
type Turn struct {
	Item  int
	Phase Phase
	Seat  int
	Round int
}

// PlayerState is a seat's public standing (seed 000, visible_state
// players[]): credits left, total profit (may be negative), items won.
type PlayerState struct {
	Seat     int `json:"seat"`
	Credits  int `json:"credits"`
	Profit   int `json:"profit"`
	ItemsWon int `json:"items_won"`
}

// ItemResult is how one item was resolved (seed 000, "One item" 3-4;
// the item_result event). For an unsold item (every bid 0) Sold is false and
// Winner is -1, Price, Value and Profit 0.
type ItemResult struct {
	Item     int             // 1-based
	Bids     [MaxPlayers]int // every seat's bid, a missed bid as 0; Bids[:Players] are used
	Sold     bool            // false when every bid was 0
	Winner   int             // seat, or -1 when unsold
	Price    int             // credits the winner paid
	Value    int             // the winner's private value for the item
	Profit   int             // Value - Price; negative is the winner's curse
	TieBreak bool            // the top bid was tied and the tie-break stream chose the winner
}

// Match is the Blind Auction state machine for one table. It applies
// actions in turn order and resolves each item when its last bid is in.
// Create it with NewMatch, or start a new match in an existing one with
// Reset; it is not safe for concurrent use.
type Match struct {
	cfg      Config
	src      rng.Source // the seed's HMAC key: the values and tie-break streams share one key setup
	values   []int      // item-major, see deriveValues
	tiebreak *rng.Stream
	item     int  // current item, 1-based; Items+1 when over
	bidding  bool // in the bid phase (else the talk phase)
	seat     int  // whose turn it is
	round    int  // talk round, 1-based; 0 in the bid phase
	credits  [MaxPlayers]int
	profit   [MaxPlayers]int
	won      [MaxPlayers]int
	bids     [MaxPlayers]int
	results  []ItemResult
}

// NewMatch starts a match: it validates cfg, derives the values table from
// the 32-byte seed (Values) and gives every seat StartingCredits. It returns
// an error wrapping ErrConfig for a bad config, or one naming the seed
// length for a seed that is not 32 bytes.
func NewMatch(seed []byte, cfg Config) (*Match, error) {
	m := new(Match)
	if err := m.Reset(seed, cfg); err != nil {
		return nil, err
	}
	return m, nil
}

// Reset starts a new match in m, exactly as NewMatch(seed, cfg) would, but
// reuses m's storage for the values table and the results, so that a
// caller re-simulating many matches (verify.CheckAuction) reuses the
// seed's HMAC state (rng.Source.Reset) too. Slices returned earlier by m.Results are
// overwritten. It returns the errors of NewMatch, and then leaves m
// unchanged.
func (m *Match) Reset(seed []byte, cfg Config) error {
	if err := cfg.Validate(); err != nil {
		return err
	}
	if len(seed) != rng.SeedSize {
		return seedSizeError(seed)
	}
	*m = Match{cfg: cfg, src: m.src, values: m.values, results: m.results[:0]}
	if err := m.src.Reset(seed); err != nil {
		return seedSizeError(seed) // never: the size was checked above
	}
	m.values = deriveValues(m.values, &m.src, &m.cfg)
	if cap(m.results) < cfg.Items {
		m.results = make([]ItemResult, 0, cfg.Items)
	}
	for s := 0; s < cfg.Players; s++ {
		m.credits[s] = cfg.StartingCredits
	}
	m.startItem(1)
	return nil
}

// startItem moves to item's first turn: talk round 1 for seat 0, or seat
// 0's bid when there are no talk rounds.
func (m *Match) startItem(item int) {
	m.item, m.seat = item, 0
	m.bidding, m.round = m.cfg.TalkRounds == 0, 1
	if m.bidding {
		m.round = 0
	}
}

// Config returns the match's config.
func (m *Match) Config() Config { return m.cfg }

// Value returns item's (1-based) private value to seat. It panics if item
// or seat is out of range (a programming error).
func (m *Match) Value(item, seat int) int {
	if uint(item-1) >= uint(m.cfg.Items) || uint(seat) >= uint(m.cfg.Players) {
		panic(rangeError{"Value", [2]int{item, seat}, 2})
	}
	return m.values[(item-1)*m.cfg.Players+seat]
}

// rangeError is the panic value of Value and Player for arguments out of
// range (a programming error); a panic value rather than a call keeps
// them small enough to inline.
type rangeError struct {
	method string
	args   [2]int
	n      int // how many of args the method takes
}

func (e rangeError) Error() string {
	if e.n == 1 {
		return fmt.Sprintf("auction: %s(%d) out of range", e.method, e.args[0])
	}
	return fmt.Sprintf("auction: %s(%d, %d) out of range", e.method, e.args[0], e.args[1])
}

// Over reports whether every item is resolved.
func (m *Match) Over() bool { return m.item > m.cfg.Items }

// Turn returns whose turn it is; Phase is PhaseOver once the match is over.
func (m *Match) Turn() Turn {
	switch {
	case m.Over():
		return Turn{Item: m.cfg.Items, Phase: PhaseOver, Seat: -1}
	case m.bidding:
		return Turn{Item: m.item, Phase: PhaseBid, Seat: m.seat}
	}
	return Turn{Item: m.item, Phase: PhaseTalk, Seat: m.seat, Round: m.round}
}

// Seat returns the seat whose turn it is, or -1 once the match is over
// (the Seat of Turn, without building the Turn).
func (m *Match) Seat() int {
	if m.Over() {
		return -1
	}
	return m.seat
}

// Player returns seat's public standing. It panics if seat is out of range.
func (m *Match) Player(seat int) PlayerState {
	if uint(seat) >= uint(m.cfg.Players) {
		panic(rangeError{"Player", [2]int{seat}, 1})
	}
	return PlayerState{Seat: seat, Credits: m.credits[seat], Profit: m.profit[seat], ItemsWon: m.won[seat]}
}

// Results returns the items resolved so far, in item order. The slice is
// the match's own; do not modify it.
func (m *Match) Results() []ItemResult { return m.results }

// Check reports whether a would be legal now, without applying it: nil, or
// an *IllegalActionError naming the rule broken.
func (m *Match) Check(a Action) error {
	if m.Over() {
		return m.illegal(a, RuleMatchOver, "the match is over")
	}
	if a.Seat != m.seat {
		return m.illegal(a, RuleTurnOrder, fmt.Sprintf("it is seat %d's %s turn", m.seat, m.Turn().Phase))
	}
	switch a.Kind {
	case Timeout:
		return nil
	case Say, Pass:
		if m.bidding {
			return m.illegal(a, RulePhase, a.Kind.String()+" is a talk action, but this is a bid turn")
		}
		if a.Kind == Say && a.Message == "" {
			return m.illegal(a, RuleSayMessage, "say needs a message")
		}
	case Bid:
		if !m.bidding {
			return m.illegal(a, RulePhase, "bid is a bid action, but this is a talk turn")
		}
		if a.Amount < 0 || a.Amount > m.credits[a.Seat] {
			return m.illegal(a, RuleBidRange, fmt.Sprintf("bid %d is outside 0..%d, the seat's credits", a.Amount, m.credits[a.Seat]))
		}
	default:
		return m.illegal(a, RulePhase, fmt.Sprintf("unknown action kind %d", a.Kind))
	}
	if len(a.Message) > MaxMessageChars { // more bytes than allowed characters: count the characters
		if n := utf8.RuneCountInString(a.Message); n > MaxMessageChars {
			return m.illegal(a, RuleMessageLength, fmt.Sprintf("message is %d characters, at most %d allowed", n, MaxMessageChars))
		}
	}
	return nil
}

func (m *Match) illegal(a Action, r Rule, detail string) error {
	return &IllegalActionError{Rule: r, Seat: a.Seat, Item: min(m.item, m.cfg.Items), Detail: detail}
}

// Apply applies a's move for the seat whose turn it is. An illegal action
// returns an *IllegalActionError and changes nothing. A Timeout counts as a
// pass in the talk phase and a bid of 0 in the bid phase. When a completes
// the item's bids, the item is resolved and Apply returns its result (a
// pointer into Results, valid until the next call); otherwise it returns
// nil.
func (m *Match) Apply(a Action) (*ItemResult, error) {
	if err := m.Check(a); err != nil {
		return nil, err
	}
	m.seat++
	if !m.bidding {
		if m.seat == m.cfg.Players {
			m.seat = 0
			if m.round++; m.round > m.cfg.TalkRounds {
				m.bidding, m.round = true, 0
			}
		}
		return nil, nil
	}
	if a.Kind == Bid {
		m.bids[a.Seat] = a.Amount
	}
	if m.seat < m.cfg.Players {
		return nil, nil
	}
	r := m.resolve()
	m.bids = [MaxPlayers]int{}
	m.startItem(m.item + 1)
	return r, nil
}

// resolve settles the current item (seed 000, "One item" 3-4; docs/design.md B1
// and "Blind Auction draws").
func (m *Match) resolve() *ItemResult {
	p := m.cfg.Players
	m.results = append(m.results, ItemResult{Item: m.item, Bids: m.bids, Winner: -1})
	r := &m.results[len(m.results)-1]
	top, ties := 0, 0
	var tied [MaxPlayers]int
	for s := 0; s < p; s++ {
		switch b := m.bids[s]; {
		case b > top:
			top, ties = b, 0
			tied[ties] = s
			ties++
		case b == top && b > 0:
			tied[ties] = s
			ties++
		}
	}
	if top > 0 {
		w := tied[0]
		if ties > 1 {
			if m.tiebreak == nil {
				m.tiebreak = m.src.Stream(rng.LabelAuctionTiebreak) // the values stream is done with the shared key
			}
			w = tied[m.tiebreak.Intn(uint64(ties))]
			r.TieBreak = true
		}
		price := top
		if m.cfg.Pricing == SecondPrice {
			price = 0
			for s := 0; s < p; s++ {
				if s != w && m.bids[s] > price {
					price = m.bids[s]
				}
			}
		}
		r.Sold, r.Winner, r.Price = true, w, price
		r.Value = m.values[(m.item-1)*p+w]
		r.Profit = r.Value - price
		m.credits[w] -= price
		m.profit[w] += r.Profit
		m.won[w]++
	}
	return r
}
