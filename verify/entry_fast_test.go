package verify

import (
	"math/rand/v2"
	"reflect"
	"testing"
	"time"

	"github.com/sealedhq/sealed/commit"
	"github.com/sealedhq/sealed/ledger"
	"github.com/sealedhq/sealed/rules/secret"
)

// secretLeafSeeds are leaves of secret-action entries: in the ledger's
// canonical form (which the fast path must read) and in forms it must
// leave to encoding/json (escapes, other members, white space, duplicate
// or differently cased names, numbers and commitments in other forms,
// invalid UTF-8, nulls).
var secretLeafSeeds = []struct {
	kind ledger.Kind
	leaf string
	fast bool // the fast path reads it
}{
	{ledger.KindCommit, `{"action_type":"bid","channel":"#auctions","commitment":"5e2cae6e236a121e334a172eeaca7bfd3f97f3cd87b2c88a16a6e7586476f00b","integrated_at":"2026-12-03T07:07:07.586182467Z","kind":"commit","player":"p0"}`, true},
	{ledger.KindCommit, `{"action_type":"hand","channel":"#général","commitment":"0000000000000000000000000000000000000000000000000000000000000001","integrated_at":"2026-12-03T07:07:07.586182467Z","kind":"commit","player":"Zoë 🎲","posted_at":"2026-12-03T07:00:00.000000000Z"}`, true},
	{ledger.KindCommit, `{"commitment":"5e2cae6e236a121e334a172eeaca7bfd3f97f3cd87b2c88a16a6e7586476f00b","kind":"commit"}`, true},
	{ledger.KindReveal, `{"commit":0,"integrated_at":"2026-12-03T07:07:07.586182467Z","kind":"reveal","player":"p0","text":"bid 5 on lot 1 | salt: x"}`, true},
	{ledger.KindReveal, `{"commit":123456789012345678,"kind":"reveal","player":"p0","text":""}`, true},
	{ledger.KindReveal, `{"commit":12,"integrated_at":"2026-12-03T07:07:07.586182467Z","kind":"reveal","player":"p0","text_base64":"/w=="}`, true},
	{ledger.KindReveal, `{"commit":12,"kind":"reveal","player":"p0"}`, true},
	{ledger.KindEdit, `{"commit":3,"integrated_at":"2026-12-03T07:07:07.586182467Z","kind":"edit","player":"p0","posted_at":"2026-12-03T07:00:00.000000000Z"}`, true},
	{ledger.KindEdit, `{"commit":3,"kind":"edit"}`, true},

	{ledger.KindReveal, `{"commit":0,"kind":"reveal","player":"p0","text":"bid 5 on lot 1\nsalt: \"x\" \u00e9"}`, false},
	{ledger.KindCommit, `{"commitment":"5E2CAE6E236A121E334A172EEACA7BFD3F97F3CD87B2C88A16A6E7586476F00B","kind":"commit","player":"p0"}`, false},
	{ledger.KindCommit, `{"commitment":"sha256:5e2cae6e236a121e334a172eeaca7bfd3f97f3cd87b2c88a16a6e7586476f00b","kind":"commit"}`, false},
	{ledger.KindCommit, `{"commitment":"5e2c","kind":"commit"}`, false},
	{ledger.KindCommit, `{"kind":"commit","player":"p0"}`, false},
	{ledger.KindCommit, `{"commitment":"5e2cae6e236a121e334a172eeaca7bfd3f97f3cd87b2c88a16a6e7586476f00b","kind":"commit","player":"p0","player":"p1"}`, false},
	{ledger.KindCommit, `{"commitment":"5e2cae6e236a121e334a172eeaca7bfd3f97f3cd87b2c88a16a6e7586476f00b","kind":"commit","Player":"p1"}`, false},
	{ledger.KindCommit, `{"commitment":"5e2cae6e236a121e334a172eeaca7bfd3f97f3cd87b2c88a16a6e7586476f00b", "kind":"commit"}`, false},
	{ledger.KindCommit, `{"commitment":"5e2cae6e236a121e334a172eeaca7bfd3f97f3cd87b2c88a16a6e7586476f00b","kind":"commit","extra":1}`, false},
	{ledger.KindCommit, `{"commitment":"5e2cae6e236a121e334a172eeaca7bfd3f97f3cd87b2c88a16a6e7586476f00b","kind":"commit","player":"p\xff"}`, false},
	{ledger.KindCommit, `{"commitment":"5e2cae6e236a121e334a172eeaca7bfd3f97f3cd87b2c88a16a6e7586476f00b","kind":"commit","player":null}`, false},
	{ledger.KindReveal, `{"commit":01,"kind":"reveal","text":"a"}`, false},
	{ledger.KindReveal, `{"commit":-1,"kind":"reveal","text":"a"}`, false},
	{ledger.KindReveal, `{"commit":1e2,"kind":"reveal","text":"a"}`, false},
	{ledger.KindReveal, `{"commit":1234567890123456789,"kind":"reveal","text":"a"}`, false},
	{ledger.KindReveal, `{"commit":"1","kind":"reveal","text":"a"}`, false},
	{ledger.KindReveal, `{"kind":"reveal","text":"a"}`, false},
	{ledger.KindReveal, `{"commit":1,"kind":"reveal","text_base64":"not base64!"}`, false},
	{ledger.KindReveal, `{"commit":1,"kind":"reveal","text":null}`, false},
	{ledger.KindEdit, `{"commit":3,"kind":"edit"}x`, false},
	{ledger.KindEdit, `{"commit":3,"kind":"edit",}`, false},
	{ledger.KindEdit, `{}`, false},
	{ledger.KindEdit, `[]`, false},
	{ledger.KindResult, `{"kind":"result"}`, false},
}

