package bargain_test

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/sealedhq/sealed/rules/bargain"
)

// engineDoc is an engine replay as encoding/json reads it, for tests.
type engineDoc struct {
	Protocol    string    `json:"protocol"`
	Names       [3]string `json:"names"`
	PolicyNames [3]string `json:"policyNames"`
	Config      struct {
		Seed      int64     `json:"seed"`
		Matches   int       `json:"matches"`
		MaxTurns  int       `json:"maxTurns"`
		Sampled   bool      `json:"sampled"`
		ItemNames [3]string `json:"itemNames"`
		Schedule  []struct {
			Kind   string    `json:"kind"`
			Seats  [2]int    `json:"seats"`
			Opener int       `json:"opener"`
			Pool   [3]int    `json:"pool"`
			Values [2][3]int `json:"values"`
		} `json:"schedule"`
	} `json:"config"`
	Events []struct {
		Kind      string    `json:"kind"`
		Match     int       `json:"match"`
		MatchKind string    `json:"matchKind"`
		Seats     [2]int    `json:"seats"`
		Opener    int       `json:"opener"`
		Pool      [3]int    `json:"pool"`
		Values    [2][3]int `json:"values"`
		MaxTurns  int       `json:"maxTurns"`
		Turn      int       `json:"turn"`
		Seat      int       `json:"seat"`
		Other     int       `json:"other"`
		Take      [3]int    `json:"take"`
		Worth     [2]int    `json:"worth"`
		Payoff    [2]int    `json:"payoff"`
		Outcome   string    `json:"outcome"`
		Scripted  bool      `json:"scripted"`
		Text      string    `json:"text"`
		Notes     string    `json:"notes"`
	} `json:"events"`
	Results struct {
		Names         [3]string  `json:"names"`
		Scores        [3]float64 `json:"scores"`
		Points        [3]int     `json:"points"`
		Matches       [3]int     `json:"matches"`
		Deals         [3]int     `json:"deals"`
		Giveaway      [3]float64 `json:"giveaway"`
		Fallbacks     [3]int     `json:"fallbacks"`
		MatchesPlayed int        `json:"matchesPlayed"`
		MaxMatches    int        `json:"maxMatches"`
		Reason        string     `json:"reason"`
	} `json:"results"`
}

func engineFiles(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob("testdata/engine/*.json")
	if err != nil || len(files) != 65 {
		t.Fatalf("%d engine replays (%v); expected 65", len(files), err)
	}
	return files
}

func readEngine(t *testing.T, f string) ([]byte, *engineDoc) {
	t.Helper()
	data, err := os.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	var d engineDoc
	if err := json.Unmarshal(data, &d); err != nil {
		t.Fatalf("%s: %v", f, err)
	}
	return data, &d
}

// TestEngineDraws: the aliases and the schedule the engine wrote in each of
// its 65 replays are DrawEngine's for the replay's seed.
func TestEngineDraws(t *testing.T) {
	for _, f := range engineFiles(t) {
		_, d := readEngine(t, f)
		got, err := bargain.DrawEngine(d.Config.Seed, d.Config.Matches)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if got.Names != d.Names {
			t.Errorf("%s: aliases %v; the engine wrote %v", f, got.Names, d.Names)
		}
		if len(d.Config.Schedule) != len(got.Plans) {
			t.Fatalf("%s: %d plans; the engine wrote %d", f, len(got.Plans), len(d.Config.Schedule))
		}
		for m, s := range d.Config.Schedule {
			p := got.Plans[m]
			if p.Seats != s.Seats || p.Opener != s.Opener || [3]int(p.Pool) != s.Pool ||
				[3]int(p.Values[0]) != s.Values[0] || [3]int(p.Values[1]) != s.Values[1] {
				t.Errorf("%s: match %d drawn as %+v; the engine wrote %+v", f, m, p, s)
			}
		}
	}
}

