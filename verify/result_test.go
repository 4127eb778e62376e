package verify

import (
	"context"
	"errors"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/sealedhq/sealed/ledger"
)

// Seeds and commitments of the replays in testdata (testdata/result/README.md;
// each commitment from `printf %s SEED | sha256sum`).
const (
	seedA       = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f" // testdata/auction_example.json
	commitmentA = "6c86c6aac5fb24bcf5d9939cb7d7d5645ce39418f449e03b262dd4fa14b4b92b"
	seedB       = "1f1e1d1c1b1a191817161514131211100f0e0d0c0b0a09080706050403020100" // testdata/result/auction_other_seed.json
	commitmentB = "c01425eda868de3a70c26fa2e05976057650d79048dd888fc3f2424120e5a81e"
	// Seeds of no replay, for matches that need a seed of their own (a
	// seed is committed once).
	seedC       = "202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f"
	commitmentC = "31c0e4a8de3d32a8964f4dd6c3faae248a3994f3c4e226fdd8ee56904c96c6f7"
	seedD       = "404142434445464748494a4b4c4d4e4f505152535455565758595a5b5c5d5e5f"
	commitmentD = "cca0e26b70b7ed5a3dec02c102ca2bf8c8b8477e00cfbc56d726f9c4592cbd15"
	seedE       = "606162636465666768696a6b6c6d6e6f707172737475767778797a7b7c7d7e7f"
	commitmentE = "e520d783ed982dc95e52c8dfeaec56bfab03925f756b4c7e7f1b2bdd45921ed3"
	seedBargain = "bbcf2e7da9393223001291b5efc9fe5d57ae6a8202a1898f5f6bce5d8f16a25d" // testdata/bargain_example.json
	commitBarg  = "90ce018902737a53e39a005e1dc4c093b266b8db577ed7feae0af713d35feaae"

	// auctionConfig is the config both auction replays carry, written here
	// by hand in another key order (canonical JSON makes the order moot).
	auctionConfig = `{"pricing":"first","players":3,"items":2,"starting_credits":100,"value_min":5,"value_max":60,"talk_rounds":1,"stake":"10","rake":"0.05"}`
	matchID       = "demo-auction-2026-W47"
)

// seedCommit appends a seed-commit entry for the auction match.
func (tl *testLedger) seedCommit(at, commitment, config string) int64 {
	tl.t.Helper()
	return tl.must(at, ledger.Body{Kind: ledger.KindSeedCommit, Game: "auction", MatchID: matchID,
		RulesVersion: "auction-0.2", Config: []byte(config), Commitment: commitment})
}

func (tl *testLedger) seedReveal(at string, of int64, seed string) int64 {
	tl.t.Helper()
	return tl.must(at, ledger.Body{Kind: ledger.KindSeedReveal, SeedCommit: &of, Seed: seed})
}

// result stores the replay file and appends a result entry naming it.
func (tl *testLedger) result(at, game, file, note string) int64 {
	tl.t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		tl.t.Fatal(err)
	}
	d, err := tl.l.PutReplay(data)
	if err != nil {
		tl.t.Fatal(err)
	}
	id := matchID
	if game == "bargain" {
		id = "demo-bargain-2026-W47"
	}
	return tl.must(at, ledger.Body{Kind: ledger.KindResult, Game: game, MatchID: id, ReplaySHA256: d, Summary: []byte(`{"note":"` + note + `"}`)})
}

func checkResult(t *testing.T, tl *testLedger, n int64) *ResultCheck {
	t.Helper()
	c, err := CheckResult(tl.l, n)
	if err != nil {
		t.Fatalf("CheckResult(%d): %v", n, err)
	}
	return c
}

// wantProblem fails unless some problem of c contains want.
func wantProblem(t *testing.T, c *ResultCheck, want string) {
	t.Helper()
	for _, p := range c.Problems {
		if strings.Contains(p, want) {
			return
		}
	}
	t.Errorf("problems %q: none says %q", c.Problems, want)
}

