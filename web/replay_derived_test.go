package web

import (
	"html"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sealedhq/sealed/ledger"
)

// replayEdit replaces old by new in the replay testdata/replays/name once,
// failing when old is not there exactly once.
func replayEdit(t *testing.T, name string, edits ...[2]string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "replays", name))
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	for _, e := range edits {
		if n := strings.Count(s, e[0]); n != 1 {
			t.Fatalf("%s: %q occurs %d times", name, e[0], n)
		}
		s = strings.Replace(s, e[0], e[1], 1)
	}
	return []byte(s)
}

// drawn returns what a replay page draws below its differences: the game's
// section, from its heading on, unescaped.
func drawn(t *testing.T, body, heading string) string {
	t.Helper()
	i := strings.Index(body, heading)
	if i < 0 {
		t.Fatalf("the page has no %q:\n%s", heading, body)
	}
	return html.UnescapeString(body[i:])
}

// TestReplayPageDrawsDerivedBargain is the newcomer trial's repro (finding
// 3): the docs example bargaining replay (testdata/replays/bargain.json,
// docs/replays.md "Example") with match 0's pool claimed [4,4,4] (derived
// [3,2,2]), the first offer's worth [4,4] (derived [10,2]: seat 0 takes
// books 3 and balls 2 at values 2,0,2, and seat 1 gets 2 hats at value 1),
// the first matchEnd's payoff [9,9] (derived [6,8]), points[0] 16 (derived
// 15) and scores[0] 0.99 (derived 15/20 = 0.7500), recorded against the
// seed the ledger committed. The page lists the 9 differences, and draws
// only the derived values: each claimed value appears in the differences
// table and nowhere below it (no pool 4 4 4 with values 2 0 2, which no
// pool of 5..7 items worth 10 allows; no 297-pixel bar for 0.99).
func TestReplayPageDrawsDerivedBargain(t *testing.T) {
	f := newTieFixture(t)
	bad := replayEdit(t, "bargain.json",
		[2]string{`"pool":[3,2,2]`, `"pool":[4,4,4]`},
		[2]string{`"worth":[10,2]`, `"worth":[4,4]`},
		[2]string{`"outcome":"deal","payoff":[6,8]`, `"outcome":"deal","payoff":[9,9]`},
		[2]string{`"scores":[0.7500,`, `"scores":[0.99,`},
		[2]string{`"points":[15,`, `"points":[16,`})
	d, err := f.w.PutReplay(bad)
	if err != nil {
		t.Fatal(err)
	}
	// printf %s bbcf2e7d...a25d | sha256sum (docs/replays.md, "Example").
	const seed = "bbcf2e7da9393223001291b5efc9fe5d57ae6a8202a1898f5f6bce5d8f16a25d"
	const commitment = "90ce018902737a53e39a005e1dc4c093b266b8db577ed7feae0af713d35feaae"
	f.add(t, "sc", "2026-11-16T08:00:00Z", &ledger.Body{Kind: ledger.KindSeedCommit, Game: "bargain", MatchID: "b1",
		RulesVersion: "negotiation.replay.v1", Config: []byte(`{"matches":3,"maxTurns":4}`), Commitment: commitment})
	sc := f.idx["sc"]
	f.add(t, "sr", "2026-11-16T12:00:00Z", &ledger.Body{Kind: ledger.KindSeedReveal, SeedCommit: &sc, Seed: seed})
	f.add(t, "result", "2026-11-16T12:00:01Z", &ledger.Body{Kind: ledger.KindResult, Game: "bargain", MatchID: "b1",
		ReplaySHA256: d, Summary: []byte(`{}`)})
	s := f.server(t, nil)
	for _, id := range []string{"2", d} {
		w := do(s, "GET", "/replay/"+id, "")
		body := w.Body.String()
		if w.Code != 200 || !strings.Contains(body, "Differences: 9 (the seed matches its commitment).") {
			t.Fatalf("/replay/%s: %d; want 9 differences:\n%s", id, w.Code, body)
		}
		for _, diff := range []string{
			`<td>1</td><td class="mono">pool[0]</td><td class="mono">4</td><td class="mono">3</td>`,
			`<td>2</td><td class="mono">worth[0]</td><td class="mono">4</td><td class="mono">10</td>`,
			`<td>5</td><td class="mono">payoff[1]</td><td class="mono">9</td><td class="mono">8</td>`,
			`<td class="mono">results.points[0]</td><td class="mono">16</td><td class="mono">15</td>`,
			`<td class="mono">results.scores[0]</td><td class="mono">0.99</td><td class="mono">0.7500</td>`,
		} {
			if !strings.Contains(body, diff) {
				t.Errorf("/replay/%s: the differences lack %q", id, diff)
			}
		}
		page := drawn(t, body, "<h2>Negotiation Games</h2>")
		for _, want := range []string{
			"<tr><td>pool</td><td>3</td><td>2</td><td>2</td></tr>",
			"<tr><td>values of seat 0</td><td>2</td><td>0</td><td>2</td></tr>",
			// turn 1, seat 0 offers to take 3 books and 2 balls: worth 10 to
			// seat 0 and 2 to seat 1.
			`<tr><td>1</td><td>0</td><td class="nowrap">offer</td><td>3, 0, 2</td><td>10</td><td>2</td>`,
			"deal</span> after 3 turns; payoff seat 0 6, seat 1 8",
			`<td>fair</td><td>15</td><td>2</td><td>2</td><td class="mono">0.7500</td><td class="mono">1.5000</td>`,
			`width="225"`, // 0.7500 x 300 pixels
			">0.7500</text>",
		} {
			if !strings.Contains(page, want) {
				t.Errorf("/replay/%s: the drawn replay lacks %q", id, want)
			}
		}
		for _, claimed := range []string{
			"<td>4</td><td>4</td><td>4</td>", "<td>4</td><td>4</td><td class=\"said\">", "payoff seat 0 9, seat 1 9", "<td>16</td>", "0.99", `width="297"`,
		} {
			if strings.Contains(page, claimed) {
				t.Errorf("/replay/%s: the drawn replay shows the claimed %q", id, claimed)
			}
		}
	}
}

