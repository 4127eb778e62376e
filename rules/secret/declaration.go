package secret

import (
	"fmt"
	"regexp"
	"strings"
)

// Declaration is what a revealed text declares, the part before the salt
// (seed 004, rule "Secret Information": "an unambiguous declaration of the
// action that the player is performing"). A bid action declares one or more
// bids; a Hand action declares one hand. The grammar is in
// docs/secret-actions.md, "Declarations".
type Declaration struct {
	// Bids are the bids of a bid action, in the order written.
	Bids []Bid `json:"bids,omitempty"`
	// Hand is the cards of a Hand action, in the order written; nil for a
	// bid action. Its length and distinctness are checked by rules/lots,
	// not here, so that a bad hand fails with its own reason.
	Hand []Card `json:"hand,omitempty"`
}

// Bid is one declared bid: an amount on a lot. The amount is kept as
// written (a decimal number, possibly signed or fractional) so rules/lots
// can fail it under reading S6 with the value the player wrote.
type Bid struct {
	// Amount is the number as written: an optional sign, digits and an
	// optional fraction, e.g. "15", "-3", "2.5".
	Amount string `json:"amount"`
	// Lot is the lot's name, lower-cased, without a leading '#': "3", "a7".
	Lot string `json:"lot"`
	// Line is the 1-based statement number in the declaration.
	Line int `json:"line"`
}

// DeclarationError is the error of ParseDeclaration: the text does not
// declare one action unambiguously, which fails the action with the reason
// "ambiguous declaration" (seed 004, rule "Secret Information", item 1).
type DeclarationError struct {
	// Statement is the 1-based statement number, 0 for the text as a whole.
	Statement int
	// Text is the offending statement as written, trimmed.
	Text string
	// Reason says what was wrong and what was expected.
	Reason string
}

// Error returns "ambiguous declaration: ", the statement and the reason.
func (e *DeclarationError) Error() string {
	if e.Statement == 0 {
		return "ambiguous declaration: " + e.Reason
	}
	return fmt.Sprintf("ambiguous declaration: statement %d %q: %s", e.Statement, e.Text, e.Reason)
}

// Statement forms, matched on one statement with runs of blanks collapsed
// to one space, case-insensitively.
var (
	bidPattern  = regexp.MustCompile(`(?i)^(?:i )?bids? (\S+)(?: (?:points?|pts))? on lot ?#?([a-z0-9_-]+)\.?$`)
	handPattern = regexp.MustCompile(`(?i)^(?:i submit (?:a )?)?hand ?:? ?(.*?)\.?$`)
	amountForm  = regexp.MustCompile(`^[+-]?[0-9]+(?:\.[0-9]+)?$`)
	blanks      = regexp.MustCompile(`[ \t\v\f\x{00A0}]+`)
	cardSep     = regexp.MustCompile(`[ ,]+`)
)

// ParseDeclaration parses the declaration part of a revealed text (what
// precedes the salt; see commit.SplitSalt) for an action of type
// actionType, ActionBid or ActionHand.
//
// Statements are separated by line breaks (LF or CRLF) or ';'; blank
// statements are skipped. Case and runs of spaces or tabs do not matter. A
// bid action's statements must all be bids ("bid 15 on lot 3",
// "I bid 15 on lot 3", "bid 15 points on lot #3"); a Hand action's text must
// be one hand statement ("hand: AS KS QS JS TS", "I submit a hand: 10h 9h
// 8h 7h 6h"). Anything else returns a *DeclarationError: no statement, a
// statement of neither form, a statement of the other action type, an amount
// that is not a number in digits, a token that is not a card, or a second
// hand. An unknown action type is an error too (its declarations have no
// grammar here).
func ParseDeclaration(actionType string, text []byte) (Declaration, error) {
	if actionType != ActionBid && actionType != ActionHand {
		return Declaration{}, fmt.Errorf("action type %q: declarations are defined for %q and %q only", actionType, ActionBid, ActionHand)
	}
	var d Declaration
	n := 0
	for _, raw := range strings.FieldsFunc(string(text), func(r rune) bool { return r == '\n' || r == ';' }) {
		s := strings.TrimSpace(blanks.ReplaceAllString(strings.TrimSuffix(raw, "\r"), " "))
		if s == "" {
			continue
		}
		n++
		bad := func(reason string) (Declaration, error) {
			return Declaration{}, &DeclarationError{Statement: n, Text: s, Reason: reason}
		}
		if m := bidPattern.FindStringSubmatch(s); m != nil {
			if actionType != ActionBid {
				return bad("a bid in " + withArticle(actionType) + " action")
			}
			if !amountForm.MatchString(m[1]) {
				return bad(fmt.Sprintf("amount %q is not a number in digits", m[1]))
			}
			d.Bids = append(d.Bids, Bid{Amount: m[1], Lot: strings.ToLower(m[2]), Line: n})
			continue
		}
		if m := handPattern.FindStringSubmatch(s); m != nil {
			if actionType != ActionHand {
				return bad("a hand in " + withArticle(actionType) + " action")
			}
			if d.Hand != nil {
				return bad("a second hand; a Hand action declares one hand")
			}
			d.Hand = []Card{}
			for _, tok := range cardSep.Split(strings.TrimSpace(m[1]), -1) {
				if tok == "" {
					continue
				}
				c, err := ParseCard(tok)
				if err != nil {
					return bad(err.Error())
				}
				d.Hand = append(d.Hand, c)
			}
			if len(d.Hand) == 0 {
				return bad("a hand with no cards")
			}
			continue
		}
		return bad(fmt.Sprintf("not a statement of %s action; want e.g. %s", withArticle(actionType), example(actionType)))
	}
	if n == 0 {
		return Declaration{}, &DeclarationError{Reason: fmt.Sprintf("nothing declared; want e.g. %s", example(actionType))}
	}
	return d, nil
}

func example(actionType string) string {
	if actionType == ActionHand {
		return `"hand: AS KS QS JS TS"`
	}
	return `"bid 15 on lot 3"`
}
