package verify

import (
	"encoding/binary"
	"fmt"
	"math/bits"
	"slices"
	"strconv"
	"strings"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/sealedhq/sealed/commit"
	"github.com/sealedhq/sealed/rules/bargain"
)

// DialectEngine is Report.Dialect for a replay the Negotiation Games
// engine wrote itself (docs/replays.md, "Engine replays").
const DialectEngine = "engine"

// engineWire is an engine replay as read (replayPayload in the engine's
// src/negotiation/server.nim): every claim is a pointer or a slice, so an
// absent claim is told apart from a zero one.
type engineWire struct {
	Protocol    string             `json:"protocol"`
	Names       []string           `json:"names"`
	PolicyNames []string           `json:"policyNames"`
	Config      *engineConfigWire  `json:"config"`
	Events      []bargainEvent     `json:"events"`
	Results     *engineResultsWire `json:"results"`
}

// engineConfigWire is an engine replay's "config".
type engineConfigWire struct {
	Seed      *int64            `json:"seed"`
	Matches   *int              `json:"matches"`
	MaxTurns  *int              `json:"maxTurns"`
	Sampled   *bool             `json:"sampled"`
	ItemNames []string          `json:"itemNames"`
	Schedule  []engineMatchWire `json:"schedule"`
}

// engineMatchWire is one entry of config.schedule.
type engineMatchWire struct {
	Kind   *string `json:"kind"`
	Seats  []int   `json:"seats"`
	Opener *int    `json:"opener"`
	Pool   []int   `json:"pool"`
	Values [][]int `json:"values"`
}

// engineResultsWire is an engine replay's "results" (resultsJson in
// sim.nim).
type engineResultsWire struct {
	Names         []string         `json:"names"`
	Scores        []jsontext.Value `json:"scores"`
	Points        []int            `json:"points"`
	Matches       []int            `json:"matches"`
	Deals         []int            `json:"deals"`
	Giveaway      []jsontext.Value `json:"giveaway"`
	Fallbacks     []int            `json:"fallbacks"`
	MatchesPlayed *int             `json:"matchesPlayed"`
	MaxMatches    *int             `json:"maxMatches"`
	Reason        *string          `json:"reason"`
}

// checkKinds refuses scores or giveaway that are not JSON numbers:
// decodeStrict calls it.
func (w *engineWire) checkKinds() error {
	if w.Results == nil {
		return nil
	}
	if err := numbersOnly("results.scores", w.Results.Scores); err != nil {
		return err
	}
	return numbersOnly("results.giveaway", w.Results.Giveaway)
}

// ReplayOptions are what CheckReplayWith holds a replay to besides its own
// content.
type ReplayOptions struct {
	// Seed is the revealed 256-bit seed, or nil. An engine replay's
	// config.seed must be bargain.EngineSeed(Seed); a sealed replay's seed
	// must be Seed.
	Seed *commit.Seed
	// SeedCommitment is the seed commitment posted before play, or nil; it
	// needs Seed. Seed must hash to it (commit.CheckSeed), and a sealed
	// replay's seed_commitment must be it.
	SeedCommitment *commit.Commitment
	// Contributions and Beacon are the match's counted client seeds and
	// drand round, which an engine replay cannot carry (docs/replays.md,
	// "Contributions and a beacon"); they need Seed. An engine replay's
	// config.seed must then be bargain.EngineSeed of
	// commit.MatchSeed(Seed, Contributions, Beacon's randomness). A sealed
	// replay carries its own and ignores these.
	Contributions []commit.ReplayContribution
	Beacon        *commit.ReplayBeacon
}

// Sentences of Report.Notes.
const (
	noteNoCommitment = "no seed commitment was checked: the claims follow from the replay's config.seed, but nothing shows that seed was fixed before play (give the revealed seed and its commitment, or check the result against a ledger)"
	noteSeedOnly     = "the given seed derives the replay's config.seed, but no seed commitment was given: nothing shows the seed was fixed before play"
)

