package secret

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestNeverTakenHasNoDates: an action posted in the wrong channel or
// outside its phase was never taken (seed 004, "posting in the relevant
// channel"; Bidding, "during an Auction Phase"), so it has no maturation
// or revelation date: both are zero, absent from the JSON, and the first
// decision says it was never taken. Worked by hand: fay's bid in
// #game-actions (Monday 2026-03-02) and gil's bid on Friday 2026-03-06
// (Bartering Phase) would otherwise get the made-up dates Thursday
// 2026-03-05 / Sunday 03-08 and Monday 03-09 / Thursday 03-12.
func TestNeverTakenHasNoDates(t *testing.T) {
	v := reveal(t, "alice")
	h := History{Posts: []Post{
		post(t, 1, "2026-03-02T09:00:00Z", "fay", ActionBid, "#game-actions", v.commitment),
		post(t, 2, "2026-03-06T09:00:00Z", "gil", ActionBid, "#auctions", v.commitment),
	}}
	j := judge(t, Game{}, h, "2026-03-20T00:00:00Z")
	for _, i := range []int64{1, 2} {
		a := action(t, j, i)
		if a.Taken() {
			t.Errorf("action %d: Taken() = true, want false (failed %s)", i, a.Failure.Reason)
		}
		if !a.Maturation.IsZero() || !a.Revelation.IsZero() {
			t.Errorf("action %d: dates %v .. %v, want none", i, a.Maturation, a.Revelation)
		}
		b, err := json.Marshal(a)
		if err != nil {
			t.Fatal(err)
		}
		if s := string(b); strings.Contains(s, `"maturation"`) || strings.Contains(s, `"revelation"`) {
			t.Errorf("action %d JSON has dates: %s", i, s)
		}
		if len(a.Decisions) == 0 || !strings.Contains(a.Decisions[0].Text, "never taken") || strings.Contains(a.Decisions[0].Text, "matures") {
			t.Errorf("action %d: first decision %+v, want it to say never taken and give no dates", i, a.Decisions)
		}
	}
	wantState(t, action(t, j, 1), Failed, WrongChannel, "2026-03-02T09:00:00Z")
	wantState(t, action(t, j, 2), Failed, WrongPhase, "2026-03-06T09:00:00Z")
}

// TestNotTakenAndNextPhase: the rule the judge and 'action post' share.
// Worked by hand (UTC): a bid posted Thursday 2026-03-26 00:00 is in the
// Bartering Phase (a boundary belongs to the phase it starts); the next
// Auction Phase starts Monday 2026-03-30 00:00. Posted Tuesday 03-24 in
// the Auction Phase, the next Auction Phase is the following Monday 03-30.
func TestNotTakenAndNextPhase(t *testing.T) {
	g := Game{}
	if r, _ := g.NotTaken(ActionBid, AuctionsChannel, mustTime(t, "2026-03-24T10:00:00Z")); r != "" {
		t.Errorf("Tuesday bid in #auctions: %q, want taken", r)
	}
	r, text := g.NotTaken(ActionBid, AuctionsChannel, mustTime(t, "2026-03-26T00:00:00Z"))
	if r != WrongPhase || !strings.Contains(text, "bartering phase") {
		t.Errorf("Thursday 00:00 bid: %q %q, want outside the phase, posted in the bartering phase", r, text)
	}
	if r, _ := g.NotTaken(ActionBid, DefaultChannel, mustTime(t, "2026-03-24T10:00:00Z")); r != WrongChannel {
		t.Errorf("bid in #game-actions: %q, want wrong channel", r)
	}
	if r, _ := g.NotTaken("trade", DefaultChannel, mustTime(t, "2026-03-26T00:00:00Z")); r != "" {
		t.Errorf("a trade (any phase) on Thursday: %q, want taken", r)
	}
	c := Calendar{}
	for _, tc := range []struct{ at, want string }{
		{"2026-03-26T00:00:00Z", "2026-03-30T00:00:00Z"},
		{"2026-03-24T10:00:00Z", "2026-03-30T00:00:00Z"},
		{"2026-03-29T23:59:59Z", "2026-03-30T00:00:00Z"},
	} {
		if got := c.NextStart(Auction, mustTime(t, tc.at)); !got.Equal(mustTime(t, tc.want)) {
			t.Errorf("NextStart(auction, %s) = %s, want %s", tc.at, got.UTC(), tc.want)
		}
	}
	if got := c.NextStart(Bartering, mustTime(t, "2026-03-26T00:00:00Z")); !got.Equal(mustTime(t, "2026-04-02T00:00:00Z")) {
		t.Errorf("NextStart(bartering, Thursday 00:00) = %s, want 2026-04-02T00:00:00Z", got.UTC())
	}
}

// TestImpossibleTimesIgnored: an edit or reveal whose time is before the
// post it names cannot have happened; the judge ignores it with a logged
// warning. Worked by hand: the bid is posted Tuesday 2026-03-24 10:00
// (matures Thursday 03-26 00:00, revelation date Sunday 03-29 00:00). An
// edit stamped Monday 03-23 00:00 would otherwise fail it as "edited
// before maturation" at an instant before the post; a matching reveal
// stamped Tuesday 09:00 would otherwise be an early reveal. Ignored, the
// reveal on Friday 03-27 counts.
func TestImpossibleTimesIgnored(t *testing.T) {
	v := reveal(t, "alice")
	p := post(t, 1, "2026-03-24T10:00:00Z", "rich", ActionBid, "#auctions", v.commitment)
	e := Edit{Stamp: stamp(t, 2, "2026-03-24T11:00:00Z"), Commit: 1, Player: "rich"}
	e.PostedAt = mustTime(t, "2026-03-23T00:00:00Z")
	early := rev(t, 3, "2026-03-24T11:30:00Z", 1, "rich", v.text)
	early.PostedAt = mustTime(t, "2026-03-24T09:00:00Z")
	h := History{Posts: []Post{p}, Edits: []Edit{e}, Reveals: []Reveal{early}}

	a := action(t, judge(t, Game{}, h, "2026-03-26T12:00:00Z"), 1)
	wantState(t, a, Matured, "", "")
	var warned []string
	for _, d := range a.Decisions {
		if strings.Contains(d.Text, "before the post") {
			warned = append(warned, d.Text)
		}
	}
	if len(warned) != 2 || !strings.Contains(warned[0], "edit at ledger index 2") || !strings.Contains(warned[1], "reveal at ledger index 3") {
		t.Fatalf("warnings %q, want one for the edit (2) and one for the reveal (3)", warned)
	}
	for _, w := range warned {
		if !strings.HasPrefix(w, "warning: ") || !strings.Contains(w, "ignored") {
			t.Errorf("decision %q: want a warning that the entry is ignored", w)
		}
	}

	h.Reveals = append(h.Reveals, rev(t, 4, "2026-03-27T09:00:00Z", 1, "rich", v.text))
	wantState(t, action(t, judge(t, Game{}, h, "2026-03-29T00:00:00Z"), 1), Revealed, "", "")
	// Without the reveal in the window it fails at the revelation date,
	// and the ignored reveal is listed as one that did not count.
	h.Reveals = h.Reveals[:1]
	a = action(t, judge(t, Game{}, h, "2026-03-29T00:00:00Z"), 1)
	wantState(t, a, Failed, NotRevealed, "2026-03-29T00:00:00Z")
	if !strings.Contains(a.Failure.Why.Text, "reveal at ledger index 3") {
		t.Errorf("failure %q does not list the ignored reveal", a.Failure.Why.Text)
	}
}
