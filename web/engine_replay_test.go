package web

import (
	"html"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// An engine replay (testdata/replays/engine-seed-0.json, written by the
// Negotiation Games engine) is re-simulated and drawn: aliases and policy
// names, each match's pool and values, the messages escaped, score and
// giveaway per seat, and the plain statement that nothing shows its seed
// was fixed before play. Expected values are the engine's, read from the
// file (testdata/replays/README.md).
func TestReplayPageEngine(t *testing.T) {
	f := newFixture(t)
	data, err := os.ReadFile(filepath.Join("testdata", "replays", "engine-seed-0.json"))
	if err != nil {
		t.Fatal(err)
	}
	d, err := f.w.PutReplay(data)
	if err != nil {
		t.Fatal(err)
	}
	s := f.server(t, nil)
	w := do(s, "GET", "/replay/"+d, "")
	body := w.Body.String()
	if w.Code != 200 {
		t.Fatalf("status %d: %s", w.Code, body)
	}
	if strings.Contains(body, "<b>bold</b>") {
		t.Fatal("a message reached the page unescaped")
	}
	text := html.UnescapeString(body)
	for _, want := range []string{
		"Re-simulates clean: all 37 events follow from the replay's own seed, but no seed commitment was checked, so nothing shows the seed was fixed before play.",
		"results.fallbacks ([1,1,1])",
		"seat 0: Gizmo (dealer); seat 1: Widget (tit-for-tat); seat 2: Bolt (random-walk)",
		"<td>Gizmo</td><td>dealer</td><td>28</td><td>4</td><td>4</td><td class=\"mono\">0.7</td><td class=\"mono\">-1.0</td>",
		"<td>Widget</td><td>tit-for-tat</td><td>23</td><td>4</td><td>3</td><td class=\"mono\">0.575</td><td class=\"mono\">-1.0</td>",
		"<td>Bolt</td><td>random-walk</td><td>20</td><td>4</td><td>3</td><td class=\"mono\">0.5</td><td class=\"mono\">2.0</td>",
		"<b>bold</b> & \"quotes\"",
		"<tr><td>pool</td><td>3</td><td>3</td><td>1</td></tr>",
		"<tr><td>values of seat 1</td><td>0</td><td>3</td><td>1</td></tr>",
		"<th>engine seed</th><td class=\"mono\">0</td>",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
}
