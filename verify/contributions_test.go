package verify

import (
	"encoding/hex"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/sealedhq/sealed/beacon"
	"github.com/sealedhq/sealed/commit"
	"github.com/sealedhq/sealed/ledger"
	"github.com/sealedhq/sealed/rules/auction"
	"github.com/sealedhq/sealed/rules/bargain"
)

// Quicknet round 657413 (beacon/testdata, from shared/data/drand): published
// at genesis 1692803367 + 657412 * 3 = 1694775603, 2023-09-15T11:00:03Z
// (date -u -d @1694775603).
const (
	quicknet    = "52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971"
	round657413 = "b713718a38ae728dfd477991af2822e08d2f305e47718cef9f7848ce4050e7be41076862b98fad56e91a6b85b89cd97b"
	matchSeedID = "match-with-contributions"
)

// playAuction plays the 3-seat, 2-item table of auctionConfig from the
// server seed seedA with the given contributions and beacon, and returns
// the replay's bytes.
func playAuction(t *testing.T, cs []commit.ReplayContribution, b *commit.ReplayBeacon) []byte {
	t.Helper()
	var cfg auction.Config
	if err := json.Unmarshal([]byte(auctionConfig), &cfg); err != nil {
		t.Fatal(err)
	}
	server, _ := commit.ParseSeed(seedA)
	var rnd *[32]byte
	if b != nil {
		sig, _ := hex.DecodeString(b.Signature)
		r := [32]byte(commit.Sum(sig))
		rnd = &r
	}
	ms, err := commit.MatchSeed(server, toContributions(cs), rnd)
	if err != nil {
		t.Fatal(err)
	}
	var bots []auction.Bot
	for s, name := range []string{"truthful", "shading", "random"} {
		bot, err := auction.NewBot(name, ms[:], s)
		if err != nil {
			t.Fatal(err)
		}
		bots = append(bots, bot)
	}
	r, err := auction.Play(ms[:], cfg, bots)
	if err != nil {
		t.Fatal(err)
	}
	r.Seed, r.SeedCommitment, r.Contributions, r.Beacon = seedA, commitmentA, cs, b
	data, err := r.Encode()
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func valuesOf(t *testing.T, data []byte) []int {
	var r auction.Replay
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatal(err)
	}
	var v []int
	for _, e := range r.Events {
		if e.Type == auction.EventValuePrivate {
			v = append(v, *e.Value)
		}
	}
	return v
}

// contributionLedger records a match whose seed-commit (10:00) names play
// at 11:00:10 and quicknet round 657413 (11:00:03), with three
// contributions: seat 0 at 10:05 (counts), seat 1 integrated at 10:06 but
// posted at 09:59, before the commitment (does not count), seat 2 at
// 11:30, after play began (does not count). The seed is revealed at 12:00.
func contributionLedger(t *testing.T, commitAt string) (*testLedger, int64, []int64) {
	tl := newTestLedger(t)
	round := int64(657413)
	sc := tl.must(commitAt, ledger.Body{Kind: ledger.KindSeedCommit, Game: "auction", MatchID: matchSeedID,
		RulesVersion: "auction-0.2", Config: []byte(auctionConfig), Commitment: commitmentA,
		BeaconChain: quicknet, BeaconRound: &round, PlayAt: "2023-09-15T11:00:10Z", RevealBy: "2023-09-16T00:00:00Z", Operator: "house"})
	contrib := func(at string, seat int64, cs, posted string) int64 {
		return tl.must(at, ledger.Body{Kind: ledger.KindContribution, SeedCommit: &sc, Seat: &seat, ClientSeed: &cs, PostedAt: posted})
	}
	ids := []int64{
		contrib("2023-09-15T10:05:00Z", 0, "lucky 7", ""),
		contrib("2023-09-15T10:06:00Z", 1, "early bird", "2023-09-15T09:59:00Z"),
		contrib("2023-09-15T11:30:00Z", 2, "too late", ""),
	}
	tl.seedReveal("2023-09-15T12:00:00Z", sc, seedA)
	return tl, sc, ids
}

