package main

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/sealedhq/sealed/ledger"
	"github.com/sealedhq/sealed/ledger/stores"
)

// A Negotiation Games match played in the engine's own format whose
// seed-commit named quicknet round 657413 and took seat 1's client seed,
// through the CLI: 'replay play --format engine' derives the engine seed
// from the match seed, 'ledger append --kind seed-reveal --beacon-signature'
// records the round (refused when it does not verify), and 'ledger
// check-result' applies the match seed and names the contribution and the
// round. Independent values (the Python of docs/rng.md and of
// bargain.EngineSeed's doc comment): match seed 85f06f3d..., engine seed
// 337675704.
const (
	cliSeedA        = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
	cliCommitmentA  = "6c86c6aac5fb24bcf5d9939cb7d7d5645ce39418f449e03b262dd4fa14b4b92b" // printf %s SEED | sha256sum
	cliQuicknet     = "52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971"
	cliSig657413    = "b713718a38ae728dfd477991af2822e08d2f305e47718cef9f7848ce4050e7be41076862b98fad56e91a6b85b89cd97b"
	cliSig3         = "b6b6a585449b66eb12e875b64fcbab3799861a00e4dbf092d99e969a5eac57dd3f798acf61e705fe4f093db926626807"
	cliEngMatchSeed = "85f06f3d06da81777997704782f8cee83a4751b8ede39bdf185f5fc87618960c"
)

