package web

import (
	"html"
	"regexp"
	"strings"
	"testing"

	"github.com/sealedhq/sealed/commit"
	"github.com/sealedhq/sealed/ledger"
	"github.com/sealedhq/sealed/rules/bargain"
)

// TestReplayPageEngineBeacon: an engine replay of a match whose
// seed-commit named quicknet round 657413 and took seat 1's client seed,
// opened by its result entry's index. The page applies the match seed:
// it names the contribution entry and the round (whose signature the
// seed-reveal recorded), lists the contribution that came after play_at
// with why it does not count, and the re-simulation is the one held to
// the ledger's commitment. The match seed and engine seed are the Python of
// docs/rng.md and of bargain.EngineSeed's doc comment (as in
// verify.TestEngineReplayWithBeacon): 85f06f3d... and 337675704.
func TestReplayPageEngineBeacon(t *testing.T) {
	const (
		quicknet  = "52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971"
		sig657413 = "b713718a38ae728dfd477991af2822e08d2f305e47718cef9f7848ce4050e7be41076862b98fad56e91a6b85b89cd97b"
		matchSeed = "85f06f3d06da81777997704782f8cee83a4751b8ede39bdf185f5fc87618960c"
	)
	f := newTieFixture(t)
	round, seat, cs := int64(657413), int64(1), "abc"
	f.add(t, "sc", "2023-09-15T10:00:00Z", &ledger.Body{Kind: ledger.KindSeedCommit, Game: "bargain", MatchID: "e", RulesVersion: bargain.ReplayFormat,
		Config: []byte(`{"matches":3,"maxTurns":4}`), Commitment: tieCommitmentA, BeaconChain: quicknet, BeaconRound: &round, PlayAt: "2023-09-15T11:00:10Z"})
	sc := f.idx["sc"]
	f.add(t, "contribution", "2023-09-15T10:30:00Z", &ledger.Body{Kind: ledger.KindContribution, SeedCommit: &sc, Seat: &seat, ClientSeed: &cs})
	seat2, late := int64(2), "too late"
	f.add(t, "late", "2023-09-15T11:30:00Z", &ledger.Body{Kind: ledger.KindContribution, SeedCommit: &sc, Seat: &seat2, ClientSeed: &late})
	f.add(t, "reveal", "2023-09-15T12:00:00Z", &ledger.Body{Kind: ledger.KindSeedReveal, SeedCommit: &sc, Seed: tieSeedA, BeaconSignature: sig657413})
	r, err := bargain.PlayEngineEpisode(337675704, bargain.Config{Matches: 3, MaxTurns: 4},
		[bargain.Seats]bargain.Bot{bargain.Greedy{}, bargain.Fair{}, bargain.Fair{}}, bargain.PlayOptions{})
	if err != nil {
		t.Fatal(err)
	}
	data, err := r.Encode(bargain.FloatShortest)
	if err != nil {
		t.Fatal(err)
	}
	d, err := f.w.PutReplay(data)
	if err != nil {
		t.Fatal(err)
	}
	f.add(t, "result", "2023-09-15T12:00:01Z", &ledger.Body{Kind: ledger.KindResult, Game: "bargain", MatchID: "e", ReplaySHA256: d, Summary: []byte(`{}`)})
	if ms, _ := commit.ParseSeed(matchSeed); true {
		if n, _ := bargain.EngineSeed(ms[:]); n != 337675704 {
			t.Fatalf("EngineSeed(%s) = %d; Python says 337675704", matchSeed, n)
		}
	}
	s := f.server(t, nil)
	w := do(s, "GET", "/replay/"+itoa(f.idx["result"]), "")
	if w.Code != 200 {
		t.Fatalf("status %d: %s", w.Code, w.Body.String())
	}
	// Tags become spaces, runs of white space one space, and no space is
	// left before punctuation.
	text := html.UnescapeString(regexp.MustCompile(`<[^>]*>`).ReplaceAllString(w.Body.String(), " "))
	text = strings.Join(strings.Fields(text), " ")
	text = regexp.MustCompile(` ([,.;:)])`).ReplaceAllString(text, "$1")
	for _, want := range []string{
		"Tied to the ledger: seed committed at entry 0",
		"The draws come from the match seed " + matchSeed + ", derived from the revealed seed, seat 1's client seed abc (entry 1) and drand quicknet round 657413 (published 2023-09-15T11:00:03Z; its signature verifies with the network's public key)",
		"1 1 abc 2023-09-15T10:30:00.000000000Z yes", // entry, seat, client seed, integrated, counts
		"2 2 too late 2023-09-15T11:30:00.000000000Z no: integrated at 2023-09-15T11:30:00Z, not before play began (play_at 2023-09-15T11:00:10Z): it must come before the first move",
		"The seed-commit named drand round 657413, published 2023-09-15T11:00:03Z: after the commitment was integrated; the engine replay's integer seed took it, with the signature recorded at seed-reveal entry 3, which verifies.",
		"Clean: the revealed seed matches the ledger's seed commitment, derives the replay's integer seed, and re-simulating all",
		"engine seed 337675704",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	if strings.Contains(text, "no seed commitment was checked") {
		t.Error("by its result entry, the page still says no seed commitment was checked")
	}
}