// CheckEngineReplay re-simulates a replay written by the Negotiation Games
// engine itself (github.com/Metta-AI/cogame-negotiation-games: "protocol"
// negotiation.replay.v1, an integer config.seed; docs/replays.md "Engine
// replays"), under the rules of seed 002 and the engine's draws
// (bargain.DrawEngine: Nim's xoroshiro128+ seeded with seed*7919+17).
//
// It re-derives the seat aliases ("names"), the schedule (config.schedule
// and every match event), each offer's worth, each accept's take and
// payoff, each matchEnd, the end and the results (points, matches, deals,
// matchesPlayed, maxMatches, reason, results.names as the policy names,
// and scores and giveaway as the exact float64 the engine computes,
// bargain.Results.EngineScore). A claimed float must read back as that
// float64, or be it printed with 16 significant digits (Nim 1.6's float
// printing). Messages and notes must be texts the engine's cleaning can
// produce (bargain.CheckEngineMessage, CheckEngineNotes), and an action's
// notes are the seat's latest non-empty notes, as the engine writes them.
// results.fallbacks must be one count per seat, each at most the turns
// the seat played; which turns the engine filled with its fallback is not
// derivable, and a note says so.
// Differences are (event index, field, claimed, derived) as for
// CheckBargainReplay.
//
// With o.Seed, config.seed must be bargain.EngineSeed(o.Seed); with
// o.SeedCommitment as well, o.Seed must hash to it (SeedCommitmentOK).
// Without a commitment the report has SeedNotCommitted and a note saying
// that nothing shows the seed was fixed before play.
//
// It returns an error when data cannot be read as such a replay (the
// strictness of docs/replays.md "Reading a replay": duplicate or unknown
// keys, invalid UTF-8, wrong JSON types: a null anywhere, a score or
// giveaway that is not a JSON number), another protocol, a config outside
// 3|6 matches and even 2..12 turns, a config.seed that is absent or outside
// 0..bargain.MaxEngineSeed, an unreadable event or one carrying a field
// its kind does not, or o.SeedCommitment without o.Seed.
func CheckEngineReplay(data []byte, o ReplayOptions) (*Report, error) {
	return checkEngineReplay(data, o, nil)
}

// checkEngineReplay is CheckEngineReplay, recording what it derived in d
// unless d is nil.
func checkEngineReplay(data []byte, o ReplayOptions, d *BargainDerivation) (*Report, error) {
	s := getScanner(data)
	defer s.release()
	s.aliasStrings() // nothing read is kept: bargainCheck.diff copies its claims
	w := &s.engine.wire
	*w = engineWire{}
	if err := s.decodeEngine(w); err != nil {
		return nil, err
	}
	var texts []textInfo
	if len(s.texts) == len(w.Events) {
		texts = s.texts
	}
	rep, err := checkEngineWire(w, o, texts, &s.engine.check, &s.engine.episode, d)
	s.engine.check.out = nil // the scanner is reused; d is the caller's
	return rep, err
}

// checkEngineWire checks the replay read into w, re-simulating it in c
// and ep (both reset here). texts is the scanner's textInfo of each event,
// or nil; d records what was derived, unless it is nil.
func checkEngineWire(w *engineWire, o ReplayOptions, texts []textInfo, c *bargainCheck, ep *bargain.Episode, d *BargainDerivation) (*Report, error) {
	if w.Protocol != bargain.EngineProtocol {
		return nil, fmt.Errorf("engine replay protocol is %q; expected %q", w.Protocol, bargain.EngineProtocol)
	}
	if o.SeedCommitment != nil && o.Seed == nil {
		return nil, fmt.Errorf("a seed commitment was given without the revealed seed; expected both, or the seed alone")
	}
	if w.Config == nil || w.Config.Matches == nil || w.Config.MaxTurns == nil || w.Config.Seed == nil {
		return nil, fmt.Errorf("engine replay has no config.seed, config.matches or config.maxTurns")
	}
	cfg := bargain.Config{Matches: *w.Config.Matches, MaxTurns: *w.Config.MaxTurns}
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("engine replay config: %v", err)
	}
	for i := range w.Events {
		if err := checkBargainEvent(&w.Events[i]); err != nil {
			return nil, fmt.Errorf("engine replay event %d: %v", i, err)
		}
	}
	*c = bargainCheck{ep: ep, engine: true, texts: texts, out: d,
		rep: &Report{Format: bargain.EngineProtocol, Dialect: DialectEngine, Differences: []Difference{}, Notes: make([]string, 0, 2)}}
	names, err := c.ep.ResetEngine(*w.Config.Seed, cfg)
	if err != nil {
		return nil, fmt.Errorf("engine replay config.seed: %v", err)
	}
	if err := c.engineSeed(*w.Config.Seed, o); err != nil {
		return nil, err
	}
	c.engineHeader(w, names)
	for i := range w.Events {
		c.event(i, &w.Events[i])
	}
	c.finish(len(w.Events))
	c.engineResults(w)
	if d != nil {
		d.Names = names
		d.finish(c.ep)
	}
	c.rep.Events = len(w.Events)
	return c.rep, nil
}