// engineBeaconCLILedger makes a ledger holding, at their 2023 times
// (before the round was published, 11:00:03), the match's seed-commit
// (entry 0) and seat 1's contribution "abc" (entry 1). The CLI's own
// appends come later, at the real time.
func engineBeaconCLILedger(t *testing.T) (db, key string) {
	t.Helper()
	db, key = newCLILedger(t)
	var now time.Time
	l, err := stores.Open(context.Background(), db, ledger.Options{KeyFile: key, Clock: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	add := func(at string, b *ledger.Body) int64 {
		t.Helper()
		now, _ = time.Parse(time.RFC3339, at)
		i, err := l.AppendBody(context.Background(), b)
		if err != nil {
			t.Fatal(err)
		}
		return i
	}
	round, seat, cs := int64(657413), int64(1), "abc"
	sc := add("2023-09-15T10:00:00Z", &ledger.Body{Kind: ledger.KindSeedCommit, Game: "bargain", MatchID: "e", RulesVersion: "negotiation.replay.v1",
		Config: []byte(`{"matches":3,"maxTurns":4}`), Commitment: cliCommitmentA, BeaconChain: cliQuicknet, BeaconRound: &round, PlayAt: "2023-09-15T11:00:10Z"})
	add("2023-09-15T10:30:00Z", &ledger.Body{Kind: ledger.KindContribution, SeedCommit: &sc, Seat: &seat, ClientSeed: &cs})
	return db, key
}

func TestCheckResultEngineBeacon(t *testing.T) {
	dir := t.TempDir()
	round := filepath.Join(dir, "round.json")
	if err := os.WriteFile(round, []byte(`{"chain":"`+cliQuicknet+`","round":657413,"signature":"`+cliSig657413+`"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	replay := filepath.Join(dir, "e.json")
	_, stderr := mustRun(t, 0, "", "replay", "play", "bargain", "--format", "engine", "--matches", "3", "--max-turns", "4", "--seed", cliSeedA,
		"--contribution", "1:abc", "--beacon-file", round, "--out", replay)
	if !strings.Contains(stderr, "engine seed 337675704,") || !strings.Contains(stderr, "--beacon-signature "+cliSig657413) {
		t.Errorf("replay play: %s", stderr)
	}
	// 'seed engine' takes the same inputs and prints the engine seed the
	// operator runs the engine with (newcomer trial 7b, finding 4: it took
	// no --contribution or --beacon-file). 337675704 and the match seed
	// agree with an independent Python derivation of docs/rng.md.
	stdout, stderr := mustRun(t, 0, "", "seed", "engine", "--seed", cliSeedA, "--contribution", "1:abc", "--beacon-file", round)
	if stdout != "337675704\n" || !strings.Contains(stderr, cliEngMatchSeed) {
		t.Errorf("seed engine: %q, %q", stdout, stderr)
	}
	stdout, _ = mustRun(t, 0, "", "seed", "engine", "--json", "--seed", cliSeedA, "--contribution", "1:abc", "--beacon-file", round)
	if !strings.Contains(stdout, `"engine_seed": 337675704`) || !strings.Contains(stdout, `"match_seed": "`+cliEngMatchSeed+`"`) {
		t.Errorf("seed engine --json: %s", stdout)
	}
	_, stderr = mustRun(t, 2, "", "seed", "engine", "--seed", cliSeedA, "--contribution", "3:abc")
	if !strings.Contains(stderr, "seat 3; expected a seat 0 to 2") {
		t.Errorf("seed engine, seat 3: %s", stderr)
	}
	// On its own, with the inputs as flags.
	stdout, _ = mustRun(t, 0, "", "replay", "check", "--seed", cliSeedA, "--seed-commitment", cliCommitmentA,
		"--contribution", "1:abc", "--beacon-file", round, replay)
	if !strings.Contains(stdout, "match seed "+cliEngMatchSeed+", from the revealed seed, seat 1's client seed \"abc\" and drand quicknet round 657413 (published 2023-09-15T11:00:03Z, signature ok)") {
		t.Errorf("replay check: %s", stdout)
	}
	// Without the round: config.seed is not the engine seed of that match seed.
	stdout, _ = mustRun(t, 1, "", "replay", "check", "--seed", cliSeedA, "--contribution", "1:abc", replay)
	if !strings.Contains(stdout, "config.seed: claimed 337675704") {
		t.Errorf("replay check without the round: %s", stdout)
	}

	db, key := engineBeaconCLILedger(t)
	L := []string{"--db", db, "--key", key}
	// Round 3's signature is refused as round 657413's; nothing is stored.
	_, stderr = mustRun(t, 2, "", append([]string{"ledger", "append", "--kind", "seed-reveal", "--seed-commit", "0", "--seed", cliSeedA, "--beacon-signature", cliSig3}, L...)...)
	if !strings.Contains(stderr, "beacon_signature: drand round 657413") || !strings.Contains(stderr, "does not verify") {
		t.Errorf("a wrong signature: %s", stderr)
	}
	mustRun(t, 0, "", append([]string{"ledger", "append", "--kind", "seed-reveal", "--seed-commit", "0", "--seed", cliSeedA, "--beacon-signature", cliSig657413}, L...)...) // 2
	mustRun(t, 0, "", append([]string{"ledger", "append", "--kind", "result", "--game", "bargain", "--match-id", "e", "--replay", replay, "--summary", "{}"}, L...)...)     // 3
	stdout, _ = mustRun(t, 0, "", "ledger", "check-result", "--db", db, "3")
	for _, want := range []string{
		"entry 3: tied to the ledger: seed committed at entry 0 before the result, revealed at entry 2",
		"contribution entry 1: seat 1, client seed \"abc\": counts",
		"beacon: drand round 657413 of chain 52db9ba70e0cc0f6... (published 2023-09-15T11:00:03Z): published after the commitment, signature ok (recorded at seed-reveal entry 2)",
		"replay: clean: negotiation.replay.v1",
		"match seed " + cliEngMatchSeed + ", from the revealed seed, seat 1's client seed \"abc\" (entry 1) and drand quicknet round 657413 (published 2023-09-15T11:00:03Z, signature ok)",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("check-result lacks %q:\n%s", want, stdout)
		}
	}
	if strings.Contains(stdout, "note: the beacon round's publication time was not compared") {
		t.Errorf("check-result compared the round's time with the commitment's, but notes it did not:\n%s", stdout)
	}

	// The same match whose seed-reveal recorded no signature: exit 1,
	// naming the seed-commit.
	db, key = engineBeaconCLILedger(t)
	L = []string{"--db", db, "--key", key}
	mustRun(t, 0, "", append([]string{"ledger", "append", "--kind", "seed-reveal", "--seed-commit", "0", "--seed", cliSeedA}, L...)...)
	mustRun(t, 0, "", append([]string{"ledger", "append", "--kind", "result", "--game", "bargain", "--match-id", "e", "--replay", replay, "--summary", "{}"}, L...)...)
	stdout, _ = mustRun(t, 1, "", "ledger", "check-result", "--db", db, "3")
	if !regexp.MustCompile(`seed-commit entry 0 named drand round 657413 \(quicknet\); an engine replay cannot carry it, and no seed-reveal naming entry 0 records its signature`).MatchString(stdout) {
		t.Errorf("check-result without the signature:\n%s", stdout)
	}
}

// TestReplayCheckRoundNeverPublished: a replay naming drand round 0 has no
// publication time: 'replay check' says "never published", not
// "published 0001-01-01T00:00:00Z" (newcomer trial 7b, finding 6).
func TestReplayCheckRoundNeverPublished(t *testing.T) {
	dir := t.TempDir()
	round := filepath.Join(dir, "round.json")
	if err := os.WriteFile(round, []byte(`{"chain":"`+cliQuicknet+`","round":657413,"signature":"`+cliSig657413+`"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	replay := filepath.Join(dir, "a.json")
	mustRun(t, 0, "", "replay", "play", "auction", "--players", "3", "--items", "1", "--seed", cliSeedA, "--beacon-file", round, "--out", replay)
	data, err := os.ReadFile(replay)
	if err != nil {
		t.Fatal(err)
	}
	zero := strings.Replace(string(data), `"round":657413`, `"round":0`, 1)
	if zero == string(data) {
		t.Fatalf("no round 657413 in the replay:\n%s", data)
	}
	if err := os.WriteFile(replay, []byte(zero), 0o600); err != nil {
		t.Fatal(err)
	}
	stdout, _ := mustRun(t, 1, "", "replay", "check", replay)
	if !strings.Contains(stdout, "drand quicknet round 0 (never published, signature does NOT verify)") || strings.Contains(stdout, "0001-01-01") {
		t.Errorf("replay check:\n%s", stdout)
	}
}
