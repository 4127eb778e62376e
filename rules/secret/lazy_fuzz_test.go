package secret_test

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"os"
	"reflect"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/sealedhq/sealed/commit"
	"github.com/sealedhq/sealed/rules/secret"
)

// The random differential tests of secret.Lazy (trial 15): Prepare's
// judgement, asked in every order and from many goroutines, against
// Judge, the reference, and Find against a scan of the posts.

// randomText is a revealable text and the commitment to it.
type randomText struct {
	c    commit.Commitment
	text []byte
}

// genRandomHistory draws a history of n posts by 1 to 6 players (one
// sometimes named ""), of four action types, on the right channel or
// not, with copied commitments, reused and missing salts, reveals early,
// late, wrong or by another player, edits by the owner or not, back-dated
// posts and coarse times, in time order, index order or neither; it
// returns the history and commitments crafted to share prefixes with its
// posts', for Find.
func genRandomHistory(r *rand.Rand, n int, start time.Time) (secret.History, []commit.Commitment) {
	var h secret.History
	nPlayers := 1 + r.IntN(6)
	players := make([]string, nPlayers)
	for i := range players {
		players[i] = fmt.Sprintf("p%d", i)
	}
	if r.IntN(5) == 0 {
		players[0] = ""
	}
	types := []string{"bid", "hand", "scout", "x"}
	nSalts := 1 + r.IntN(4)
	// texts
	var texts []randomText
	for range 3 + r.IntN(10) {
		salt := fmt.Sprintf("s%d", r.IntN(nSalts))
		var text []byte
		switch r.IntN(4) {
		case 0:
			text = fmt.Appendf(nil, "bid %d on lot %d\nsalt: %s", 10+r.IntN(5), 1+r.IntN(2), salt)
		case 1:
			text = fmt.Appendf(nil, "hand: AS KS QS JS %dH\nsalt: %s", 2+r.IntN(8), salt)
		case 2:
			text = fmt.Appendf(nil, "anything %d\nsalt: %s", r.IntN(3), salt)
		default:
			text = fmt.Appendf(nil, "bid %d on lot 1", r.IntN(3)) // no salt
		}
		texts = append(texts, randomText{commit.Sum(text), text})
	}
	// crafted commitments around bucket boundaries
	total := n
	L := bits.Len(uint(total))
	shift := uint(64 - L)
	var crafted []commit.Commitment
	for range 4 {
		var b uint64
		if shift < 64 {
			b = uint64(r.IntN(1<<L + 1))
			b <<= shift
		}
		crafted = append(crafted, prefixedCommitment(b, byte(r.IntN(2))*0xff), prefixedCommitment(b-1, byte(r.IntN(256))), prefixedCommitment(b+1, 0))
	}
	crafted = append(crafted, prefixedCommitment(0, 0), prefixedCommitment(^uint64(0), 0xff), prefixedCommitment(0, 0xff), prefixedCommitment(^uint64(0), 0))
	idx := r.Perm(n * 5)
	next := 0
	stamp := func(base time.Time) secret.Stamp {
		s := secret.Stamp{Index: int64(idx[next]), IntegratedAt: base}
		next++
		if r.IntN(4) == 0 {
			s.PostedAt = base.Add(-time.Duration(r.IntN(3*24*3600)) * time.Second)
		}
		return s
	}
	randTime := func() time.Time {
		// coarse times so that ties happen
		return start.Add(time.Duration(r.IntN(21*24)) * time.Hour)
	}
	type posted struct {
		p    secret.Post
		text []byte
	}
	var all []posted
	for range n {
		pl := players[r.IntN(len(players))]
		typ := types[r.IntN(len(types))]
		ch := secret.DefaultChannel
		if typ == "bid" {
			ch = secret.AuctionsChannel
		}
		if r.IntN(15) == 0 {
			ch = "#elsewhere"
		}
		var c commit.Commitment
		var text []byte
		switch k := r.IntN(10); {
		case k < 2:
			c = crafted[r.IntN(len(crafted))]
		case k < 3 && len(all) > 0:
			o := all[r.IntN(len(all))]
			c, text = o.p.Commitment, o.text
		default:
			t := texts[r.IntN(len(texts))]
			c, text = t.c, t.text
		}
		p := secret.Post{Stamp: stamp(randTime()), Player: pl, ActionType: typ, Channel: ch, Commitment: c}
		h.Posts = append(h.Posts, p)
		all = append(all, posted{p, text})
	}
	for range r.IntN(2*n + 1) {
		o := all[r.IntN(len(all))]
		pt, _ := o.p.Time()
		base := pt.Add(time.Duration(r.IntN(8*24)-12) * time.Hour)
		if r.IntN(4) == 0 {
			e := secret.Edit{Stamp: stamp(base), Commit: o.p.Index, Player: o.p.Player}
			if r.IntN(4) == 0 {
				e.Player = "other"
			}
			h.Edits = append(h.Edits, e)
			continue
		}
		rv := secret.Reveal{Stamp: stamp(base), Commit: o.p.Index, Player: o.p.Player, Text: o.text}
		switch r.IntN(8) {
		case 0:
			rv.Text = []byte("nope")
		case 1:
			rv.Player = players[r.IntN(len(players))]
		case 2:
			t := texts[r.IntN(len(texts))]
			rv.Text = t.text
		}
		if rv.Text == nil {
			rv.Text = texts[r.IntN(len(texts))].text
		}
		h.Reveals = append(h.Reveals, rv)
	}
	r.Shuffle(len(h.Reveals), func(a, b int) { h.Reveals[a], h.Reveals[b] = h.Reveals[b], h.Reveals[a] })
	switch r.IntN(3) {
	case 0: // time order (maybe)
		slices.SortFunc(h.Posts, byTime)
	case 1:
		slices.SortFunc(h.Posts, func(a, b secret.Post) int { return int(a.Index - b.Index) })
	}
	return h, crafted
}

