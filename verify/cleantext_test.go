package verify

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/sealedhq/sealed/rules/bargain"
)

// FuzzCleanText holds cleanText, the engine check's fast path, to the
// rules it short-cuts: whenever it accepts a valid UTF-8 text,
// bargain.CheckEngineMessage (and, for non-empty text, CheckEngineNotes)
// accept it too; and for plain short texts it does accept.
func FuzzCleanText(f *testing.F) {
	for _, s := range []string{"", "Deal?", " x", "x ", "a\tb", "a\x7fb", "ok 👍", "ünïcödé",
		strings.Repeat("é", 200), strings.Repeat("é", 201), strings.Repeat("a", 200), strings.Repeat("a", 201),
		strings.Repeat("👍", 399) + bargain.Ellipsis, strings.Repeat("👍", 401), "x\u00a0", "\u2028"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) {
			return
		}
		if cleanText(s, bargain.MaxMessageRunes) {
			if err := bargain.CheckEngineMessage(s); err != nil {
				t.Errorf("cleanText accepts %q as a message; CheckEngineMessage: %v", s, err)
			}
		} else if bargain.CheckEngineMessage(s) == nil && utf8.RuneCountInString(s) <= bargain.MaxMessageRunes &&
			!strings.ContainsFunc(s, func(r rune) bool { return r < 0x20 || r == 0x7f }) && strings.TrimSpace(s) == s {
			t.Errorf("cleanText refuses the plain message %q", s)
		}
		if s != "" && cleanText(s, bargain.MaxNotesRunes) {
			if err := bargain.CheckEngineNotes(s); err != nil {
				t.Errorf("cleanText accepts %q as notes; CheckEngineNotes: %v", s, err)
			}
		}
	})
}
