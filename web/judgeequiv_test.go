package web

import (
	"context"

	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"

	"github.com/sealedhq/sealed/commit"
	"github.com/sealedhq/sealed/ledger"
	"github.com/sealedhq/sealed/ledger/stores"
	"github.com/sealedhq/sealed/rules/secret"
	"github.com/sealedhq/sealed/verify"
)

// genFixture builds a ledger of secret actions drawn from a seeded
// generator over week 2026-W10 (UTC): bids and other action types from five
// players, some in the wrong channel, second attempts while one is
// outstanding, copied commitments (another player's, and the player's own
// again), edits before and after maturation and by someone else, reveals
// that match, that miss by a byte, by the wrong player, early and late,
// salts reused across a player's actions, and posted_at times: 40 commit
// entries, 10 edits and 50 reveals.
func genFixture(t testing.TB, seed uint64) *fixture {
	t.Helper()
	return genFixtureSized(t, seed, 40)
}

// genFixtureSized is genFixture with posts commit entries, posts/4 edits
// and posts*5/4 reveals, in the same days.
func genFixtureSized(t testing.TB, seed uint64, posts int) *fixture {
	t.Helper()
	scale := func(d time.Duration) time.Duration { return d * 40 / time.Duration(posts) }
	f := emptyFixture(t, "test.sealed.invalid/gen")
	rng := rand.New(rand.NewPCG(seed, 12))
	clock := at(t, "2026-03-02T08:00:00Z")
	add := func(b *ledger.Body, step time.Duration) int64 {
		clock = clock.Add(step)
		if rng.IntN(4) == 0 {
			b.PostedAt = clock.Add(-time.Duration(rng.IntN(90)) * time.Minute).Format(ledger.TimeLayout)
		}
		f.clk.set(clock)
		i, err := f.w.AppendBody(context.Background(), b)
		var dup *ledger.DuplicateError
		if errors.As(err, &dup) {
			return -1 // the same entry drawn twice
		}
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if _, err := f.w.WaitCheckpoint(ctx, i+1); err != nil {
			t.Fatal(err)
		}
		return i
	}
	type post struct {
		index  int64
		player string
		text   string
	}
	players := []string{"ada", "bo", "cy", "di", "ed"}
	var made []post
	for i := range posts {
		p := players[rng.IntN(len(players))]
		salt := fmt.Sprintf("s-%s-%d", p, i)
		if rng.IntN(4) == 0 {
			salt = "s-" + p + "-shared" // reused by the player
		}
		text := fmt.Sprintf("bid %d on lot %d\nsalt: %s", rng.IntN(50)+1, rng.IntN(5)+1, salt)
		typ, ch := secret.ActionBid, "#auctions"
		switch rng.IntN(8) {
		case 0:
			ch = "#general"
		case 1:
			typ, ch, text = "scout", "#scouting", fmt.Sprintf("scout north %d\nsalt: %s", i, salt)
		}
		if rng.IntN(7) == 0 && len(made) > 0 { // a copied commitment
			if q := made[rng.IntN(len(made))]; q.player != p {
				text = q.text
			}
		}
		c := commit.Sum([]byte(text))
		idx := add(&ledger.Body{Kind: ledger.KindCommit, Player: p, ActionType: typ, Channel: ch, Commitment: hex.EncodeToString(c[:])}, scale(time.Duration(20+rng.IntN(60))*time.Minute))
		if idx >= 0 {
			made = append(made, post{idx, p, text})
		}
	}
	// Edits (Wednesday, before maturation, or Friday, after), then reveals
	// through Sunday.
	for range posts / 4 {
		q := made[rng.IntN(len(made))]
		who := q.player
		if rng.IntN(3) == 0 {
			who = players[rng.IntN(len(players))]
		}
		add(&ledger.Body{Kind: ledger.KindEdit, Player: who, Commit: &q.index}, scale(time.Duration(rng.IntN(400))*time.Minute))
	}
	clock = at(t, "2026-03-05T02:00:00Z")
	for range posts * 5 / 4 {
		q := made[rng.IntN(len(made))]
		who, text := q.player, q.text
		switch rng.IntN(6) {
		case 0:
			who = players[rng.IntN(len(players))]
		case 1:
			text += "\n" // a near miss
		}
		add(&ledger.Body{Kind: ledger.KindReveal, Player: who, Commit: &q.index, Text: &text}, scale(time.Duration(rng.IntN(150))*time.Minute))
	}
	var err error
	f.r, err = stores.Open(context.Background(), f.path, ledger.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.r.Close() })
	return f
}

