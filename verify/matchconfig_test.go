package verify

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/sealedhq/sealed/commit"
	"github.com/sealedhq/sealed/ledger"
)

// TestCheckMatchConfig: a seed-commit's rules_version and config are held
// to the rules of its game before the match. The limits are the rules':
// a Blind Auction table seats 3 to 8 (seed 000, "Table"), pricing is
// first or second (docs/design.md B1), a replay writes every key of the
// table (docs/replays.md, "Config"); Negotiation Games plays 3 or 6
// matches of an even maxTurns in 2..12 (seed 002; docs/replays.md).
// The configs admitted are the documented ones: the auction table's
// defaults, the paid table of docs/replays.md's example, Negotiation
// Games' defaults (6 and 10) and the engine's {matches, maxTurns,
// sampled, itemNames} without its derived seed and schedule.
func TestCheckMatchConfig(t *testing.T) {
	const (
		defaults = `{"players":5,"items":10,"starting_credits":100,"value_min":5,"value_max":60,"talk_rounds":1,"pricing":"first"}`
		paid     = `{"players":3,"items":2,"starting_credits":100,"value_min":5,"value_max":60,"talk_rounds":1,"pricing":"first","stake":"10","rake":"0.05"}`
	)
	for _, c := range []struct {
		game, version, config string
		field, want           string // "" for admitted
	}{
		{"auction", "auction-0.2", defaults, "", ""},
		{"auction", "auction-0.2", paid, "", ""},
		{"auction", "auction-0.2", strings.Replace(defaults, `"players":5`, `"players":5.0`, 1), "", ""}, // stored as 5 (RFC 8785)
		{"bargain", "negotiation.replay.v1", `{"matches":6,"maxTurns":10}`, "", ""},
		{"bargain", "negotiation.replay.v1", `{"matches":3,"maxTurns":4,"sampled":true,"itemNames":["books","hats","balls"]}`, "", ""},

		// The newcomer trial's configs and rules version.
		{"auction", "auction-0.2", `{"players":99}`, "config", "items, starting_credits, value_min, value_max, talk_rounds, pricing are missing"},
		{"auction", "auction-0.2", strings.Replace(defaults, `"players":5`, `"players":99`, 1), "config", "players is 99, expected 3..8"},
		{"auction", "auction-0.2", `{"colour":"red"}`, "config", `unknown key "colour"`},
		{"auction", "auction-0.2", `{}`, "config", "players, items, starting_credits, value_min, value_max, talk_rounds, pricing are missing"},
		{"bargain", "negotiation.replay.v1", `{"matches":4,"maxTurns":10}`, "config", "matches is 4; expected 3 or 6"},
		{"auction", "auction-9.9", defaults, "rules_version", `"auction-9.9" is not a rules version of auction that sealed checks; expected "auction-0.2"`},
		{"bargain", "auction-0.2", `{"matches":6,"maxTurns":10}`, "rules_version", `expected "negotiation.replay.v1"`},

		{"auction", "auction-0.2", strings.Replace(defaults, `"players":5`, `"players":2`, 1), "config", "players is 2, expected 3..8"},
		{"auction", "auction-0.2", strings.Replace(defaults, `"players":5`, `"players":"5"`, 1), "config", `players is "5"; expected a whole number`},
		{"auction", "auction-0.2", strings.Replace(defaults, `"players":5`, `"players":4.5`, 1), "config", "players is 4.5; expected a whole number"},
		{"auction", "auction-0.2", strings.Replace(defaults, `"players":5`, `"players":null`, 1), "config", "players is null"},
		{"auction", "auction-0.2", strings.Replace(defaults, `"first"`, `"third"`, 1), "config", `pricing is "third", expected "first" or "second"`},
		{"auction", "auction-0.2", strings.Replace(paid, `"10"`, `10`, 1), "config", `stake is 10; expected a decimal in a JSON string`},
		{"auction", "auction-0.2", strings.Replace(paid, `"0.05"`, `"1"`, 1), "config", "rake is 1, expected a fraction in [0, 1)"},
		{"bargain", "negotiation.replay.v1", `{"matches":6,"maxTurns":11}`, "config", "maxTurns"},
		{"bargain", "negotiation.replay.v1", `{"matches":6}`, "config", "maxTurns is missing"},
		{"bargain", "negotiation.replay.v1", `{"matches":3,"maxTurns":4,"seed":2032301331}`, "config", `"seed" is the engine's integer seed`},
		{"bargain", "negotiation.replay.v1", `{"matches":3,"maxTurns":4,"schedule":[]}`, "config", "it would make every draw public"},
		{"bargain", "negotiation.replay.v1", `{"matches":3,"maxTurns":4,"itemNames":["hats","books","balls"]}`, "config", `expected ["books","hats","balls"]`},
	} {
		err := CheckMatchConfig(c.game, c.version, []byte(c.config))
		var ae *AdmissionError
		switch {
		case c.field == "" && err != nil:
			t.Errorf("%s %s %s: %v; want admitted", c.game, c.version, c.config, err)
		case c.field != "" && (!errors.As(err, &ae) || ae.Field != c.field || !strings.Contains(ae.Msg, c.want)):
			t.Errorf("%s %s %s: %v; want refused on %s saying %q", c.game, c.version, c.config, err, c.field, c.want)
		}
	}
}

