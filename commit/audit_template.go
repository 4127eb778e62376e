package commit

import (
	"fmt"
	"strings"
)

// Template is a declaration template for the active audit, such as
// "I bid {n} on lot {lot}": literal text with placeholders "{name}" (name of
// ASCII letters, digits and '_') that take decimal integer values; "{{" and
// "}}" stand for literal braces. The same name used twice takes the same
// value. A template may hold a known salt literally, for example
// "I bid {n} on lot {lot} | salt=walnut-tiger".
type Template struct {
	parts []templatePart // in order
	names []string       // distinct placeholder names, in order of first use
}

// templatePart is a literal (slot < 0) or the placeholder names[slot].
type templatePart struct {
	literal string
	slot    int
}

// ParseTemplate parses a template. It returns an error for an empty
// template, a "{" without its "}", a "}" without its "{" (write "}}"), and
// an empty or invalid placeholder name.
func ParseTemplate(s string) (*Template, error) {
	if s == "" {
		return nil, fmt.Errorf("empty template; expected text such as \"I bid {n} on lot {lot}\"")
	}
	t := &Template{}
	var lit strings.Builder
	flush := func() {
		if lit.Len() > 0 {
			t.parts = append(t.parts, templatePart{literal: lit.String(), slot: -1})
			lit.Reset()
		}
	}
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '{':
			if i+1 < len(s) && s[i+1] == '{' {
				lit.WriteByte('{')
				i++
				continue
			}
			j := strings.IndexByte(s[i:], '}')
			if j < 0 {
				return nil, fmt.Errorf("template has \"{\" at character %d without a closing \"}\" (write \"{{\" for a literal brace)", i+1)
			}
			name := s[i+1 : i+j]
			if !isPlaceholderName(name) {
				return nil, fmt.Errorf("template placeholder %q: a name is ASCII letters, digits and '_', such as {n} or {lot}", "{"+name+"}")
			}
			flush()
			t.parts = append(t.parts, templatePart{slot: t.slot(name)})
			i += j
		case '}':
			if i+1 < len(s) && s[i+1] == '}' {
				lit.WriteByte('}')
				i++
				continue
			}
			return nil, fmt.Errorf("template has \"}\" at character %d without an opening \"{\" (write \"}}\" for a literal brace)", i+1)
		default:
			lit.WriteByte(s[i])
		}
	}
	flush()
	return t, nil
}

// Placeholders returns the distinct placeholder names in order of first use.
func (t *Template) Placeholders() []string { return append([]string(nil), t.names...) }

// slot returns the index of name, adding it if new.
func (t *Template) slot(name string) int {
	for i, n := range t.names {
		if n == name {
			return i
		}
	}
	t.names = append(t.names, name)
	return len(t.names) - 1
}

func isPlaceholderName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		b := s[i]
		if !isLetter(b) && !(b >= '0' && b <= '9') && b != '_' {
			return false
		}
	}
	return true
}