// A proper match: the seed committed at 08:00, revealed at 12:00 with the
// result a second later. Everything holds, worked by hand: seed-commit
// entry 0 before result 2, the replay's commitment 6c86c6aa... is the
// ledger's, the reveal at entry 1 is the replay's seed, configs equal.
func TestCheckResultProperMatch(t *testing.T) {
	tl := newTestLedger(t)
	tl.seedCommit("2026-11-16T08:00:00Z", commitmentA, auctionConfig)
	tl.seedReveal("2026-11-16T12:00:00Z", 0, seedA)
	n := tl.result("2026-11-16T12:00:01Z", "auction", "testdata/auction_example.json", "real")
	c := checkResult(t, tl, n)
	if !c.Clean() || !c.Tied() || len(c.Problems) != 0 {
		t.Fatalf("not clean: %+v", c)
	}
	if c.SeedCommit != 0 || !c.SeedCommitBefore || c.SeedReveal != 1 || c.LedgerCommitment != commitmentA ||
		c.ReplayCommitment != commitmentA || !c.ConfigMatches || !c.FormatMatches || c.Replay.Events != 29 {
		t.Errorf("check = %+v; want seed-commit 0 before, reveal 1, commitment %s, 29 events", c, commitmentA)
	}
}

// The security review's repro: a second result for the same match whose
// replay was played from a seed never committed (seed B). The replay is
// clean on its own (its own commitment matches), but it is not tied to the
// ledger: its commitment c01425ed... is not entry 0's 6c86c6aa..., and the
// seed revealed at entry 1 (seed A) is not its seed.
func TestCheckResultUncommittedSeed(t *testing.T) {
	tl := newTestLedger(t)
	tl.seedCommit("2026-11-16T08:00:00Z", commitmentA, auctionConfig)
	tl.seedReveal("2026-11-16T12:00:00Z", 0, seedA)
	real := tl.result("2026-11-16T12:00:01Z", "auction", "testdata/auction_example.json", "real")
	regraded := tl.result("2026-11-16T13:00:00Z", "auction", "testdata/result/auction_other_seed.json", "regraded")

	if c := checkResult(t, tl, real); !c.Clean() {
		t.Errorf("the real result is not clean: %q", c.Problems)
	}
	c := checkResult(t, tl, regraded)
	if c.Clean() || c.Tied() {
		t.Fatal("a replay from an uncommitted seed is clean")
	}
	if !c.Replay.Clean() {
		t.Errorf("the replay on its own should re-simulate cleanly: %+v", c.Replay)
	}
	if c.SeedCommit != 0 || !c.SeedCommitBefore || c.CommitmentMatches || c.ReplayCommitment != commitmentB || c.SeedReveal != -1 ||
		!slices.Equal(c.OtherSeedReveals, []int64{1}) || !c.ConfigMatches {
		t.Errorf("check = %+v", c)
	}
	wantProblem(t, c, "the replay's seed commitment differs from the one recorded at entry 0")
	wantProblem(t, c, "the seed revealed at entry 1 for entry 0 is not the replay's seed")
}

// A result recorded before the match's seed-commit (entry 0 the result,
// entry 1 the seed-commit, entry 2 its reveal): everything else agrees,
// but the seed was not fixed before the result.
func TestCheckResultBeforeSeedCommit(t *testing.T) {
	tl := newTestLedger(t)
	n := tl.result("2026-11-16T08:00:00Z", "auction", "testdata/auction_example.json", "early")
	tl.seedCommit("2026-11-16T09:00:00Z", commitmentA, auctionConfig)
	tl.seedReveal("2026-11-16T12:00:00Z", 1, seedA)
	c := checkResult(t, tl, n)
	if c.Clean() || c.Tied() {
		t.Fatal("a result before its seed-commit is clean")
	}
	if c.SeedCommit != 1 || c.SeedCommitBefore || !c.CommitmentMatches || c.SeedReveal != 2 || len(c.Problems) != 1 {
		t.Errorf("check = %+v", c)
	}
	wantProblem(t, c, "no seed commitment was recorded for this match before the result: the first, entry 1, came after it")
}

// No seed-commit for the match at all (one for another match id only).
func TestCheckResultNoSeedCommit(t *testing.T) {
	tl := newTestLedger(t)
	tl.must("2026-11-16T08:00:00Z", ledger.Body{Kind: ledger.KindSeedCommit, Game: "auction", MatchID: "another-match",
		RulesVersion: "auction-0.2", Config: []byte(auctionConfig), Commitment: commitmentA})
	n := tl.result("2026-11-16T12:00:01Z", "auction", "testdata/auction_example.json", "real")
	c := checkResult(t, tl, n)
	if c.Clean() || c.SeedCommit != -1 || c.SeedReveal != -1 {
		t.Fatalf("check = %+v", c)
	}
	wantProblem(t, c, "no seed commitment was recorded for this match before the result")
}