// TestReplayPageDrawsDerivedEngine: an engine replay (testdata/replays/
// engine-seed-0.json, the engine's own: aliases Gizmo, Widget, Bolt;
// match 0's pool [3,3,1]; points [28,23,20]; scores [0.7,0.575,0.5]) with
// the alias of seat 0, match 0's pool, points[0] and scores[0] changed is
// drawn with the values its integer seed and moves give; the claimed ones
// show only among the differences.
func TestReplayPageDrawsDerivedEngine(t *testing.T) {
	f := newTieFixture(t)
	d, err := f.w.PutReplay(replayEdit(t, "engine-seed-0.json",
		[2]string{`"names":["Gizmo"`, `"names":["Mallory"`},
		[2]string{`"events":[{"kind":"start"},{"kind":"match","match":0,"matchKind":"bargaining","seats":[0,1],"opener":0,"pool":[3,3,1]`,
			`"events":[{"kind":"start"},{"kind":"match","match":0,"matchKind":"bargaining","seats":[0,1],"opener":0,"pool":[4,3,1]`},
		[2]string{`"scores":[0.7,`, `"scores":[0.99,`},
		[2]string{`"points":[28,`, `"points":[27,`}))
	if err != nil {
		t.Fatal(err)
	}
	w := do(f.server(t, nil), "GET", "/replay/"+d, "")
	body := w.Body.String()
	for _, diff := range []string{
		`<td class="mono">names[0]</td><td class="mono">&#34;Mallory&#34;</td><td class="mono">&#34;Gizmo&#34;</td>`,
		`<td>1</td><td class="mono">pool[0]</td><td class="mono">4</td><td class="mono">3</td>`,
		`<td class="mono">results.points[0]</td><td class="mono">27</td><td class="mono">28</td>`,
		`<td class="mono">results.scores[0]</td><td class="mono">0.99</td><td class="mono">0.7</td>`,
	} {
		if !strings.Contains(body, diff) {
			t.Errorf("the differences lack %q:\n%s", diff, body)
		}
	}
	page := drawn(t, body, "<h2>Negotiation Games</h2>")
	for _, want := range []string{
		"seat 0: Gizmo (dealer)",
		"<tr><td>pool</td><td>3</td><td>3</td><td>1</td></tr>",
		`<td>Gizmo</td><td>dealer</td><td>28</td><td>4</td><td>4</td><td class="mono">0.7</td>`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the drawn replay lacks %q", want)
		}
	}
	for _, claimed := range []string{"Mallory", "<td>27</td>", "0.99", "<tr><td>pool</td><td>4</td><td>3</td><td>1</td></tr>"} {
		if strings.Contains(page, claimed) {
			t.Errorf("the drawn replay shows the claimed %q", claimed)
		}
	}
}

