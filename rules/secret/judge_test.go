package secret

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/sealedhq/sealed/commit"
)

// The judgements below were worked by hand from seed 004, rule "Secret
// Information", and the readings S1-S5 of docs/design.md. Reveal texts and their
// commitments (computed with sha256sum) are in testdata/reveals.

type vector struct {
	commitment commit.Commitment
	text       []byte
}

func reveal(t *testing.T, name string) vector {
	t.Helper()
	h, body := readVector(t, "testdata/reveals/"+name+".txt")
	c, err := commit.ParseCommitment(h["commitment"])
	if err != nil {
		t.Fatal(err)
	}
	return vector{c, body}
}

func stamp(t *testing.T, index int64, integrated string) Stamp {
	return Stamp{Index: index, IntegratedAt: mustTime(t, integrated)}
}

func post(t *testing.T, index int64, at, player, typ, channel string, c commit.Commitment) Post {
	return Post{Stamp: stamp(t, index, at), Player: player, ActionType: typ, Channel: channel, Commitment: c}
}

func rev(t *testing.T, index int64, at string, commitIndex int64, player string, text []byte) Reveal {
	return Reveal{Stamp: stamp(t, index, at), Commit: commitIndex, Player: player, Text: text}
}

func judge(t *testing.T, g Game, h History, at string) *Judgement {
	t.Helper()
	j, err := g.Judge(h, mustTime(t, at))
	if err != nil {
		t.Fatal(err)
	}
	return j
}

func action(t *testing.T, j *Judgement, index int64) Action {
	t.Helper()
	for _, a := range j.Actions {
		if a.Post.Index == index {
			return a
		}
	}
	t.Fatalf("no action with post index %d", index)
	return Action{}
}

func wantState(t *testing.T, a Action, s State, r Reason, at string) {
	t.Helper()
	if a.State != s {
		t.Fatalf("action %d: state %s (%+v), want %s", a.Post.Index, a.State, a.Failure, s)
	}
	if s != Failed {
		return
	}
	if a.Failure.Reason != r || !a.Failure.At.Equal(mustTime(t, at)) {
		t.Fatalf("action %d: failed %q at %v, want %q at %s", a.Post.Index, a.Failure.Reason, a.Failure.At.UTC(), r, at)
	}
}

func TestDefaultUTCWindow(t *testing.T) {
	// Posted Tuesday 2021-06-22 23:30Z: matures Thursday 00:00, must be
	// revealed before Sunday 2021-06-27 00:00.
	v := reveal(t, "alice")
	p := post(t, 1, "2021-06-22T23:30:00Z", "alice", ActionBid, "#auctions", v.commitment)
	var g Game
	h := History{Posts: []Post{p}}
	wantState(t, action(t, judge(t, g, h, "2021-06-23T12:00:00Z"), 1), Pending, "", "")
	wantState(t, action(t, judge(t, g, h, "2021-06-24T00:00:00Z"), 1), Matured, "", "")
	// Revealed Saturday: counts.
	h.Reveals = []Reveal{rev(t, 2, "2021-06-26T12:00:00Z", 1, "alice", v.text)}
	a := action(t, judge(t, g, h, "2021-06-26T13:00:00Z"), 1)
	wantState(t, a, Revealed, "", "")
	if a.Declaration == nil || len(a.Declaration.Bids) != 1 || a.Declaration.Bids[0] != (Bid{Amount: "15", Lot: "3", Line: 1}) || a.Salt != "alpha-one" {
		t.Fatalf("declaration %+v salt %q, want bid 15 on lot 3, salt alpha-one", a.Declaration, a.Salt)
	}
	// Revealed exactly at Sunday 00:00: late (the window is half-open).
	h.Reveals = []Reveal{rev(t, 2, "2021-06-27T00:00:00Z", 1, "alice", v.text)}
	wantState(t, action(t, judge(t, g, h, "2021-06-27T00:00:00Z"), 1), Failed, NotRevealed, "2021-06-27T00:00:00Z")
}

