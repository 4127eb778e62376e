package verify

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	sqltamper "github.com/sealedhq/sealed/internal/tamper"
	"github.com/sealedhq/sealed/ledger"
	"github.com/sealedhq/sealed/ledger/memstore"
	"github.com/sealedhq/sealed/ledger/stores"
	"github.com/sealedhq/sealed/rules/bargain"
)

// auctionSeedCommit is a seed-commit of the auction match id committing
// to commitment with auctionConfig (the table of testdata's auction
// replays).
func auctionSeedCommit(id, commitment string) ledger.Body {
	return ledger.Body{Kind: ledger.KindSeedCommit, Game: "auction", MatchID: id, RulesVersion: "auction-0.2",
		Config: []byte(auctionConfig), Commitment: commitment}
}

// TestAdmitSeedCommitOnce: a seed is committed once. A seed-commit whose
// commitment an earlier seed-commit holds (in any spelling, for any game
// or match) is refused on commitment, naming that entry and, when a
// seed-reveal made the seed public, that one too; its Err is a
// *ledger.DuplicateError with the earlier index (the API answers 409). A
// commitment that only a commit entry or a config member holds is no
// seed-commit's, and is admitted. Commitments: `printf %s SEED | sha256sum`.
func TestAdmitSeedCommitOnce(t *testing.T) {
	tl := newTestLedger(t)
	admit := func(b ledger.Body) ([]string, error) {
		t.Helper()
		return Admit(tl.l, &b, nil, instant(t, "2026-11-16T12:00:00Z"))
	}
	refused := func(what string, b ledger.Body, earlier int64, wants ...string) {
		t.Helper()
		w, err := admit(b)
		var ae *AdmissionError
		var de *ledger.DuplicateError
		if !errors.As(err, &ae) || ae.Field != "commitment" || !errors.As(err, &de) || de.Index != earlier || de.Kind != ledger.KindSeedCommit {
			t.Errorf("%s: warnings %q, error %v; want refused on commitment, with a DuplicateError naming entry %d", what, w, err, earlier)
			return
		}
		for _, want := range wants {
			if !strings.Contains(ae.Msg, want) {
				t.Errorf("%s: %q does not say %q", what, ae.Msg, want)
			}
		}
	}

	m1 := auctionSeedCommit("m1", commitmentA)
	if w, err := admit(m1); err != nil || len(w) > 0 {
		t.Fatalf("the first commitment to seed A: %q, %v", w, err)
	}
	tl.must("2026-11-16T08:00:00Z", m1)                                                                                                            // 0
	tl.must("2026-11-16T08:00:01Z", auctionSeedCommit("m3", commitmentB))                                                                          // 1: seed B, never revealed
	tl.seedReveal("2026-11-16T09:00:00Z", 0, seedA)                                                                                                // 2: seed A is public
	tl.must("2026-11-16T09:00:01Z", ledger.Body{Kind: ledger.KindCommit, Player: "ann", ActionType: "bid", Channel: "#a", Commitment: commitBarg}) // 3
	legacy := auctionSeedCommit("m6", strings.Repeat("e", 64))
	legacy.Config = []byte(`{"commitment":"` + commitBarg + `"}`) // written before configs were checked
	tl.must("2026-11-16T09:00:02Z", legacy)                       // 4

	refused("seed A again, for match m2", auctionSeedCommit("m2", commitmentA), 0,
		"seed-commit entry 0 (auction match m1) already committed to this seed, and seed-reveal entry 2 made it public",
		"a seed is committed once", "expected the commitment of a new seed")
	refused("seed A again, identical to entry 0", m1, 0, "seed-commit entry 0 (auction match m1)")
	other := ledger.Body{Kind: ledger.KindSeedCommit, Game: "bargain", MatchID: "b1", RulesVersion: bargain.ReplayFormat,
		Config: []byte(`{"matches":3,"maxTurns":4}`), Commitment: "SHA256:" + strings.ToUpper(commitmentA)}
	refused("seed A in another spelling, for a bargain match", other, 0, "seed-commit entry 0 (auction match m1)")
	refused("seed B, committed and not revealed", auctionSeedCommit("m4", commitmentB), 1,
		"seed-commit entry 1 (auction match m3) already committed to this seed (its seed-reveal will make it public")
	if w, err := admit(auctionSeedCommit("m5", commitBarg)); err != nil || len(w) > 0 {
		t.Errorf("a commitment held by a commit entry and a config member only: %q, %v; want admitted", w, err)
	}
}