func (tl *testLedger) resultBytes(at string, data []byte) int64 {
	tl.t.Helper()
	d, err := tl.l.PutReplay(data)
	if err != nil {
		tl.t.Fatal(err)
	}
	return tl.must(at, ledger.Body{Kind: ledger.KindResult, Game: "auction", MatchID: matchSeedID, ReplaySHA256: d, Summary: []byte(`{}`)})
}

var beacon657413 = &commit.ReplayBeacon{Chain: quicknet, Round: 657413, Signature: round657413}

func TestContributionsAndBeacon(t *testing.T) {
	tl, sc, ids := contributionLedger(t, "2023-09-15T10:00:00Z")
	counted := []commit.ReplayContribution{{Seat: 0, ClientSeed: "lucky 7", Entry: &ids[0]}}
	good := playAuction(t, counted, beacon657413)
	c := checkResult(t, tl, tl.resultBytes("2023-09-15T12:00:01Z", good))
	if !c.Clean() {
		t.Fatalf("clean match: problems %q, differences %v", c.Problems, c.Replay.Differences)
	}
	if c.SeedCommit != sc || c.BeaconNamed == nil || !c.BeaconNamed.SignatureOK || !c.BeaconNamed.AfterCommit ||
		c.BeaconNamed.Published != "2023-09-15T11:00:03Z" {
		t.Errorf("beacon: %+v", c.BeaconNamed)
	}
	if len(c.Contributions) != 3 {
		t.Fatalf("contributions %+v", c.Contributions)
	}
	for i, want := range []struct {
		counts bool
		why    string
	}{{true, ""}, {false, "before seed-commit entry"}, {false, "not before play began"}} {
		got := c.Contributions[i]
		if got.Entry != ids[i] || got.Counts != want.counts || !strings.Contains(got.Why, want.why) {
			t.Errorf("contribution %d: %+v; want counts %v, why %q", i, got, want.counts, want.why)
		}
	}
	// The match seed is HMAC-SHA256 of the vectors' encoding (checked
	// independently in commit's vectors); here: not the server seed.
	if c.Replay.MatchSeed == "" || c.Replay.MatchSeed == seedA || c.Replay.Beacon == nil || !c.Replay.Beacon.SignatureOK {
		t.Errorf("report: match seed %q, beacon %+v", c.Replay.MatchSeed, c.Replay.Beacon)
	}
}

// TestWithAndWithoutContributions: the same match from the same server
// seed deals other values with a contribution, and both replays
// re-simulate clean.
func TestWithAndWithoutContributions(t *testing.T) {
	plain := playAuction(t, nil, nil)
	with := playAuction(t, []commit.ReplayContribution{{Seat: 1, ClientSeed: "x"}}, nil)
	for name, data := range map[string][]byte{"without": plain, "with": with} {
		rep, err := CheckReplay(data)
		if err != nil || !rep.Clean() {
			t.Fatalf("%s: %v, %+v", name, err, rep)
		}
	}
	// Without contributions and beacon the draws are today's: the values
	// of docs/rng.md's table for seed S, 3 seats (20 49 18 / 20 46 55).
	if got := valuesOf(t, plain); strings.Trim(strings.Join(strings.Fields(fmtInts(got)), " "), "[]") != "20 49 18 20 46 55" {
		t.Errorf("values without contributions %v; want docs/rng.md's 20 49 18 20 46 55", got)
	}
	if fmtInts(valuesOf(t, plain)) == fmtInts(valuesOf(t, with)) {
		t.Error("a contribution changed no value")
	}
}

func fmtInts(v []int) string {
	b, _ := json.Marshal(v)
	return strings.ReplaceAll(strings.Trim(string(b), "[]"), ",", " ")
}

// TestContributionTampered: a contribution's bytes changed in the replay
// after play shows in re-simulation and against the ledger.
func TestContributionTampered(t *testing.T) {
	tl, _, ids := contributionLedger(t, "2023-09-15T10:00:00Z")
	good := playAuction(t, []commit.ReplayContribution{{Seat: 0, ClientSeed: "lucky 7", Entry: &ids[0]}}, beacon657413)
	bad := []byte(strings.Replace(string(good), `"lucky 7"`, `"lucky 8"`, 1))
	rep, err := CheckReplay(bad)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Clean() || !strings.Contains(rep.Differences[0].Field, "value") {
		t.Errorf("tampered replay: %+v", rep.Differences)
	}
	c := checkResult(t, tl, tl.resultBytes("2023-09-15T12:00:01Z", bad))
	wantProblem(t, c, `has client seed "lucky 8", but entry 1 has "lucky 7"`)
}