// TestLookupMatchesWholeLedgerJudge: every commitment the site shows has,
// for each of its commit entries, the state, dates, failure, counted
// reveal, declaration, flags and explanations verify.JudgeActions gives
// over the whole ledger (the independent reference), with the reveals and
// edits that name the entry, at several instants of the week, over the
// demo-like fixture and generated ledgers, one of them of 1,250 entries:
// the site reads it in several batches, decoded apart and joined.
func TestLookupMatchesWholeLedgerJudge(t *testing.T) {
	ledgers := map[string]*fixture{"fixture": newFixture(t)}
	for _, seed := range []uint64{1, 2} {
		ledgers[fmt.Sprint("gen", seed)] = genFixture(t, seed)
	}
	ledgers["gen-large"] = genFixtureSized(t, 9, 500)
	for name, f := range ledgers {
		for _, when := range []string{"2026-03-04T12:00:00Z", "2026-03-06T12:00:00Z", "2026-03-09T12:00:00Z"} {
			now := at(t, when)
			s := f.server(t, func(o *Options) { o.Now = func() time.Time { return now } })
			matchReference(t, name+" at "+when, f, s, now)
		}
	}
}

// TestLookupMatchesAfterGrowth: a server whose ledger grows after its
// first judgement, partly checked by another caller of VerifiedSize
// first, still shows what the whole-ledger judge gives.
func TestLookupMatchesAfterGrowth(t *testing.T) {
	f := newFixture(t)
	now := at(t, "2026-03-09T12:00:00Z")
	s := f.server(t, func(o *Options) { o.Now = func() time.Time { return now } })
	matchReference(t, "before", f, s, now)
	text := "bid 3 on lot 2\nsalt: growth"
	c := commit.Sum([]byte(text))
	f.add(t, "late", "2026-03-08T10:00:00Z", &ledger.Body{Kind: ledger.KindCommit, Player: "alice", ActionType: "bid", Channel: "#auctions", Commitment: hex.EncodeToString(c[:])})
	if _, err := f.r.VerifiedSize(context.Background()); err != nil { // another reader of the ledger checks it first
		t.Fatal(err)
	}
	late := f.idx["late"]
	f.add(t, "late-reveal", "2026-03-08T11:00:00Z", &ledger.Body{Kind: ledger.KindReveal, Player: "alice", Commit: &late, Text: &text})
	f.add(t, "late-copy", "2026-03-08T12:00:00Z", &ledger.Body{Kind: ledger.KindCommit, Player: "bob", ActionType: "bid", Channel: "#auctions", Commitment: hex.EncodeToString(c[:])})
	matchReference(t, "after", f, s, now)
}

