package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/sealedhq/sealed/ledger"
	"github.com/sealedhq/sealed/verify"
)

// cliAuctionConfig is the table of the newcomer trial's matches.
const cliAuctionConfig = `{"players":3,"items":10,"starting_credits":100,"value_min":5,"value_max":60,"talk_rounds":1,"pricing":"first"}`

// TestSeedCommittedOnce is the newcomer trial's script: seed S committed
// for match m1 and revealed (public), then committed again for m2. The
// second seed-commit is refused (exit 2, one error line naming the earlier
// entry and the seed-reveal, and a hint), and m1's result is tied.
// S's commitment is `printf %s S | sha256sum` (cliCommitmentA).
func TestSeedCommittedOnce(t *testing.T) {
	db, key := newCLILedger(t)
	L := []string{"--db", db, "--key", key}
	seedCommit := func(want int, match string) string {
		t.Helper()
		_, stderr := mustRun(t, want, "", append([]string{"ledger", "append", "--kind", "seed-commit", "--game", "auction", "--match-id", match,
			"--rules-version", "auction-0.2", "--config", cliAuctionConfig, "--commitment", cliCommitmentA}, L...)...)
		return stderr
	}
	seedCommit(0, "m1")                                                                                                                 // 0
	mustRun(t, 0, "", append([]string{"ledger", "append", "--kind", "seed-reveal", "--seed-commit", "0", "--seed", cliSeedA}, L...)...) // 1
	stderr := seedCommit(2, "m2")
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	if len(lines) != 2 ||
		lines[0] != "sealed: commitment: seed-commit entry 0 (auction match m1) already committed to this seed, and seed-reveal entry 1 made it public: every private value of this match would be known before play; a seed is committed once: expected the commitment of a new seed" ||
		!strings.HasPrefix(lines[1], "hint: ") || !strings.Contains(lines[1], "sealed seed new") || !strings.Contains(lines[1], "sealed ledger get 0") {
		t.Errorf("m2 committing to S again:\n%s", stderr)
	}
	if n, _ := readLedger(t, db).Size(); n != 2 {
		t.Errorf("ledger size %d; want 2 (nothing appended)", n)
	}
	// A writer that loses the race to the log (its admission passed
	// before entry 0 was in; Append refused it under the write lock) is
	// told the same, with the same hint (trial 4, finding 9).
	b, err := ledger.ParseBody([]byte(`{"kind":"seed-commit","game":"auction","match_id":"m3","rules_version":"auction-0.2","config":` + cliAuctionConfig + `,"commitment":"` + cliCommitmentA + `"}`))
	if err != nil {
		t.Fatal(err)
	}
	lost := admissionError(b, verify.SeedReused(readLedger(t, db), b, &ledger.DuplicateError{Index: 0, Kind: ledger.KindSeedCommit}))
	if lost == nil || lost.code != exitUsage || "sealed: "+lost.msg != lines[0] || len(lines) < 2 || "hint: "+lost.hint != lines[1] {
		t.Errorf("the race's loser: %#v; want\n%s", lost, stderr)
	}

	replay := filepath.Join(t.TempDir(), "r.json")
	mustRun(t, 0, "", "replay", "play", "auction", "--seed", cliSeedA, "--players", "3", "--out", replay)
	mustRun(t, 0, "", append([]string{"ledger", "append", "--kind", "result", "--game", "auction", "--match-id", "m1", "--replay", replay, "--summary", "{}"}, L...)...) // 2
	stdout, _ := mustRun(t, 0, "", "ledger", "check-result", "--db", db, "2")
	if !strings.Contains(stdout, "entry 2: tied to the ledger: seed committed at entry 0 before the result, revealed at entry 1") {
		t.Errorf("m1's result:\n%s", stdout)
	}
}

// TestSeedCommitConfigRefused: the newcomer trial's seed-commits with a
// config or rules version no result could match exit 2 naming the field,
// with a hint, and append nothing.
func TestSeedCommitConfigRefused(t *testing.T) {
	db, key := newCLILedger(t)
	for _, c := range []struct{ game, version, config, want string }{
		{"auction", "auction-0.2", `{"players":99}`, "sealed: config: items, starting_credits, value_min, value_max, talk_rounds, pricing are missing"},
		{"auction", "auction-0.2", `{"colour":"red"}`, `sealed: config: unknown key "colour"`},
		{"auction", "auction-0.2", `{}`, "sealed: config: players, items,"},
		{"bargain", "negotiation.replay.v1", `{"matches":4,"maxTurns":10}`, "sealed: config: matches is 4; expected 3 or 6"},
		{"auction", "auction-9.9", cliAuctionConfig, `sealed: rules_version: "auction-9.9" is not a rules version of auction that sealed checks; expected "auction-0.2"`},
	} {
		_, stderr := mustRun(t, 2, "", "ledger", "append", "--db", db, "--key", key, "--kind", "seed-commit", "--game", c.game, "--match-id", "m",
			"--rules-version", c.version, "--config", c.config, "--commitment", cliCommitmentA)
		lines := strings.Split(strings.TrimSpace(stderr), "\n")
		if len(lines) != 2 || !strings.HasPrefix(lines[0], c.want) || !strings.HasPrefix(lines[1], "hint: ") {
			t.Errorf("%s %s %s:\n%s", c.game, c.version, c.config, stderr)
		}
	}
	if n, _ := readLedger(t, db).Size(); n != 0 {
		t.Errorf("ledger size %d; want 0", n)
	}
}

// TestSeedCommitHugeBeaconRound: a drand round above 2^53-1 is refused
// (newcomer trial 7b, finding 2): one whose publication time overflows as
// never published, not "published at 0001-01-01 ... already public"; one
// between 2^53 and that as above 2^53-1, as the leaf would record another
// round (Python: float(9007199254740993) == 9007199254740992.0).
func TestSeedCommitHugeBeaconRound(t *testing.T) {
	db, key := newCLILedger(t)
	for _, c := range []struct{ round, want string }{
		{"9223372036854775807", "would never be published"},
		{"9007199254740993", "9007199254740993 is above 2^53-1"},
	} {
		_, stderr := mustRun(t, 2, "", "ledger", "append", "--db", db, "--key", key, "--kind", "seed-commit", "--game", "auction", "--match-id", "m",
			"--rules-version", "auction-0.2", "--config", cliAuctionConfig, "--commitment", cliCommitmentA, "--beacon-round", c.round)
		if !strings.Contains(stderr, c.want) || strings.Contains(stderr, "already public") || strings.Contains(stderr, "0001-01-01") {
			t.Errorf("round %s: %s; want %q", c.round, stderr, c.want)
		}
	}
	if n, _ := readLedger(t, db).Size(); n != 0 {
		t.Errorf("ledger size %d; want 0", n)
	}
}