// TestUncountedContributionUsed: a replay that counts the contribution
// posted before the commitment, or the one after play began, fails and
// names the entry.
func TestUncountedContributionUsed(t *testing.T) {
	tl, _, ids := contributionLedger(t, "2023-09-15T10:00:00Z")
	for i, seat := range []int{1, 2} {
		cs := []commit.ReplayContribution{{Seat: 0, ClientSeed: "lucky 7", Entry: &ids[0]},
			{Seat: seat, ClientSeed: []string{"early bird", "too late"}[i], Entry: &ids[seat]}}
		c := checkResult(t, tl, tl.resultBytes("2023-09-15T12:00:0"+string(rune('1'+i))+"Z", playAuction(t, cs, beacon657413)))
		if c.Clean() {
			t.Errorf("seat %d counted: clean", seat)
		}
		wantProblem(t, c, "is entry "+string(rune('0'+ids[seat]))+", which does not count")
	}
}

// TestBeaconRules: a round already public at commit time, a replay that
// ignores the named round, and a signature with a flipped bit.
func TestBeaconRules(t *testing.T) {
	// Committed at 11:30, after round 657413 was published (11:00:03).
	tl, _, _ := contributionLedger(t, "2023-09-15T11:30:00Z")
	c := checkResult(t, tl, tl.resultBytes("2023-09-15T12:00:01Z", playAuction(t, nil, beacon657413)))
	wantProblem(t, c, "before the commitment was integrated")

	tl, _, ids := contributionLedger(t, "2023-09-15T10:00:00Z")
	cs := []commit.ReplayContribution{{Seat: 0, ClientSeed: "lucky 7", Entry: &ids[0]}}
	c = checkResult(t, tl, tl.resultBytes("2023-09-15T12:00:01Z", playAuction(t, cs, nil)))
	wantProblem(t, c, "which the replay ignored")

	flipped, _ := hex.DecodeString(round657413)
	flipped[5] ^= 1 // one bit of the signature
	b := &commit.ReplayBeacon{Chain: quicknet, Round: 657413, Signature: hex.EncodeToString(flipped)}
	data := playAuction(t, cs, b)
	rep, err := CheckReplay(data)
	if err != nil || rep.Clean() || rep.Differences[0].Field != "beacon.signature" {
		t.Errorf("flipped signature: %v %+v", err, rep)
	}
	c = checkResult(t, tl, tl.resultBytes("2023-09-15T12:00:02Z", data))
	wantProblem(t, c, "does not verify")
}

// TestCountContributionsOrder: CountContributions on entries given
// directly, including one placed before the seed-commit in ledger order
// (which a ledger refuses to write, as a reference must name an earlier
// entry, but a hand-made or damaged log may hold).
func TestCountContributionsOrder(t *testing.T) {
	at := func(s string) time.Time { return instant(t, s) }
	sc := ledger.Entry{Index: 5, Kind: ledger.KindSeedCommit, IntegratedAt: at("2025-01-01T10:00:00Z")}
	scb := &ledger.Body{Kind: ledger.KindSeedCommit, Game: "auction", Config: []byte(`{"players":3}`), PlayAt: "2025-01-01T11:00:00.000000000Z"}
	mk := func(idx int64, when string, seat int64, cs string) ledger.Entry {
		sci := int64(5)
		leaf, _ := json.Marshal(ledger.Body{Kind: ledger.KindContribution, SeedCommit: &sci, Seat: &seat, ClientSeed: &cs})
		return ledger.Entry{Index: idx, Kind: ledger.KindContribution, IntegratedAt: at(when), Leaf: leaf}
	}
	got, err := CountContributions(sc, scb, 3, []ledger.Entry{
		mk(4, "2025-01-01T10:00:00Z", 0, "before"),  // before the seed-commit in ledger order
		mk(6, "2025-01-01T10:30:00Z", 0, "first"),   // counts
		mk(7, "2025-01-01T10:31:00Z", 0, "second"),  // seat 0 again
		mk(8, "2025-01-01T10:32:00Z", 3, "no seat"), // seat 3 of 3 seats
		mk(9, "2025-01-01T11:00:00Z", 1, "at play"), // at play_at exactly: not before it
	}, -1)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		counts bool
		why    string
	}{{false, "before seed-commit entry 5"}, {true, ""}, {false, "already contributed at entry 6"}, {false, "not a seat"}, {false, "not before play began"}}
	for i, w := range want {
		if got[i].Counts != w.counts || !strings.Contains(got[i].Why, w.why) {
			t.Errorf("entry %d: %+v; want counts %v, %q", got[i].Entry, got[i], w.counts, w.why)
		}
	}
	scb.PlayAt = ""
	got, _ = CountContributions(sc, scb, 3, []ledger.Entry{mk(6, "2025-01-01T10:30:00Z", 0, "x")}, -1)
	if got[0].Counts || !strings.Contains(got[0].Why, "names neither play_at nor play_at_entry") {
		t.Errorf("no play_at: %+v", got[0])
	}
}