// prefixedCommitment is the commitment of 8 bytes prefix (big-endian)
// and 24 bytes tail: placed where the index's directory puts it.
func prefixedCommitment(prefix uint64, tail byte) commit.Commitment {
	var c commit.Commitment
	binary.BigEndian.PutUint64(c[:8], prefix)
	for i := 8; i < len(c); i++ {
		c[i] = tail
	}
	return c
}

// checkFind fails t unless z.Find of each commitment of probes gives the
// positions of the actions of j (Judge's) whose post carries it, as a
// scan finds them; what says where.
func checkFind(t *testing.T, z *secret.Lazy, j *secret.Judgement, probes []commit.Commitment, what string) {
	t.Helper()
	for _, c := range probes {
		var scan []int
		for i := range j.Actions {
			if j.Actions[i].Post.Commitment == c {
				scan = append(scan, i)
			}
		}
		if got := z.Find(c); !slices.Equal(got, scan) {
			t.Fatalf("%s: Find(%x) = %v, a scan finds %v", what, c[:10], got, scan)
		}
	}
}

// randomStats counts the states, failure reasons and flags the random
// histories produced (logged, to show what they covered).
var randomStats = map[string]int{}

// randomStream is the random stream of the histories (LAZY_SEEDS=N draws
// N from another).
var randomStream = uint64(15)