func TestLateRevealStampedInAnotherZone(t *testing.T) {
	// A revelation offset of one day puts the deadline at Friday
	// 2021-06-25T00:00Z. The reveal appeared in the channel at
	// 2021-06-24T20:30-05:00, which is 2021-06-25T01:30Z: late.
	v := reveal(t, "late")
	g := Game{Settings: map[string]Settings{ActionBid: {RevelationDays: 1}}} // channel and phase: the defaults
	r := rev(t, 2, "2021-06-25T02:00:00Z", 1, "bob", v.text)
	r.PostedAt = mustTime(t, "2021-06-24T20:30:00-05:00")
	h := History{
		Posts:   []Post{post(t, 1, "2021-06-22T10:00:00Z", "bob", ActionBid, "#auctions", v.commitment)},
		Reveals: []Reveal{r},
	}
	a := action(t, judge(t, g, h, "2021-06-26T00:00:00Z"), 1)
	wantState(t, a, Failed, NotRevealed, "2021-06-25T00:00:00Z")
	// The reveal decision used posted_at and shows the 30-minute gap to the
	// integration time.
	var used *TimeUsed
	for _, d := range a.Decisions {
		for i, tu := range d.Times {
			if tu.What == "reveal" {
				used = &d.Times[i]
			}
		}
	}
	if used == nil || used.Source != FromPostedAt || used.Gap != 30*time.Minute {
		t.Fatalf("reveal time used = %+v, want posted_at with a 30m gap", used)
	}
}

func TestJerusalemDSTStart(t *testing.T) {
	// Posted Tuesday 2026-03-24: matures 2026-03-25T22:00Z, revelation date
	// 2026-03-28T21:00Z (71 h, DST starts Friday). A reveal at 21:30Z is
	// late; one at 20:30Z counts.
	v := reveal(t, "bob")
	g := Game{Calendar: mustZone(t, "Asia/Jerusalem")}
	p := post(t, 1, "2026-03-24T10:00:00Z", "bob", ActionBid, "#auctions", v.commitment)
	late := History{Posts: []Post{p}, Reveals: []Reveal{rev(t, 2, "2026-03-28T21:30:00Z", 1, "bob", v.text)}}
	a := action(t, judge(t, g, late, "2026-03-29T00:00:00Z"), 1)
	if !a.Maturation.Equal(mustTime(t, "2026-03-25T22:00:00Z")) || !a.Revelation.Equal(mustTime(t, "2026-03-28T21:00:00Z")) {
		t.Fatalf("dates %v, %v; want 2026-03-25T22:00Z, 2026-03-28T21:00Z", a.Maturation.UTC(), a.Revelation.UTC())
	}
	wantState(t, a, Failed, NotRevealed, "2026-03-28T21:00:00Z")
	inTime := History{Posts: []Post{p}, Reveals: []Reveal{rev(t, 2, "2026-03-28T20:30:00Z", 1, "bob", v.text)}}
	wantState(t, action(t, judge(t, g, inTime, "2026-03-29T00:00:00Z"), 1), Revealed, "", "")
}

func TestBeirutDSTEnd(t *testing.T) {
	// A Hand posted Tuesday 2026-10-20 in Asia/Beirut matures
	// 2026-10-21T21:00Z and must be revealed before 2026-10-24T22:00Z (73 h,
	// DST ends at local midnight Saturday/Sunday). A reveal at 21:30Z, which
	// is 23:30 local on Saturday the second time round, still counts.
	v := reveal(t, "hand")
	g := Game{Calendar: mustZone(t, "Asia/Beirut")}
	h := History{
		Posts:   []Post{post(t, 1, "2026-10-20T09:00:00Z", "cy", ActionHand, "#game-actions", v.commitment)},
		Reveals: []Reveal{rev(t, 2, "2026-10-24T21:30:00Z", 1, "cy", v.text)},
	}
	a := action(t, judge(t, g, h, "2026-10-25T00:00:00Z"), 1)
	wantState(t, a, Revealed, "", "")
	if a.Revelation.Sub(a.Maturation) != 73*time.Hour || len(a.Declaration.Hand) != 5 {
		t.Fatalf("window %v, hand %v; want 73h and five cards", a.Revelation.Sub(a.Maturation), a.Declaration.Hand)
	}
}

