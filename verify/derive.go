package verify

import (
	"strings"

	"github.com/sealedhq/sealed/rules/auction"
	"github.com/sealedhq/sealed/rules/bargain"
)

// Derivation is what a re-simulation derived from a replay's seed and its
// inputs: the values the rules give, where the replay's own claims may
// differ (the report lists each difference). A page or a tool that draws a
// replay draws these, so that a value the server claimed shows only in
// the differences, never as a fact (docs/web.md, "Replays"). Exactly one
// of Auction and Bargain is set.
type Derivation struct {
	Auction *AuctionDerivation
	Bargain *BargainDerivation
}

// AuctionDerivation is what re-simulating a Blind Auction replay derived.
// When the re-simulation stopped early (an event of the wrong type, the
// report's difference in "type"), it holds what was derived up to there.
type AuctionDerivation struct {
	// Items are the items resolved, in order: every seat's bid as the
	// bid_placed and timeout events gave it (an illegal bid as 0), the
	// winner, price, value and profit the rules give.
	Items []auction.ItemResult
	// Players is every seat's standing after the last resolved item.
	Players []auction.PlayerState
	// Complete is set when the re-simulation reached auction_end; only
	// then are Ranking and, for a paid table, Payout set.
	Complete bool
	Ranking  []auction.Standing
	Payout   *auction.Payout
}

// BargainDerivation is what re-simulating a Negotiation Games replay, of
// either dialect, derived.
type BargainDerivation struct {
	// Engine is set for the engine's dialect; Names are then the seat
	// aliases its integer seed gives.
	Engine bool
	Names  [bargain.Seats]string
	// Matches are the matches begun, in order, with the moves the rules
	// applied (an illegal action changes nothing and is left out).
	Matches []BargainMatch
	// Results are the tallies after the last event.
	Results bargain.Results
	// Scores and Giveaway are Results' scores and giveaway as the dialect
	// writes them: 4 places (bargain.FormatDecimal) for sealed's, the
	// shortest form of the engine's float64 for the engine's.
	Scores, Giveaway [bargain.Seats]string
}

// BargainMatch is one match a re-simulation began.
type BargainMatch struct {
	// Plan is the match's seats, opener, pool and values, from the seed.
	Plan bargain.MatchPlan
	// Moves are its offers and accepts, as the rules applied them.
	Moves []BargainMove
}

// Settled returns the move that settled the match (an accept, or the
// offer on the last turn), or nil while it was still in play.
func (m *BargainMatch) Settled() *bargain.Move {
	if n := len(m.Moves); n > 0 && m.Moves[n-1].Move.Ended {
		return &m.Moves[n-1].Move
	}
	return nil
}

// BargainMove is one offer or accept the rules applied.
type BargainMove struct {
	// Event is the move's index in the replay's events.
	Event int
	// Move is the move as the rules derived it: the actor, its turn, the
	// take (an offer's is the replay's input; an accept's the complement
	// of the standing offer), worth or payoff.
	Move bargain.Move
	// Text is the message the replay gives with the move: an input, as
	// the seat wrote it.
	Text string
}

// CheckReplayDerived is CheckReplayWith, and returns as well what the
// re-simulation derived (nil with an error). Recording it costs the
// check a few allocations; CheckReplayWith records nothing.
func CheckReplayDerived(data []byte, o ReplayOptions) (*Report, *Derivation, error) {
	d := new(Derivation)
	rep, err := checkReplay(data, o, d)
	if err != nil {
		return nil, nil, err
	}
	return rep, d, nil
}

// auction returns d.Auction, or nil when d is nil.
func (d *Derivation) auction() *AuctionDerivation {
	if d == nil {
		return nil
	}
	return d.Auction
}

// bargain returns d.Bargain, or nil when d is nil.
func (d *Derivation) bargain() *BargainDerivation {
	if d == nil {
		return nil
	}
	return d.Bargain
}

// record records what the auction checker c derived once its run
// is over; complete says whether it reached auction_end, ranking is the
// derived final ranking when it did.
func (d *AuctionDerivation) record(c *auctionChecker, complete bool) {
	d.Items = append([]auction.ItemResult(nil), c.m.Results()...)
	p := c.m.Config().Players
	d.Players = make([]auction.PlayerState, p)
	for s := range p {
		d.Players[s] = c.m.Player(s)
	}
	d.Complete = complete
	if complete {
		d.Ranking = c.m.Ranking()
		if pay, err := auction.Payouts(c.m.Config(), d.Ranking); err == nil {
			d.Payout = pay
		}
	}
}

// match records a match the bargaining check began.
func (d *BargainDerivation) match(p bargain.MatchPlan) {
	d.Matches = append(d.Matches, BargainMatch{Plan: p})
}

// move records a move the rules applied at event i, with its message
// (copied: it may point into the replay's bytes).
func (d *BargainDerivation) move(i int, mv *bargain.Move, text string) {
	if len(d.Matches) == 0 {
		return // unreachable: a move needs a match in play
	}
	m := &d.Matches[len(d.Matches)-1]
	m.Moves = append(m.Moves, BargainMove{Event: i, Move: *mv, Text: strings.Clone(text)})
}

// finish records the episode's results.
func (d *BargainDerivation) finish(ep *bargain.Episode) {
	d.Results = ep.Results()
	for s := range bargain.Seats {
		if d.Engine {
			d.Scores[s] = string(bargain.AppendEngineFloat(nil, d.Results.EngineScore(s), bargain.FloatShortest))
			d.Giveaway[s] = string(bargain.AppendEngineFloat(nil, d.Results.EngineGiveaway(s), bargain.FloatShortest))
		} else {
			d.Scores[s] = bargain.FormatDecimal(&d.Results.Scores[s])
			d.Giveaway[s] = bargain.FormatDecimal(&d.Results.Giveaway[s])
		}
	}
}