// TestLazyRandomHistories: 600 random histories (150 with -short), each
// under three games (default settings; other phases and delays; a Paris
// calendar with a 1 h gap threshold) at instants before, inside, at and
// 1 ns before a post, and after: every action, asked at random, newest
// first, from six goroutines while JudgeRest stops after a few players,
// or not at all before Judgement, is Judge's; the JSON, NextDate and
// Find (against a scan, with near misses) too.
func TestLazyRandomHistories(t *testing.T) {
	defer func() { t.Log(randomStats) }()
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(6))
	start := time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)
	paris, _ := time.LoadLocation("Europe/Paris")
	games := []secret.Game{
		{},
		{Settings: map[string]secret.Settings{"x": {Maturation: secret.MatureAfterDelay, MaturationDelay: 0, RevelationDays: 1},
			"scout": {Phase: secret.Bartering}, "hand": {Maturation: secret.MatureAfterDelay, MaturationDelay: 30 * time.Hour}}},
		{Calendar: secret.Calendar{Location: paris}, GapThreshold: time.Hour},
	}
	seeds := 600
	if os.Getenv("LAZY_SEEDS") != "" {
		seeds, _ = strconv.Atoi(os.Getenv("LAZY_SEEDS"))
		randomStream = 16
	}
	if testing.Short() {
		seeds = 150
	}
	for seed := range seeds {
		r := rand.New(rand.NewPCG(uint64(seed), randomStream))
		sizes := []int{1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100}
		n := sizes[r.IntN(len(sizes))]
		h, crafted := genRandomHistory(r, n, start)
		g := games[r.IntN(len(games))]
		ats := []time.Time{start.Add(-time.Hour), start.Add(40 * 24 * time.Hour), start.Add(time.Duration(r.IntN(21*24)) * time.Hour)}
		pt, _ := h.Posts[r.IntN(len(h.Posts))].Time()
		ats = append(ats, pt, pt.Add(-time.Nanosecond))
		for ai, at := range ats {
			j, err := g.Judge(h, at)
			if err != nil {
				t.Fatal(err)
			}
			for i := range j.Actions {
				a := &j.Actions[i]
				randomStats[string(a.State)]++
				if a.Failure != nil {
					randomStats[string(a.Failure.Reason)]++
				}
				for _, f := range a.Flags {
					randomStats[string(f.Kind)]++
				}
				if len(a.Flags) > 1 {
					randomStats["multiflag"]++
				}
			}
			for mode := range 4 {
				z, err := g.Prepare(h, at)
				if err != nil {
					t.Fatal(err)
				}
				check := func(i int) {
					if a := z.Action(i); !reflect.DeepEqual(*a, j.Actions[i]) {
						ga, _ := json.MarshalIndent(a, "", " ")
						wa, _ := json.MarshalIndent(j.Actions[i], "", " ")
						t.Errorf("seed %d at %d mode %d: action %d differs:\nlazy %s\njudge %s", seed, ai, mode, i, ga, wa)
					}
				}
				switch mode {
				case 0:
					for _, i := range r.Perm(z.Len()) {
						check(i)
					}
				case 1:
					for i := z.Len() - 1; i >= 0; i-- {
						check(i)
					}
				case 2:
					var wg sync.WaitGroup
					stopAfter := r.IntN(3)
					cnt := 0
					var mu sync.Mutex
					wg.Go(func() {
						z.JudgeRest(func() bool { mu.Lock(); defer mu.Unlock(); cnt++; return cnt > stopAfter })
					})
					for w := range 6 {
						rr := rand.New(rand.NewPCG(uint64(seed), uint64(w)))
						wg.Go(func() {
							for range 2 * z.Len() {
								if z.Len() > 0 {
									check(rr.IntN(z.Len()))
								}
							}
						})
					}
					wg.Go(func() { z.Judgement() })
					wg.Wait()
				case 3:
					// nothing asked before Judgement
				}
				if t.Failed() {
					t.FailNow()
				}
				want, _ := json.Marshal(j)
				got, _ := json.Marshal(z.Judgement())
				if !bytes.Equal(got, want) {
					t.Fatalf("seed %d at %d mode %d: JSON differs", seed, ai, mode)
				}
				if mode == 0 {
					next := judgedNextDate(j, at)
					if got := z.NextDate(); !got.Equal(next) {
						t.Errorf("seed %d at %d: NextDate %s, want %s", seed, ai, got, next)
					}
					probes := slices.Clone(crafted)
					for i := range j.Actions {
						probes = append(probes, j.Actions[i].Post.Commitment)
					}
					for _, c := range slices.Clone(probes) {
						x := c
						x[31] ^= 1
						probes = append(probes, x)
						p := binary.BigEndian.Uint64(c[:8])
						binary.BigEndian.PutUint64(x[:8], p+1)
						probes = append(probes, x)
						binary.BigEndian.PutUint64(x[:8], p-1)
						probes = append(probes, x)
					}
					checkFind(t, z, j, probes, fmt.Sprintf("seed %d at %d", seed, ai))
				}
			}
		}
	}
}