func TestThreeCommitTwoReveal(t *testing.T) {
	// alice, bob and carol post bids on Monday 2026-03-02 (UTC); alice and
	// bob reveal on Friday; carol never does. At the revelation date,
	// Sunday 2026-03-08 00:00, carol's action fails and names her.
	a, b, c := reveal(t, "alice"), reveal(t, "bob"), reveal(t, "carol")
	h := History{
		Posts: []Post{
			post(t, 10, "2026-03-02T09:00:00Z", "alice", ActionBid, "#auctions", a.commitment),
			post(t, 11, "2026-03-02T10:00:00Z", "bob", ActionBid, "#auctions", b.commitment),
			post(t, 12, "2026-03-02T11:00:00Z", "carol", ActionBid, "#auctions", c.commitment),
		},
		Reveals: []Reveal{
			rev(t, 20, "2026-03-06T09:00:00Z", 10, "alice", a.text),
			rev(t, 21, "2026-03-06T10:00:00Z", 11, "bob", b.text),
		},
	}
	j := judge(t, Game{}, h, "2026-03-08T00:00:00Z")
	wantState(t, action(t, j, 10), Revealed, "", "")
	wantState(t, action(t, j, 11), Revealed, "", "")
	ca := action(t, j, 12)
	wantState(t, ca, Failed, NotRevealed, "2026-03-08T00:00:00Z")
	if !strings.Contains(ca.Failure.Why.Text, "carol") || ca.Failure.Why.Rule != RuleNotRevealed {
		t.Fatalf("failure %+v does not name carol and the rule", ca.Failure.Why)
	}
	// One second earlier, carol's action is only matured.
	wantState(t, action(t, judge(t, Game{}, h, "2026-03-07T23:59:59Z"), 12), Matured, "", "")
}

func TestEdits(t *testing.T) {
	// An edit on Wednesday (before Thursday's maturation) fails the action
	// at the edit, even if it is revealed later (S4). An edit on Friday
	// (after maturation) changes nothing.
	v := reveal(t, "alice")
	p := post(t, 1, "2026-03-02T09:00:00Z", "alice", ActionBid, "#auctions", v.commitment)
	r := rev(t, 3, "2026-03-06T12:00:00Z", 1, "alice", v.text)
	before := History{Posts: []Post{p}, Reveals: []Reveal{r},
		Edits: []Edit{{Stamp: stamp(t, 2, "2026-03-04T18:00:00Z"), Commit: 1, Player: "alice"}}}
	a := action(t, judge(t, Game{}, before, "2026-03-07T00:00:00Z"), 1)
	wantState(t, a, Failed, EditedBeforeMaturation, "2026-03-04T18:00:00Z")
	if a.Failure.Why.Reading != ReadingEditBeforeMature {
		t.Fatalf("reading %q, want S4", a.Failure.Why.Reading)
	}
	after := History{Posts: []Post{p}, Reveals: []Reveal{r},
		Edits: []Edit{{Stamp: stamp(t, 2, "2026-03-06T08:00:00Z"), Commit: 1, Player: "alice"}}}
	wantState(t, action(t, judge(t, Game{}, after, "2026-03-07T00:00:00Z"), 1), Revealed, "", "")
	// The same Wednesday edit entered as mallory's: only the author can
	// edit a message, so it changes nothing and is logged as a warning.
	other := History{Posts: []Post{p}, Reveals: []Reveal{r},
		Edits: []Edit{{Stamp: stamp(t, 2, "2026-03-04T18:00:00Z"), Commit: 1, Player: "mallory"}}}
	a = action(t, judge(t, Game{}, other, "2026-03-07T00:00:00Z"), 1)
	wantState(t, a, Revealed, "", "")
	warned := false
	for _, d := range a.Decisions {
		warned = warned || strings.Contains(d.Text, "is by mallory, but the post is alice's")
	}
	if !warned {
		t.Fatalf("no warning about mallory's edit in %+v", a.Decisions)
	}
}

