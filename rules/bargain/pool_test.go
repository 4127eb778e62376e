package bargain

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/sealedhq/sealed/internal/testvector"
)

// vectorFile is a test-vector file: "key: value" headers, a blank line,
// then the body lines.
type vectorFile struct {
	headers map[string]string
	body    []string
}

func readVectorFile(t *testing.T, path string) vectorFile {
	t.Helper()
	f, err := testvector.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	return vectorFile{headers: f.Map(), body: f.Lines()}
}

func mustSeed(t testing.TB, h string) []byte {
	t.Helper()
	b, err := hex.DecodeString(h)
	if err != nil || len(b) != 32 {
		t.Fatalf("bad seed %q", h)
	}
	return b
}

func vec(v Vector) string { return fmt.Sprintf("%d,%d,%d", v[0], v[1], v[2]) }

// TestDrawMatchVectors checks DrawMatch against pools computed by an
// independent implementation of docs/design.md in Python (hmac, hashlib):
// testdata/pool_vectors.py; each file records the command that made it.
// The vectors cover B redrawn 16 times then "the first compatible entry of
// V" (first-compatible.txt, match 3) and 10 count draws (many-count-draws.txt).
func TestDrawMatchVectors(t *testing.T) {
	files, _ := filepath.Glob("testdata/pools/*.txt")
	if len(files) < 4 {
		t.Fatalf("expected at least 4 vector files, found %d", len(files))
	}
	for _, path := range files {
		vf := readVectorFile(t, path)
		seed := mustSeed(t, vf.headers["seed"])
		n, _ := strconv.Atoi(vf.headers["matches"])
		if n != len(vf.body) {
			t.Fatalf("%s: matches %d but %d lines", path, n, len(vf.body))
		}
		for m, line := range vf.body {
			p, err := DrawMatch(seed, m)
			if err != nil {
				t.Fatal(err)
			}
			got := fmt.Sprintf("%d seats=%d,%d opener=%d pool=%s a=%s b=%s", m, p.Seats[0], p.Seats[1], p.Opener, vec(p.Pool), vec(p.Values[0]), vec(p.Values[1]))
			if !strings.HasPrefix(line, got+" ") {
				t.Errorf("%s match %d:\n got %s\nwant %s", filepath.Base(path), m, got, line)
			}
		}
	}
}

// TestValueTable checks |V(c)| and its first and last entries against
// python3 -c "c=[...]; v=[(a,b,d) for a in range(11) for b in range(11)
// for d in range(11) if c[0]*a+c[1]*b+c[2]*d==10]; print(len(v), v[0], v[-1])".
func TestValueTable(t *testing.T) {
	cases := []struct {
		c           Vector
		n           int
		first, last Vector
	}{
		{Vector{1, 1, 3}, 26, Vector{0, 1, 3}, Vector{10, 0, 0}},
		{Vector{2, 2, 2}, 21, Vector{0, 0, 5}, Vector{5, 0, 0}},
		{Vector{1, 2, 4}, 12, Vector{0, 1, 2}, Vector{10, 0, 0}},
		{Vector{4, 1, 1}, 21, Vector{0, 0, 10}, Vector{2, 2, 0}},
		{Vector{3, 2, 2}, 9, Vector{0, 0, 5}, Vector{2, 2, 0}},
		{Vector{1, 1, 4}, 21, Vector{0, 2, 2}, Vector{10, 0, 0}},
	}
	for _, tc := range cases {
		v, err := ValueTable(tc.c)
		if err != nil {
			t.Fatal(err)
		}
		if len(v) != tc.n || v[0] != tc.first || v[len(v)-1] != tc.last {
			t.Errorf("V(%v): %d entries %v..%v, want %d %v..%v", tc.c, len(v), v[0], v[len(v)-1], tc.n, tc.first, tc.last)
		}
		for i := 1; i < len(v); i++ {
			if !(v[i-1][0] < v[i][0] || v[i-1][0] == v[i][0] && (v[i-1][1] < v[i][1] || v[i-1][1] == v[i][1] && v[i-1][2] < v[i][2])) {
				t.Errorf("V(%v) not lexicographic at %d: %v then %v", tc.c, i, v[i-1], v[i])
			}
		}
		v[0] = Vector{9, 9, 9} // the copy is the caller's
		if again, _ := ValueTable(tc.c); again[0] != tc.first {
			t.Errorf("ValueTable returned a shared slice")
		}
	}
	for _, bad := range []Vector{{0, 1, 1}, {5, 1, 1}, {1, -1, 2}} {
		if _, err := ValueTable(bad); err == nil {
			t.Errorf("ValueTable(%v): no error", bad)
		}
	}
}

