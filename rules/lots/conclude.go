package lots

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/cockroachdb/apd/v3"

	"github.com/sealedhq/sealed/rules/secret"
)

// Pricing is what the winner of a lot pays (reading S8).
type Pricing int

const (
	// FirstPrice (the default, the zero value): the winner loses the amount
	// they bid (seed 004, rule "Auctions", subrule "Bidding", as drafted).
	FirstPrice Pricing = iota
	// SecondPrice (Vickrey, the proposal's idea "the person with the top
	// bid wins, for the second-highest price"): the winner loses the bid of
	// the bidder next in priority on that lot, or 0 when they bid alone.
	SecondPrice
)

// String returns "first-price" or "second-price".
func (p Pricing) String() string {
	if p == SecondPrice {
		return "second-price"
	}
	return "first-price"
}

// MarshalText encodes the pricing as its String, for JSON output.
func (p Pricing) MarshalText() ([]byte, error) { return []byte(p.String()), nil }

// BidAction is a secret bid action that succeeded as a secret action (it
// was revealed in its window; see rules/secret), with its declared bids.
type BidAction struct {
	// Player is the player who posted the action.
	Player string `json:"player"`
	// Index is the ledger index of the action's post.
	Index int64 `json:"index"`
	// Posted is the time of the action's post (posted_at, else the ledger
	// integration time; secret.Stamp.Time).
	Posted time.Time `json:"posted"`
	// Bids are the declared bids (secret.Declaration.Bids).
	Bids []secret.Bid `json:"bids"`
}

// HandAction is a Submitting a Hand action that succeeded as a secret
// action, with its declared cards.
type HandAction struct {
	// Player, Index and Posted are as in BidAction.
	Player string    `json:"player"`
	Index  int64     `json:"index"`
	Posted time.Time `json:"posted"`
	// Cards are the declared cards (secret.Declaration.Hand), unchecked.
	Cards []secret.Card `json:"cards"`
}

// Input is the state of the game at a week's revelation date, everything
// the conclusion of seed 004's Auctions rule needs.
type Input struct {
	// Lots are the active lots, in the order they are concluded; names as
	// in secret.Bid (lower-case, no '#'). Nil means every lot bid on,
	// ordered by name (shorter first, so "2" before "10").
	Lots []string
	// Players are the players at the conclusion; a bidder who is not one
	// has ceased to be a player and their bids are withdrawn. Nil means
	// every key of Points.
	Players []string
	// Points are each player's points before the conclusion (whole
	// numbers >= 0). A player absent here has 0.
	Points map[string]int64
	// Possessions are the cards each player holds before the conclusion.
	Possessions map[string][]secret.Card
	// Prizes are the points gained for placement 1, 2, ...; a placement
	// beyond the slice gains nothing. Prizes other than points are not
	// modelled.
	Prizes []int64
	// Bids and Hands are the week's successful secret actions.
	Bids  []BidAction
	Hands []HandAction
	// Pricing is first-price (default) or second-price.
	Pricing Pricing
	// Ranker orders Hands; nil means Poker.
	Ranker Ranker
}

// Status of a bid or Hand in an Outcome.
type Status string

const (
	Won        Status = "won"        // the bid had priority and took the lot
	Outbid     Status = "outbid"     // the bid stood but another had priority
	Failed     Status = "failed"     // the bid or Hand failed (see Reason)
	Withdrawn  Status = "withdrawn"  // the bidder ceased to be a player
	Replaced   Status = "replaced"   // a later action of the same player bid on the lot
	Placed     Status = "placed"     // the Hand received a placement
	Superseded Status = "superseded" // a more recent Hand of the player was placed
)

// BidResult is the fate of one declared bid.
type BidResult struct {
	// Player, Lot and Amount are the bid as declared; Index and Posted
	// those of its action's post.
	Player string    `json:"player"`
	Lot    string    `json:"lot"`
	Amount string    `json:"amount"`
	Index  int64     `json:"index"`
	Posted time.Time `json:"posted"`
	Status Status    `json:"status"`
	// Why explains the status: rule, reading and decision.
	Why secret.Explanation `json:"why"`
}

// LotResult is the conclusion of one lot.
type LotResult struct {
	// Lot is the lot's name.
	Lot string `json:"lot"`
	// Priority lists the standing bidders in priority order (reading S7).
	Priority []Standing `json:"priority"`
	// Winner is the player the lot is transferred to, "" when no bid stood.
	Winner string `json:"winner,omitempty"`
	// Price is the points the winner loses (reading S8).
	Price int64 `json:"price"`
	// Why explains the transfer and the price.
	Why secret.Explanation `json:"why"`
}

// Standing is a bid that stood on a lot at the revelation date.
type Standing struct {
	Player string `json:"player"`
	Amount int64  `json:"amount"`
	// Since is the time of the post that started or last raised the bid,
	// and Index that post's ledger index (reading S7's tie-breaks).
	Since time.Time `json:"since"`
	Index int64     `json:"index"`
}

// HandResult is the fate of one submitted Hand.
type HandResult struct {
	// Player, Index, Posted and Cards are those of the HandAction.
	Player string        `json:"player"`
	Index  int64         `json:"index"`
	Posted time.Time     `json:"posted"`
	Cards  []secret.Card `json:"cards"`
	Status Status        `json:"status"`
	// Place is the placement (1 = best; equal hands share a place, and the
	// next place skips: 1, 1, 3), 0 when not placed.
	Place int `json:"place,omitempty"`
	// Strength names the hand (Ranker.Name), for placed hands.
	Strength string `json:"strength,omitempty"`
	// Prize is the points gained for the placement.
	Prize int64 `json:"prize,omitempty"`
	// Why explains the placement or the failure.
	Why secret.Explanation `json:"why"`
}