// TestAbandonedMatches: per operator, a seed-commit whose reveal_by passed
// unrevealed is abandoned; one revealed late is abandoned and names the
// late reveal; one revealed in time, or without a deadline, is not.
func TestAbandonedMatches(t *testing.T) {
	tl := newTestLedger(t)
	sc := func(at, id, op, by, commitment string) int64 {
		return tl.must(at, ledger.Body{Kind: ledger.KindSeedCommit, Game: "auction", MatchID: id, RulesVersion: "auction-0.2",
			Config: []byte(auctionConfig), Commitment: commitment, Operator: op, RevealBy: by})
	}
	inTime := sc("2025-01-01T10:00:00Z", "a", "house", "2025-01-01T12:00:00Z", commitmentA)
	gone := sc("2025-01-01T10:01:00Z", "b", "house", "2025-01-01T12:00:00Z", commitmentB)
	late := sc("2025-01-01T10:02:00Z", "c", "house", "2025-01-01T12:00:00Z", commitmentA)
	sc("2025-01-01T10:03:00Z", "d", "other", "", commitmentB)
	sc("2025-01-01T10:04:00Z", "e", "other", "2025-01-02T12:00:00Z", commitmentB)
	tl.seedReveal("2025-01-01T11:00:00Z", inTime, seedA)
	tl.seedReveal("2025-01-01T11:00:01Z", gone, seedA) // not the committed seed
	lateReveal := tl.seedReveal("2025-01-01T13:00:00Z", late, seedA)
	ops, err := AbandonedMatches(tl.l, instant(t, "2025-01-01T14:00:00Z"))
	if err != nil {
		t.Fatal(err)
	}
	if len(ops) != 2 || ops[0].Operator != "house" || ops[0].Committed != 3 || ops[0].Revealed != 1 || len(ops[0].Abandoned) != 2 ||
		ops[0].Abandoned[0].SeedCommit != gone || ops[0].Abandoned[0].RevealedLate != -1 ||
		ops[0].Abandoned[1].SeedCommit != late || ops[0].Abandoned[1].RevealedLate != lateReveal {
		t.Fatalf("house: %+v", ops)
	}
	if o := ops[1]; o.Operator != "other" || o.Committed != 2 || o.Pending != 2 || len(o.Abandoned) != 0 {
		t.Errorf("other: %+v", o)
	}
}

