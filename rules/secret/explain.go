package secret

import "strings"

// Rules of seed 004 that decisions cite, by rule and subrule
// (docs/rules/004_1fc38c7a40af5155.txt).
const (
	RulePhases            = `seed 004, rule "Phases"`
	RuleSecretInformation = `seed 004, rule "Secret Information"`
	RuleMaturation        = RuleSecretInformation + `, maturation date`
	RuleRevelation        = RuleSecretInformation + `, revelation date`
	RuleReveal            = RuleSecretInformation + `, revealing between maturation and revelation date`
	RuleDeclaration       = RuleSecretInformation + `, item 1 (an unambiguous declaration) and item 2 (salt)`
	RuleChannel           = RuleSecretInformation + `, "posting in the relevant channel"`
	RuleNotRevealed       = RuleSecretInformation + `, failure condition 1 (not revealed at the revelation date)`
	RuleEdited            = RuleSecretInformation + `, failure condition 2 (edited before the maturation date)`
	RuleNewAttempt        = RuleSecretInformation + `, failure condition 3 (an attempt that has not failed)`
	RuleBidding           = `seed 004, rule "Auctions", subrule "Bidding"`
	RuleSubmittingHand    = `seed 004, rule "Auctions", subrule "Submitting a Hand"`
	RulePrizes            = `seed 004, rule "Auctions", subrule "Prizes"`
)

// Readings of ambiguous rules (docs/design.md, "Readings of ambiguous rules";
// docs/secret-actions.md names each one).
const (
	ReadingNewAttemptFails  = "S1" // the new attempt fails; only outstanding attempts count
	ReadingRevealWindow     = "S2" // a reveal counts only inside [maturation, revelation)
	ReadingRevealMustMatch  = "S3" // a reveal that does not hash to the commitment does not count
	ReadingEditBeforeMature = "S4" // an edit before maturation fails the action; after, nothing
	ReadingCalendar         = "S5" // weekly phases in the game's zone; default dates
	ReadingBidFailures      = "S6" // whole numbers > 0; duplicated lots; sum past points
	ReadingPriority         = "S7" // higher bid, earlier post, lower ledger index
	ReadingPricing          = "S8" // first-price by default, second-price as an option
)

// Explanation says why a decision was taken: the rule it applies, the
// reading of an ambiguous rule it takes (if any), the decision in words and
// the times it rests on.
type Explanation struct {
	// Rule cites seed 004 by rule and subrule, e.g. one of the Rule*
	// constants.
	Rule string `json:"rule"`
	// Reading names the reading of docs/design.md taken, "S1".."S8", or "".
	Reading string `json:"reading,omitempty"`
	// Text is the decision in one sentence.
	Text string `json:"text"`
	// Times are the instants the decision compared, each with its source.
	Times []TimeUsed `json:"times,omitempty"`
}

// plainRules words each Rule* citation the way players say it: the rule's
// name and, where it cites a part, that part in a few words.
var plainRules = map[string]string{
	RulePhases:            "rule Phases",
	RuleSecretInformation: "rule Secret Information",
	RuleMaturation:        "rule Secret Information: the maturation date",
	RuleRevelation:        "rule Secret Information: the revelation date",
	RuleReveal:            "rule Secret Information: revealed between the maturation and revelation dates",
	RuleDeclaration:       "rule Secret Information: an unambiguous declaration and a salt",
	RuleChannel:           "rule Secret Information: posted in the relevant channel",
	RuleNotRevealed:       "rule Secret Information: not revealed by the revelation date",
	RuleEdited:            "rule Secret Information: edited before the maturation date",
	RuleNewAttempt:        "rule Secret Information: another attempt has not failed",
	RuleBidding:           "rule Auctions: Bidding",
	RuleSubmittingHand:    "rule Auctions: Submitting a Hand",
	RulePrizes:            "rule Auctions: Prizes",
}

// PlainRule returns a rule citation (one of the Rule* constants) in the
// words players use: RuleNotRevealed is "rule Secret Information: not
// revealed by the revelation date". A citation it does not know is
// returned without its "seed NNN, " prefix.
func PlainRule(rule string) string {
	if p, ok := plainRules[rule]; ok {
		return p
	}
	if i := strings.Index(rule, ", "); strings.HasPrefix(rule, "seed ") && i > 0 {
		return rule[i+2:]
	}
	return rule
}

// ReadingInfo is a reading of an ambiguous rule (docs/secret-actions.md,
// "Readings, in one place"): its code, its name in players' words, and
// what it decides.
type ReadingInfo struct {
	Code    string `json:"code"`    // "S1".."S8"
	Name    string `json:"name"`    // e.g. "the reveal window"
	Summary string `json:"summary"` // one sentence
}

// Readings are the readings S1..S8, in order.
var Readings = []ReadingInfo{
	{ReadingNewAttemptFails, "a new attempt fails", "A new attempt while one of the same player and type is outstanding fails; outstanding means not failed, not revealed, revelation date not passed."},
	{ReadingRevealWindow, "the reveal window", "A reveal counts only from the maturation date up to (not including) the revelation date; an earlier one is logged and warned about."},
	{ReadingRevealMustMatch, "a reveal must match", "A reveal that does not hash to the commitment does not count (near misses are shown)."},
	{ReadingEditBeforeMature, "an edit before maturation", "An edit before the maturation date fails the action at the edit; after maturation it changes nothing."},
	{ReadingCalendar, "the weekly calendar", "Weekly phases in the game's zone (Auction Monday to Wednesday, Bartering Thursday to Sunday); maturation at the next phase start; revelation three calendar days later at the same local time."},
	{ReadingBidFailures, "bids that fail", "Bids that are not whole numbers above 0 fail; bids of one action on one lot all fail; bids summing past the player's points all fail."},
	{ReadingPriority, "bid priority", "Priority: the higher bid, then the earlier post that started or last raised it, then the lower ledger index."},
	{ReadingPricing, "the price paid", "First-price by default (the winner pays their bid); second-price (the next bid in priority, 0 alone) as an option."},
}

// ReadingOf returns the reading with code ("S1".."S8"); ok is false for
// any other code.
func ReadingOf(code string) (r ReadingInfo, ok bool) {
	for _, r := range Readings {
		if r.Code == code {
			return r, true
		}
	}
	return ReadingInfo{}, false
}

// Plain is the citation of e in players' words: the rule as PlainRule
// words it and, when e takes a reading, the reading's name:
// `rule Secret Information: edited before the maturation date; reading
// "an edit before maturation"`. Shorthand returns the citation in the
// rules' shorthand, for details.
func (e Explanation) Plain() string {
	s := PlainRule(e.Rule)
	if r, ok := ReadingOf(e.Reading); ok {
		s += `; reading "` + r.Name + `"`
	}
	return s
}

// Shorthand is the citation of e as the rules and docs/secret-actions.md
// write it: `seed 004, rule "Secret Information", failure condition 2
// (edited before the maturation date); reading S4`.
func (e Explanation) Shorthand() string {
	s := e.Rule
	if e.Reading != "" {
		s += "; reading " + e.Reading
	}
	return s
}