// TestEveryValuationHasPartner: for every legal pool and every A in V(c),
// some B in V(c) leaves no item type worthless to both, so the last-resort
// rule "B = the first entry of V compatible with A" always finds one.
func TestEveryValuationHasPartner(t *testing.T) {
	pools := 0
	for c0 := 1; c0 <= 4; c0++ {
		for c1 := 1; c1 <= 4; c1++ {
			for c2 := 1; c2 <= 4; c2++ {
				c := Vector{c0, c1, c2}
				if c.Sum() < 5 || c.Sum() > 7 {
					continue
				}
				pools++
				v, _ := ValueTable(c)
				for _, a := range v {
					found := false
					for _, b := range v {
						found = found || bothValued(a, b)
					}
					if !found {
						t.Errorf("pool %v: no partner for A = %v", c, a)
					}
				}
			}
		}
	}
	// 6 + 10 + 12 triples of 1..4 sum to 5, 6, 7 (counted by hand).
	if pools != 28 {
		t.Errorf("%d legal pools, want 28", pools)
	}
}

// TestPoolConstraintsOver10000Seeds: every pool of six matches for 10,000
// seeds (SHA-256 of the decimal seed index) satisfies every constraint of
// seed 002, and the schedule follows P[m mod 3] and the opener rule.
func TestPoolConstraintsOver10000Seeds(t *testing.T) {
	n := 10000
	if testing.Short() {
		n = 1000
	}
	wantSeats := [6][2]int{{0, 1}, {0, 2}, {1, 2}, {0, 1}, {0, 2}, {1, 2}}
	wantOpener := [6]int{0, 0, 1, 1, 2, 2}
	for i := 0; i < n; i++ {
		seed := sha256.Sum256([]byte(strconv.Itoa(i)))
		plans, err := DrawSchedule(seed[:], 6)
		if err != nil {
			t.Fatal(err)
		}
		for m, p := range plans {
			if err := ValidatePool(p.Pool, p.Values[0], p.Values[1]); err != nil {
				t.Fatalf("seed %d match %d: %v", i, m, err)
			}
			if p.Match != m || p.Seats != wantSeats[m] || p.Opener != wantOpener[m] {
				t.Fatalf("seed %d match %d: seats %v opener %d", i, m, p.Seats, p.Opener)
			}
		}
	}
}

// TestSixMatchesPlaysAndOpenings: over six matches every seat plays exactly
// four and opens exactly two (seed 002, "The table").
func TestSixMatchesPlaysAndOpenings(t *testing.T) {
	var plays, opens [Seats]int
	for m := 0; m < 6; m++ {
		seats, opener, err := PairingFor(m)
		if err != nil {
			t.Fatal(err)
		}
		plays[seats[0]]++
		plays[seats[1]]++
		opens[opener]++
	}
	if plays != [Seats]int{4, 4, 4} || opens != [Seats]int{2, 2, 2} {
		t.Errorf("plays %v opens %v, want 4 each and 2 each", plays, opens)
	}
	if _, _, err := PairingFor(-1); err == nil {
		t.Error("PairingFor(-1): no error")
	}
}

// fixedSource returns 4 for every Range and 0 for every Intn: the counts
// [4,4,4] miss the 5..7 window on all 32 tries.
type fixedSource struct{ ranges, intns int }

func (f *fixedSource) Range(lo, hi int) int { f.ranges++; return hi }
func (f *fixedSource) Intn(n uint64) uint64 { f.intns++; return 0 }

// TestCountFallback: after 32 missed count triples the pool is [3,2,2];
// A = B = V[0] = [0,0,5] leaves books and hats worthless to both, so B is
// redrawn 16 times and then set to the first entry of V(3,2,2) valuing both
// books and hats, [2,1,1]: python3 -c "v=[(a,b,d) for a in range(11) for b
// in range(11) for d in range(11) if 3*a+2*b+2*d==10]; print([x for x in v
// if x[0]>0 and x[1]>0][0])".
func TestCountFallback(t *testing.T) {
	f := &fixedSource{}
	pool, values, err := drawPoolValues(f)
	if err != nil {
		t.Fatal(err)
	}
	if pool != (Vector{3, 2, 2}) || values[0] != (Vector{0, 0, 5}) || values[1] != (Vector{2, 1, 1}) {
		t.Errorf("pool %v values %v, want [3 2 2] [[0 0 5] [2 1 1]]", pool, values)
	}
	if f.ranges != 3*CountDraws || f.intns != 2+ValueRedraws {
		t.Errorf("%d range draws and %d intn draws, want %d and %d", f.ranges, f.intns, 3*CountDraws, 2+ValueRedraws)
	}
}

func TestDrawMatchBadInput(t *testing.T) {
	if _, err := DrawMatch(make([]byte, 31), 0); err == nil {
		t.Error("31-byte seed: no error")
	}
	if _, err := DrawMatch(make([]byte, 32), -1); err == nil {
		t.Error("match -1: no error")
	}
	if _, err := DrawSchedule(make([]byte, 32), -1); err == nil {
		t.Error("-1 matches: no error")
	}
}