// Outcome is the conclusion of a week: Hands first, then lots, as seed 004
// orders ("before lots are given out for auctions").
type Outcome struct {
	// Pricing is the pricing used.
	Pricing Pricing `json:"pricing"`
	// Hands are the week's Hands, most recent first; Bids every declared
	// bid in order of post; Lots every lot in conclusion order.
	Hands []HandResult `json:"hands"`
	Bids  []BidResult  `json:"bids"`
	Lots  []LotResult  `json:"lots"`
	// Points are each player's points after prizes and lot prices.
	Points map[string]int64 `json:"points"`
	// Possessions are each player's cards after the placed Hands' cards
	// were destroyed.
	Possessions map[string][]secret.Card `json:"possessions"`
	// LotsWon lists per player the lots transferred to them, in conclusion
	// order.
	LotsWon map[string][]string `json:"lots_won"`
}

// Conclude concludes a week at its revelation date (seed 004, rule
// "Auctions", subrules "Prizes", "Submitting a Hand" and "Bidding"):
//
//  1. Hands: each player's most recent successful Hand is checked (five
//     distinct cards in their possession), placed by strength, its cards
//     destroyed, and the placement's prize gained.
//  2. Bids: a bid that is not a whole number > 0 fails; bids of one action
//     on the same lot all fail; a bid on an inactive lot fails; the bids of
//     a bidder who ceased to be a player are withdrawn; if a player's
//     remaining bids sum past their points, all their bids fail (S6); a
//     bid past 2^63-1 is past any player's points.
//  3. Lots, in order: priority by higher bid, then earlier post that
//     started or last raised the bid, then lower ledger index (S7); the lot
//     goes to the first in priority, who loses the price (S8).
//
// It returns an error for input no game state could be: negative points or
// prizes, points that could pass 2^63-1 with the largest prize, a lot
// listed twice, an unknown pricing. Input is not modified.
func Conclude(in Input) (*Outcome, error) {
	if err := in.validate(); err != nil {
		return nil, err
	}
	out := &Outcome{
		Pricing:     in.Pricing,
		Points:      map[string]int64{},
		Possessions: map[string][]secret.Card{},
		LotsWon:     map[string][]string{},
	}
	for p, n := range in.Points {
		out.Points[p] = n
	}
	for p, cs := range in.Possessions {
		out.Possessions[p] = slices.Clone(cs)
	}
	players := map[string]bool{}
	if in.Players == nil {
		for p := range in.Points {
			players[p] = true
		}
	} else {
		for _, p := range in.Players {
			players[p] = true
		}
	}
	ranker := in.Ranker
	if ranker == nil {
		ranker = Poker{}
	}
	out.Hands = placeHands(in, players, ranker, out)
	out.Bids, out.Lots = concludeLots(in, players, out)
	return out, nil
}

func (in Input) validate() error {
	for p, n := range in.Points {
		if n < 0 {
			return fmt.Errorf("points of %q are %d: want a whole number >= 0", p, n)
		}
	}
	maxPrize := int64(0)
	for i, n := range in.Prizes {
		if n < 0 {
			return fmt.Errorf("prize for placement %d is %d: want a whole number >= 0", i+1, n)
		}
		maxPrize = max(maxPrize, n)
	}
	// A player gains at most one prize (one Hand placed), and prices only
	// take away points they have: points plus the largest prize must fit.
	for p, n := range in.Points {
		if n > math.MaxInt64-maxPrize {
			return fmt.Errorf("points of %q (%d) plus the largest prize (%d) would be more than %d, the most points this program counts: want smaller points or prizes",
				p, n, maxPrize, int64(math.MaxInt64))
		}
	}
	seen := map[string]bool{}
	for _, l := range in.Lots {
		if seen[l] {
			return fmt.Errorf("lot %q listed twice", l)
		}
		seen[l] = true
	}
	if in.Pricing != FirstPrice && in.Pricing != SecondPrice {
		return fmt.Errorf("pricing %d: want first-price (0) or second-price (1)", in.Pricing)
	}
	return nil
}

// byPost orders actions by time of post, then ledger index.
func byPost(ta time.Time, ia int64, tb time.Time, ib int64) int {
	if c := ta.Compare(tb); c != 0 {
		return c
	}
	return cmp.Compare(ia, ib)
}

// amount is a bid amount that is a whole number greater than zero
// (reading S6): n when it fits in int64, else big holds it (beyond
// 2^63-1, more than any player's points).
type amount struct {
	n   int64
	big *apd.Decimal
}

// greater reports whether a is more than b.
func (a amount) greater(b amount) bool {
	switch {
	case a.big == nil && b.big == nil:
		return a.n > b.n
	case a.big == nil:
		return false
	case b.big == nil:
		return true
	}
	return a.big.Cmp(b.big) > 0
}

// wholeAmount parses a bid amount and reports whether it is a whole number
// greater than zero (reading S6). "15", "+15" and "15.0" are 15; "0",
// "-3", "2.5" are not whole numbers > 0. A whole number past 2^63-1
// ("9223372036854775808") is one, returned in amount.big.
func wholeAmount(s string) (amount, bool) {
	d, _, err := apd.NewFromString(s)
	if err != nil || d.Form != apd.Finite || d.Sign() <= 0 {
		return amount{}, false
	}
	var r apd.Decimal
	r.Reduce(d)
	if r.Exponent < 0 {
		return amount{}, false
	}
	n, err := r.Int64()
	if err != nil {
		return amount{big: d}, true
	}
	return amount{n: n}, true
}