// A seed-reveal naming the seed-commit with another seed (seed B) than the
// replay's (seed A).
func TestCheckResultRevealOtherSeed(t *testing.T) {
	tl := newTestLedger(t)
	tl.seedCommit("2026-11-16T08:00:00Z", commitmentA, auctionConfig)
	tl.seedReveal("2026-11-16T12:00:00Z", 0, seedB)
	n := tl.result("2026-11-16T12:00:01Z", "auction", "testdata/auction_example.json", "real")
	c := checkResult(t, tl, n)
	if c.Clean() || c.SeedReveal != -1 || !slices.Equal(c.OtherSeedReveals, []int64{1}) || !c.CommitmentMatches || len(c.Problems) != 1 {
		t.Fatalf("check = %+v", c)
	}
	wantProblem(t, c, "the seed revealed at entry 1 for entry 0 is not the replay's seed")

	// No seed-reveal at all.
	tl2 := newTestLedger(t)
	tl2.seedCommit("2026-11-16T08:00:00Z", commitmentA, auctionConfig)
	n = tl2.result("2026-11-16T12:00:01Z", "auction", "testdata/auction_example.json", "real")
	c = checkResult(t, tl2, n)
	if c.Clean() || c.SeedReveal != -1 {
		t.Fatalf("check = %+v", c)
	}
	wantProblem(t, c, "no seed-reveal names the seed commitment at entry 0")
}

// Two seed-commits before the result: the replay is held to the earliest
// (entry 0, seed B's commitment), so a server cannot commit several seeds
// and keep the one it likes (entry 1, seed A, revealed at entry 2).
func TestCheckResultEarliestSeedCommit(t *testing.T) {
	tl := newTestLedger(t)
	tl.seedCommit("2026-11-16T08:00:00Z", commitmentB, auctionConfig)
	tl.seedCommit("2026-11-16T08:01:00Z", commitmentA, auctionConfig)
	tl.seedReveal("2026-11-16T12:00:00Z", 1, seedA)
	n := tl.result("2026-11-16T12:00:01Z", "auction", "testdata/auction_example.json", "picked")
	c := checkResult(t, tl, n)
	if c.Clean() || c.SeedCommit != 0 || c.CommitmentMatches || !slices.Equal(c.LaterSeedCommits, []int64{1}) {
		t.Fatalf("check = %+v", c)
	}
	wantProblem(t, c, "the replay's seed commitment differs from the one recorded at entry 0")
	wantProblem(t, c, "no seed-reveal names the seed commitment at entry 0")
}

// The seed-commit's config says a free table (no stake, no rake) and 4
// items; the replay's is a paid table of 2 items. Numbers compare as
// canonical JSON: 3.0 seats is 3.
func TestCheckResultConfigDiffers(t *testing.T) {
	tl := newTestLedger(t)
	tl.seedCommit("2026-11-16T08:00:00Z", commitmentA,
		`{"players":3.0,"items":4,"starting_credits":100,"value_min":5,"value_max":60,"talk_rounds":1,"pricing":"first"}`)
	tl.seedReveal("2026-11-16T12:00:00Z", 0, seedA)
	n := tl.result("2026-11-16T12:00:01Z", "auction", "testdata/auction_example.json", "real")
	c := checkResult(t, tl, n)
	want := []ConfigDifference{{"items", "4", "2"}, {"rake", "", `"0.05"`}, {"stake", "", `"10"`}}
	if c.Clean() || c.ConfigMatches || !slices.Equal(c.ConfigDifferences, want) {
		t.Fatalf("config differences %+v; want %+v", c.ConfigDifferences, want)
	}
	wantProblem(t, c, "the replay's config differs from the one recorded at entry 0 in items, rake, stake")
}

// A Negotiation Games result: the seed-commit's config is bargain.Config
// ({"matches","maxTurns"}); the replay's also has itemNames, fixed by the
// format, so it is not compared. maxTurns 4 and 3 matches are the
// example's (docs/replays.md).
func TestCheckResultBargain(t *testing.T) {
	tl := newTestLedger(t)
	tl.must("2026-11-16T08:00:00Z", ledger.Body{Kind: ledger.KindSeedCommit, Game: "bargain", MatchID: "demo-bargain-2026-W47",
		RulesVersion: "negotiation.replay.v1", Config: []byte(`{"matches":3,"maxTurns":4}`), Commitment: commitBarg})
	tl.seedReveal("2026-11-16T12:00:00Z", 0, seedBargain)
	n := tl.result("2026-11-16T12:00:01Z", "bargain", "testdata/bargain_example.json", "real")
	c := checkResult(t, tl, n)
	if !c.Clean() || c.SeedReveal != 1 || c.Replay.Events != 18 {
		t.Fatalf("check = %+v", c)
	}

	// The same replay named by an auction result: wrong format.
	tl.must("2026-11-16T08:00:00Z", ledger.Body{Kind: ledger.KindSeedCommit, Game: "auction", MatchID: matchID,
		RulesVersion: "auction-0.2", Config: []byte(`{"matches":3,"maxTurns":4}`), Commitment: commitmentC})
	data, _ := os.ReadFile("testdata/bargain_example.json")
	d, _ := tl.l.PutReplay(data)
	n = tl.must("2026-11-16T12:00:02Z", ledger.Body{Kind: ledger.KindResult, Game: "auction", MatchID: matchID, ReplaySHA256: d, Summary: []byte(`{}`)})
	c = checkResult(t, tl, n)
	if c.Clean() || c.FormatMatches {
		t.Fatalf("check = %+v", c)
	}
	wantProblem(t, c, "the result is for game auction but its replay is a negotiation.replay.v1 replay")
}

