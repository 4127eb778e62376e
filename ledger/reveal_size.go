package ledger

import (
	"encoding/base64"
	"encoding/json"
	"math"
	"strings"
	"unicode/utf8"

	"github.com/gowebpki/jcs"
)

// RevealLeafSize returns the most bytes the leaf of a reveal entry of
// text can take: the canonical JSON (RFC 8785) of a reveal body holding
// text (as text, or text_base64 when it is not UTF-8) with every other
// member at its largest: a player name of the most bytes a name may have,
// each byte escaped ("\\"), the largest ledger index, posted_at and
// integrated_at. Whoever reveals text, whenever, its reveal entry fits in
// the ledger when RevealLeafSize(text) <= MaxLeafSize. `sealed commit` and
// the /hash page use it to refuse a commitment whose reveal could never be
// recorded; inside the text, a control character takes six bytes
// ("\u0001"), a line break, tab, quote or backslash two.
func RevealLeafSize(text []byte) int {
	commit := int64(math.MaxInt64)
	b := Body{
		Kind:         KindReveal,
		Player:       strings.Repeat(`\`, maxNameLen),
		Commit:       &commit,
		PostedAt:     placeholderTime,
		IntegratedAt: placeholderTime,
	}
	if utf8.Valid(text) {
		s := string(text)
		b.Text = &s
	} else {
		b.TextBase64 = base64.StdEncoding.EncodeToString(text)
	}
	raw, err := json.Marshal(&b)
	if err != nil {
		return math.MaxInt // cannot happen: every member is valid UTF-8
	}
	leaf, err := jcs.Transform(raw)
	if err != nil {
		return math.MaxInt
	}
	return len(leaf)
}
