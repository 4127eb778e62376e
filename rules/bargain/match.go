package bargain

import (
	"fmt"
	"unicode/utf8"
)

// Outcome is how a match ended: "deal" or "no_deal" (seed 002, "How an
// episode ends": the matchEnd event's enum, never a results.reason).
type Outcome string

// The two match outcomes.
const (
	OutcomeDeal   Outcome = "deal"
	OutcomeNoDeal Outcome = "no_deal"
)

// Move is what one legal offer or accept did.
type Move struct {
	// Match is the 0-based match index.
	Match int
	// Turn is the 1-based turn the action was taken on.
	Turn int
	// Seat is the acting seat and Other its opponent (0..2).
	Seat, Other int
	// Accept is true for an accept and false for an offer.
	Accept bool
	// Take is, for an offer, what the actor takes; for an accept, what the
	// accepter receives (the complement of the standing take).
	Take Vector
	// Worth is, for an offer, [worth to the actor, worth to the other] of
	// the proposed split, each 0..10, in each seat's own values.
	Worth [2]int
	// Ended reports that this action settled the match: an accept (deal) or
	// an offer on the last turn (the turn cliff, no_deal).
	Ended bool
	// Outcome, Payoff and TurnsUsed are set when Ended: the payoffs are
	// [u(A), u(B)] in the match's seat order, 0..10 each, [0, 0] for a
	// no_deal; TurnsUsed is the turn of the accept, or maxTurns.
	Outcome   Outcome
	Payoff    [2]int
	TurnsUsed int
}

// Match is the state machine of one bargaining match (seed 002, "The two
// actions", "The turn cliff"). The zero value is not usable: call NewMatch.
// Illegal actions return an *ActionError and change nothing.
type Match struct {
	plan     MatchPlan
	maxTurns int
	turn     int    // 1-based turn to be played
	standing Vector // the standing take, from standingSide's side
	stSide   int    // side of the standing offer, -1 when none
	ended    bool
	outcome  Outcome
	payoff   [2]int
}

// NewMatch starts a match on plan with maxTurns turns. The plan may come
// from anywhere: it is checked with ValidatePool, its seats must be two
// distinct seats 0..2, its opener one of them, and maxTurns even in 2..12.
// It returns an error saying what was wrong otherwise.
func NewMatch(plan MatchPlan, maxTurns int) (*Match, error) {
	m := new(Match)
	if err := m.reset(plan, maxTurns); err != nil {
		return nil, err
	}
	return m, nil
}

func (m *Match) reset(plan MatchPlan, maxTurns int) error {
	if err := checkMaxTurns(maxTurns); err != nil {
		return err
	}
	s := plan.Seats
	if s[0] < 0 || s[0] >= Seats || s[1] < 0 || s[1] >= Seats || s[0] == s[1] {
		return fmt.Errorf("match seats %v; expected two different seats 0..%d", s, Seats-1)
	}
	if plan.Opener != s[0] && plan.Opener != s[1] {
		return fmt.Errorf("opener %d is not in the match seats %v", plan.Opener, s)
	}
	if err := ValidatePool(plan.Pool, plan.Values[0], plan.Values[1]); err != nil {
		return err
	}
	*m = Match{plan: plan, maxTurns: maxTurns, turn: 1, stSide: -1}
	return nil
}

func checkMaxTurns(n int) error {
	if n < MinMaxTurns || n > MaxMaxTurns || n%2 != 0 {
		return fmt.Errorf("maxTurns is %d; expected an even number %d..%d", n, MinMaxTurns, MaxMaxTurns)
	}
	return nil
}

// Plan returns the match's plan.
func (m *Match) Plan() MatchPlan { return m.plan }

// Turn returns the 1-based turn to be played next (after the match ended,
// the turn after the last one played).
func (m *Match) Turn() int { return m.turn }

// MaxTurns returns the match's turn limit.
func (m *Match) MaxTurns() int { return m.maxTurns }

// Ended reports whether the match has settled.
func (m *Match) Ended() bool { return m.ended }

// ActorSide returns the side (0 for seat A, 1 for seat B) to move: the
// opener on odd turns, the other side on even turns.
func (m *Match) ActorSide() int {
	o := m.plan.OpenerSide()
	if m.turn%2 == 1 {
		return o
	}
	return 1 - o
}

