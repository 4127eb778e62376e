package beacon_test

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sealedhq/sealed/beacon"
)

// recorded reads the real quicknet rounds in testdata (README.md there
// gives their sources).
func recorded(t testing.TB) map[uint64]beacon.Round {
	t.Helper()
	files, err := filepath.Glob("testdata/quicknet-*.json")
	if err != nil || len(files) < 4 {
		t.Fatalf("testdata rounds: %v, %d files", err, len(files))
	}
	out := map[uint64]beacon.Round{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var r beacon.Round
		if err := json.Unmarshal(data, &r); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		out[r.Round] = r
	}
	return out
}

func sig(t testing.TB, r beacon.Round) []byte {
	b, err := hex.DecodeString(r.Signature)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestRecordedRoundsVerify(t *testing.T) {
	for n, r := range recorded(t) {
		if err := beacon.Quicknet.CheckRound(n, sig(t, r)); err != nil {
			t.Errorf("round %d: %v", n, err)
		}
		// The randomness in the file was computed with sha256sum.
		if got := beacon.Randomness(sig(t, r)); hex.EncodeToString(got[:]) != r.Randomness {
			t.Errorf("round %d: randomness %x, file says %s", n, got, r.Randomness)
		}
		// A round's signature is not the next round's.
		var se *beacon.SignatureError
		if err := beacon.Quicknet.CheckRound(n+1, sig(t, r)); !errors.As(err, &se) {
			t.Errorf("round %d's signature as round %d: %v; want a *SignatureError", n, n+1, err)
		}
	}
}

// TestFlippedBits flips each of the 384 bits of a recorded signature in
// turn: every one must fail.
func TestFlippedBits(t *testing.T) {
	r := recorded(t)[657413]
	good := sig(t, r)
	for bit := 0; bit < len(good)*8; bit++ {
		s := append([]byte(nil), good...)
		s[bit/8] ^= 1 << (bit % 8)
		var se *beacon.SignatureError
		if err := beacon.Quicknet.CheckRound(r.Round, s); !errors.As(err, &se) {
			t.Fatalf("bit %d flipped: %v; want a *SignatureError", bit, err)
		}
	}
}

func TestBadSignatures(t *testing.T) {
	good := sig(t, recorded(t)[2])
	for name, s := range map[string][]byte{
		"empty": nil, "short": good[:47], "long": append(append([]byte(nil), good...), 0),
		"zeros": make([]byte, 48),
	} {
		if err := beacon.Quicknet.CheckRound(2, s); err == nil {
			t.Errorf("%s: verified", name)
		}
	}
	if err := beacon.Quicknet.CheckRound(0, good); err == nil {
		t.Error("round 0 verified")
	}
}

// TestRoundTime checks genesis + (round-1)*period by hand: round 1 is
// genesis 1692803367 (2023-08-23T15:09:27Z); round 657413 is 1972236
// seconds later.
func TestRoundTime(t *testing.T) {
	q := beacon.Quicknet
	if got := q.RoundTime(1); !got.Equal(time.Date(2023, 8, 23, 15, 9, 27, 0, time.UTC)) {
		t.Errorf("RoundTime(1) = %v", got)
	}
	if got := q.RoundTime(657413).Unix(); got != 1692803367+657412*3 {
		t.Errorf("RoundTime(657413) = %d", got)
	}
	if got := q.RoundAt(time.Unix(1692803367+657412*3+2, 0)); got != 657413 {
		t.Errorf("RoundAt = %d; want 657413", got)
	}
	if got := q.RoundAt(time.Unix(1692803366, 0)); got != 0 {
		t.Errorf("RoundAt before genesis = %d", got)
	}
	if !q.RoundTime(0).IsZero() {
		t.Error("RoundTime(0) is not zero")
	}
}

func TestLookupChain(t *testing.T) {
	if c, err := beacon.LookupChain(strings.ToUpper(beacon.Quicknet.Hash)); err != nil || c != beacon.Quicknet {
		t.Errorf("LookupChain(quicknet) = %v, %v", c, err)
	}
	if _, err := beacon.LookupChain(strings.Repeat("ab", 32)); err == nil {
		t.Error("unknown chain found")
	}
}

// relay replays the recorded rounds as a drand HTTP relay does; 404 for
// any other.
func relay(t *testing.T, rounds map[uint64]beacon.Round, tamper func(*beacon.Round)) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for n, rd := range rounds {
			if r.URL.Path == "/"+beacon.Quicknet.Hash+"/public/"+itoa(n) {
				if tamper != nil {
					tamper(&rd)
				}
				_ = json.NewEncoder(w).Encode(rd)
				return
			}
		}
		http.NotFound(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv
}

func itoa(n uint64) string {
	b, _ := json.Marshal(n)
	return string(b)
}

func TestClientGet(t *testing.T) {
	rounds := recorded(t)
	srv := relay(t, rounds, nil)
	c := &beacon.Client{BaseURL: srv.URL}
	got, err := c.Get(context.Background(), beacon.Quicknet, 3)
	if err != nil || got.Signature != rounds[3].Signature || got.Randomness != rounds[3].Randomness {
		t.Fatalf("Get(3) = %+v, %v", got, err)
	}
	if _, err := c.Get(context.Background(), beacon.Quicknet, 4); err == nil || !strings.Contains(err.Error(), "404") {
		t.Errorf("Get(4) = %v; want the relay's 404", err)
	}
	bad := relay(t, rounds, func(r *beacon.Round) { r.Signature = rounds[2].Signature })
	var se *beacon.SignatureError
	if _, err := (&beacon.Client{BaseURL: bad.URL}).Get(context.Background(), beacon.Quicknet, 3); !errors.As(err, &se) {
		t.Errorf("a relay serving round 2's signature as round 3: %v; want a *SignatureError", err)
	}
	lying := relay(t, rounds, func(r *beacon.Round) { r.Randomness = strings.Repeat("0", 64) })
	if _, err := (&beacon.Client{BaseURL: lying.URL}).Get(context.Background(), beacon.Quicknet, 3); err == nil {
		t.Error("a wrong randomness was accepted")
	}
}

// BenchmarkCheckRound is the time to verify one quicknet round offline
// (docs/performance.md).
func BenchmarkCheckRound(b *testing.B) {
	r := recorded(b)[657413]
	s := sig(b, r)
	if err := beacon.Quicknet.CheckRound(r.Round, s); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if err := beacon.Quicknet.CheckRound(r.Round, s); err != nil {
			b.Fatal(err)
		}
	}
}

