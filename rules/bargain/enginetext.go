package bargain

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Ellipsis marks a text the engine cut to its cap (capRunes in sim.nim).
const Ellipsis = "…"

// asciiSpace is Nim's strutils.Whitespace, what the engine's strip removes
// from both ends of a text: space, tab, vertical tab, carriage return, line
// feed, form feed.
const asciiSpace = " \t\v\r\n\f"

// capRunes is the engine's capRunes: strip ASCII white space from both
// ends; a text of more than limit runes keeps its first limit-1 runes and
// gets Ellipsis.
func capRunes(s string, limit int) string {
	s = strings.Trim(s, asciiSpace)
	if utf8.RuneCountInString(s) <= limit {
		return s
	}
	n, i := 0, 0
	for i = range s {
		if n == limit-1 {
			break
		}
		n++
	}
	return s[:i] + Ellipsis
}

// CleanMessage returns a public message as the engine records it
// (cleanMessage in sim.nim): tab, line feed and carriage return become
// spaces, every other ASCII control character (below 0x20, and 0x7f) is
// dropped, white space is stripped from both ends, and a message of more
// than MaxMessageRunes runes is cut to 199 runes and Ellipsis.
func CleanMessage(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\t' || c == '\n' || c == '\r':
			b.WriteByte(' ')
		case c < 0x20 || c == 0x7f:
		default:
			b.WriteByte(c)
		}
	}
	return capRunes(b.String(), MaxMessageRunes)
}

// CleanNotes returns private notes as the engine keeps them (cleanNotes in
// sim.nim): white space stripped from both ends, and notes of more than
// MaxNotesRunes runes cut to 399 runes and Ellipsis. Control characters
// are kept. The engine keeps a seat's latest non-empty cleaned notes and
// writes them on each of its later actions (CheckEngineNotes).
func CleanNotes(s string) string { return capRunes(s, MaxNotesRunes) }

// CheckEngineMessage returns nil when s is a text CleanMessage can return,
// that is a message the engine could have written: no ASCII control
// character, no white space at either end, at most MaxMessageRunes runes.
// Otherwise it returns an error saying which rule s breaks.
func CheckEngineMessage(s string) error {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == 0x7f {
			return fmt.Errorf("has the control character U+%04X at character %d; the engine turns tabs and line breaks into spaces and drops other control characters",
				c, utf8.RuneCountInString(s[:i])+1)
		}
	}
	return checkCapped(s, MaxMessageRunes)
}

// CheckEngineNotes returns nil when s is non-empty notes CleanNotes can
// return (no white space at either end, at most MaxNotesRunes runes), and
// otherwise an error saying which rule s breaks.
func CheckEngineNotes(s string) error {
	if s == "" {
		return fmt.Errorf("is empty; the engine writes notes only when the seat has given some")
	}
	return checkCapped(s, MaxNotesRunes)
}

// isASCIISpace reports whether c is in asciiSpace.
func isASCIISpace(c byte) bool {
	switch c {
	case ' ', '\t', '\v', '\r', '\n', '\f':
		return true
	}
	return false
}

func checkCapped(s string, limit int) error {
	if s != "" && (isASCIISpace(s[0]) || isASCIISpace(s[len(s)-1])) {
		return fmt.Errorf("has white space at an end; the engine strips it")
	}
	if len(s) <= limit { // a rune is at least one byte
		return nil
	}
	if n := utf8.RuneCountInString(s); n > limit {
		return fmt.Errorf("has %d characters; the engine cuts a text of more than %d to %d and %q", n, limit, limit-1, Ellipsis)
	}
	return nil
}