// TestCheckResultSeedCommittedTwice: a result held to a seed-commit whose
// commitment an earlier seed-commit holds is not tied, whatever else
// holds. The log refuses such a seed-commit now (TestAppendSeedOnce), but
// a ledger written before may hold one: testdata/seedreuse holds two,
// written by sealed 3105f32 (README.md there), and opening them for
// writing fills their seed_commits table (schema migration 7). In
// revealed-before.db, testdata/auction_example.json is seed A's clean
// replay of auctionConfig; entries 0-1 are another match committing to
// seed A and revealing it, entries 2-3 this match's seed-commit and
// seed-reveal, each agreeing with the replay; the result is appended here.
func TestCheckResultSeedCommittedTwice(t *testing.T) {
	tl := openFixture(t, "revealed-before")
	sc := int64(2)
	c := checkResult(t, tl, tl.result("2026-11-16T12:00:01Z", "auction", "testdata/auction_example.json", "")) // 4
	want := "seed-commit entry 2 commits to a seed already committed at entry 0 (auction match earlier-match), and seed-reveal entry 1 made it public before entry 2: a seed is committed once; every private value of this match was public before its commitment"
	if c.Tied() || c.Clean() || len(c.Problems) != 1 || c.Problems[0] != want {
		t.Errorf("tied %v, clean %v, problems %q; want exactly %q", c.Tied(), c.Clean(), c.Problems, want)
	}
	if c.SeedCommit != sc || c.SeedReveal != 3 || !c.CommitmentMatches || !c.ConfigMatches || !c.Replay.Clean() {
		t.Errorf("everything else should hold: %+v", c)
	}
	if rep, err := tl.l.Audit(context.Background(), nil); err != nil || !rep.OK {
		t.Errorf("audit of the migrated fixture: %+v, %v", rep, err)
	}

	// The earlier match committed first: its own seed was secret until
	// its reveal, and its result is tied.
	data, err := os.ReadFile("testdata/auction_example.json")
	if err != nil {
		t.Fatal(err)
	}
	d, err := tl.l.PutReplay(data)
	if err != nil {
		t.Fatal(err)
	}
	first := tl.must("2026-11-16T12:00:02Z", ledger.Body{Kind: ledger.KindResult, Game: "auction", MatchID: "earlier-match", ReplaySHA256: d, Summary: []byte(`{}`)})
	if c := checkResult(t, tl, first); !c.Clean() {
		t.Errorf("the first match committing to seed A: problems %q", c.Problems)
	}

	// Both committed before either was revealed: the two matches share
	// their draws; the earlier one's reveal, after the later commitment,
	// is named.
	// both-before.db: entry 0 the other match's seed-commit, 1 this
	// match's, 2 its seed-reveal, 3 the other's.
	tl = openFixture(t, "both-before")
	c = checkResult(t, tl, tl.result("2026-11-16T12:00:02Z", "auction", "testdata/auction_example.json", ""))
	want = "seed-commit entry 1 commits to a seed already committed at entry 0 (auction match earlier-match), revealed at entry 3: a seed is committed once; the two matches share every draw, and the seed is public once either is revealed"
	if c.Tied() || len(c.Problems) != 1 || c.Problems[0] != want {
		t.Errorf("tied %v, problems %q; want exactly %q", c.Tied(), c.Problems, want)
	}

	// A config member spelling the commitment is not a seed-commit holding
	// it (a config written before configs were checked).
	tl = newTestLedger(t)
	legacy := auctionSeedCommit("other", commitmentB)
	legacy.Config = []byte(`{"commitment":"` + commitmentA + `"}`)
	tl.must("2026-11-16T08:00:00Z", legacy)
	sc = tl.seedCommit("2026-11-16T08:00:01Z", commitmentA, auctionConfig)
	tl.seedReveal("2026-11-16T12:00:00Z", sc, seedA)
	if c := checkResult(t, tl, tl.result("2026-11-16T12:00:01Z", "auction", "testdata/auction_example.json", "")); !c.Clean() {
		t.Errorf("a config member holding the commitment: problems %q; want clean", c.Problems)
	}
}