func TestSecondAttempt(t *testing.T) {
	// "spy" has the default settings (#game-actions, any phase). Post 1 on
	// Monday 2026-03-02 matures Thursday, revelation Sunday 03-08. Post 2 on
	// Tuesday: post 1 is outstanding, so post 2 fails (S1). Post 1 is
	// revealed Friday 10:00; post 3 on Friday 12:00 is fine.
	v1, v3 := reveal(t, "alice"), reveal(t, "carol")
	h := History{
		Posts: []Post{
			post(t, 1, "2026-03-02T09:00:00Z", "dee", "spy", "#game-actions", v1.commitment),
			post(t, 2, "2026-03-03T09:00:00Z", "dee", "spy", "#game-actions", v3.commitment),
			post(t, 4, "2026-03-06T12:00:00Z", "dee", "spy", "#game-actions", v3.commitment),
		},
		Reveals: []Reveal{rev(t, 3, "2026-03-06T10:00:00Z", 1, "dee", v1.text)},
	}
	j := judge(t, Game{}, h, "2026-03-06T13:00:00Z")
	wantState(t, action(t, j, 1), Revealed, "", "")
	second := action(t, j, 2)
	wantState(t, second, Failed, AttemptOutstanding, "2026-03-03T09:00:00Z")
	if second.Failure.Why.Reading != ReadingNewAttemptFails || !strings.Contains(second.Failure.Why.Text, "ledger index 1") {
		t.Fatalf("failure %+v does not cite S1 and the outstanding attempt", second.Failure.Why)
	}
	wantState(t, action(t, j, 4), Pending, "", "")
}

func TestRevealsThatDoNotCount(t *testing.T) {
	// alice reveals early (Wednesday, before maturation: S2, logged), then
	// with a trailing LF (does not hash: S3, with a hint), then by the
	// wrong player; she never reveals the exact text in the window, so
	// the action fails at the revelation date, and the failure lists them.
	v := reveal(t, "alice")
	h := History{
		Posts: []Post{post(t, 1, "2026-03-02T09:00:00Z", "alice", ActionBid, "#auctions", v.commitment)},
		Reveals: []Reveal{
			rev(t, 2, "2026-03-04T09:00:00Z", 1, "alice", v.text),
			rev(t, 3, "2026-03-05T09:00:00Z", 1, "alice", append(append([]byte{}, v.text...), '\n')),
			rev(t, 4, "2026-03-05T10:00:00Z", 1, "mallory", v.text),
		},
	}
	a := action(t, judge(t, Game{}, h, "2026-03-08T00:00:00Z"), 1)
	wantState(t, a, Failed, NotRevealed, "2026-03-08T00:00:00Z")
	why := a.Failure.Why.Text
	for _, want := range []string{"ledger index 2 came before the maturation date", "ledger index 3 does not hash", "trailing LF", "ledger index 4 is by mallory"} {
		if !strings.Contains(why, want) {
			t.Errorf("failure text %q lacks %q", why, want)
		}
	}
	// Revealed again in the window, the early reveal does not matter.
	h.Reveals = append(h.Reveals, rev(t, 5, "2026-03-06T09:00:00Z", 1, "alice", v.text))
	wantState(t, action(t, judge(t, Game{}, h, "2026-03-08T00:00:00Z"), 1), Revealed, "", "")
}

