package web

import (
	"encoding/json"
	"html/template"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/sealedhq/sealed/commit"
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

// TestDecodeHex64MatchesParseCommitment: a hash of 64 characters drawn
// from hex digits of both cases and a few others is decoded by
// decodeHex64 exactly when commit.ParseCommitment accepts it, to the same
// commitment, and reported lowercase exactly when it is c.String().
func TestDecodeHex64MatchesParseCommitment(t *testing.T) {
	rng := rand.New(rand.NewPCG(64, 64))
	alphabet := "0123456789abcdefABCDEFgG /:\x00\xff"
	for range 20000 {
		b := make([]byte, 64)
		for i := range b {
			if rng.IntN(40) == 0 {
				b[i] = alphabet[rng.IntN(len(alphabet))]
			} else {
				b[i] = alphabet[rng.IntN(22)]
			}
		}
		s := string(b)
		c, ok, lower := decodeHex64(s)
		want, err := commit.ParseCommitment(s)
		if ok != (err == nil) || ok && c != want {
			t.Fatalf("%q: decodeHex64 %x %v, ParseCommitment %x %v", s, c, ok, want, err)
		}
		if ok && lower != (c.String() == s) {
			t.Fatalf("%q: lower %v", s, lower)
		}
	}
	if _, ok, _ := decodeHex64(strings.Repeat("a", 63)); ok {
		t.Error("63 digits decoded")
	}
}

// TestHexOnly: hexOnly accepts exactly the strings of lowercase hex
// digits.
func TestHexOnly(t *testing.T) {
	for b := range 256 {
		want := '0' <= b && b <= '9' || 'a' <= b && b <= 'f'
		if got := hexOnly(string([]byte{'0', 'a', byte(b), 'f'})); got != want {
			t.Errorf("byte %#x: %v", b, got)
		}
	}
	if !hexOnly("") {
		t.Error(`hexOnly("") is false`)
	}
}