// TestEngineRoundTrip rebuilds each engine replay from its decoded fields,
// with scores and giveaway recomputed from the integers (EngineScore,
// EngineGiveaway), and checks that Encode in Nim 1.6's float style gives
// the engine's bytes exactly.
func TestEngineRoundTrip(t *testing.T) {
	for _, f := range engineFiles(t) {
		data, d := readEngine(t, f)
		r := bargain.EngineReplay{Names: d.Names, PolicyNames: d.PolicyNames}
		r.Config = bargain.EngineConfig{Seed: d.Config.Seed, Matches: d.Config.Matches, MaxTurns: d.Config.MaxTurns,
			Sampled: d.Config.Sampled, ItemNames: d.Config.ItemNames}
		for m, s := range d.Config.Schedule {
			r.Config.Schedule = append(r.Config.Schedule, bargain.MatchPlan{Match: m, Seats: s.Seats, Opener: s.Opener,
				Pool: s.Pool, Values: [2]bargain.Vector{s.Values[0], s.Values[1]}})
		}
		for _, e := range d.Events {
			r.Events = append(r.Events, bargain.Event{Kind: bargain.EventKind(e.Kind), Match: e.Match, MatchKind: e.MatchKind,
				Seats: e.Seats, Opener: e.Opener, Pool: e.Pool, Values: [2]bargain.Vector{e.Values[0], e.Values[1]},
				MaxTurns: e.MaxTurns, Turn: e.Turn, Seat: e.Seat, Other: e.Other, Take: e.Take, Worth: e.Worth,
				Payoff: e.Payoff, Outcome: bargain.Outcome(e.Outcome), Scripted: e.Scripted, Text: e.Text, Notes: e.Notes})
		}
		res := d.Results
		var given [3]int // from the matchEnd events, seat order as the events give it
		for _, e := range d.Events {
			if e.Kind == "matchEnd" {
				s := d.Config.Schedule[e.Match].Seats
				given[s[0]] += e.Payoff[1] - e.Payoff[0]
				given[s[1]] += e.Payoff[0] - e.Payoff[1]
			}
		}
		in := bargain.Results{Points: res.Points, Matches: res.Matches, Deals: res.Deals, Given: given,
			MatchesPlayed: res.MatchesPlayed, MaxMatches: res.MaxMatches, Reason: bargain.Reason(res.Reason)}
		r.Results = bargain.EngineResultsOf(&in, res.Names, res.Fallbacks)
		got, err := r.Encode(bargain.FloatNim16)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if !bytes.Equal(got, data) {
			i := 0
			for i < len(got) && i < len(data) && got[i] == data[i] {
				i++
			}
			t.Errorf("%s: Encode differs from the engine's bytes at byte %d:\n got  %.80s\n want %.80s", f, i, got[i:], data[i:])
		}
	}
}

// TestEngineSeedVectors checks EngineSeed against testdata/engine_seed_vectors.txt,
// printed by OpenSSL and Python.
func TestEngineSeedVectors(t *testing.T) {
	f, err := os.Open("testdata/engine_seed_vectors.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	n := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.Fields(line)
		seed, _ := hex.DecodeString(fields[0])
		want, _ := strconv.ParseInt(fields[2], 10, 64)
		got, err := bargain.EngineSeed(seed)
		if err != nil || got != want {
			t.Errorf("EngineSeed(%s) = %d, %v; OpenSSL gives %d", fields[0], got, err, want)
		}
		n++
	}
	if n < 5 {
		t.Fatalf("%d vectors read; expected 5", n)
	}
	if _, err := bargain.EngineSeed(make([]byte, 31)); err == nil {
		t.Error("EngineSeed accepted a 31-byte seed")
	}
}

// TestCleanMessage works the engine's cleaning rules (cleanMessage,
// cleanNotes in sim.nim) by hand.
func TestCleanMessage(t *testing.T) {
	long := strings.Repeat("é", 250)
	for _, c := range []struct{ in, want string }{
		{"  hi\tthere\r\nyou \x07\x1b[2J\x7f ", "hi there  you [2J"},
		{long, strings.Repeat("é", 199) + "…"},
		{strings.Repeat("x", 200), strings.Repeat("x", 200)},
		{"\x0b\x0c ok", "ok"}, // VT and FF are control characters, dropped
	} {
		got := bargain.CleanMessage(c.in)
		if got != c.want {
			t.Errorf("CleanMessage(%q) = %q; expected %q", c.in, got, c.want)
		}
		if err := bargain.CheckEngineMessage(got); err != nil {
			t.Errorf("CheckEngineMessage(%q): %v", got, err)
		}
	}
	if got, want := bargain.CleanNotes(" a\x07b "+strings.Repeat("n", 500)), "a\x07b "+strings.Repeat("n", 395)+"…"; got != want {
		t.Errorf("CleanNotes: %q; expected %q", got, want)
	}
	for _, bad := range []string{" lead", "trail ", "bell\x07", strings.Repeat("x", 201)} {
		if bargain.CheckEngineMessage(bad) == nil {
			t.Errorf("CheckEngineMessage(%q) accepted a text the engine cannot write", bad)
		}
	}
	for _, bad := range []string{"", " lead", strings.Repeat("x", 401)} {
		if bargain.CheckEngineNotes(bad) == nil {
			t.Errorf("CheckEngineNotes(%q) accepted notes the engine cannot write", bad)
		}
	}
	if err := bargain.CheckEngineNotes("a\x07b"); err != nil {
		t.Errorf("notes keep control characters: %v", err)
	}
}

// TestEngineFloat: the two float styles, on values worked by hand (4/3 to
// 16 and 17 significant digits).
func TestEngineFloat(t *testing.T) {
	for _, c := range []struct {
		f            float64
		short, nim16 string
	}{
		{4.0 / 3, "1.3333333333333333", "1.333333333333333"},
		{-1, "-1.0", "-1.0"},
		{0.575, "0.575", "0.575"},
		{1.0 / 6, "0.16666666666666666", "0.1666666666666667"},
		{0, "0.0", "0.0"},
	} {
		if got := string(bargain.AppendEngineFloat(nil, c.f, bargain.FloatShortest)); got != c.short {
			t.Errorf("shortest %v = %s; expected %s", c.f, got, c.short)
		}
		if got := string(bargain.AppendEngineFloat(nil, c.f, bargain.FloatNim16)); got != c.nim16 {
			t.Errorf("nim16 %v = %s; expected %s", c.f, got, c.nim16)
		}
	}
}
