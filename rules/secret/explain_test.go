package secret_test

import (
	"strings"
	"testing"

	"github.com/sealedhq/sealed/rules/secret"
)

// TestPlainCitations: every rule citation has players' words, without the
// seed number, failure-condition numbers or reading codes; the shorthand
// keeps them. The words follow the rule text they cite (docs/rules/004,
// failure conditions: "At the revelation date, the player has not
// revealed the unhashed text."; "It is before the maturation date and the
// message in which the hashed text was sent was edited.").
func TestPlainCitations(t *testing.T) {
	for _, r := range []string{secret.RulePhases, secret.RuleSecretInformation, secret.RuleMaturation, secret.RuleRevelation,
		secret.RuleReveal, secret.RuleDeclaration, secret.RuleChannel, secret.RuleNotRevealed, secret.RuleEdited,
		secret.RuleNewAttempt, secret.RuleBidding, secret.RuleSubmittingHand, secret.RulePrizes} {
		p := secret.PlainRule(r)
		if !strings.HasPrefix(p, "rule ") || strings.Contains(p, "seed 0") || strings.Contains(p, "condition") || strings.Contains(p, `"`) {
			t.Errorf("PlainRule(%q) = %q", r, p)
		}
	}
	e := secret.Explanation{Rule: secret.RuleNotRevealed, Reading: secret.ReadingRevealWindow}
	if got, want := e.Plain(), `rule Secret Information: not revealed by the revelation date; reading "the reveal window"`; got != want {
		t.Errorf("Plain() = %q, want %q", got, want)
	}
	if got, want := e.Shorthand(), `seed 004, rule "Secret Information", failure condition 1 (not revealed at the revelation date); reading S2`; got != want {
		t.Errorf("Shorthand() = %q, want %q", got, want)
	}
	e = secret.Explanation{Rule: secret.RuleEdited, Reading: secret.ReadingEditBeforeMature}
	if got, want := e.Plain(), `rule Secret Information: edited before the maturation date; reading "an edit before maturation"`; got != want {
		t.Errorf("Plain() = %q, want %q", got, want)
	}
	for i, r := range secret.Readings {
		if want := "S" + string(rune('1'+i)); r.Code != want || r.Name == "" || r.Summary == "" {
			t.Errorf("reading %d: %+v", i, r)
		}
	}
	if _, ok := secret.ReadingOf("S9"); ok {
		t.Error("ReadingOf(S9) found")
	}
}