// TestCheckResultSeedIndexAltered (newcomer trial 4, finding 1): a
// result is held to the earliest seed-commit of its match, found through
// the seed_commits table. Here entry 0 commits match demo-auction-2026-W47
// to seed C and entry 1 commits it again to seed A, which the replay
// (testdata/auction_example.json) was played from: held to entry 0, the
// result is not tied. With entry 0's row deleted from the table (the
// triggers dropped and put back), the table would hold the result to
// entry 1 and tie it; CheckResult instead says the table was altered
// (ErrTampered, naming seed-commit entry 0).
func TestCheckResultSeedIndexAltered(t *testing.T) {
	dir := t.TempDir()
	db, key := filepath.Join(dir, "sealed.db"), filepath.Join(dir, "sealed.key")
	if _, err := stores.Init(context.Background(), db, "sealed.test/seed-index", key); err != nil {
		t.Fatal(err)
	}
	tl := openTestLedger(t, db, key)
	tl.seedCommit("2026-11-16T08:00:00Z", commitmentC, auctionConfig) // 0
	tl.seedCommit("2026-11-16T08:00:01Z", commitmentA, auctionConfig) // 1
	tl.seedReveal("2026-11-16T12:00:00Z", 1, seedA)                   // 2
	n := tl.result("2026-11-16T12:00:01Z", "auction", "testdata/auction_example.json", "")
	if c := checkResult(t, tl, n); c.SeedCommit != 0 || c.Tied() {
		t.Fatalf("before: held to entry %d, tied %v; want entry 0, not tied", c.SeedCommit, c.Tied())
	}
	if err := tl.l.Close(); err != nil {
		t.Fatal(err)
	}
	if err := sqltamper.Restoring(db, `DELETE FROM seed_commits WHERE idx = 0`); err != nil {
		t.Fatal(err)
	}
	tl = openTestLedger(t, db, key)
	c, err := CheckResult(tl.l, n)
	if !errors.Is(err, ledger.ErrTampered) || !strings.Contains(err.Error(), "seed-commit entry 0") {
		t.Errorf("the earliest seed-commit's row deleted: %+v, %v; want ErrTampered naming seed-commit entry 0", c, err)
	}
}

// openFixture opens a copy of testdata/seedreuse/NAME.db for writing,
// with its key (copied with mode 0600, which Open requires) and the test's
// clock.
func openFixture(t *testing.T, name string) *testLedger {
	t.Helper()
	dir := t.TempDir()
	db, key := filepath.Join(dir, "sealed.db"), filepath.Join(dir, "sealed.key")
	for from, to := range map[string]string{name + ".db": db, name + ".key": key} {
		b, err := os.ReadFile(filepath.Join("testdata", "seedreuse", from))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(to, b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	tl := openTestLedger(t, db, key)
	tl.now.Store(instant(t, "2026-11-16T12:00:01Z").UnixNano())
	return tl
}

// TestSeedCommitHoldingChunks: the lookup passes over whole chunks of
// SQLite's leaves that do not hold the commitment (here the first, 4,096
// commit entries of seed B's digest) and finds the seed-commit in a later
// one; commit entries holding the digest are no seed-commits. A store
// without chunked reads (memstore) is read entry by entry, with the same
// answers.
func TestSeedCommitHoldingChunks(t *testing.T) {
	tl := newTestLedger(t)
	tl.now.Store(instant(t, "2026-11-16T08:00:00Z").UnixNano())
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < scanChunk+10; i += 8 {
				b := []byte(fmt.Sprintf(`{"kind":"commit","player":"p%d","action_type":"bid","channel":"#a","commitment":"%s"}`, i, commitmentB))
				if _, err := tl.l.Append(context.Background(), b); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	sc := tl.must("2026-11-16T09:00:00Z", auctionSeedCommit("late", commitmentA))
	if sc < scanChunk {
		t.Fatalf("the seed-commit is entry %d, in the first chunk", sc)
	}
	found, err := seedCommitHolding(tl.l, commitmentA, sc+1)
	if err != nil || found == nil || found.index != sc || found.reveal != -1 {
		t.Errorf("seed A after %d commit entries holding its digest: %+v, %v; want entry %d", sc, found, err, sc)
	}
	if found, err := seedCommitHolding(tl.l, commitmentA, sc); err != nil || found != nil {
		t.Errorf("before entry %d: %+v, %v; want none", sc, found, err)
	}
	if found, err := seedCommitHolding(tl.l, commitmentB, sc+1); err != nil || found != nil {
		t.Errorf("seed B, held by commit entries only: %+v, %v; want none", found, err)
	}

	dir := t.TempDir()
	key := filepath.Join(dir, "k")
	st := memstore.New()
	if _, err := ledger.Create(context.Background(), st, "sealed.test/mem", key); err != nil {
		t.Fatal(err)
	}
	l, err := ledger.Open(context.Background(), st, ledger.Options{KeyFile: key})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	for _, b := range []ledger.Body{auctionSeedCommit("m1", commitmentB), {Kind: ledger.KindSeedReveal, SeedCommit: new(int64), Seed: seedB}, auctionSeedCommit("m2", commitmentA)} {
		if _, err := l.AppendBody(context.Background(), &b); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		commitment      string
		index, revealed int64
	}{{commitmentB, 0, 1}, {commitmentA, 2, -1}, {commitBarg, -1, -1}} {
		found, err := seedCommitHolding(l, c.commitment, 3)
		switch {
		case err != nil:
			t.Errorf("memstore, %s: %v", c.commitment, err)
		case c.index < 0 && found != nil, c.index >= 0 && (found == nil || found.index != c.index || found.reveal != c.revealed):
			t.Errorf("memstore, %s: %+v; want entry %d revealed at %d", c.commitment, found, c.index, c.revealed)
		}
	}
}
