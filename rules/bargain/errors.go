package bargain

import "fmt"

// Rule names a rule of seed 002 that an action broke. The value is a short
// phrase fit for a report line.
type Rule string

// The rules an action can break (seed 002, "The two actions", "The turn
// cliff", "How an episode ends").
const (
	// RuleTakeWithinCounts: an offer's take[i] must be 0..count[i].
	RuleTakeWithinCounts Rule = "take within counts"
	// RuleAcceptStandingOffer: accept needs a standing offer, so it is legal
	// only from turn 2 on.
	RuleAcceptStandingOffer Rule = "accept only on a standing offer"
	// RuleMessageLength: a message is at most 200 runes.
	RuleMessageLength Rule = "message at most 200 characters"
	// RuleNotesLength: private notes are at most 400 runes.
	RuleNotesLength Rule = "notes at most 400 characters"
	// RuleMatchInPlay: offer and accept need a match in play; a match can
	// only begin between matches, while scheduled matches remain.
	RuleMatchInPlay Rule = "one match at a time"
	// RuleDeadlineBetweenMatches: a deadline stops play only between matches.
	RuleDeadlineBetweenMatches Rule = "deadline only between matches"
	// RuleEpisodeOver: nothing happens after the episode has ended.
	RuleEpisodeOver Rule = "nothing after the end"
)

// ActionError is returned for an illegal action. The action changed
// nothing: the state is as it was before the call. Callers branch on Rule.
type ActionError struct {
	// Rule is the rule the action broke.
	Rule Rule
	// Detail says what was wrong and what was expected.
	Detail string
}

// Error returns "illegal action: <detail> (rule: <rule>)".
func (e *ActionError) Error() string {
	return fmt.Sprintf("illegal action: %s (rule: %s)", e.Detail, e.Rule)
}

func illegal(rule Rule, format string, args ...any) *ActionError {
	return &ActionError{Rule: rule, Detail: fmt.Sprintf(format, args...)}
}
