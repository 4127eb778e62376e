package web

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/runenames"
)

// hiddenRune reports whether r shows as nothing, or changes how the text
// around it shows, in a browser: Unicode format characters (category Cf:
// the bidi controls U+202A-202E and U+2066-2069, the zero-width U+200B-200D,
// U+FEFF, soft hyphen), control characters other than tab, LF and CR
// (which a <pre> shows, and invisibles notes), and the line and paragraph
// separators U+2028 and U+2029.
func hiddenRune(r rune) bool {
	switch r {
	case '\t', '\n', '\r':
		return false
	}
	return unicode.IsControl(r) || unicode.In(r, unicode.Cf, unicode.Zl, unicode.Zp)
}

// runeLabel names r as the Unicode standard does: "U+202E RIGHT-TO-LEFT
// OVERRIDE"; a control character, which has no name there, is "U+0007
// control character".
func runeLabel(r rune) string {
	name := runenames.Name(r)
	if name == "" || strings.HasPrefix(name, "<") {
		name = "control character"
	}
	return fmt.Sprintf("U+%04X %s", r, name)
}

// maxHiddenNotes bounds the notes hiddenNotes writes for one text.
const maxHiddenNotes = 8

// hiddenNotes names each hidden character of s (hiddenRune) with its byte
// offset: "contains U+202E RIGHT-TO-LEFT OVERRIDE at byte 23". A byte
// order mark at byte 0 is left out when skipBOM is set (invisibles notes
// it). At most maxHiddenNotes are named, then how many more there are.
// Bytes that are not UTF-8 are skipped.
func hiddenNotes(s string, skipBOM bool) []string {
	var notes []string
	more := 0
	for i, r := range s {
		if r == utf8.RuneError || !hiddenRune(r) || (skipBOM && i == 0 && r == '\uFEFF') {
			continue
		}
		if len(notes) == maxHiddenNotes {
			more++
			continue
		}
		notes = append(notes, fmt.Sprintf("contains %s at byte %d", runeLabel(r), i))
	}
	if more > 0 {
		notes = append(notes, fmt.Sprintf("and %d more such %s", more, plural(more, "character", "characters")))
	}
	return notes
}

// textPart is a piece of text for display: plain Text, or a hidden
// character shown as the visible mark "<U+202E>" (Mark) with its name
// (Name) for a tooltip.
type textPart struct {
	Text, Mark, Name string
}

// markHidden splits s so that a template can show each hidden character
// (hiddenRune) as a visible mark instead of the character itself, so the
// displayed text cannot be reordered or padded by characters nobody sees.
// A string with none is one part. The parts are plain strings, escaped by
// html/template.
func markHidden(s string) []textPart {
	var parts []textPart
	start := 0
	for i, r := range s {
		if r == utf8.RuneError || !hiddenRune(r) {
			continue
		}
		if start < i {
			parts = append(parts, textPart{Text: s[start:i]})
		}
		parts = append(parts, textPart{Mark: fmt.Sprintf("U+%04X", r), Name: runeLabel(r)})
		start = i + utf8.RuneLen(r)
	}
	if start < len(s) || len(parts) == 0 {
		parts = append(parts, textPart{Text: s[start:]})
	}
	return parts
}

// literalParts is literal (the revealed bytes, Go-quoted when not UTF-8)
// with hidden characters marked (markHidden).
func literalParts(b []byte) []textPart {
	if !utf8.Valid(b) {
		return []textPart{{Text: literal(b)}} // %q already escapes them
	}
	return markHidden(string(b))
}