// checkFast adds one entry through the fast path and through
// encoding/json: when the fast path reads the leaf, the json path must
// accept it and give the same history; when it does not, it must leave
// the history unchanged. It returns whether the fast path read it.
func checkFast(t *testing.T, kind ledger.Kind, leaf []byte) bool {
	t.Helper()
	e := ledger.Entry{Index: 42, Kind: kind, Leaf: leaf, IntegratedAt: time.Unix(0, 1764745627586182467).UTC()}
	if len(leaf)%2 == 0 {
		e.PostedAt = time.Unix(0, 1764745600000000000).UTC()
	}
	var fast, slow secret.History
	ok := addEntryFast(&fast, &e)
	err := addEntryJSON(&slow, &e)
	if !ok {
		if !reflect.DeepEqual(fast, secret.History{}) {
			t.Fatalf("%s %q: the fast path declined but changed the history: %+v", kind, leaf, fast)
		}
		return false
	}
	if err != nil {
		t.Fatalf("%s %q: the fast path read it, encoding/json refuses it: %v", kind, leaf, err)
	}
	if !reflect.DeepEqual(fast, slow) {
		t.Fatalf("%s %q: the fast path gives\n%+v\nencoding/json\n%+v", kind, leaf, fast, slow)
	}
	return true
}

// TestAddEntryFastMatchesJSON: on the seeds, and on 200,000 mutations of
// them (bytes changed, deleted, inserted, duplicated), the fast path gives
// exactly what encoding/json gives, or declines; it reads the leaves the
// ledger writes.
func TestAddEntryFastMatchesJSON(t *testing.T) {
	for _, s := range secretLeafSeeds {
		if got := checkFast(t, s.kind, []byte(s.leaf)); got != s.fast {
			t.Errorf("%s %s: fast path %v, want %v", s.kind, s.leaf, got, s.fast)
		}
	}
	rng := rand.New(rand.NewPCG(5, 12))
	alphabet := []byte(`{}[]":,0123456789abcdef-+.eE \\nu"tx` + "\x00\x1f\x7f\xc3\xa9\xff")
	fastOnes := 0
	for range 200000 {
		s := secretLeafSeeds[rng.IntN(len(secretLeafSeeds))]
		b := []byte(s.leaf)
		for range 1 + rng.IntN(3) {
			if len(b) == 0 {
				break
			}
			i := rng.IntN(len(b))
			switch rng.IntN(4) {
			case 0:
				b[i] = alphabet[rng.IntN(len(alphabet))]
			case 1:
				b = append(b[:i:i], b[i+1:]...)
			case 2:
				b = append(b[:i:i], append([]byte{alphabet[rng.IntN(len(alphabet))]}, b[i:]...)...)
			case 3:
				j := i + rng.IntN(len(b)-i)
				b = append(b[:j:j], append(append([]byte{}, b[i:j]...), b[j:]...)...)
			}
		}
		kind := s.kind
		if rng.IntN(10) == 0 {
			kind = []ledger.Kind{ledger.KindCommit, ledger.KindReveal, ledger.KindEdit}[rng.IntN(3)]
		}
		if checkFast(t, kind, b) {
			fastOnes++
		}
	}
	if fastOnes < 3000 {
		t.Fatalf("only %d mutated leaves took the fast path: the mutations are too rough to test it", fastOnes)
	}
}

// FuzzAddEntryFast: for any leaf and kind, the fast path gives what
// encoding/json gives, or declines.
func FuzzAddEntryFast(f *testing.F) {
	for _, s := range secretLeafSeeds {
		f.Add(uint8(len(s.kind)), []byte(s.leaf))
	}
	kinds := []ledger.Kind{ledger.KindCommit, ledger.KindReveal, ledger.KindEdit, ledger.KindResult}
	f.Fuzz(func(t *testing.T, k uint8, leaf []byte) {
		checkFast(t, kinds[int(k)%len(kinds)], leaf)
	})
}

// TestLowerHex64: the fast path's commitment reader accepts exactly 64
// lowercase hex digits and decodes them as commit.ParseCommitment does.
func TestLowerHex64(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	digits := []byte("0123456789abcdef")
	for n := range 20000 {
		b := make([]byte, 64)
		for i := range b {
			b[i] = digits[rng.IntN(len(digits))]
		}
		if n%2 == 1 { // one byte of any value
			b[rng.IntN(64)] = byte(rng.IntN(256))
		}
		got, ok := lowerHex64(b)
		lower := true
		for _, c := range b {
			lower = lower && (c >= '0' && c <= '9' || c >= 'a' && c <= 'f')
		}
		want, err := commit.ParseCommitment(string(b))
		if ok != lower || (ok && (err != nil || got != want)) {
			t.Fatalf("%q: got %x, %v; ParseCommitment %x, %v", b, got, ok, want, err)
		}
	}
}