// matchReference checks every commitment s shows against
// verify.JudgeActions over f's whole ledger at now.
func matchReference(t *testing.T, name string, f *fixture, s *Server, now time.Time) {
	t.Helper()
	_, ref, err := verify.JudgeActions(f.r, secret.Game{}, now)
	if err != nil {
		t.Fatal(err)
	}
	h, err := verify.LoadHistory(f.r)
	if err != nil {
		t.Fatal(err)
	}
	byIndex := map[int64]secret.Action{}
	byCommitment := map[commit.Commitment][]int64{}
	for _, a := range ref.Actions {
		byIndex[a.Post.Index] = a
		byCommitment[a.Post.Commitment] = append(byCommitment[a.Post.Commitment], a.Post.Index)
	}
	states := map[secret.State]int{}
	for _, p := range h.Posts {
		v, err := s.lookupCommitment(p.Commitment)
		if len(byCommitment[p.Commitment]) == 0 { // posted after now
			if err == nil {
				t.Errorf("%s: %s posted after the instant is shown", name, p.Commitment)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %s: %v", name, p.Commitment, err)
		}
		var got []int64
		for _, av := range v.Actions {
			got = append(got, av.Index)
			a := byIndex[av.Index]
			states[a.State]++
			if a.Failure != nil {
				states[secret.State(a.Failure.Reason)]++
			}
			for _, fl := range a.Flags {
				states[secret.State(fl.Kind)]++
			}
			want := actionView{Index: a.Post.Index, Player: a.Post.Player, ActionType: a.Post.ActionType, Channel: a.Post.Channel,
				IntegratedAt: a.Post.IntegratedAt, PostedAt: a.Post.PostedAt, State: a.State, Maturation: a.Maturation, Revelation: a.Revelation,
				Failure: a.Failure, Declaration: a.Declaration, Decisions: a.Decisions, Flags: a.Flags}
			gotCore := av
			gotCore.PlayerNotes, gotCore.PhaseHelp, gotCore.Reveals, gotCore.Edits = nil, "", nil, nil
			if !reflect.DeepEqual(gotCore, want) {
				t.Errorf("%s: entry %d differs from the whole-ledger judgement:\n got %+v\nwant %+v", name, av.Index, gotCore, want)
			}
			var revs, edits []int64
			for _, r := range h.Reveals {
				if r.Commit == av.Index {
					revs = append(revs, r.Index)
				}
			}
			for _, e := range h.Edits {
				if e.Commit == av.Index {
					edits = append(edits, e.Index)
				}
			}
			var gotRevs, gotEdits []int64
			for _, r := range av.Reveals {
				gotRevs = append(gotRevs, r.Index)
				if r.Counted != (a.Reveal != nil && a.Reveal.Index == r.Index) {
					t.Errorf("%s: entry %d: reveal %d counted %v", name, av.Index, r.Index, r.Counted)
				}
			}
			for _, e := range av.Edits {
				gotEdits = append(gotEdits, e.Index)
			}
			if !reflect.DeepEqual(gotRevs, revs) || !reflect.DeepEqual(gotEdits, edits) {
				t.Errorf("%s: entry %d: reveals %v edits %v, the ledger has %v and %v", name, av.Index, gotRevs, gotEdits, revs, edits)
			}
		}
		if !reflect.DeepEqual(got, byCommitment[p.Commitment]) {
			t.Errorf("%s: %s shows entries %v, the judgement has %v", name, p.Commitment, got, byCommitment[p.Commitment])
		}
	}
	t.Logf("%s: states, failures and flags %v", name, states)
}

// TestViewJSONMatchesMarshal: the JSON of every commitment view (marshalView)
// is byte for byte json.Marshal's, over the fixture (markup, hidden
// characters, near misses) and generated ledgers.
func TestViewJSONMatchesMarshal(t *testing.T) {
	for _, f := range []*fixture{newFixture(t), genFixture(t, 3)} {
		s := f.server(t, nil)
		h, err := verify.LoadHistory(f.r)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range h.Posts {
			v, err := s.lookupCommitment(p.Commitment)
			if err != nil {
				t.Fatal(err)
			}
			want, err := json.Marshal(v)
			if err != nil {
				t.Fatal(err)
			}
			got, err := marshalView(v)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != string(want) {
				t.Errorf("%s:\n got %s\nwant %s", p.Commitment, got, want)
			}
		}
	}
	// Odd strings and times: escaping as encoding/json does, and a year it
	// refuses.
	text := "a<b>&\"\\\x01\b\f\n\r\t\x1f\x7f\u2028\u2029\xff\xe2\x80 é\U0001F600"
	v := &commitmentView{Commitment: text, JudgedAt: time.Date(2026, 3, 9, 12, 0, 0, 5, time.FixedZone("x", 3600)),
		Actions: []actionView{{Player: text, PlayerNotes: []string{text}, Declaration: &secret.Declaration{Hand: []secret.Card{{}}},
			Reveals: []revealView{{Text: &text, Hints: nil}}, Decisions: []secret.Explanation{{Times: []secret.TimeUsed{{Gap: time.Second}}}}}}}
	want, _ := json.Marshal(v)
	got, _ := marshalView(v)
	if string(got) != string(want) {
		t.Errorf("odd view:\n got %s\nwant %s", got, want)
	}
	v.JudgedAt = time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)
	_, wantErr := json.Marshal(v)
	if _, err := marshalView(v); (err == nil) != (wantErr == nil) {
		t.Errorf("year 10000: error %v, json.Marshal's %v", err, wantErr)
	}
}