// engineSeed holds config.seed to the given seed and commitment.
// With contributions or a beacon, config.seed is derived from the match
// seed (commit.MatchSeed); their errors are matchSeed's.
func (c *bargainCheck) engineSeed(claimed int64, o ReplayOptions) error {
	if o.Seed == nil {
		if len(o.Contributions) > 0 || o.Beacon != nil {
			return fmt.Errorf("contributions or a beacon were given without the revealed seed; expected the seed as well")
		}
		c.rep.SeedNotCommitted = true
		c.rep.Notes = append(c.rep.Notes, noteNoCommitment)
		return nil
	}
	ms, err := matchSeed(*o.Seed, o.Contributions, o.Beacon, bargain.Seats, c.rep)
	if err != nil {
		return err
	}
	of := "the given seed"
	if ms != *o.Seed {
		of = "the match seed " + ms.String()
	}
	derived, _ := bargain.EngineSeed(ms[:]) // a commit.Seed is 32 bytes
	if derived != claimed {
		c.diff(-1, "config.seed", strconv.FormatInt(claimed, 10), fmt.Sprintf("%d (bargain.EngineSeed of %s)", derived, of))
	}
	if o.SeedCommitment == nil {
		c.rep.SeedNotCommitted = true
		c.rep.Notes = append(c.rep.Notes, noteSeedOnly)
		return nil
	}
	c.rep.SeedCommitmentOK = commit.CheckSeed(*o.Seed, *o.SeedCommitment)
	if !c.rep.SeedCommitmentOK {
		derived := o.Seed.Commitment().String()
		for _, h := range commit.SeedHints(*o.Seed, *o.SeedCommitment) {
			derived += " (the claim is the SHA-256 of the " + h.Name + ")"
		}
		c.diff(-1, "seed_commitment", o.SeedCommitment.String(), derived)
	}
	return nil
}

// engineHeader compares the aliases and the config with the derivation.
func (c *bargainCheck) engineHeader(w *engineWire, names [bargain.Seats]string) {
	c.cmpStrings(-1, "names", w.Names, names[:])
	cfg := w.Config
	if cfg.Sampled == nil || !*cfg.Sampled {
		got := absent
		if cfg.Sampled != nil {
			got = "false"
		}
		c.diff(-1, "config.sampled", got, "true (the engine records the config after fitting it to its call budget)")
	}
	c.cmpStrings(-1, "config.itemNames", cfg.ItemNames, bargain.ItemNames[:])
	n := c.ep.Config().Matches
	if len(cfg.Schedule) != n {
		c.diff(-1, "config.schedule", fmt.Sprintf("%d matches", len(cfg.Schedule)), fmt.Sprintf("%d matches", n))
	}
	for m := 0; m < n && m < len(cfg.Schedule); m++ {
		s, p := &cfg.Schedule[m], c.plan(m)
		// Field names are built only for a difference.
		f := func(name string) string { return "config.schedule[" + strconv.Itoa(m) + "]." + name }
		if s.Kind == nil || *s.Kind != bargain.MatchKind {
			c.cmpString(-1, f("kind"), s.Kind, bargain.MatchKind)
		}
		if !intsEqual(s.Seats, p.Seats[:]) {
			c.cmpInts(-1, f("seats"), s.Seats, p.Seats[:])
		}
		if s.Opener == nil || *s.Opener != p.Opener {
			c.cmpInt(-1, f("opener"), s.Opener, p.Opener)
		}
		if !intsEqual(s.Pool, p.Pool[:]) {
			c.cmpInts(-1, f("pool"), s.Pool, p.Pool[:])
		}
		switch {
		case len(s.Values) != 2:
			c.diff(-1, f("values"), renderMatrix(s.Values), renderMatrix([][]int{p.Values[0][:], p.Values[1][:]}))
		case !intsEqual(s.Values[0], p.Values[0][:]) || !intsEqual(s.Values[1], p.Values[1][:]):
			c.cmpInts(-1, f("values[0]"), s.Values[0], p.Values[0][:])
			c.cmpInts(-1, f("values[1]"), s.Values[1], p.Values[1][:])
		}
	}
}

// intsEqual reports whether a and b hold the same integers; a nil a
// equals no b (an absent claim is a difference).
func intsEqual(a, b []int) bool {
	if a == nil || len(a) != len(b) {
		return false
	}
	for k := range a {
		if a[k] != b[k] {
			return false
		}
	}
	return true
}