// Actor returns the seat (0..2) to move.
func (m *Match) Actor() int { return m.plan.Seats[m.ActorSide()] }

// Standing returns the standing take and the seat that offered it; ok is
// false when no offer stands (turn 1).
func (m *Match) Standing() (take Vector, seat int, ok bool) {
	if m.stSide < 0 {
		return take, -1, false
	}
	return m.standing, m.plan.Seats[m.stSide], true
}

func checkTexts(message, notes string) *ActionError {
	if n := utf8.RuneCountInString(message); n > MaxMessageRunes {
		return illegal(RuleMessageLength, "message has %d characters; expected at most %d", n, MaxMessageRunes)
	}
	if n := utf8.RuneCountInString(notes); n > MaxNotesRunes {
		return illegal(RuleNotesLength, "notes have %d characters; expected at most %d", n, MaxNotesRunes)
	}
	return nil
}

// Offer applies an offer by the seat to move: it takes take[i] of each item
// type and the opponent gets the rest. It is legal iff the match is in play,
// 0 <= take[i] <= count[i] for every item, the message is at most 200 runes
// and the notes at most 400. An offer on the last turn settles the match as
// no_deal with both seats banking 0 (the turn cliff). It returns an
// *ActionError naming the broken rule, and changes nothing, otherwise.
func (m *Match) Offer(take Vector, message, notes string) (Move, error) {
	var mv Move
	if m.ended {
		return mv, illegal(RuleMatchInPlay, "match %d has ended; expected the next match to begin", m.plan.Match)
	}
	for i, n := range take {
		if n < 0 || n > m.plan.Pool[i] {
			return mv, illegal(RuleTakeWithinCounts, "take of %s is %d; expected 0..%d", ItemNames[i], n, m.plan.Pool[i])
		}
	}
	if err := checkTexts(message, notes); err != nil {
		return mv, err
	}
	side := m.ActorSide()
	mv = Move{Match: m.plan.Match, Turn: m.turn, Seat: m.plan.Seats[side], Other: m.plan.Seats[1-side], Take: take}
	mv.Worth = [2]int{take.Dot(m.plan.Values[side]), m.plan.Pool.Minus(take).Dot(m.plan.Values[1-side])}
	m.standing, m.stSide = take, side
	if m.turn >= m.maxTurns {
		m.ended, m.outcome, m.payoff = true, OutcomeNoDeal, [2]int{}
		mv.Ended, mv.Outcome, mv.TurnsUsed = true, OutcomeNoDeal, m.maxTurns
	}
	m.turn++
	return mv, nil
}

// Accept applies an accept by the seat to move of the offer standing
// against it (the one made on the previous turn). It is legal iff the match
// is in play, an offer stands (turn 2 on), the message is at most 200 runes
// and the notes at most 400. The match settles as a deal: the accepter
// receives the complement of the standing take, the offerer its take, and
// each banks the worth in its own values. It returns an *ActionError naming
// the broken rule, and changes nothing, otherwise.
func (m *Match) Accept(message, notes string) (Move, error) {
	var mv Move
	if m.ended {
		return mv, illegal(RuleMatchInPlay, "match %d has ended; expected the next match to begin", m.plan.Match)
	}
	if m.stSide < 0 {
		return mv, illegal(RuleAcceptStandingOffer, "accept on turn %d with no standing offer; expected an offer first (accept is legal from turn 2)", m.turn)
	}
	if err := checkTexts(message, notes); err != nil {
		return mv, err
	}
	side := m.ActorSide()
	received := m.plan.Pool.Minus(m.standing)
	var payoff [2]int
	payoff[side] = received.Dot(m.plan.Values[side])
	payoff[1-side] = m.standing.Dot(m.plan.Values[1-side])
	mv = Move{Match: m.plan.Match, Turn: m.turn, Seat: m.plan.Seats[side], Other: m.plan.Seats[1-side],
		Accept: true, Take: received, Ended: true, Outcome: OutcomeDeal, Payoff: payoff, TurnsUsed: m.turn}
	m.ended, m.outcome, m.payoff = true, OutcomeDeal, payoff
	return mv, nil
}