// BenchmarkCheckReplayMatchInputs checks the same default table (5 seats,
// 10 items) played from seedA without, and with two contributions and
// quicknet round 657413: docs/performance.md compares the two. The BLS
// verification of the round is remembered after the first check
// (beacon.Chain.CheckRoundOnce); BenchmarkCheckRound in package beacon is
// its cost when it is not.
func BenchmarkCheckReplayMatchInputs(b *testing.B) {
	cfg := auction.DefaultConfig()
	server, _ := commit.ParseSeed(seedA)
	play := func(cs []commit.ReplayContribution, bc *commit.ReplayBeacon) []byte {
		ms, err := DeriveMatchSeed(server, cs, bc, cfg.Players)
		if err != nil {
			b.Fatal(err)
		}
		bots := make([]auction.Bot, cfg.Players)
		for s := range bots {
			bots[s], _ = auction.NewBot([]string{"truthful", "shading", "random"}[s%3], ms[:], s)
		}
		r, err := auction.Play(ms[:], cfg, bots)
		if err != nil {
			b.Fatal(err)
		}
		r.Seed, r.SeedCommitment, r.Contributions, r.Beacon = seedA, commitmentA, cs, bc
		data, _ := r.Encode()
		return data
	}
	for _, c := range []struct {
		name string
		data []byte
	}{
		{"plain", play(nil, nil)},
		{"contributions+beacon", play([]commit.ReplayContribution{{Seat: 0, ClientSeed: "lucky 7"}, {Seat: 3, ClientSeed: "seat three"}}, beacon657413)},
	} {
		c := c
		b.Run(c.name, func(b *testing.B) {
			if rep, err := CheckReplay(c.data); err != nil || !rep.Clean() {
				b.Fatalf("%v %+v", err, rep)
			}
			b.SetBytes(int64(len(c.data)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := CheckReplay(c.data); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	// As a single replay checked in a fresh process pays: the check plus
	// one BLS verification of the round.
	with := play([]commit.ReplayContribution{{Seat: 0, ClientSeed: "lucky 7"}, {Seat: 3, ClientSeed: "seat three"}}, beacon657413)
	sig, _ := hex.DecodeString(round657413)
	b.Run("contributions+beacon-verified-each-time", func(b *testing.B) {
		b.SetBytes(int64(len(with)))
		b.ReportAllocs()
		for b.Loop() {
			if _, err := CheckReplay(with); err != nil {
				b.Fatal(err)
			}
			if err := beacon.Quicknet.CheckRound(657413, sig); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// TestEngineReplayWithContribution: an engine replay carries no
// contributions; against the ledger its config.seed must be the engine
// seed of the match seed of the counted contribution entries.
func TestEngineReplayWithContribution(t *testing.T) {
	tl := newTestLedger(t)
	sc := tl.must("2025-01-01T10:00:00Z", ledger.Body{Kind: ledger.KindSeedCommit, Game: "bargain", MatchID: "e",
		RulesVersion: bargain.ReplayFormat, Config: []byte(`{"matches":3,"maxTurns":4}`), Commitment: commitmentA, PlayAt: "2025-01-01T11:00:00Z"})
	seat, cs := int64(1), "abc"
	ce := tl.must("2025-01-01T10:30:00Z", ledger.Body{Kind: ledger.KindContribution, SeedCommit: &sc, Seat: &seat, ClientSeed: &cs})
	tl.seedReveal("2025-01-01T12:00:00Z", sc, seedA)
	server, _ := commit.ParseSeed(seedA)
	play := func(seed commit.Seed) []byte {
		n, _ := bargain.EngineSeed(seed[:])
		r, err := bargain.PlayEngineEpisode(n, bargain.Config{Matches: 3, MaxTurns: 4}, [bargain.Seats]bargain.Bot{bargain.Greedy{}, bargain.Fair{}, bargain.Fair{}}, bargain.PlayOptions{})
		if err != nil {
			t.Fatal(err)
		}
		data, err := r.Encode(bargain.FloatShortest)
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	result := func(at string, data []byte) int64 {
		d, err := tl.l.PutReplay(data)
		if err != nil {
			t.Fatal(err)
		}
		return tl.must(at, ledger.Body{Kind: ledger.KindResult, Game: "bargain", MatchID: "e", ReplaySHA256: d, Summary: []byte(`{}`)})
	}
	ms, _ := commit.MatchSeed(server, []commit.Contribution{{Seat: 1, ClientSeed: []byte("abc")}}, nil)
	c := checkResult(t, tl, result("2025-01-01T12:00:01Z", play(ms)))
	if !c.Clean() || len(c.Contributions) != 1 || c.Contributions[0].Entry != ce || !c.Contributions[0].Counts {
		t.Errorf("engine replay from the match seed: problems %q, contributions %+v, differences %+v", c.Problems, c.Contributions, c.Replay.Differences)
	}
	// Played from the server's seed alone, ignoring the counted contribution.
	c = checkResult(t, tl, result("2025-01-01T12:00:02Z", play(server)))
	if c.Clean() {
		t.Error("an engine replay ignoring a counted contribution is clean")
	}
	wantProblem(t, c, "does not derive the engine replay's config.seed")
}
