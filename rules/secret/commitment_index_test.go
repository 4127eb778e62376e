package secret_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/sealedhq/sealed/commit"
	"github.com/sealedhq/sealed/rules/secret"
)

// TestLazyCommitmentIndexCrafted (trial 14): Prepare's sorted index of
// commitments against Judge and a brute-force Find, on histories whose
// commitments share their first 8 bytes, differ in byte 7 or 8 only, are
// all 0 or all 0xff, are posted by several players and by one player
// under several action types, with posts out of index order, judged at
// two instants; Find is also asked for absent commitments sharing a
// prefix with present ones.
func TestLazyCommitmentIndexCrafted(t *testing.T) {
	start := time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)
	for seed := range uint64(40) {
		r := rand.New(rand.NewPCG(seed, 14))
		// a few base commitments; variants share the 8-byte prefix, or
		// differ only in byte 7 / byte 8, or have high bits set.
		var pool []commit.Commitment
		for range 4 {
			var c commit.Commitment
			for i := range c {
				c[i] = byte(r.IntN(256))
			}
			pool = append(pool, c)
			d := c
			d[31] ^= 1
			pool = append(pool, d)
			e := c
			e[8] ^= 0x80
			pool = append(pool, e)
			f := c
			f[7] ^= 1
			pool = append(pool, f)
		}
		var zero, ff commit.Commitment
		for i := range ff {
			ff[i] = 0xff
		}
		pool = append(pool, zero, ff)
		players := []string{"a", "b", "c", "d", "e", "f"}
		types := []string{"bid", "hand", "scout"}
		var h secret.History
		n := 10 + r.IntN(60)
		for i := range n {
			// times not in index order sometimes
			at := start.Add(time.Duration(r.IntN(72*60)) * time.Minute)
			h.Posts = append(h.Posts, secret.Post{Stamp: secret.Stamp{Index: int64(i), IntegratedAt: at},
				Player: players[r.IntN(len(players))], ActionType: types[r.IntN(len(types))], Channel: "#auctions",
				Commitment: pool[r.IntN(len(pool))]})
		}
		g := secret.Game{}
		for _, at := range []time.Time{start.Add(100 * time.Hour), start.Add(20 * time.Hour)} {
			j, z := judgeAndPrepare(t, g, h, at)
			for _, i := range r.Perm(z.Len()) {
				if a := z.Action(i); !reflect.DeepEqual(*a, j.Actions[i]) {
					t.Fatalf("seed %d: action %d differs:\nlazy:  %+v\nJudge: %+v", seed, i, *a, j.Actions[i])
				}
			}
			want, _ := json.Marshal(j)
			got, _ := json.Marshal(z.Judgement())
			if string(got) != string(want) {
				t.Fatalf("seed %d: judgement differs", seed)
			}
			// Find against brute force, for every pool commitment and some absent ones.
			probe := slices.Clone(pool)
			for _, c := range pool {
				x := c
				x[31] ^= 2
				probe = append(probe, x)
				x = c
				x[0] ^= 0x40
				probe = append(probe, x)
			}
			checkFind(t, z, j, probe, fmt.Sprintf("seed %d", seed))
		}
	}
}

// BenchmarkLazyManyCopies (trial 14): one commitment posted once by
// each of n players (each post flagged as a copy of the first), and the
// first lookup of it as the site makes it (Action of every position Find
// gives). commitmentRange found the end of a commitment's keys by a walk,
// n steps per post, n² for the lookup: on the 2-core machine, 5,000
// copies took 126 ms and 20,000 took 1.65 s (before e7c6795's sorted
// index, with the map: 30 ms and 129 ms); with the end bisected, 18 ms
// and 108 ms.
func BenchmarkLazyManyCopies(b *testing.B) {
	start := time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)
	for _, n := range []int{5000, 20000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			var c commit.Commitment
			c[0] = 7
			var h secret.History
			for i := range n {
				h.Posts = append(h.Posts, secret.Post{Stamp: secret.Stamp{Index: int64(i), IntegratedAt: start.Add(time.Duration(i) * time.Second)},
					Player: fmt.Sprintf("p%06d", i), ActionType: "bid", Channel: "#auctions", Commitment: c})
			}
			for b.Loop() {
				z, err := secret.Game{}.Prepare(h, start.Add(200*time.Hour))
				if err != nil {
					b.Fatal(err)
				}
				for _, i := range z.Find(c) {
					z.Action(i)
				}
			}
		})
	}
}
