package web

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/sealedhq/sealed/internal/testvector"
	"github.com/sealedhq/sealed/ledger/stores"

	"github.com/sealedhq/sealed/ledger"
)

// vector is a reveal test vector: testdata/reveals/NAME.txt holds
// "commitment: <hex>" (made with `printf %s TEXT | sha256sum`), other
// header lines, a blank line and the exact reveal bytes.
type vector struct {
	Commitment string
	Text       []byte
}

func readVector(t testing.TB, name string) vector {
	t.Helper()
	f, err := testvector.Read(filepath.Join("testdata", "reveals", name+".txt"))
	if err != nil {
		t.Fatal(err)
	}
	return vector{Commitment: f.Get("commitment"), Text: f.Body}
}

// fixture is a ledger built for the tests, with a writer (signer key,
// injected clock) and a read-only reader on the same file.
type fixture struct {
	path, key string
	w, r      *ledger.Ledger
	clk       *testClock
	idx       map[string]int64 // what was appended, by name
	digest    map[string]string
	now       time.Time // the instant the pages judge at
}

type testClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *testClock) set(t time.Time) { c.mu.Lock(); c.t = t; c.mu.Unlock() }
func (c *testClock) now() time.Time  { c.mu.Lock(); defer c.mu.Unlock(); return c.t }

func at(t testing.TB, s string) time.Time {
	t.Helper()
	v, err := time.Parse(time.RFC3339, s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// newFixture builds week 2026-W10 (UTC; Auction Phase Monday 2026-03-02 to
// Thursday 03-05; actions posted Monday mature Thursday 00:00 and must be
// revealed before Sunday 03-08 00:00, seed 004 with reading S5):
//
//	0 commit alice  bid, the "bid" vector          Mon 09:00
//	1 commit mallory bid, the "xss" vector         Mon 10:00
//	2 commit nina   bid, the "nearmiss" vector     Mon 11:00
//	3 reveal alice, exact bytes                    Fri 09:00 -> revealed
//	4 reveal mallory, exact bytes                  Fri 10:00 -> the text is no bid: ambiguous declaration
//	5 reveal nina, bytes + "\n"                    Fri 11:00 -> mismatch; not revealed by Sunday
//	6 result auction (testdata/replays/auction.json)
//	7 result bargain (testdata/replays/bargain.json)
//	8 result auction, tampered (auction-tampered.json)
//
// and judges at Monday 2026-03-09 12:00.
func newFixture(t testing.TB) *fixture {
	t.Helper()
	f := emptyFixture(t, "test.sealed.invalid/web")
	bid, xss, near := readVector(t, "bid"), readVector(t, "xss"), readVector(t, "nearmiss")
	f.add(t, "alice", "2026-03-02T09:00:00Z", &ledger.Body{Kind: ledger.KindCommit, Player: "alice", ActionType: "bid", Channel: "#auctions", Commitment: bid.Commitment})
	f.add(t, "mallory", "2026-03-02T10:00:00Z", &ledger.Body{Kind: ledger.KindCommit, Player: "mallory", ActionType: "bid", Channel: "#auctions", Commitment: xss.Commitment})
	f.add(t, "nina", "2026-03-02T11:00:00Z", &ledger.Body{Kind: ledger.KindCommit, Player: "nina", ActionType: "bid", Channel: "#auctions", Commitment: near.Commitment})
	reveal := func(name, when, player string, text string) {
		c := f.idx[player]
		f.add(t, name, when, &ledger.Body{Kind: ledger.KindReveal, Commit: &c, Player: player, Text: &text})
	}
	reveal("alice-reveal", "2026-03-06T09:00:00Z", "alice", string(bid.Text))
	reveal("mallory-reveal", "2026-03-06T10:00:00Z", "mallory", string(xss.Text))
	reveal("nina-reveal", "2026-03-06T11:00:00Z", "nina", string(near.Text)+"\n")
	for _, r := range []struct{ name, file, game string }{
		{"auction", "auction.json", "auction"}, {"bargain", "bargain.json", "bargain"}, {"tampered", "auction-tampered.json", "auction"},
	} {
		data, err := os.ReadFile(filepath.Join("testdata", "replays", r.file))
		if err != nil {
			t.Fatal(err)
		}
		d, err := f.w.PutReplay(data)
		if err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(data)
		if d != hex.EncodeToString(sum[:]) {
			t.Fatalf("PutReplay digest %s, sha256 %x", d, sum)
		}
		f.digest[r.name] = d
		f.add(t, r.name, "2026-03-07T12:00:00Z", &ledger.Body{Kind: ledger.KindResult, Game: r.game, MatchID: r.name, ReplaySHA256: d, Summary: []byte(`{"note":"test"}`)})
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := f.w.WaitCheckpoint(ctx, 9); err != nil {
		t.Fatal(err)
	}
	r, err := stores.Open(context.Background(), f.path, ledger.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	f.r = r
	t.Cleanup(func() { f.r.Close() })
	return f
}

func (f *fixture) add(t testing.TB, name, when string, b *ledger.Body) {
	t.Helper()
	f.clk.set(at(t, when))
	n, err := f.w.AppendBody(context.Background(), b)
	if err != nil {
		t.Fatalf("appending %s: %v", name, err)
	}
	f.idx[name] = n
	// The site judges only entries a signed checkpoint covers: wait for it
	// (the writer signs every millisecond here).
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := f.w.WaitCheckpoint(ctx, n+1); err != nil {
		t.Fatalf("waiting for the checkpoint covering %s: %v", name, err)
	}
}

// server builds the site on the fixture; change adjusts the options.
func (f *fixture) server(t testing.TB, change func(*Options)) *Server {
	t.Helper()
	o := Options{Reader: f.r, Writer: f.w, Token: testToken, Now: func() time.Time { return f.now }}
	if change != nil {
		change(&o)
	}
	s, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

const testToken = "test-token-0123456789abcdef"

// emptyFixture creates a new ledger named origin in a temporary directory
// and opens it for writing on the fixture's clock, judged at Monday
// 2026-03-09 12:00; the writer is closed when the test ends.
func emptyFixture(t testing.TB, origin string) *fixture {
	t.Helper()
	dir := t.TempDir()
	f := &fixture{path: filepath.Join(dir, "l.db"), key: filepath.Join(dir, "l.key"), clk: &testClock{},
		idx: map[string]int64{}, digest: map[string]string{}, now: at(t, "2026-03-09T12:00:00Z")}
	if _, err := stores.Init(context.Background(), f.path, origin, f.key); err != nil {
		t.Fatal(err)
	}
	var err error
	f.w, err = stores.Open(context.Background(), f.path, ledger.Options{KeyFile: f.key, Clock: f.clk.now, CheckpointInterval: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.w.Close() })
	return f
}