func TestDeclarationFailures(t *testing.T) {
	// Three texts that hash correctly and come in the window but fail:
	// two bid lines and no salt marker (the second line would be the salt:
	// ambiguous), an amount in words (ambiguous), no salt at all.
	for _, tc := range []struct {
		name   string
		reason Reason
	}{
		{"twobids-no-marker", AmbiguousDeclaration},
		{"words", AmbiguousDeclaration},
		{"nosalt", NoSalt},
		{"trailing-word", AmbiguousDeclaration}, // no salt can be told apart
	} {
		v := reveal(t, tc.name)
		h := History{
			Posts:   []Post{post(t, 1, "2026-03-02T09:00:00Z", "eve", ActionBid, "#auctions", v.commitment)},
			Reveals: []Reveal{rev(t, 2, "2026-03-06T09:00:00Z", 1, "eve", v.text)},
		}
		a := action(t, judge(t, Game{}, h, "2026-03-07T00:00:00Z"), 1)
		wantState(t, a, Failed, tc.reason, "2026-03-06T09:00:00Z")
	}
}

func TestChannelPhaseAndPostedAt(t *testing.T) {
	v := reveal(t, "alice")
	// A bid in #game-actions is not taken; a bid posted Friday (Bartering)
	// is not taken either.
	h := History{Posts: []Post{
		post(t, 1, "2026-03-02T09:00:00Z", "fay", ActionBid, "#game-actions", v.commitment),
		post(t, 2, "2026-03-06T09:00:00Z", "gil", ActionBid, "#auctions", v.commitment),
	}}
	j := judge(t, Game{}, h, "2026-03-06T10:00:00Z")
	wantState(t, action(t, j, 1), Failed, WrongChannel, "2026-03-02T09:00:00Z")
	wantState(t, action(t, j, 2), Failed, WrongPhase, "2026-03-06T09:00:00Z")

	// A bid that appeared in #auctions on Wednesday 23:50 but reached the
	// ledger Thursday 00:20: its posted_at counts (Auction Phase, matures
	// Thursday 00:00) and the 30-minute gap is shown. Without posted_at it
	// would be a Thursday post, outside the Auction Phase.
	p := post(t, 3, "2026-03-05T00:20:00Z", "hal", ActionBid, "#auctions", v.commitment)
	noPostedAt := judge(t, Game{}, History{Posts: []Post{p}}, "2026-03-05T01:00:00Z")
	wantState(t, action(t, noPostedAt, 3), Failed, WrongPhase, "2026-03-05T00:20:00Z")
	p.PostedAt = mustTime(t, "2026-03-04T23:50:00Z")
	a := action(t, judge(t, Game{}, History{Posts: []Post{p}}, "2026-03-05T01:00:00Z"), 3)
	wantState(t, a, Matured, "", "")
	if a.Posted.Source != FromPostedAt || a.Posted.Gap != 30*time.Minute {
		t.Fatalf("post time %+v, want posted_at with a 30m gap", a.Posted)
	}
	// Under the threshold the gap is not shown.
	a = action(t, judge(t, Game{GapThreshold: time.Hour}, History{Posts: []Post{p}}, "2026-03-05T01:00:00Z"), 3)
	if a.Posted.Gap != 0 {
		t.Fatalf("gap %v shown under a 1h threshold", a.Posted.Gap)
	}
}

func TestSaltReuseFlagged(t *testing.T) {
	// Week 1 (2026-W10): ivy reveals "I bid 12 on lot 1 | salt=walnut-tiger".
	// Week 2: ivy posts cbdaab04...5490 and reveals "I bid 40 on lot 2 |
	// salt=walnut-tiger": the same salt. The week-2 action is flagged,
	// naming the week-1 post; both still count.
	w1, w2 := reveal(t, "week1"), reveal(t, "week2")
	if w2.commitment.String() != "cbdaab04884d8aecbbbc48f8d2017224468c64b9a6dc227879f3d4e26ee75490" {
		t.Fatalf("week-2 vector commitment %s", w2.commitment)
	}
	h := History{
		Posts: []Post{
			post(t, 1, "2026-03-02T09:00:00Z", "ivy", ActionBid, "#auctions", w1.commitment),
			post(t, 3, "2026-03-09T09:00:00Z", "ivy", ActionBid, "#auctions", w2.commitment),
		},
		Reveals: []Reveal{
			rev(t, 2, "2026-03-05T09:00:00Z", 1, "ivy", w1.text),
			rev(t, 4, "2026-03-12T09:00:00Z", 3, "ivy", w2.text),
		},
	}
	j := judge(t, Game{}, h, "2026-03-13T00:00:00Z")
	first, second := action(t, j, 1), action(t, j, 3)
	if len(first.Flags) != 0 {
		t.Fatalf("week-1 action flagged: %+v", first.Flags)
	}
	if len(second.Flags) != 1 || second.Flags[0].Kind != SaltReused || second.Flags[0].Earlier != 1 || !strings.Contains(second.Flags[0].Text, "walnut-tiger") {
		t.Fatalf("week-2 flags = %+v, want salt reused naming post 1", second.Flags)
	}
	wantState(t, second, Revealed, "", "")
	if b := second.Declaration.Bids; len(b) != 1 || b[0].Amount != "40" || b[0].Lot != "2" {
		t.Fatalf("week-2 bids = %+v, want 40 on lot 2", b)
	}
}

