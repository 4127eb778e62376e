package bargain

import (
	"fmt"
	"github.com/sealedhq/sealed/rules/nimrand"

	"github.com/sealedhq/sealed/rules/rng"
)

// Reason is how an episode ended, results.reason: "complete" or "deadline"
// and nothing else (seed 002, "How an episode ends").
type Reason string

// The two episode end reasons.
const (
	// ReasonComplete: all scheduled matches reached a matchEnd.
	ReasonComplete Reason = "complete"
	// ReasonDeadline: the play clock stopped play between matches.
	ReasonDeadline Reason = "deadline"
)

// Config is an episode's configuration (seed 002, "The table", "The turn
// cliff").
type Config struct {
	// Matches is the number of matches, 3 or 6 (default 6).
	Matches int `json:"matches"`
	// MaxTurns is the turn limit of every match, even, 2..12 (default 10).
	MaxTurns int `json:"maxTurns"`
}

// DefaultConfig returns 6 matches of at most 10 turns.
func DefaultConfig() Config { return Config{Matches: DefaultMatches, MaxTurns: DefaultMaxTurns} }

// Validate returns an error unless Matches is 3 or 6 and MaxTurns is even
// in 2..12.
func (c Config) Validate() error {
	if c.Matches != 3 && c.Matches != 6 {
		return fmt.Errorf("matches is %d; expected 3 or 6", c.Matches)
	}
	return checkMaxTurns(c.MaxTurns)
}

// maxMatches is the largest legal number of matches in an episode.
const maxMatches = 6

// Episode is the state machine of a three-seat episode (seed 002): matches
// begin one at a time in schedule order, offers and accepts are applied to
// the match in play, and a deadline may stop play between matches. It keeps
// the per-seat tallies. The zero value is not usable: call NewEpisode.
// Illegal actions return an *ActionError and change nothing.
type Episode struct {
	cfg     Config
	plans   [maxMatches]MatchPlan
	cur     Match
	inMatch bool // cur is in play
	begun   int  // matches begun
	settled int  // matches that reached a matchEnd
	done    bool
	reason  Reason
	points  [Seats]int
	played  [Seats]int
	deals   [Seats]int
	given   [Seats]int   // sum of the opponents' u over settled matches
	taken   [Seats]int   // sum of own u over settled matches
	rng     nimrand.Rand // ResetEngine's draws, held here so that they cost no allocation
}

// NewEpisode derives an episode's schedule from a 32-byte seed (DrawMatch
// for m = 0..Matches-1) and returns it before its first match. It returns
// an error for an invalid config or a seed that is not 32 bytes.
func NewEpisode(seed []byte, cfg Config) (*Episode, error) {
	e := new(Episode)
	if err := e.Reset(seed, cfg); err != nil {
		return nil, err
	}
	return e, nil
}

// Reset re-derives e in place from seed and cfg, as NewEpisode does, so
// that one Episode can re-simulate many replays without allocating. On an
// error e is left unusable until a successful Reset.
func (e *Episode) Reset(seed []byte, cfg Config) error {
	if err := cfg.Validate(); err != nil {
		return err
	}
	*e = Episode{cfg: cfg}
	src, err := rng.NewSource(seed)
	if err != nil {
		e.done = true
		return fmt.Errorf("bargaining pools: %w", err)
	}
	for m := 0; m < cfg.Matches; m++ {
		p, err := drawMatch(src, m)
		if err != nil {
			e.done = true
			return err
		}
		e.plans[m] = p
	}
	return nil
}

// Config returns the episode's config.
func (e *Episode) Config() Config { return e.cfg }

// Plan returns the plan of match m, 0 <= m < Matches; ok is false otherwise.
func (e *Episode) Plan(m int) (p MatchPlan, ok bool) {
	if m < 0 || m >= e.cfg.Matches {
		return p, false
	}
	return e.plans[m], true
}

// Current returns the match in play, or nil between matches.
func (e *Episode) Current() *Match {
	if !e.inMatch {
		return nil
	}
	return &e.cur
}

// Settled returns the number of matches that reached a matchEnd.
func (e *Episode) Settled() int { return e.settled }

// Done reports whether the episode has ended, and why.
func (e *Episode) Done() (bool, Reason) { return e.done, e.reason }

// BeginMatch starts the next scheduled match and returns its plan. It is
// legal only between matches while scheduled matches remain; it returns an
// *ActionError otherwise.
func (e *Episode) BeginMatch() (MatchPlan, error) {
	switch {
	case e.done:
		return MatchPlan{}, illegal(RuleEpisodeOver, "the episode has ended (%s); expected no further match", e.reason)
	case e.inMatch:
		return MatchPlan{}, illegal(RuleMatchInPlay, "match %d is in play; expected it to end before the next begins", e.cur.plan.Match)
	case e.begun >= e.cfg.Matches:
		return MatchPlan{}, illegal(RuleMatchInPlay, "all %d matches have been played", e.cfg.Matches)
	}
	p := e.plans[e.begun]
	if err := e.cur.reset(p, e.cfg.MaxTurns); err != nil {
		return MatchPlan{}, err // unreachable: drawn plans are valid
	}
	e.begun++
	e.inMatch = true
	return p, nil
}

func (e *Episode) live() error {
	if e.done {
		return illegal(RuleEpisodeOver, "the episode has ended (%s); expected no further action", e.reason)
	}
	if !e.inMatch {
		return illegal(RuleMatchInPlay, "no match is in play; expected a match to begin first")
	}
	return nil
}

// Offer applies an offer by the seat to move in the match in play (see
// Match.Offer). When the offer settles the match (the turn cliff), the
// tallies move, and the episode ends "complete" if it was the last match.
func (e *Episode) Offer(take Vector, message, notes string) (Move, error) {
	if err := e.live(); err != nil {
		return Move{}, err
	}
	mv, err := e.cur.Offer(take, message, notes)
	if err == nil && mv.Ended {
		e.settle(mv)
	}
	return mv, err
}

// Accept applies an accept by the seat to move in the match in play (see
// Match.Accept); the match settles, the tallies move, and the episode ends
// "complete" if it was the last match.
func (e *Episode) Accept(message, notes string) (Move, error) {
	if err := e.live(); err != nil {
		return Move{}, err
	}
	mv, err := e.cur.Accept(message, notes)
	if err == nil {
		e.settle(mv)
	}
	return mv, err
}

// settle moves the tallies of the two seats of a settled match.
func (e *Episode) settle(mv Move) {
	seats := e.cur.plan.Seats
	for side, seat := range seats {
		e.points[seat] += mv.Payoff[side]
		e.played[seat]++
		if mv.Outcome == OutcomeDeal {
			e.deals[seat]++
		}
		e.taken[seat] += mv.Payoff[side]
		e.given[seat] += mv.Payoff[1-side]
	}
	e.settled++
	e.inMatch = false
	if e.settled >= e.cfg.Matches {
		e.done, e.reason = true, ReasonComplete
	}
}

// Deadline ends the episode with reason "deadline": the play clock stopped
// play. It is legal only between matches (before the first, or after a
// matchEnd) while the episode has not ended; it returns an *ActionError
// otherwise. Results then use the matches actually settled.
func (e *Episode) Deadline() error {
	if e.done {
		return illegal(RuleEpisodeOver, "the episode has already ended (%s)", e.reason)
	}
	if e.inMatch {
		return illegal(RuleDeadlineBetweenMatches, "match %d is in play; a deadline stops play only between matches", e.cur.plan.Match)
	}
	e.done, e.reason = true, ReasonDeadline
	return nil
}