// TestLazyCommitmentIndexEdges: at sizes around the directory's powers
// of two (0 to 4,097), commitments on bucket starts, one below and
// above, all-0x00 and all-0xFF, many sharing their 8-byte prefix: Find is
// a scan's answer and every action Judge's.
func TestLazyCommitmentIndexEdges(t *testing.T) {
	start := time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)
	for _, n := range []int{0, 1, 2, 3, 4, 7, 8, 9, 255, 256, 257, 2047, 2048, 2049, 4095, 4096, 4097} {
		r := rand.New(rand.NewPCG(uint64(n), 77))
		L := bits.Len(uint(n))
		shift := uint(64 - L)
		var pool []commit.Commitment
		for range 20 {
			var b uint64
			if L > 0 {
				b = uint64(r.IntN(1<<L + 1))
			}
			e := b << shift
			if shift == 64 {
				e = 0
			}
			pool = append(pool, prefixedCommitment(e, 0), prefixedCommitment(e, 0xff), prefixedCommitment(e-1, 0), prefixedCommitment(e-1, 0xff), prefixedCommitment(e+1, 7))
		}
		pool = append(pool, prefixedCommitment(0, 0), prefixedCommitment(^uint64(0), 0xff))
		var h secret.History
		for i := range n {
			c := pool[r.IntN(len(pool))]
			if r.IntN(3) == 0 {
				for k := range c {
					c[k] = byte(r.IntN(256))
				}
			}
			h.Posts = append(h.Posts, secret.Post{Stamp: secret.Stamp{Index: int64(i), IntegratedAt: start.Add(time.Duration(r.IntN(20*24)) * time.Hour)},
				Player: fmt.Sprintf("p%d", r.IntN(1+n/10)), ActionType: []string{"bid", "x"}[r.IntN(2)], Channel: secret.AuctionsChannel, Commitment: c})
		}
		at := start.Add(30 * 24 * time.Hour)
		j, z := judgeAndPrepare(t, secret.Game{}, h, at)
		probes := slices.Clone(pool)
		for i := range h.Posts {
			probes = append(probes, h.Posts[i].Commitment)
		}
		for _, c := range slices.Clone(probes) {
			x := c
			x[31] ^= 1
			probes = append(probes, x)
		}
		checkFind(t, z, j, probes, fmt.Sprintf("n %d", n))
		for _, i := range r.Perm(z.Len()) {
			if a := z.Action(i); !reflect.DeepEqual(*a, j.Actions[i]) {
				t.Fatalf("n %d: action %d differs", n, i)
			}
		}
		want, _ := json.Marshal(j)
		got, _ := json.Marshal(z.Judgement())
		if !bytes.Equal(got, want) {
			t.Fatalf("n %d: JSON differs", n)
		}
	}
}

// TestLazyOnePlayerManyGoroutines: one player with nine posts in ten, of
// several types; 16 goroutines ask random positions while JudgeRest and
// Judgement run (the player's judging resumed from many goroutines at
// once), and every action is Judge's.
func TestLazyOnePlayerManyGoroutines(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(8))
	start := time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)
	for seed := range 20 {
		r := rand.New(rand.NewPCG(uint64(seed), 99))
		h, _ := genRandomHistory(r, 300, start)
		for i := range h.Posts {
			if r.IntN(10) != 0 {
				h.Posts[i].Player = "solo"
			}
		}
		at := start.Add(time.Duration(r.IntN(25*24)) * time.Hour)
		j, err := secret.Game{}.Judge(h, at)
		if err != nil {
			t.Fatal(err)
		}
		z, _ := secret.Game{}.Prepare(h, at)
		var wg sync.WaitGroup
		for w := range 16 {
			rr := rand.New(rand.NewPCG(uint64(seed), uint64(w)))
			wg.Go(func() {
				for range 200 {
					if z.Len() == 0 {
						return
					}
					i := rr.IntN(z.Len())
					a := z.Action(i)
					if !reflect.DeepEqual(*a, j.Actions[i]) {
						t.Errorf("seed %d: action %d differs", seed, i)
					}
				}
			})
		}
		wg.Go(func() { z.JudgeRest(func() bool { return false }) })
		wg.Go(func() { z.Judgement() })
		wg.Wait()
		next := judgedNextDate(j, at)
		if got := z.NextDate(); !got.Equal(next) {
			t.Errorf("seed %d: NextDate %s, want %s", seed, got, next)
		}
		// Find's slice: appending must not change later lookups.
		for _, p := range h.Posts[:min(10, len(h.Posts))] {
			f := z.Find(p.Commitment)
			before := slices.Clone(f)
			_ = append(f, -1)
			for _, q := range h.Posts {
				if g := z.Find(q.Commitment); slices.Contains(g, -1) {
					t.Fatalf("append to Find's slice leaked")
				}
			}
			if !slices.Equal(z.Find(p.Commitment), before) {
				t.Fatal("Find changed")
			}
		}
	}
}
