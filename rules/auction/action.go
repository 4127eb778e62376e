package auction

import "fmt"

// Phase is the part of an item's play a turn belongs to (seed 000, "One
// item"; `phase` in visible_state).
type Phase string

const (
	// PhaseTalk: talk turns, TalkRounds per seat in seat order.
	PhaseTalk Phase = "talk"
	// PhaseBid: one sealed bid per seat in seat order.
	PhaseBid Phase = "bid"
	// PhaseOver: every item is resolved.
	PhaseOver Phase = "over"
)

// Kind is what a seat does on its turn (seed 000, "On the wire", move).
type Kind uint8

const (
	// Say sends Message to the table (talk phase).
	Say Kind = iota + 1
	// Pass passes a talk turn.
	Pass
	// Bid seals a bid of Amount credits (bid phase), with an optional
	// public Message.
	Bid
	// Timeout is a missed turn: a pass in the talk phase, a bid of 0 in
	// the bid phase (seed 000, "Timeouts").
	Timeout
)

// String returns the wire name of the kind: "say", "pass", "bid" or
// "timeout".
func (k Kind) String() string {
	switch k {
	case Say:
		return "say"
	case Pass:
		return "pass"
	case Bid:
		return "bid"
	case Timeout:
		return "timeout"
	}
	return fmt.Sprintf("kind(%d)", uint8(k))
}

// Action is one seat's move on its turn. Amount is used by Bid only;
// Message by Say (required) and Bid (optional).
type Action struct {
	Kind    Kind
	Seat    int
	Amount  int
	Message string
}

// Rule names a rule an illegal action broke; it is the Rule of an
// IllegalActionError.
type Rule string

const (
	// RuleTurnOrder: talk and bids go in seat order, one turn at a time
	// (seed 000, "One item" 1 and 2).
	RuleTurnOrder Rule = "turn-order"
	// RulePhase: say and pass belong to the talk phase, bid to the bid
	// phase (seed 000, "On the wire", move).
	RulePhase Rule = "phase"
	// RuleBidRange: a bid is an integer 0..your credits (seed 000, "One
	// item" 2; legal_actions min..max).
	RuleBidRange Rule = "bid-range"
	// RuleMessageLength: a message is at most 280 characters (seed 000,
	// "On the wire"), counted in Unicode code points.
	RuleMessageLength Rule = "message-length"
	// RuleSayMessage: say needs a message (seed 000, "On the wire").
	RuleSayMessage Rule = "say-message"
	// RuleMatchOver: no action is legal once every item is resolved.
	RuleMatchOver Rule = "match-over"
)

// IllegalActionError is returned by Match.Apply for an action the rules do
// not allow; the match is unchanged. Callers branch on Rule.
type IllegalActionError struct {
	Rule   Rule   // the rule broken
	Seat   int    // the seat that acted
	Item   int    // the current item, 1-based
	Detail string // what was wrong and what was expected
}

// Error says who acted, on which item, what was wrong and the rule's name.
func (e *IllegalActionError) Error() string {
	return fmt.Sprintf("illegal action by seat %d on item %d: %s (rule %s)", e.Seat, e.Item, e.Detail, e.Rule)
}