func TestCopiedCommitmentFlagged(t *testing.T) {
	v := reveal(t, "alice")
	h := History{Posts: []Post{
		post(t, 1, "2026-03-02T09:00:00Z", "alice", ActionBid, "#auctions", v.commitment),
		post(t, 2, "2026-03-02T09:05:00Z", "jack", ActionBid, "#auctions", v.commitment),
	}}
	j := judge(t, Game{}, h, "2026-03-02T10:00:00Z")
	if f := action(t, j, 1).Flags; len(f) != 0 {
		t.Fatalf("the original was flagged: %+v", f)
	}
	if f := action(t, j, 2).Flags; len(f) != 1 || f[0].Kind != CopiedCommitment || f[0].EarlierPlayer != "alice" {
		t.Fatalf("copy flags = %+v, want copied commitment naming alice", f)
	}
}

// TestCopiedCommitmentNamesEarliest: a commitment two other players posted
// before is flagged as a copy of the earliest of them, every time (the
// flag once depended on a map's order).
func TestCopiedCommitmentNamesEarliest(t *testing.T) {
	v := reveal(t, "alice")
	var posts []Post
	for i, p := range []string{"alice", "jack", "kim", "lee", "max", "ned", "oz", "pat"} {
		posts = append(posts, post(t, int64(i+1), fmt.Sprintf("2026-03-02T09:%02d:00Z", i), p, ActionBid, "#auctions", v.commitment))
	}
	// jack, then alice, then jack again: the second jack post is a copy of
	// alice's (jack's own earlier post is no copy); alice's of jack's.
	again := []Post{
		post(t, 1, "2026-03-02T09:00:00Z", "jack", ActionBid, "#auctions", v.commitment),
		post(t, 2, "2026-03-02T09:01:00Z", "alice", ActionBid, "#auctions", v.commitment),
		post(t, 3, "2026-03-02T09:02:00Z", "jack", "scout", "#scouting", v.commitment),
	}
	j := judge(t, Game{}, History{Posts: again}, "2026-03-02T10:00:00Z")
	for i, want := range map[int64]string{1: "", 2: "jack", 3: "alice"} {
		f := action(t, j, i).Flags
		if want == "" && len(f) != 0 || want != "" && (len(f) != 1 || f[0].EarlierPlayer != want) {
			t.Errorf("post %d flags = %+v, want a copy of %q's post", i, f, want)
		}
	}
	for range 20 {
		j := judge(t, Game{}, History{Posts: posts}, "2026-03-02T10:00:00Z")
		for i := int64(2); i <= int64(len(posts)); i++ {
			if f := action(t, j, i).Flags; len(f) != 1 || f[0].Earlier != 1 || f[0].EarlierPlayer != "alice" {
				t.Fatalf("post %d flags = %+v, want one copied commitment naming alice's post 1", i, f)
			}
		}
	}
}