func TestCheckResultErrors(t *testing.T) {
	tl := newTestLedger(t)
	sc := tl.seedCommit("2026-11-16T08:00:00Z", commitmentA, auctionConfig)
	// A result naming a replay that is not stored (the digest of an empty
	// file: `sha256sum < /dev/null`).
	missing := tl.must("2026-11-16T12:00:01Z", ledger.Body{Kind: ledger.KindResult, Game: "auction", MatchID: matchID,
		ReplaySHA256: "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", Summary: []byte(`{}`)})
	// The missing replay is what the audit reports as an altered replays
	// table: ErrTampered, not a lookup that found nothing.
	for _, tc := range []struct {
		n                  int64
		want               string
		notFound, tampered bool
	}{
		{sc, "entry 0 is a seed-commit entry; expected a result entry", false, false},
		{missing, "names replay e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855, which is not stored", false, true},
		{7, "entry 7", true, false},
	} {
		_, err := CheckResult(tl.l, tc.n)
		if err == nil || !strings.Contains(err.Error(), tc.want) || errors.Is(err, ledger.ErrNotFound) != tc.notFound || errors.Is(err, ledger.ErrTampered) != tc.tampered {
			t.Errorf("CheckResult(%d) = %v; want an error saying %q (not found: %v, tampered: %v)", tc.n, err, tc.want, tc.notFound, tc.tampered)
		}
	}
	rep, err := tl.l.Audit(context.Background(), nil)
	if err != nil || rep.OK || rep.Problem.Table != "replays" || rep.Problem.Index != missing {
		t.Errorf("audit = %+v, %v; want the replays problem of entry %d", rep, err, missing)
	}
}

// An engine replay carries only its integer config.seed: it is tied to the
// ledger through the seed-reveal whose seed derives that integer
// (2032301331 for seedA: OpenSSL, rules/bargain/testdata/engine_seed_vectors.txt),
// and then re-checked against that seed and the seed-commit's commitment.
// testdata/engine_example.json is `sealed replay play bargain --format
// engine --seed seedA --matches 3 --max-turns 4 --bots fair,greedy,greedy`.
func TestCheckResultEngine(t *testing.T) {
	tl := newTestLedger(t)
	tl.must("2026-11-16T08:00:00Z", ledger.Body{Kind: ledger.KindSeedCommit, Game: "bargain", MatchID: "demo-bargain-2026-W47",
		RulesVersion: "negotiation.replay.v1", Config: []byte(`{"matches":3,"maxTurns":4}`), Commitment: commitmentA})
	tl.seedReveal("2026-11-16T12:00:00Z", 0, seedA)
	n := tl.result("2026-11-16T12:00:01Z", "bargain", "testdata/engine_example.json", "engine")
	c := checkResult(t, tl, n)
	if !c.Clean() || c.SeedReveal != 1 || c.ReplayCommitment != commitmentA || !c.Replay.SeedCommitmentOK ||
		c.Replay.SeedNotCommitted || c.Replay.Dialect != DialectEngine {
		t.Fatalf("check = %+v, replay %+v", c, c.Replay)
	}

	// A real engine replay (config.seed 42) held to the same match: no
	// revealed seed derives 42, so it is not tied, and its own report still
	// says that nothing shows the seed was fixed.
	n = tl.result("2026-11-16T12:00:02Z", "bargain", "../rules/bargain/testdata/engine/seed-42.json", "engine")
	c = checkResult(t, tl, n)
	if c.Tied() || c.Clean() || c.SeedReveal != -1 || !c.Replay.SeedNotCommitted {
		t.Fatalf("check = %+v", c)
	}
	wantProblem(t, c, "the seed revealed at entry 1 for entry 0 does not derive the engine replay's config.seed 42")
}
