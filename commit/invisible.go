package commit

import (
	"unicode"
	"unicode/utf8"
)

// Invisible reports whether r renders as nothing, or as a blank that is
// not white space, so that text holding it looks like text without it:
// the Unicode Default_Ignorable_Code_Point characters (the format
// characters, category Cf, such as U+200B ZERO WIDTH SPACE; the variation
// selectors; and Other_Default_Ignorable_Code_Point, such as U+034F
// COMBINING GRAPHEME JOINER and the Hangul fillers U+115F, U+1160,
// U+3164, U+FFA0), and U+2800 BRAILLE PATTERN BLANK. Player names holding
// one are refused (docs/ledger.md), and a reveal that matches its
// commitment once they are removed gets the near-miss hint "invisible
// characters removed".
func Invisible(r rune) bool {
	return unicode.Is(unicode.Cf, r) || unicode.Is(unicode.Variation_Selector, r) ||
		unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r) || r == '\u2800'
}

// removeInvisible returns b without its Invisible characters other than
// U+FEFF (the byte order mark has near-miss steps of its own), and
// whether it held any; bytes that are not UTF-8 are kept as they are.
func removeInvisible(b []byte) ([]byte, bool) {
	var out []byte
	found := false
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r != utf8.RuneError && r != '\ufeff' && Invisible(r) {
			if !found {
				out = append(make([]byte, 0, len(b)), b[:i]...)
				found = true
			}
		} else if found {
			out = append(out, b[i:i+n]...)
		}
		i += n
	}
	return out, found
}