func TestJudgeRejectsBadHistory(t *testing.T) {
	v, v3 := reveal(t, "alice"), reveal(t, "bob")
	p := post(t, 1, "2026-03-02T09:00:00Z", "alice", ActionBid, "#auctions", v.commitment)
	p3 := post(t, 3, "2026-03-02T10:00:00Z", "bob", ActionBid, "#auctions", v3.commitment)
	for name, h := range map[string]History{
		"duplicate index":      {Posts: []Post{p, p}},
		"reveal of a non-post": {Posts: []Post{p}, Reveals: []Reveal{rev(t, 2, "2026-03-06T09:00:00Z", 7, "alice", v.text)}},
		"edit of a non-post":   {Posts: []Post{p}, Edits: []Edit{{Stamp: stamp(t, 2, "2026-03-03T09:00:00Z"), Commit: 9}}},
		// Posts in ledger order are searched by bisection, others
		// through a map: an index between two posts is none in either.
		"reveal between two posts":                 {Posts: []Post{p, p3}, Reveals: []Reveal{rev(t, 4, "2026-03-06T09:00:00Z", 2, "alice", v.text)}},
		"reveal between two posts, out of order":   {Posts: []Post{p3, p}, Reveals: []Reveal{rev(t, 4, "2026-03-06T09:00:00Z", 2, "alice", v.text)}},
		"duplicate index, out of order":            {Posts: []Post{p3, p, p3}},
		"edit after the last post, in index order": {Posts: []Post{p, p3}, Edits: []Edit{{Stamp: stamp(t, 5, "2026-03-03T09:00:00Z"), Commit: 5}}},
	} {
		if _, err := (Game{}).Judge(h, mustTime(t, "2026-03-08T00:00:00Z")); err == nil {
			t.Errorf("%s: accepted", name)
		}
		if _, err := (Game{}).Prepare(h, mustTime(t, "2026-03-08T00:00:00Z")); err == nil {
			t.Errorf("%s: accepted by Prepare", name)
		}
	}
	for name, h := range map[string]History{
		"in index order":     {Posts: []Post{p, p3}, Reveals: []Reveal{rev(t, 4, "2026-03-06T09:00:00Z", 3, "bob", v3.text)}},
		"out of index order": {Posts: []Post{p3, p}, Reveals: []Reveal{rev(t, 4, "2026-03-06T09:00:00Z", 1, "alice", v.text)}},
	} {
		if _, err := (Game{}).Judge(h, mustTime(t, "2026-03-08T00:00:00Z")); err != nil {
			t.Errorf("a reveal of a post, %s: %v", name, err)
		}
	}
	if _, err := (Game{GapThreshold: -1}).Judge(History{}, time.Time{}); err == nil {
		t.Error("negative gap threshold accepted")
	}
}

func TestSaltForms(t *testing.T) {
	// The salt after a sentence end, and several bids before a canonical
	// salt line, both parse (docs/secret-actions.md, "Declarations").
	for _, tc := range []struct {
		name, salt string
		bids       []Bid
	}{
		{"sentence-end", "xyzzy", []Bid{{Amount: "9", Lot: "4", Line: 1}}},
		{"multi-canonical", "q2w3e4", []Bid{{Amount: "5", Lot: "1", Line: 1}, {Amount: "7", Lot: "2", Line: 2}}},
	} {
		v := reveal(t, tc.name)
		h := History{
			Posts:   []Post{post(t, 1, "2026-03-02T09:00:00Z", "eve", ActionBid, "#auctions", v.commitment)},
			Reveals: []Reveal{rev(t, 2, "2026-03-06T09:00:00Z", 1, "eve", v.text)},
		}
		a := action(t, judge(t, Game{}, h, "2026-03-07T00:00:00Z"), 1)
		wantState(t, a, Revealed, "", "")
		if a.Salt != tc.salt || len(a.Declaration.Bids) != len(tc.bids) {
			t.Fatalf("%s: salt %q bids %+v, want %q %+v", tc.name, a.Salt, a.Declaration.Bids, tc.salt, tc.bids)
		}
		for i := range tc.bids {
			if a.Declaration.Bids[i] != tc.bids[i] {
				t.Fatalf("%s: bid %d = %+v, want %+v", tc.name, i, a.Declaration.Bids[i], tc.bids[i])
			}
		}
	}
}