// TestReplayPageDrawsDerivedAuction: the docs example auction replay
// (testdata/replays/auction.json; docs/replays.md: seat 1 buys item 1 for
// 36 at value 49, profit 13, and takes the pot after rake, 28.50) with item
// 1's value claimed 777 and profit 555, seat 2's revealed bid 31 (it bid
// 30), the final profit of seat 1 claimed 99 and the pot 31.00: the page
// draws the derived item, standings, ranking and payouts, and the claims
// appear only among the differences.
func TestReplayPageDrawsDerivedAuction(t *testing.T) {
	f := newTieFixture(t)
	d, err := f.w.PutReplay(replayEdit(t, "auction.json",
		[2]string{`"winner":1,"price":36,"value":49,"profit":13`, `"winner":1,"price":36,"value":777,"profit":555`},
		[2]string{`{"seat":1,"amount":36},{"seat":2,"amount":30}]`, `{"seat":1,"amount":36},{"seat":2,"amount":31}]`},
		[2]string{`{"type":"auction_end","players":[{"seat":0,"credits":100,"profit":0,"items_won":0},{"seat":1,"credits":30,"profit":25`,
			`{"type":"auction_end","players":[{"seat":0,"credits":100,"profit":0,"items_won":0},{"seat":1,"credits":30,"profit":99`},
		[2]string{`"pot": "30.00"`, `"pot": "31.00"`}))
	if err != nil {
		t.Fatal(err)
	}
	w := do(f.server(t, nil), "GET", "/replay/"+d, "")
	body := w.Body.String()
	if !strings.Contains(body, "Differences: 5 ") {
		t.Fatalf("want 5 differences:\n%s", body)
	}
	page := drawn(t, body, "<h2>Blind Auction</h2>")
	for _, want := range []string{
		"<td>1</td><td>20</td><td>36</td><td>30</td><td>seat 1</td><td>36</td><td>49</td><td>13</td>",
		"item 1: seat 1 won, paid 36, value 49, profit 13",
		"<tr><td>1</td><td>1</td><td>25</td><td>30</td></tr>",
		"seat 1 (shading): profit 25", ">+25</text>",
		"Pot 30.00, rake 1.50; payouts: seat 0 0.00, seat 1 28.50, seat 2 0.00.",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the drawn replay lacks %q", want)
		}
	}
	for _, claimed := range []string{"777", "555", "<td>31</td>", "profit 99", "+99", "31.00"} {
		if strings.Contains(page, claimed) {
			t.Errorf("the drawn replay shows the claimed %q", claimed)
		}
	}

	// Cut after item 1: the re-simulation stops at the missing item 2, so
	// nothing past item 1 is derived and the page says so instead of
	// showing the claimed ranking and payouts.
	a := string(replayEdit(t, "auction.json"))
	cut := a[:strings.Index(a, `    {"type":"item_up","item":2}`)] + "    " + `{"type":"auction_end","players":[]}` + "\n  ],\n" + a[strings.Index(a, `  "results"`):]
	d, err = f.w.PutReplay([]byte(cut))
	if err != nil {
		t.Fatal(err)
	}
	page = drawn(t, do(f.server(t, nil), "GET", "/replay/"+d, "").Body.String(), "<h2>Blind Auction</h2>")
	if !strings.Contains(page, "so no ranking or payouts are derived") || strings.Contains(page, "Pot ") || strings.Contains(page, "<td>2</td><td>20</td>") {
		t.Errorf("the page of a replay cut after item 1:\n%s", page)
	}
}