func TestCheckRoundOnce(t *testing.T) {
	r := recorded(t)[3]
	s := sig(t, r)
	for i := 0; i < 2; i++ {
		if err := beacon.Quicknet.CheckRoundOnce(3, s); err != nil {
			t.Fatal(err)
		}
		// Remembered for round 3 only.
		if err := beacon.Quicknet.CheckRoundOnce(4, s); err == nil {
			t.Fatal("round 3's signature passed as round 4")
		}
	}
}

// TestCheckRoundOnceNotFooled: once round 657413's signature verified and
// is remembered, a signature differing from it in any one byte (its lowest
// bit flipped) is still refused, and the remembered one still passes.
func TestCheckRoundOnceNotFooled(t *testing.T) {
	r := recorded(t)[657413]
	s := sig(t, r)
	if err := beacon.Quicknet.CheckRoundOnce(r.Round, s); err != nil {
		t.Fatal(err)
	}
	for i := range s {
		bad := append([]byte(nil), s...)
		bad[i] ^= 1
		var se *beacon.SignatureError
		if err := beacon.Quicknet.CheckRoundOnce(r.Round, bad); !errors.As(err, &se) {
			t.Errorf("byte %d flipped after the round was remembered: %v, want a *SignatureError", i, err)
		}
	}
	if err := beacon.Quicknet.CheckRoundOnce(r.Round, s); err != nil {
		t.Errorf("the remembered signature: %v", err)
	}
	// The same signature under the next round's number is not remembered.
	if err := beacon.Quicknet.CheckRoundOnce(r.Round+1, s); err == nil {
		t.Error("round 657413's signature passed as round 657414")
	}
}
