package nimrand_test

import (
	"encoding/json"
	"math"
	"os"
	"slices"
	"strconv"
	"testing"

	"github.com/sealedhq/sealed/rules/nimrand"
)

type vector struct {
	InitRand string   `json:"initRand"`
	Next     []string `json:"first_next_uint64"`
	Rand     []struct {
		Max   uint64 `json:"max"`
		Value uint64 `json:"value"`
	} `json:"rand_in_order"`
	Shuffle []int `json:"shuffle_0_to_9"`
}

// TestNimVectors checks the generator against the outputs of Nim 1.6.10's
// std/random (testdata/README.md).
func TestNimVectors(t *testing.T) {
	data, err := os.ReadFile("testdata/nim-random-vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	var vs []vector
	if err := json.Unmarshal(data, &vs); err != nil {
		t.Fatal(err)
	}
	if len(vs) < 5 {
		t.Fatalf("%d vectors; expected at least 5", len(vs))
	}
	for _, v := range vs {
		seed, err := strconv.ParseInt(v.InitRand, 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		r := nimrand.New(seed)
		for i, s := range v.Next {
			want, _ := strconv.ParseUint(s, 10, 64)
			if got := r.Next(); got != want {
				t.Errorf("initRand(%d) next #%d = %d; Nim printed %d", seed, i, got, want)
			}
		}
		r = nimrand.New(seed)
		for _, rv := range v.Rand {
			if got := r.Rand(rv.Max); got != rv.Value {
				t.Errorf("initRand(%d) rand(%d) = %d; Nim printed %d", seed, rv.Max, got, rv.Value)
			}
		}
		r = nimrand.New(seed)
		x := []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}
		r.Shuffle(len(x), func(i, j int) { x[i], x[j] = x[j], x[i] })
		if !slices.Equal(x, v.Shuffle) {
			t.Errorf("initRand(%d) shuffle = %v; Nim printed %v", seed, x, v.Shuffle)
		}
	}
}

// TestRandZero: rand(0) is 0 and draws nothing, as in Nim.
func TestRandZero(t *testing.T) {
	a, b := nimrand.New(42), nimrand.New(42)
	if got := a.Rand(0); got != 0 {
		t.Fatalf("rand(0) = %d; expected 0", got)
	}
	if a.Next() != b.Next() {
		t.Fatal("rand(0) consumed a draw")
	}
}

// TestSeedIsTheJump holds Seed's table of jumped basis states to running
// the jump itself (jumpState, as Nim's skipRandomNumbers does it) over
// seeds of every size and sign.
func TestSeedIsTheJump(t *testing.T) {
	seeds := []int64{0, 1, -1, 17, 1 << 16, 1<<16 - 1, 7919*2147483647 + 17, math.MaxInt64, math.MinInt64}
	x := uint64(0x9e3779b97f4a7c15)
	for range 2000 {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		seeds = append(seeds, int64(x), int64(x>>33), int64(x>>17))
	}
	for _, seed := range seeds {
		got := nimrand.New(seed)
		want := nimrand.SeedByJumping(seed)
		for i := 0; i < 3; i++ {
			if g, w := got.Next(), want.Next(); g != w {
				t.Fatalf("seed %d: output %d is %d; jumping gives %d", seed, i, g, w)
			}
		}
	}
}

func BenchmarkSeed(b *testing.B) {
	var r nimrand.Rand
	for i := 0; b.Loop(); i++ {
		r.Seed(int64(i)*7919 + 17)
	}
}
