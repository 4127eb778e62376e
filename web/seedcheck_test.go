package web

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/sealedhq/sealed/ledger"
)

// TestSeedRevealVerdict: a seed-reveal entry's page and API JSON say
// whether its seed matches the seed commitment of the entry it names, with
// the near miss when the commitment was made over another form of it.
func TestSeedRevealVerdict(t *testing.T) {
	f := newFixture(t)
	// The seed of testdata/replays/bargain.json and its commitments:
	//   printf %s bbcf…a25d | sha256sum -> 90ce0189…feaae (the right form)
	//   echo bbcf…a25d | sha256sum      -> eb6a77e3…64fda (hex with a trailing LF)
	const seed = "bbcf2e7da9393223001291b5efc9fe5d57ae6a8202a1898f5f6bce5d8f16a25d"
	const right = "90ce018902737a53e39a005e1dc4c093b266b8db577ed7feae0af713d35feaae"
	const withLF = "eb6a77e3f698e249799da9dfceab20831d6b8e4d412f2af902cd548682564fda"
	conf := json.RawMessage(`{"matches":3}`)
	f.add(t, "sc-right", "2026-03-09T13:00:00Z", &ledger.Body{Kind: ledger.KindSeedCommit, Game: "bargain", MatchID: "m1", RulesVersion: "v1", Config: conf, Commitment: right})
	f.add(t, "sc-lf", "2026-03-09T13:01:00Z", &ledger.Body{Kind: ledger.KindSeedCommit, Game: "bargain", MatchID: "m2", RulesVersion: "v1", Config: conf, Commitment: withLF})
	sr := func(name, when, commitEntry, s string) {
		n := f.idx[commitEntry]
		f.add(t, name, when, &ledger.Body{Kind: ledger.KindSeedReveal, SeedCommit: &n, Seed: s})
	}
	sr("good", "2026-03-09T14:00:00Z", "sc-right", seed)
	sr("wrong", "2026-03-09T14:01:00Z", "sc-right", strings.Repeat("0", 64))
	sr("lf", "2026-03-09T14:02:00Z", "sc-lf", seed)
	s := f.server(t, nil)

	for _, tc := range []struct {
		name, want string
		match      bool
		hints      []string
	}{
		{"good", "The seed matches the seed commitment of <a href=\"/entry/9\">entry 9</a>", true, nil},
		{"wrong", "The seed does NOT match the seed commitment of <a href=\"/entry/9\">entry 9</a>", false, nil},
		{"lf", "<strong>hex with a trailing LF</strong>", false, []string{"hex with a trailing LF"}},
	} {
		n := f.idx[tc.name]
		w := do(s, "GET", fmt.Sprint("/entry/", n), "")
		if w.Code != 200 || !strings.Contains(w.Body.String(), tc.want) {
			t.Errorf("%s: /entry/%d %d lacks %q", tc.name, n, w.Code, tc.want)
		}
		if tc.match && strings.Contains(w.Body.String(), "does NOT match") {
			t.Errorf("%s: the page of a matching seed says it does not match", tc.name)
		}
		w = do(s, "GET", fmt.Sprint("/api/v1/entries/", n), "")
		var a struct {
			Kind      string
			SeedCheck *struct {
				SeedCommit int64 `json:"seed_commit"`
				Match      bool
				Hints      []string
			} `json:"seed_check"`
		}
		if err := json.Unmarshal(w.Body.Bytes(), &a); err != nil || a.SeedCheck == nil || a.Kind != "seed-reveal" {
			t.Errorf("%s: API %d %s: want a seed-reveal entry with seed_check", tc.name, w.Code, w.Body.String())
			continue
		}
		if a.SeedCheck.Match != tc.match || strings.Join(a.SeedCheck.Hints, ";") != strings.Join(tc.hints, ";") {
			t.Errorf("%s: seed_check %+v, want match %v, hints %v", tc.name, *a.SeedCheck, tc.match, tc.hints)
		}
	}
	// Other kinds carry no seed_check.
	if w := do(s, "GET", "/api/v1/entries/0", ""); strings.Contains(w.Body.String(), "seed_check") {
		t.Errorf("a commit entry has a seed_check: %s", w.Body.String())
	}
}
