package verify

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sealedhq/sealed/commit"
	"github.com/sealedhq/sealed/ledger"
	"github.com/sealedhq/sealed/ledger/stores"
	"github.com/sealedhq/sealed/rules/lots"
	"github.com/sealedhq/sealed/rules/secret"
)

// The reveal texts are in testdata/actions (age-style vectors: a
// "commitment" header computed with sha256sum by the "command" header, a
// blank line, the exact bytes). week2's commitment is the one the issue
// gives: cbdaab04884d8aecbbbc48f8d2017224468c64b9a6dc227879f3d4e26ee75490.

// vector reads testdata/actions/NAME.txt: its commitment and reveal bytes.
func vector(t *testing.T, name string) (string, []byte) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "actions", name+".txt"))
	if err != nil {
		t.Fatal(err)
	}
	head, body, ok := bytes.Cut(b, []byte("\n\n"))
	if !ok {
		t.Fatalf("%s: no blank line after the headers", name)
	}
	line, _, _ := strings.Cut(string(head), "\n")
	c, ok := strings.CutPrefix(line, "commitment: ")
	if !ok {
		t.Fatalf("%s: first header is not commitment", name)
	}
	return c, body
}

func instant(t *testing.T, s string) time.Time {
	t.Helper()
	v, err := time.Parse(time.RFC3339, s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// testLedger is a real ledger in a temp dir whose clock the test sets:
// each append is integrated at the instant the test gives.
type testLedger struct {
	t   *testing.T
	l   *ledger.Ledger
	now atomic.Int64 // Unix nanoseconds; the sequencer also reads it when it signs checkpoints
}

func newTestLedger(t *testing.T) *testLedger {
	t.Helper()
	dir := t.TempDir()
	db, key := filepath.Join(dir, "sealed.db"), filepath.Join(dir, "sealed.key")
	if _, err := stores.Init(context.Background(), db, "sealed.test/actions", key); err != nil {
		t.Fatal(err)
	}
	return openTestLedger(t, db, key)
}

// openTestLedger opens the ledger db for writing with key and the test's
// clock (testLedger.now), closed when the test ends.
func openTestLedger(t *testing.T, db, key string) *testLedger {
	t.Helper()
	tl := &testLedger{t: t}
	l, err := stores.Open(context.Background(), db, ledger.Options{KeyFile: key, Clock: func() time.Time { return time.Unix(0, tl.now.Load()).UTC() }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	tl.l = l
	return tl
}

// add appends b integrated at the instant at (RFC 3339) and returns its
// index; err is the ledger's answer.
func (tl *testLedger) add(at string, b ledger.Body) (int64, error) {
	tl.t.Helper()
	tl.now.Store(instant(tl.t, at).UnixNano())
	return tl.l.AppendBody(context.Background(), &b)
}

func (tl *testLedger) must(at string, b ledger.Body) int64 {
	tl.t.Helper()
	i, err := tl.add(at, b)
	if err != nil {
		tl.t.Fatalf("append at %s: %v", at, err)
	}
	return i
}

func (tl *testLedger) post(at, player, typ, name string) int64 {
	tl.t.Helper()
	c, _ := vector(tl.t, name)
	ch := secret.DefaultSettings(typ).Channel
	return tl.must(at, ledger.Body{Kind: ledger.KindCommit, Player: player, ActionType: typ, Channel: ch, Commitment: c})
}

func (tl *testLedger) reveal(at, player string, of int64, name string) int64 {
	tl.t.Helper()
	_, text := vector(tl.t, name)
	s := string(text)
	return tl.must(at, ledger.Body{Kind: ledger.KindReveal, Player: player, Commit: &of, Text: &s})
}

func (tl *testLedger) edit(at, player string, of int64) int64 {
	tl.t.Helper()
	return tl.must(at, ledger.Body{Kind: ledger.KindEdit, Player: player, Commit: &of})
}

// judge judges the whole ledger at the instant at.
func (tl *testLedger) judge(g secret.Game, at string) (secret.History, map[int64]secret.Action) {
	tl.t.Helper()
	h, j, err := JudgeActions(tl.l, g, instant(tl.t, at))
	if err != nil {
		tl.t.Fatal(err)
	}
	byIndex := map[int64]secret.Action{}
	for _, a := range j.Actions {
		byIndex[a.Post.Index] = a
	}
	return h, byIndex
}

// auditClean fails the test unless ledger.Audit passes.
func (tl *testLedger) auditClean() {
	tl.t.Helper()
	r, err := tl.l.Audit(context.Background(), nil)
	if err != nil || !r.OK {
		tl.t.Fatalf("ledger audit: %+v, %v", r, err)
	}
}

func wantFailed(t *testing.T, a secret.Action, reason secret.Reason, at string) {
	t.Helper()
	if a.State != secret.Failed || a.Failure == nil {
		t.Fatalf("post %d: state %s, want failed: %s", a.Post.Index, a.State, reason)
	}
	if a.Failure.Reason != reason || !a.Failure.At.Equal(instant(t, at)) {
		t.Fatalf("post %d: failed %q at %s, want %q at %s", a.Post.Index, a.Failure.Reason, a.Failure.At.UTC().Format(time.RFC3339), reason, at)
	}
}

func wantState(t *testing.T, a secret.Action, s secret.State) {
	t.Helper()
	if a.State != s {
		t.Fatalf("post %d: state %s (%+v), want %s", a.Post.Index, a.State, a.Failure, s)
	}
}

// TestLoadHistory: what the ledger holds comes back exactly, with indexes,
// integration times, posted_at and the revealed bytes, including bytes
// that are not UTF-8 (stored as text_base64).
func TestLoadHistory(t *testing.T) {
	tl := newTestLedger(t)
	c, _ := vector(t, "alice")
	p := tl.must("2026-03-23T09:30:00Z", ledger.Body{Kind: ledger.KindCommit, PostedAt: "2026-03-23T09:00:00Z", Player: "alice", ActionType: "bid", Channel: "#auctions", Commitment: strings.ToUpper(c)})
	tl.must("2026-03-23T10:00:00Z", ledger.Body{Kind: ledger.KindEdit, Player: "alice", Commit: &p})
	// printf 'bid\xff\r\n' | base64  ->  Ymlk/w0K
	raw := []byte("bid\xff\r\n")
	tl.must("2026-03-26T10:00:00Z", ledger.Body{Kind: ledger.KindReveal, Player: "alice", Commit: &p, TextBase64: "Ymlk/w0K"})
	tl.must("2026-03-26T11:00:00Z", ledger.Body{Kind: ledger.KindSeedCommit, Game: "auction", MatchID: "m1", RulesVersion: "auction-0.2", Config: []byte(`{}`), Commitment: c})

	h, err := LoadHistory(tl.l)
	if err != nil {
		t.Fatal(err)
	}
	if len(h.Posts) != 1 || len(h.Edits) != 1 || len(h.Reveals) != 1 {
		t.Fatalf("history: %d posts, %d edits, %d reveals; want 1 each (the seed-commit skipped)", len(h.Posts), len(h.Edits), len(h.Reveals))
	}
	po := h.Posts[0]
	if po.Index != 0 || po.Player != "alice" || po.ActionType != "bid" || po.Channel != "#auctions" || po.Commitment.String() != c {
		t.Errorf("post = %+v", po)
	}
	if !po.PostedAt.Equal(instant(t, "2026-03-23T09:00:00Z")) || !po.IntegratedAt.Equal(instant(t, "2026-03-23T09:30:00Z")) {
		t.Errorf("post times: posted_at %s, integrated_at %s", po.PostedAt, po.IntegratedAt)
	}
	if e := h.Edits[0]; e.Index != 1 || e.Commit != 0 || e.Player != "alice" || !e.PostedAt.IsZero() || !e.IntegratedAt.Equal(instant(t, "2026-03-23T10:00:00Z")) {
		t.Errorf("edit = %+v", e)
	}
	if r := h.Reveals[0]; r.Index != 2 || r.Commit != 0 || !bytes.Equal(r.Text, raw) {
		t.Errorf("reveal = %+v text %q, want %q", r, r.Text, raw)
	}
}

// TestLateRevealJerusalem: the Asia/Jerusalem case (DST starts
// Friday 2026-03-27). A bid posted Tuesday 2026-03-24 matures Thursday
// 00:00 IST = 2026-03-25T22:00Z; its revelation date is Sunday 00:00 IDT =
// 2026-03-28T21:00Z, 71 hours later. A reveal at 2026-03-28T21:30Z is late:
// the action fails at the revelation date.
func TestLateRevealJerusalem(t *testing.T) {
	loc, err := time.LoadLocation("Asia/Jerusalem")
	if err != nil {
		t.Skip("no tz database:", err)
	}
	g := secret.Game{Calendar: secret.Calendar{Location: loc}}
	tl := newTestLedger(t)
	p := tl.post("2026-03-24T10:00:00Z", "alice", "bid", "alice")
	tl.reveal("2026-03-28T21:30:00Z", "alice", p, "alice")
	tl.auditClean()

	_, as := tl.judge(g, "2026-03-29T00:00:00Z")
	a := as[p]
	if !a.Maturation.Equal(instant(t, "2026-03-25T22:00:00Z")) || !a.Revelation.Equal(instant(t, "2026-03-28T21:00:00Z")) {
		t.Fatalf("dates %s .. %s", a.Maturation.UTC(), a.Revelation.UTC())
	}
	if d := a.Revelation.Sub(a.Maturation); d != 71*time.Hour {
		t.Fatalf("window %s, want 71h", d)
	}
	wantFailed(t, a, secret.NotRevealed, "2026-03-28T21:00:00Z")

	// Judged before the revelation date, the same action is matured.
	_, as = tl.judge(g, "2026-03-28T20:00:00Z")
	wantState(t, as[p], secret.Matured)
}

// TestEditsThroughLedger: UTC, week 2026-W13 (Auction Phase Monday
// 2026-03-23 to Thursday 2026-03-26 00:00). Post 0 is edited Wednesday,
// before maturation (Thursday 00:00): it fails at the edit (S4), and its
// Friday reveal does not count. Post 1 is edited Thursday 01:00, after
// maturation: nothing changes, and its Friday reveal counts.
func TestEditsThroughLedger(t *testing.T) {
	tl := newTestLedger(t)
	p0 := tl.post("2026-03-23T11:00:00Z", "carol", "bid", "carol")
	p1 := tl.post("2026-03-23T12:00:00Z", "alice", "bid", "alice")
	tl.edit("2026-03-25T12:00:00Z", "carol", p0)
	tl.edit("2026-03-26T01:00:00Z", "alice", p1)
	tl.reveal("2026-03-27T09:00:00Z", "carol", p0, "carol")
	tl.reveal("2026-03-27T10:00:00Z", "alice", p1, "alice")
	tl.auditClean()

	_, as := tl.judge(secret.Game{}, "2026-03-29T00:00:00Z")
	wantFailed(t, as[p0], secret.EditedBeforeMaturation, "2026-03-25T12:00:00Z")
	wantState(t, as[p1], secret.Revealed)
}

// TestDuplicateAttempt: alice posts a bid Monday and another Tuesday while
// the first is outstanding: the new one fails at its post (S1). The same
// commit entry appended twice is refused by the ledger (*DuplicateError
// naming the first). For a type allowed in any phase ("trade", matures at
// the next phase start), a new attempt after the first was revealed is
// fine.
func TestDuplicateAttempt(t *testing.T) {
	tl := newTestLedger(t)
	p0 := tl.post("2026-03-23T09:00:00Z", "bob", "bid", "bob")
	p1 := tl.post("2026-03-24T10:00:00Z", "bob", "bid", "bob-again")
	c, _ := vector(t, "bob")
	_, err := tl.add("2026-03-24T11:00:00Z", ledger.Body{Kind: ledger.KindCommit, Player: "bob", ActionType: "bid", Channel: "#auctions", Commitment: c})
	var dup *ledger.DuplicateError
	if !errors.As(err, &dup) || dup.Index != p0 {
		t.Fatalf("second identical commit: %v, want a DuplicateError naming %d", err, p0)
	}
	tl.reveal("2026-03-27T09:00:00Z", "bob", p0, "bob")
	tl.reveal("2026-03-27T09:05:00Z", "bob", p1, "bob-again")

	// Friday 2026-03-27 (Bartering): matures Monday 2026-03-30 00:00,
	// revealed Monday 08:00; the new attempt Monday 09:00 is fine.
	t0 := tl.post("2026-03-27T12:00:00Z", "bob", "trade", "week1")
	tl.reveal("2026-03-30T08:00:00Z", "bob", t0, "week1")
	t1 := tl.post("2026-03-30T09:00:00Z", "bob", "trade", "week2")
	tl.auditClean()

	_, as := tl.judge(secret.Game{}, "2026-03-30T12:00:00Z")
	wantState(t, as[p0], secret.Revealed)
	wantFailed(t, as[p1], secret.AttemptOutstanding, "2026-03-24T10:00:00Z")
	wantState(t, as[t0], secret.Revealed)
	// Matures Thursday 2026-04-02 00:00.
	wantState(t, as[t1], secret.Pending)
}

// TestThreeCommitTwoReveal: alice, bob and carol post bids on Monday
// 2026-03-23 (UTC); alice and bob reveal on Friday; at the revelation date
// (Sunday 2026-03-29 00:00) carol's action fails, named, at that instant.
func TestThreeCommitTwoReveal(t *testing.T) {
	tl := newTestLedger(t)
	pa := tl.post("2026-03-23T09:00:00Z", "alice", "bid", "alice")
	pb := tl.post("2026-03-23T10:00:00Z", "bob", "bid", "bob")
	pc := tl.post("2026-03-23T11:00:00Z", "carol", "bid", "carol")
	tl.reveal("2026-03-27T09:00:00Z", "alice", pa, "alice")
	tl.reveal("2026-03-27T10:00:00Z", "bob", pb, "bob")

	_, as := tl.judge(secret.Game{}, "2026-03-29T00:00:00Z")
	wantState(t, as[pa], secret.Revealed)
	wantState(t, as[pb], secret.Revealed)
	wantFailed(t, as[pc], secret.NotRevealed, "2026-03-29T00:00:00Z")
	if !strings.Contains(as[pc].Failure.Why.Text, "carol") {
		t.Fatalf("the failure does not name carol: %q", as[pc].Failure.Why.Text)
	}
}

// TestPostedAtAndGap: a referee imports a post that appeared in #auctions
// Wednesday 2026-03-25 23:50 UTC and reached the ledger Thursday 00:20
// (a 30-minute gap, above the default 10-minute threshold). The time of
// the post is its posted_at, inside the Auction Phase, so it matures
// Thursday 00:00 and must be revealed before Sunday 2026-03-29 00:00. By
// its integration time alone it would have been posted in the Bartering
// Phase and failed.
func TestPostedAtAndGap(t *testing.T) {
	tl := newTestLedger(t)
	c, _ := vector(t, "dan")
	p := tl.must("2026-03-26T00:20:00Z", ledger.Body{Kind: ledger.KindCommit, PostedAt: "2026-03-25T23:50:00Z", Player: "dan", ActionType: "bid", Channel: "#auctions", Commitment: c})
	tl.reveal("2026-03-27T09:00:00Z", "dan", p, "dan")
	// posted_at later than the integration time is refused.
	if _, err := tl.add("2026-03-27T10:00:00Z", ledger.Body{Kind: ledger.KindEdit, PostedAt: "2026-03-27T10:00:01Z", Player: "dan", Commit: &p}); err == nil {
		t.Fatal("a posted_at after the integration time was accepted")
	}

	_, as := tl.judge(secret.Game{}, "2026-03-29T00:00:00Z")
	a := as[p]
	wantState(t, a, secret.Revealed)
	if a.Posted.Source != secret.FromPostedAt || !a.Posted.At.Equal(instant(t, "2026-03-25T23:50:00Z")) || a.Posted.Gap != 30*time.Minute {
		t.Fatalf("posted = %+v, want posted_at 2026-03-25T23:50Z with a 30m gap", a.Posted)
	}
	if !a.Maturation.Equal(instant(t, "2026-03-26T00:00:00Z")) || !a.Revelation.Equal(instant(t, "2026-03-29T00:00:00Z")) {
		t.Fatalf("dates %s .. %s", a.Maturation.UTC(), a.Revelation.UTC())
	}
	shown := false
	for _, d := range a.Decisions {
		for _, tu := range d.Times {
			if tu.Index == p && tu.Source == secret.FromPostedAt && tu.Gap == 30*time.Minute {
				shown = true
			}
		}
	}
	if !shown {
		t.Fatalf("no decision shows the post's posted_at with its 30m gap: %+v", a.Decisions)
	}
}

// TestCopiedCommitment: bob posts the very commitment alice posted. The
// ledger records it (not a duplicate: another player), CommitsByCommitment
// finds both, and the judge flags bob's post naming alice's.
func TestCopiedCommitment(t *testing.T) {
	tl := newTestLedger(t)
	pa := tl.post("2026-03-23T09:00:00Z", "alice", "bid", "alice")
	pb := tl.post("2026-03-23T09:10:00Z", "bob", "bid", "alice")
	c, _ := vector(t, "alice")
	es, err := tl.l.CommitsByCommitment(c)
	if err != nil || len(es) != 2 {
		t.Fatalf("CommitsByCommitment: %d entries, %v; want 2", len(es), err)
	}
	_, as := tl.judge(secret.Game{}, "2026-03-23T12:00:00Z")
	if len(as[pa].Flags) != 0 {
		t.Fatalf("alice's post flagged: %+v", as[pa].Flags)
	}
	f := as[pb].Flags
	if len(f) != 1 || f[0].Kind != secret.CopiedCommitment || f[0].Earlier != pa || f[0].EarlierPlayer != "alice" {
		t.Fatalf("bob's flags = %+v, want copied commitment of alice's post %d", f, pa)
	}
}

// TestSaltReuseRecovered: the case. Week 2026-W12 alice reveals
// `I bid 12 on lot 1 | salt=walnut-tiger`; in week 2026-W13 she posts
// cbdaab04884d8aecbbbc48f8d2017224468c64b9a6dc227879f3d4e26ee75490, which
// reuses the salt. While it is still secret (Tuesday of W13) the audit
// recovers `I bid 40 on lot 2 | salt=walnut-tiger` and flags the action;
// bob's post, with another salt, is searched and not found.
func TestSaltReuseRecovered(t *testing.T) {
	tl := newTestLedger(t)
	// In time order: the ledger's integration times never go back.
	p1 := tl.post("2026-03-16T09:00:00Z", "alice", "bid", "week1")
	pb := tl.post("2026-03-16T10:00:00Z", "bob", "bid", "bob")
	tl.reveal("2026-03-20T09:00:00Z", "alice", p1, "week1")
	tl.reveal("2026-03-20T10:00:00Z", "bob", pb, "bob")
	p2 := tl.post("2026-03-23T09:00:00Z", "alice", "bid", "week2")
	pb2 := tl.post("2026-03-23T10:00:00Z", "bob", "bid", "bob-again")

	h, j, err := JudgeActions(tl.l, secret.Game{}, instant(t, "2026-03-24T12:00:00Z"))
	if err != nil {
		t.Fatal(err)
	}
	recs, err := AuditReusedSalts(context.Background(), h, j, SaltAuditOptions{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 2 {
		t.Fatalf("searches = %+v, want alice's and bob's week-2 posts", recs)
	}
	r := recs[0]
	if r.Action != p2 || r.Earlier != p1 || !r.Found || r.Reveal != "I bid 40 on lot 2 | salt=walnut-tiger" || r.Salt != "walnut-tiger" {
		t.Fatalf("alice's search = %+v", r)
	}
	if r.Template != "I bid {n1} on lot {lot1} | salt=walnut-tiger" {
		t.Fatalf("template %q", r.Template)
	}
	// bob's week-2 text has his earlier salt's form but another salt:
	// the whole space (10,001 amounts x 100 lots) is searched in vain.
	if b := recs[1]; b.Action != pb2 || b.Found || !b.Complete || b.Space != 10001*100 {
		t.Fatalf("bob's search = %+v", b)
	}
	for _, a := range j.Actions {
		if a.Post.Index == p2 {
			if len(a.Flags) != 1 || a.Flags[0].Kind != secret.SaltReused || a.Flags[0].Earlier != p1 {
				t.Fatalf("alice's week-2 flags = %+v", a.Flags)
			}
		} else if len(a.Flags) != 0 {
			t.Fatalf("post %d flagged: %+v", a.Post.Index, a.Flags)
		}
	}
}

// TestSaltReuseTemplate: numbers of the declaration become placeholders,
// the salt and braces stay literal.
func TestSaltReuseTemplate(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"I bid 12 on lot 1 | salt=walnut-tiger", "I bid {n1} on lot {lot1} | salt=walnut-tiger"},
		{"bid 15 on lot #3\nbid 7 on lot 10\nsalt: x9{}", "bid {n1} on lot #{lot1}\nbid {n2} on lot {lot2}\nsalt: x9{{}}"},
		{"hand: AS KS QS JS TS\nsalt: 42", "hand: AS KS QS JS TS\nsalt: 42"},
	} {
		got, _, _, ok := SaltReuseTemplate([]byte(c.in))
		if !ok || got != c.want {
			t.Errorf("SaltReuseTemplate(%q) = %q, %v; want %q", c.in, got, ok, c.want)
		}
		if _, err := commit.ParseTemplate(got); err != nil {
			t.Errorf("template %q: %v", got, err)
		}
	}
	if _, _, _, ok := SaltReuseTemplate([]byte("bid 15 on lot 3")); ok {
		t.Error("a text without salt gave a template")
	}
}

// recordWeek records week 2026-W13 (UTC) in tl, the same week as
// cmd/sealed/testdata/script/lots.txtar (there with posted_at):
//
//	#0  alice bid Mon 09:00, 15 on lot 1 and 5 on lot 2; reveals Fri
//	#1  bob   bid Mon 10:00, 15 on lot 1; reveals Fri
//	#2  bob   bid Tue 10:00, 30 on lot 1: new attempt while #1 outstanding (S1)
//	#3  carol bid Mon 11:00, 20 on lot 2; #4 edit Tue 12:00, before maturation (S4)
//	#5  dan   bid Tue 12:00, 8 on lot 2; reveal Sun 00:30: late
//	#6  erin  Hand Wed 08:00, 2H 5H 8H JH KH: flush, king high
//	#7  frank Hand Wed 09:00, 5C 6D 7S 8H 9C: straight, nine high
//	#8  frank bid Wed 10:00, 5 on lot 3
//	#9  gina  bid Wed 11:00, 20 on lot 2 and 20 on lot 3 (40 > her 30 points)
//	#10 hank  bid Wed 12:00, alice's commitment copied; never revealed
func recordWeek(t *testing.T, tl *testLedger) {
	a := tl.post("2026-03-23T09:00:00Z", "alice", "bid", "alice")
	b := tl.post("2026-03-23T10:00:00Z", "bob", "bid", "bob")
	b2 := tl.post("2026-03-24T10:00:00Z", "bob", "bid", "bob-again")
	c := tl.post("2026-03-24T11:00:00Z", "carol", "bid", "carol")
	tl.edit("2026-03-24T12:00:00Z", "carol", c)
	d := tl.post("2026-03-24T12:30:00Z", "dan", "bid", "dan")
	e := tl.post("2026-03-25T08:00:00Z", "erin", "hand", "erin")
	fh := tl.post("2026-03-25T09:00:00Z", "frank", "hand", "frank-hand")
	f := tl.post("2026-03-25T10:00:00Z", "frank", "bid", "frank")
	g := tl.post("2026-03-25T11:00:00Z", "gina", "bid", "gina")
	tl.post("2026-03-25T12:00:00Z", "hank", "bid", "alice")
	tl.reveal("2026-03-27T09:00:00Z", "alice", a, "alice")
	tl.reveal("2026-03-27T10:00:00Z", "bob", b, "bob")
	tl.reveal("2026-03-27T10:05:00Z", "bob", b2, "bob-again")
	tl.reveal("2026-03-27T11:00:00Z", "carol", c, "carol")
	tl.reveal("2026-03-28T09:00:00Z", "erin", e, "erin")
	tl.reveal("2026-03-28T09:10:00Z", "frank", fh, "frank-hand")
	tl.reveal("2026-03-28T09:20:00Z", "frank", f, "frank")
	tl.reveal("2026-03-28T09:30:00Z", "gina", g, "gina")
	tl.reveal("2026-03-29T00:30:00Z", "dan", d, "dan")
}

func cards(t *testing.T, s string) []secret.Card {
	var cs []secret.Card
	for _, x := range strings.Fields(s) {
		c, err := secret.ParseCard(x)
		if err != nil {
			t.Fatal(err)
		}
		cs = append(cs, c)
	}
	return cs
}

// TestConcludeWeek concludes week 2026-W13 (recordWeek) at its revelation
// date, Sunday 2026-03-29 00:00 UTC. Worked by hand, points before:
// alice 50, bob 40, carol 30, dan 20, erin 10, frank 0, gina 30; prizes
// 10 and 5.
//
//   - Failed secret actions: #2 (S1), #3 (edited), #5 (late), #10 (not
//     revealed; flagged as a copy of alice's #0).
//   - Hands first: erin's flush beats frank's straight: erin 1st (+10),
//     frank 2nd (+5); their cards are destroyed.
//   - Bids: gina's 20 + 20 = 40 > 30: both fail. frank's 5 <= 0 + 5 stands
//     only because the prize came first.
//   - Lot 1: alice 15 and bob 15; alice posted earlier (S7): alice pays 15.
//     Lot 2: alice's 5 alone: 5. Lot 3: frank's 5 alone: 5.
//   - First-price points after: alice 50-15-5 = 30, bob 40, carol 30, dan
//     20, erin 20, frank 0, gina 30.
//   - Second-price: alice pays 15 on lot 1 (bob's equal bid) and 0 on lot 2:
//     35; frank pays 0: 5.
func TestConcludeWeek(t *testing.T) {
	tl := newTestLedger(t)
	recordWeek(t, tl)
	tl.auditClean()
	h, err := LoadHistory(tl.l)
	if err != nil {
		t.Fatal(err)
	}
	o := LotsOptions{
		Week:   secret.Week{Year: 2026, Number: 13},
		Now:    instant(t, "2026-11-29T00:00:00Z"),
		Points: map[string]int64{"alice": 50, "bob": 40, "carol": 30, "dan": 20, "erin": 10, "frank": 0, "gina": 30, "hank": 5},
		Possessions: map[string][]secret.Card{
			"erin":  cards(t, "2H 5H 8H JH KH AS"),
			"frank": cards(t, "5C 6D 7S 8H 9C"),
		},
		Prizes: []int64{10, 5},
	}
	c, err := ConcludeLots(h, o)
	if err != nil {
		t.Fatal(err)
	}
	if !c.At.Equal(instant(t, "2026-03-29T00:00:00Z")) || c.Week != "2026-W13" {
		t.Fatalf("concluded %s at %s", c.Week, c.At)
	}
	failed := map[int64]secret.Reason{}
	for _, a := range c.Actions {
		if a.State == secret.Failed {
			failed[a.Post.Index] = a.Failure.Reason
		}
	}
	wantFail := map[int64]secret.Reason{2: secret.AttemptOutstanding, 3: secret.EditedBeforeMaturation, 5: secret.NotRevealed, 10: secret.NotRevealed}
	for _, a := range c.Actions {
		// dan's late reveal (ledger index 19, Sunday 00:30) came after the
		// conclusion and is listed as not counting.
		if a.Post.Index == 5 && !strings.Contains(a.Failure.Why.Text, "ledger index 19") {
			t.Errorf("dan's failure does not name the late reveal 19: %q", a.Failure.Why.Text)
		}
		if a.Post.Index == 10 && (len(a.Flags) != 1 || a.Flags[0].Kind != secret.CopiedCommitment || a.Flags[0].Earlier != 0) {
			t.Errorf("hank's flags = %+v, want a copy of alice's post 0", a.Flags)
		}
	}
	if len(failed) != len(wantFail) {
		t.Fatalf("failed actions %v, want %v", failed, wantFail)
	}
	for i, r := range wantFail {
		if failed[i] != r {
			t.Errorf("action %d: %q, want %q", i, failed[i], r)
		}
	}
	out := c.Outcome
	if len(out.Hands) != 2 {
		t.Fatalf("hands = %+v", out.Hands)
	}
	places := map[string]int{}
	for _, hr := range out.Hands {
		places[hr.Player] = hr.Place
	}
	if places["erin"] != 1 || places["frank"] != 2 {
		t.Fatalf("placements %v, want erin 1, frank 2", places)
	}
	winners := map[string]string{}
	prices := map[string]int64{}
	for _, l := range out.Lots {
		winners[l.Lot], prices[l.Lot] = l.Winner, l.Price
	}
	if winners["1"] != "alice" || prices["1"] != 15 || winners["2"] != "alice" || prices["2"] != 5 || winners["3"] != "frank" || prices["3"] != 5 {
		t.Fatalf("lots: winners %v prices %v", winners, prices)
	}
	for _, b := range out.Bids {
		if b.Player == "gina" && b.Status != lots.Failed {
			t.Errorf("gina's bid on lot %s: %s, want failed", b.Lot, b.Status)
		}
	}
	want := map[string]int64{"alice": 30, "bob": 40, "carol": 30, "dan": 20, "erin": 20, "frank": 0, "gina": 30, "hank": 5}
	for p, n := range want {
		if out.Points[p] != n {
			t.Errorf("first-price points of %s = %d, want %d", p, out.Points[p], n)
		}
	}
	if got := out.Possessions["erin"]; len(got) != 1 || got[0].String() != "AS" {
		t.Errorf("erin keeps %v, want [AS]", got)
	}

	o.Pricing = lots.SecondPrice
	c, err = ConcludeLots(h, o)
	if err != nil {
		t.Fatal(err)
	}
	if c.Outcome.Points["alice"] != 35 || c.Outcome.Points["frank"] != 5 {
		t.Errorf("second-price points: alice %d (want 35), frank %d (want 5)", c.Outcome.Points["alice"], c.Outcome.Points["frank"])
	}

	// Before Sunday 00:00 the week has not concluded.
	o.Now = instant(t, "2026-03-28T23:59:59Z")
	if _, err := ConcludeLots(h, o); !errors.Is(err, ErrWeekNotOver) {
		t.Fatalf("concluding early: %v, want ErrWeekNotOver", err)
	}
}

// TestConclusionIgnoresActionsNeverTaken: week 2026-W13 (UTC) concludes at
// Sunday 2026-03-29 00:00, the revelation date of its Auction Phase bids
// (reading S5), even with a bid posted at exactly Thursday 03-26 00:00
// (the Bartering Phase: never taken) and one posted in #game-actions on
// Sunday 03-29 (wrong channel: never taken). Taken, they would have
// matured Monday 03-30 and had the revelation date Thursday 04-02, and the
// week could not be concluded on 03-29. Worked by hand from seed 004, rules
// "Phases", "Secret Information" and "Auctions".
//
// Judged later (Now 2026-04-10), dan's unrevealed bid fails, and the
// instant the failure names as "at" is the conclusion, not Now.
func TestConclusionIgnoresActionsNeverTaken(t *testing.T) {
	tl := newTestLedger(t)
	a := tl.post("2026-03-23T09:00:00Z", "alice", "bid", "alice")
	tl.post("2026-03-24T12:30:00Z", "dan", "bid", "dan")
	tl.post("2026-03-26T00:00:00Z", "bob", "bid", "bob")
	tl.reveal("2026-03-27T09:00:00Z", "alice", a, "alice")
	c, _ := vector(t, "carol")
	tl.must("2026-03-29T10:00:00Z", ledger.Body{Kind: ledger.KindCommit, Player: "carol", ActionType: "bid", Channel: "#game-actions", Commitment: c})
	h, err := LoadHistory(tl.l)
	if err != nil {
		t.Fatal(err)
	}
	o := LotsOptions{
		Week:   secret.Week{Year: 2026, Number: 13},
		Now:    instant(t, "2026-03-29T00:00:00Z"),
		Points: map[string]int64{"alice": 50, "bob": 40, "carol": 30, "dan": 20},
	}
	got, err := ConcludeLots(h, o)
	if err != nil {
		t.Fatalf("concluding at 2026-03-29T00:00Z: %v", err)
	}
	if !got.At.Equal(instant(t, "2026-03-29T00:00:00Z")) {
		t.Fatalf("concluded at %s, want 2026-03-29T00:00:00Z", got.At.UTC().Format(time.RFC3339))
	}
	// alice's bid of 15 on lot 1 and 5 on lot 2 (testdata/actions/alice).
	if w := got.Outcome.Points["alice"]; w != 30 {
		t.Errorf("alice's points after = %d, want 50 - 15 - 5 = 30", w)
	}

	o.Now = instant(t, "2026-04-10T00:00:00Z")
	got, err = ConcludeLots(h, o)
	if err != nil {
		t.Fatal(err)
	}
	if !got.At.Equal(instant(t, "2026-03-29T00:00:00Z")) {
		t.Fatalf("concluded at %s, want 2026-03-29T00:00:00Z", got.At.UTC().Format(time.RFC3339))
	}
	reasons := map[string]secret.Reason{}
	for _, act := range got.Actions {
		if act.Failure == nil {
			continue
		}
		reasons[act.Post.Player] = act.Failure.Reason
		if act.Post.Player != "dan" {
			continue
		}
		var judged []time.Time
		for _, tu := range act.Failure.Why.Times {
			if tu.What == "at" {
				judged = append(judged, tu.At)
			}
		}
		if len(judged) != 1 || !judged[0].Equal(got.At) {
			t.Errorf("dan's failure is judged at %v, want the conclusion 2026-03-29T00:00:00Z", judged)
		}
	}
	want := map[string]secret.Reason{"dan": secret.NotRevealed, "bob": secret.WrongPhase, "carol": secret.WrongChannel}
	if len(reasons) != len(want) {
		t.Fatalf("failures %v, want %v", reasons, want)
	}
	for p, r := range want {
		if reasons[p] != r {
			t.Errorf("%s's action: %q, want %q", p, reasons[p], r)
		}
	}
}
