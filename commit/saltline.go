package commit

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// LineBreaks are the line breaks a reader may see in a declaration or a
// salt: LF, CR (alone or in CRLF), VT, FF, NEL (U+0085), LINE SEPARATOR
// (U+2028) and PARAGRAPH SEPARATOR (U+2029), the mandatory breaks of
// Unicode line breaking (UAX #14). A text viewer, a chat client or a
// terminal may start a new line at any of them.
const LineBreaks = "\n\r\v\f\u0085\u2028\u2029"

// SaltLine is a line of a declaration that starts with "salt:", found by
// FindSaltLine.
type SaltLine struct {
	// Number is the line's number, 1 for the first.
	Number int
	// Prefix is "salt:" as written, in its letter case ("SALT:").
	Prefix string
	// After names the line break before the line: "" for the first
	// line, else "LF", "CR", "CRLF", "VT", "FF", "U+0085", "U+2028" or
	// "U+2029".
	After string
}

// FindSaltLine returns the first line of a declaration that starts with
// "salt:" in any ASCII letter case, and ok false when none does. Lines end
// at any of LineBreaks (CRLF is one break). Such a line would make the
// reveal text "<declaration>\nsalt: <salt>" ambiguous to the players who
// read it (which "salt:" line is the salt?), so `sealed commit` and the
// /hash page refuse the declaration (docs/commitments.md, "Reveal text").
func FindSaltLine(declaration string) (line SaltLine, ok bool) {
	after := ""
	for n := 1; ; n++ {
		text, rest, found := declaration, "", false
		if i := strings.IndexAny(declaration, LineBreaks); i >= 0 {
			text, rest, found = declaration[:i], declaration[i:], true
		}
		if hasSaltPrefix(text) {
			return SaltLine{Number: n, Prefix: text[:5], After: after}, true
		}
		if !found {
			return SaltLine{}, false
		}
		r, size := utf8.DecodeRuneInString(rest)
		switch r {
		case '\r':
			after = "CR"
			if strings.HasPrefix(rest, "\r\n") {
				after, size = "CRLF", 2
			}
		case '\n':
			after = "LF"
		case '\v':
			after = "VT"
		case '\f':
			after = "FF"
		default:
			after = fmt.Sprintf("U+%04X", r)
		}
		declaration = rest[size:]
	}
}

// hasSaltPrefix reports whether s starts with "salt:" in any ASCII letter
// case.
func hasSaltPrefix(s string) bool {
	if len(s) < 5 || s[4] != ':' {
		return false
	}
	for i, c := range []byte("salt") {
		if s[i]|0x20 != c {
			return false
		}
	}
	return true
}
