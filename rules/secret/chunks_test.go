package secret_test

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/sealedhq/sealed/rules/secret"
)

// TestLazyAtChunkEdges (trial 13): for histories of 0 to 2,049 posts
// (around the edges of the chunks of 1,024 actions the Lazy once kept;
// it now keeps each player's actions together), in each order genOrdered
// draws, at the end of the history, long after it, inside it and before
// it, Judge of the history is Judge of the same posts shuffled, and
// Prepare's judgement, asked from eight goroutines at once (interleaved
// over the players) while JudgeRest and Judgement run, is Judge's action
// by action and as JSON; Judgement returns copies, and nothing writes the
// caller's posts.
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
