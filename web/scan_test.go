package web

import (
	"encoding/json"
	"html/template"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestEscapersMatchReference: viewJSON.str (with its eight-byte scan) is
// json.Marshal's string encoding, and pageWriter.esc is html/template's
// escaping of text, for strings drawn from plain runs of every length
// around the word size and from every byte either escapes, at every
// offset within a word.
func TestEscapersMatchReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(12, 5))
	pieces := []string{"a", "abcdefg", "abcdefgh", "abcdefghijklmnopq", " ", "\x00", "\x01", "\x1f", "\x7f", "\"", "\\", "<", ">", "&", "'", "+",
		"\n", "\t", "\u2028", "\u2029", "é", "😀", "\xff", "\xe2\x80", "\ufeff", "\u202e", "—", "0123456789"}
	tmpl := template.Must(template.New("t").Parse(`{{.}}`))
	n := 0
	for range 20000 {
		var b strings.Builder
		for range rng.IntN(12) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		s := b.String()
		want, _ := json.Marshal(s)
		w := viewJSON{}
		w.str(s)
		if string(w.b) != string(want) {
			t.Fatalf("str(%q) = %s, json.Marshal %s", s, w.b, want)
		}
		var h strings.Builder
		if err := tmpl.Execute(&h, s); err != nil {
			t.Fatal(err)
		}
		p := pageWriter{}
		p.esc(s)
		if string(p.b) != h.String() {
			t.Fatalf("esc(%q) = %q, html/template %q", s, p.b, h.String())
		}
		n++
	}
	t.Logf("%d strings compared", n)
}