func (c *bargainCheck) plan(m int) bargain.MatchPlan {
	p, _ := c.ep.Plan(m)
	return p
}

// engineTexts checks an action's message and notes against what the
// engine writes: a cleaned message (or none), and the seat's latest
// non-empty cleaned notes. It does nothing for sealed's dialect.
func (c *bargainCheck) engineTexts(i int, ev *bargainEvent, seat int) {
	if !c.engine {
		return
	}
	var t textInfo
	if c.texts != nil {
		t = c.texts[i]
	}
	if !isClean(ev.Text, t.text, bargain.MaxMessageRunes) {
		if err := bargain.CheckEngineMessage(ev.Text); err != nil {
			c.diff(i, "text", quoteClaim(ev.Text), "a message the engine writes: this one "+err.Error())
		}
	}
	prev := c.notes[seat]
	switch {
	case ev.Notes == prev:
	case ev.Notes == "":
		c.diff(i, "notes", absent, strconv.Quote(prev)+" (the engine writes the seat's latest notes on each of its actions)")
	default:
		if isClean(ev.Notes, t.notes, bargain.MaxNotesRunes) {
			c.notes[seat] = ev.Notes
			break
		}
		if err := bargain.CheckEngineNotes(ev.Notes); err != nil {
			c.diff(i, "notes", quoteClaim(ev.Notes), "notes the engine writes: this text "+err.Error())
		}
		c.notes[seat] = ev.Notes
	}
}

// isClean is cleanText(s, limit), given the scanner's textInfo of s
// (runes, 1 + its rune count when s has no control character, or 0).
func isClean(s string, runes, limit int) bool {
	if runes == 0 {
		return cleanText(s, limit)
	}
	return runes-1 <= limit && (s == "" || s[0] != ' ' && s[len(s)-1] != ' ')
}

// cleanText is a one-pass sufficient test for a text the engine writes,
// for valid UTF-8 (every string either decoder returns, RFC 8259 section
// 8.1): no ASCII control character (below 0x20, or 0x7f), neither end an
// ASCII space (the others are control characters), at most limit runes
// (counted as the bytes that do not continue a UTF-8 sequence). When it
// reports true, bargain.CheckEngineMessage (limit MaxMessageRunes) and,
// for a non-empty s, bargain.CheckEngineNotes (MaxNotesRunes) return nil;
// when false, the caller asks them, for their verdict and its wording.
func cleanText(s string, limit int) bool {
	if len(s) > 4*limit || s != "" && (s[0] == ' ' || s[len(s)-1] == ' ') {
		return false
	}
	// 8 bytes at a time (SWAR, as stops): a byte below 0x20 sets the
	// top bit of (x - 0x20..) &^ x, a byte 0x7f is a zero byte of
	// x ^ 0x7f.., and a continuation byte (10xxxxxx) has its top bit set
	// and the next one clear.
	conts, i := 0, 0
	for ; i+8 <= len(s); i += 8 {
		x := binary.LittleEndian.Uint64([]byte(s[i : i+8]))
		del := x ^ dels
		if ((x-spaces)&^x|(del-ones)&^del)&highs != 0 {
			return false
		}
		conts += bits.OnesCount64(x &^ (x << 1) & highs)
	}
	for ; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c == 0x7f {
			return false
		}
		if c&0xc0 == 0x80 {
			conts++
		}
	}
	return len(s)-conts <= limit
}

// engineResults compares the claimed results with the derived ones.
func (c *bargainCheck) engineResults(w *engineWire) {
	claimed := w.Results
	if claimed == nil {
		c.diff(-1, "results", absent, "names, scores, points, matches, deals, giveaway, fallbacks, matchesPlayed, maxMatches and reason")
		return
	}
	d := c.ep.Results()
	c.cmpStrings(-1, "results.names", claimed.Names, w.PolicyNames)
	c.cmpInts(-1, "results.points", claimed.Points, d.Points[:])
	c.cmpInts(-1, "results.matches", claimed.Matches, d.Matches[:])
	c.cmpInts(-1, "results.deals", claimed.Deals, d.Deals[:])
	var scores, give [bargain.Seats]float64
	for s := range scores {
		scores[s], give[s] = d.EngineScore(s), d.EngineGiveaway(s)
	}
	c.cmpFloats("results.scores", claimed.Scores, scores[:])
	c.cmpFloats("results.giveaway", claimed.Giveaway, give[:])
	c.cmpInt(-1, "results.matchesPlayed", claimed.MatchesPlayed, d.MatchesPlayed)
	c.cmpInt(-1, "results.maxMatches", claimed.MaxMatches, d.MaxMatches)
	c.cmpString(-1, "results.reason", claimed.Reason, string(d.Reason))
	c.fallbacks(claimed.Fallbacks)
}

