package secret_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/sealedhq/sealed/commit"
	"github.com/sealedhq/sealed/rules/secret"
)

// TestLazyAtChunkEdges (trial 13): around the edges of Lazy's chunks of
// 1,024 actions, in each order genOrdered draws, at the end of the
// history, long after it, inside it and before it, Judge of the history
// is Judge of the same posts shuffled, and Prepare's judgement, asked
// from eight goroutines at once (interleaved over the same chunks) while
// JudgeRest and Judgement run, is Judge's action by action and as JSON;
// Judgement returns copies, and nothing writes the caller's posts.
func TestLazyAtChunkEdges(t *testing.T) {
	start := time.Date(2026, 11, 2, 0, 0, 0, 0, time.UTC)
	for _, n := range []int{0, 1, 1023, 1024, 1025, 2049} {
		for mode := range 4 {
			h, end := genOrdered(rand.New(rand.NewPCG(uint64(n), uint64(mode))), n, start, mode)
			before := slices.Clone(h.Posts)
			for _, at := range []time.Time{end, end.Add(2000 * time.Hour), start.Add(end.Sub(start) / 2), start.Add(-time.Hour)} {
				j, err := secret.Game{}.Judge(h, at)
				if err != nil {
					t.Fatal(err)
				}
				// The reference: the posts shuffled (ordered by a sort).
				sh := h
				sh.Posts = slices.Clone(h.Posts)
				rand.New(rand.NewPCG(1, 2)).Shuffle(len(sh.Posts), func(a, b int) { sh.Posts[a], sh.Posts[b] = sh.Posts[b], sh.Posts[a] })
				ref, err := secret.Game{}.Judge(sh, at)
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(j, ref) {
					t.Fatalf("n %d mode %d at %s: in-order Judge differs from shuffled", n, mode, at)
				}
				z, err := secret.Game{}.Prepare(h, at)
				if err != nil {
					t.Fatal(err)
				}
				if z.Len() != len(j.Actions) {
					t.Fatalf("n %d mode %d at %s: %d actions, Judge has %d", n, mode, at, z.Len(), len(j.Actions))
				}
				var wg sync.WaitGroup
				for w := range 8 {
					wg.Go(func() {
						for i := w; i < z.Len(); i += 8 {
							if a := z.Action(i); !reflect.DeepEqual(*a, j.Actions[i]) {
								t.Errorf("n %d mode %d at %s: action %d differs", n, mode, at, i)
							}
						}
					})
				}
				wg.Go(func() { z.JudgeRest(func() bool { return false }) })
				wg.Go(func() { _ = z.Judgement() })
				wg.Wait()
				jl := z.Judgement()
				a, _ := json.Marshal(j)
				b, _ := json.Marshal(jl)
				if !bytes.Equal(a, b) {
					t.Fatalf("n %d mode %d at %s: Lazy JSON differs", n, mode, at)
				}
				// Judgement returns copies: changing one leaves z as it was.
				if len(jl.Actions) > 0 {
					jl.Actions[0].State = "zzz"
					if z.Action(0).State == "zzz" {
						t.Fatal("Judgement shares actions")
					}
				}
			}
			if !reflect.DeepEqual(h.Posts, before) {
				t.Fatalf("n %d mode %d: posts written", n, mode)
			}
		}
	}
}

// genOrdered draws n posts from rng from start on, with reveals and
// edits (genHistory's mix), in one of four orders: mode 0, integration
// times only (time order is index order: the in-order path); 1, a quarter
// of the posts back-dated by posted_at (out of time order: the posts are
// ordered by a sort); 2, every post back-dated, then the posts sorted by
// time (in time order, indexes not increasing); 3, one post in 50 dated
// 1,000 hours after its integration (after most instants judged). It
// returns the history and the instant after its last entry.
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
		salt := fmt.Sprintf("s%d", rng.IntN(max(1, n*2/3)))
		text := fmt.Appendf(nil, "bid %d on lot %d\nsalt: %s", 10+rng.IntN(90), 1+rng.IntN(5), salt)
		if typ == "hand" {
			text = fmt.Appendf(nil, "hand: AS KS QS JS %dH\nsalt: %s", 2+rng.IntN(8), salt)
		}
		c := commit.Sum(text)
		if len(all) > 0 && rng.IntN(25) == 0 {
			o := all[rng.IntN(len(all))]
			c, text = o.p.Commitment, o.text
		}
		p := secret.Post{Stamp: next(), Player: player, ActionType: typ, Channel: channel, Commitment: c}
		h.Posts = append(h.Posts, p)
		all = append(all, posted{p, text})
		for range rng.IntN(3) {
			o := all[max(0, len(all)-1-rng.IntN(900))]
			r := secret.Reveal{Stamp: next(), Commit: o.p.Index, Player: o.p.Player, Text: o.text}
			if rng.IntN(8) == 0 {
				r.Text = []byte("not the text")
			}
			h.Reveals = append(h.Reveals, r)
		}
		if rng.IntN(30) == 0 {
			o := all[rng.IntN(len(all))]
			h.Edits = append(h.Edits, secret.Edit{Stamp: next(), Commit: o.p.Index, Player: o.p.Player})
		}
	}
	if mode == 2 {
		// posted_at set on each post so that time order differs from index
		// order, then posts sorted by time (in-order fast path, non-monotone
		// indices).
		for i := range h.Posts {
			h.Posts[i].PostedAt = h.Posts[i].IntegratedAt.Add(-time.Duration(rng.IntN(7200)) * time.Second)
		}
		slices.SortFunc(h.Posts, func(a, b secret.Post) int {
			ta, _ := a.Time()
			tb, _ := b.Time()
			if c := ta.Compare(tb); c != 0 {
				return c
			}
			return int(a.Index - b.Index)
		})
	}
	return h, start.Add(time.Duration(idx) * 250 * time.Second)
}
