package secret

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
