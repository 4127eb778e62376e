package secret_test

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/sealedhq/sealed/commit"
	"github.com/sealedhq/sealed/rules/secret"
)

// TestJudgeParallelMatchesSequential judges one large generated history
// (thousands of posts: bids and hands of 400 players over two months, with
// copied commitments, reused salts, wrong texts, reveals by the wrong
// player, edits) on one CPU, where the players are judged one after the
// other, and on four, where they are judged at once: the judgements must
// be identical, action by action.
func TestJudgeParallelMatchesSequential(t *testing.T) {
	start := time.Date(2026, 11, 2, 0, 0, 0, 0, time.UTC) // a Monday
	h, at := genHistory(rand.New(rand.NewPCG(12, 34)), start)
	judge := func(procs int) *secret.Judgement {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		j, err := secret.Game{}.Judge(h, at)
		if err != nil {
			t.Fatal(err)
		}
		return j
	}
	one, four := judge(1), judge(4)
	if len(one.Actions) != len(h.Posts) || len(four.Actions) != len(h.Posts) {
		t.Fatalf("%d and %d actions judged, want %d", len(one.Actions), len(four.Actions), len(h.Posts))
	}
	states, flags := map[secret.State]int{}, 0
	for i := range one.Actions {
		if !reflect.DeepEqual(one.Actions[i], four.Actions[i]) {
			t.Fatalf("action %d (entry %d) differs:\none CPU:   %+v\nfour CPUs: %+v", i, one.Actions[i].Post.Index, one.Actions[i], four.Actions[i])
		}
		states[one.Actions[i].State]++
		flags += len(one.Actions[i].Flags)
	}
	// The history exercises the rules, not one path through them.
	reasons := map[secret.Reason]int{}
	for i := range one.Actions {
		if f := one.Actions[i].Failure; f != nil {
			reasons[f.Reason]++
		}
	}
	if states[secret.Revealed] == 0 || states[secret.Failed] == 0 || len(reasons) < 4 || flags == 0 {
		t.Fatalf("the generated history is too plain: states %v, failures %v, %d flags", states, reasons, flags)
	}
	t.Logf("states %v, failures %v, %d flags", states, reasons, flags)
}

// genHistory draws a large history from rng from start on (6,000 posts:
// bids and hands of 400 players, every 250 s, with copied commitments,
// reused salts, wrong texts and channels, reveals by the wrong player,
// edits) and returns it with the instant after its last entry.
func genHistory(rng *rand.Rand, start time.Time) (secret.History, time.Time) {
	return genOrdered(rng, 6000, start, 0)
}

// genOrdered is genHistory with n posts from n/15 players (salts drawn
// from n*2/3) in one of four orders: mode 0, integration times only (time
// order is index order: Judge and Prepare take the posts as they are);
// 1, a quarter of the entries back-dated by posted_at (the posts ordered
// by a sort); 2, every post back-dated, then the posts sorted by time (in
// time order, indexes not increasing); 3, one entry in 50 dated 1,000
// hours after its integration (after most instants judged).
func genOrdered(rng *rand.Rand, n int, start time.Time, mode int) (secret.History, time.Time) {
	var h secret.History
	idx := int64(0)
	next := func() secret.Stamp {
		s := secret.Stamp{Index: idx, IntegratedAt: start.Add(time.Duration(idx) * 250 * time.Second)}
		switch mode {
		case 1:
			if rng.IntN(4) == 0 {
				s.PostedAt = s.IntegratedAt.Add(-time.Duration(rng.IntN(3600)) * time.Second)
			}
		case 3:
			if rng.IntN(50) == 0 {
				s.PostedAt = s.IntegratedAt.Add(1000 * time.Hour)
			}
		}
		idx++
		return s
	}
	type posted struct {
		p    secret.Post
		text []byte
	}
	var all []posted
	players := max(2, n/15)
	for range n {
		player := fmt.Sprintf("p%d", rng.IntN(players))
		typ, channel := "bid", secret.AuctionsChannel
		if rng.IntN(3) == 0 {
			typ, channel = "hand", secret.DefaultChannel
		}
		if rng.IntN(20) == 0 {
			channel = "#elsewhere"
		}
		salt := fmt.Sprintf("s%d", rng.IntN(max(1, n*2/3))) // some salts come back
		text := fmt.Appendf(nil, "bid %d on lot %d\nsalt: %s", 10+rng.IntN(90), 1+rng.IntN(5), salt)
		if typ == "hand" {
			text = fmt.Appendf(nil, "hand: AS KS QS JS %dH\nsalt: %s", 2+rng.IntN(8), salt)
		}
		c := commit.Sum(text)
		if len(all) > 0 && rng.IntN(25) == 0 { // a copy of someone's commitment
			o := all[rng.IntN(len(all))]
			c, text = o.p.Commitment, o.text
		}
		p := secret.Post{Stamp: next(), Player: player, ActionType: typ, Channel: channel, Commitment: c}
		h.Posts = append(h.Posts, p)
		all = append(all, posted{p, text})
		// Some of the earlier posts are revealed or edited now.
		for range rng.IntN(3) {
			o := all[max(0, len(all)-1-rng.IntN(900))] // mostly one to five days back
			r := secret.Reveal{Stamp: next(), Commit: o.p.Index, Player: o.p.Player, Text: o.text}
			switch rng.IntN(8) {
			case 0:
				r.Text = []byte("not the text")
			case 1:
				r.Player = "someone-else"
			}
			h.Reveals = append(h.Reveals, r)
		}
		if rng.IntN(30) == 0 {
			o := all[rng.IntN(len(all))]
			h.Edits = append(h.Edits, secret.Edit{Stamp: next(), Commit: o.p.Index, Player: o.p.Player})
		}
	}
	if mode == 2 {
		for i := range h.Posts {
			h.Posts[i].PostedAt = h.Posts[i].IntegratedAt.Add(-time.Duration(rng.IntN(7200)) * time.Second)
		}
		slices.SortFunc(h.Posts, byTime)
	}
	return h, start.Add(time.Duration(idx) * 250 * time.Second)
}

// byTime orders posts by their time (Post.Time), then ledger index, as
// Judge takes them.
func byTime(a, b secret.Post) int {
	ta, _ := a.Time()
	tb, _ := b.Time()
	if c := ta.Compare(tb); c != 0 {
		return c
	}
	return int(a.Index - b.Index)
}