// fallbacks checks results.fallbacks as far as the events bound it: one
// count per seat, each 0..the turns the seat played. The engine
// (src/negotiation/server.nim, runGame) calls recordFallback(seat) only
// in the turn the seat acts, once when it fell back to its scripted
// baseline (a model that did not answer in time) or once when the engine
// rejected its reply and played the baseline instead; never both, since
// the baseline's move is always legal. Which turns they were is not
// derivable from the events: the report's note says so.
func (c *bargainCheck) fallbacks(claimed []int) {
	if len(claimed) != bargain.Seats {
		got := absent
		if claimed != nil {
			got = renderInts(claimed)
		}
		c.diff(-1, "results.fallbacks", got, fmt.Sprintf("one count per seat, at most its turns: 0..%d, 0..%d and 0..%d",
			c.acted[0], c.acted[1], c.acted[2]))
	} else {
		for s, n := range claimed {
			if n < 0 || n > c.acted[s] {
				c.fallbackDiff(s, n)
			}
		}
	}
	note := append(make([]byte, 0, 224), "results.fallbacks ("...)
	if claimed != nil {
		note = appendInts(note, claimed)
	} else {
		note = append(note, absent...)
	}
	note = append(note, ") counts the turns the engine filled with its scripted fallback: each seat's count was checked to be at most its turns, but which turns they were is not derivable from the events"...)
	c.rep.Notes = append(c.rep.Notes, string(note))
}

// fallbackDiff reports a seat's fallback count outside 0..its turns.
func (c *bargainCheck) fallbackDiff(s, n int) {
	c.diff(-1, fmt.Sprintf("results.fallbacks[%d]", s), strconv.Itoa(n),
		fmt.Sprintf("0..%d (seat %d played %d turns; the engine records at most one fallback a turn)", c.acted[s], s, c.acted[s]))
}

// cmpFloats compares claimed JSON numbers with the derived float64s: a
// claim is equal when it reads back as the float64, or when it is the
// float64 printed with 16 significant digits (%.16g, Nim 1.6's printing).
func (c *bargainCheck) cmpFloats(field string, claimed []jsontext.Value, derived []float64) {
	want := func(f float64) string { return string(bargain.AppendEngineFloat(nil, f, bargain.FloatShortest)) }
	if len(claimed) != len(derived) {
		got := absent
		if claimed != nil {
			got = "[" + string(joinValues(claimed)) + "]"
		}
		all := make([]string, len(derived))
		for s, f := range derived {
			all[s] = want(f)
		}
		c.diff(-1, field, got, "["+strings.Join(all, ",")+"]")
		return
	}
	for s, raw := range claimed {
		if !floatClaimEqual(raw, derived[s]) {
			c.diff(-1, fmt.Sprintf("%s[%d]", field, s), string(raw), want(derived[s]))
		}
	}
}

// floatClaimEqual reports whether raw is a JSON number that reads as f or
// as f rounded to 16 significant digits.
func floatClaimEqual(raw jsontext.Value, f float64) bool {
	if raw.Kind() != '0' {
		return false
	}
	got, err := strconv.ParseFloat(string(raw), 64)
	if err != nil {
		return false
	}
	if got == f {
		return true
	}
	r16, _ := strconv.ParseFloat(strconv.FormatFloat(f, 'g', 16, 64), 64)
	return got == r16
}

func joinValues(v []jsontext.Value) []byte {
	var b []byte
	for i, x := range v {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, x...)
	}
	return b
}

// cmpStrings compares element by element ("names[1]") when the lengths
// agree, and the whole list otherwise.
func (c *bargainCheck) cmpStrings(i int, field string, claimed, derived []string) {
	if len(claimed) != len(derived) {
		got := absent
		if claimed != nil {
			got = renderStrings(slices.Clone(claimed))
		}
		want := absent // e.g. results.names of a replay with no policyNames
		if derived != nil {
			want = renderStrings(slices.Clone(derived))
		}
		c.diff(i, field, got, want)
		return
	}
	for k := range claimed {
		if claimed[k] != derived[k] {
			c.diff(i, fmt.Sprintf("%s[%d]", field, k), quoteClaim(claimed[k]), quoteClaim(derived[k]))
		}
	}
}