// TestAdmitSeedCommitConfig: Admit refuses the newcomer trial's
// seed-commits, which were appended with exit 0 and whose results were
// then refused ("config differs"), and nothing else of them decides.
func TestAdmitSeedCommitConfig(t *testing.T) {
	tl := newTestLedger(t)
	for _, c := range []struct{ game, version, config, field string }{
		{"auction", "auction-0.2", `{"players":99}`, "config"},
		{"auction", "auction-0.2", `{"colour":"red"}`, "config"},
		{"auction", "auction-0.2", `{}`, "config"},
		{"bargain", "negotiation.replay.v1", `{"matches":4,"maxTurns":10}`, "config"},
		{"auction", "auction-9.9", auctionConfig, "rules_version"},
	} {
		b := ledger.Body{Kind: ledger.KindSeedCommit, Game: c.game, MatchID: "m", RulesVersion: c.version, Config: []byte(c.config), Commitment: commitmentA}
		w, err := Admit(tl.l, &b, nil, instant(t, "2026-11-16T08:00:00Z"))
		var ae *AdmissionError
		if !errors.As(err, &ae) || ae.Field != c.field {
			t.Errorf("%s %s %s: warnings %q, error %v; want refused on %s", c.game, c.version, c.config, w, err, c.field)
		}
	}
}

// TestAdmitResultTie: a result that check-result will never tie to the
// ledger is recorded with a warning saying why, as a replay that does not
// re-simulate cleanly is, and with the same words check-result uses; what
// a later seed-reveal may still settle draws none. contributionLedger's
// seat 0 contribution (entry ids[0]) counts and its seed-commit names
// round 657413.
func TestAdmitResultTie(t *testing.T) {
	tl, _, ids := contributionLedger(t, "2023-09-15T10:00:00Z")
	now := instant(t, "2023-09-15T12:00:01Z")
	result := ledger.Body{Kind: ledger.KindResult, Game: "auction", MatchID: matchSeedID, Summary: []byte(`{}`)}
	admit := func(data []byte) []string {
		t.Helper()
		b := result
		w, err := Admit(tl.l, &b, data, now)
		if err != nil {
			t.Fatalf("admitting a result: %v", err)
		}
		return w
	}
	counted := []commit.ReplayContribution{{Seat: 0, ClientSeed: "lucky 7", Entry: &ids[0]}}
	if w := admit(playAuction(t, counted, beacon657413)); len(w) != 0 {
		t.Errorf("the replay taking the counted contribution and the round: warnings %q", w)
	}
	for _, c := range []struct {
		what    string
		data    []byte
		problem string
	}{
		{"a replay leaving the counted contribution out", playAuction(t, nil, beacon657413),
			"contribution entry " + itoa(ids[0]) + " (seat 0) counts, but the replay leaves it out"},
		{"a replay taking seat 2's contribution, integrated after play began", playAuction(t, append(counted, commit.ReplayContribution{Seat: 2, ClientSeed: "too late", Entry: &ids[2]}), beacon657413),
			"the replay's contributions[1] is entry " + itoa(ids[2]) + ", which does not count"},
		{"a replay ignoring the round", playAuction(t, counted, nil), "named drand round 657413 (quicknet), which the replay ignored"},
	} {
		w := admit(c.data)
		if len(w) != 1 || !strings.Contains(w[0], "will not be tied to the ledger: ") || !strings.Contains(w[0], c.problem) {
			t.Errorf("%s: warnings %q; want one saying %q", c.what, w, c.problem)
			continue
		}
		// check-result says the same of it once appended.
		wantProblem(t, checkResult(t, tl, tl.resultBytes("2023-09-15T12:00:01Z", c.data)), c.problem)
	}

	// The replay's seed commitment is not the seed-commit's: seed A's
	// replay for a match committed to seed B.
	tl = newTestLedger(t)
	sc := tl.seedCommit("2026-11-16T08:00:00Z", commitmentB, auctionConfig)
	b := ledger.Body{Kind: ledger.KindResult, Game: "auction", MatchID: matchID, Summary: []byte(`{}`)}
	w, err := Admit(tl.l, &b, mustReadFile(t, "testdata/auction_example.json"), now)
	if err != nil || len(w) != 1 || !strings.Contains(w[0], "the replay's seed commitment differs from the one recorded at entry "+itoa(sc)) {
		t.Errorf("seed A's replay for seed B's match: %q, %v", w, err)
	}

	// An engine replay before its seed-reveal: its tie rests on the
	// seed-reveal, which may follow the result; no warning.
	tl = newTestLedger(t)
	tl.must("2025-01-01T10:00:00Z", ledger.Body{Kind: ledger.KindSeedCommit, Game: "bargain", MatchID: "e",
		RulesVersion: "negotiation.replay.v1", Config: []byte(`{"matches":3,"maxTurns":4}`), Commitment: commitmentA})
	seed, _ := commit.ParseSeed(seedA)
	b = ledger.Body{Kind: ledger.KindResult, Game: "bargain", MatchID: "e", Summary: []byte(`{}`)}
	if w, err := Admit(tl.l, &b, playEngine(t, seed), now); err != nil || len(w) != 0 {
		t.Errorf("an engine replay before its seed-reveal: %q, %v; want admitted without warnings", w, err)
	}
}

func mustReadFile(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return data
}
