package web

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/sealedhq/sealed/ledger"
)

// TestHiddenCharactersFlagged: a reveal holding a RIGHT-TO-LEFT OVERRIDE
// and a ZERO WIDTH SPACE (testdata/reveals/bidi.txt; the offsets are
// python3's bytes.find) is shown with both as visible marks, never as the
// characters themselves, and each is named with its byte offset on the
// page and in the API.
func TestHiddenCharactersFlagged(t *testing.T) {
	f := newFixture(t)
	v := readVector(t, "bidi")
	f.add(t, "oscar", "2026-03-09T13:00:00Z", &ledger.Body{Kind: ledger.KindCommit, Player: "oscar", ActionType: "bid", Channel: "#auctions", Commitment: v.Commitment})
	c, text := f.idx["oscar"], string(v.Text)
	f.add(t, "oscar-reveal", "2026-03-09T14:00:00Z", &ledger.Body{Kind: ledger.KindReveal, Commit: &c, Player: "oscar", Text: &text})
	s := f.server(t, func(o *Options) { o.Now = func() time.Time { return at(t, "2026-03-20T00:00:00Z") } })

	notes := []string{"it contains U+202E RIGHT-TO-LEFT OVERRIDE at byte 26", "it contains U+200B ZERO WIDTH SPACE at byte 33"}
	w := do(s, "GET", "/c/"+v.Commitment, "")
	page := strings.ReplaceAll(w.Body.String(), "&#43;", "+") // html/template writes + as &#43;
	if w.Code != 200 {
		t.Fatalf("/c/: %d", w.Code)
	}
	for _, want := range append(notes, `&lt;U+202E&gt;</span>evil<span class="hidden-char" title="U+200B ZERO WIDTH SPACE">&lt;U+200B&gt;</span>`) {
		if !strings.Contains(page, want) {
			t.Errorf("/c/ lacks %q", want)
		}
	}
	if strings.ContainsAny(page, "\u202e\u200b") {
		t.Errorf("/c/ carries the hidden characters themselves")
	}
	w = do(s, "GET", "/api/v1/commitments/"+v.Commitment, "")
	var a struct {
		Actions []struct {
			Reveals []struct {
				Text  string
				Notes []string
			}
		}
	}
	if err := json.Unmarshal(w.Body.Bytes(), &a); err != nil || len(a.Actions) != 1 || len(a.Actions[0].Reveals) != 1 {
		t.Fatalf("API: %v %s", err, w.Body.String())
	}
	r := a.Actions[0].Reveals[0]
	if r.Text != text || strings.Join(r.Notes, "|") != strings.Join(notes, "|") {
		t.Errorf("API reveal text %q notes %q, want the exact text and %q", r.Text, r.Notes, notes)
	}
}

// TestHiddenCharactersInNames: a player name with a zero-width space is
// marked and named where the commitment page shows it. (The view is built
// by hand: the ledger refuses such names in new entries, but an older
// ledger may hold them.)
func TestHiddenCharactersInNames(t *testing.T) {
	r, err := newRenderer()
	if err != nil {
		t.Fatal(err)
	}
	name := "mal\u200blory\u202e" // U+200B at byte 3, U+202E at byte 3+3+4 = 10
	v := &commitmentView{Commitment: strings.Repeat("ab", 32), Actions: []actionView{{
		Index: 1, Player: name, PlayerNotes: hiddenNotes(name, false), ActionType: "bid", Channel: "#auctions"}}}
	var buf bytes.Buffer
	if err := r.Render(&buf, "commitment", v, nil); err != nil {
		t.Fatal(err)
	}
	page := strings.ReplaceAll(buf.String(), "&#43;", "+") // html/template writes + as &#43;
	for _, want := range []string{
		`mal<span class="hidden-char" title="U+200B ZERO WIDTH SPACE">&lt;U+200B&gt;</span>lory<span class="hidden-char" title="U+202E RIGHT-TO-LEFT OVERRIDE">&lt;U+202E&gt;</span>`,
		"The name contains U+200B ZERO WIDTH SPACE at byte 3; contains U+202E RIGHT-TO-LEFT OVERRIDE at byte 10.",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if strings.ContainsAny(page, "\u202e\u200b") {
		t.Errorf("the page carries the hidden characters themselves")
	}
	// A BEL and a BOM inside are named too; tab, LF and CR are not hidden.
	got := hiddenNotes("a\u0007b\ufeff\t\r\n", false)
	want := []string{"contains U+0007 control character at byte 1", "contains U+FEFF ZERO WIDTH NO-BREAK SPACE at byte 3"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("hiddenNotes: %q, want %q", got, want)
	}
}
