package verify

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/cockroachdb/apd/v3"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/sealedhq/sealed/commit"
	"github.com/sealedhq/sealed/rules/bargain"
)

// bargainWire is a negotiation.replay.v1 replay as read: every claimed
// field is a pointer or a slice, so that an absent claim is told apart from
// a zero one.
type bargainWire struct {
	Format         string             `json:"format"`
	Config         *bargainConfigWire `json:"config"`
	SeedCommitment *string            `json:"seed_commitment"`
	Seed           *string            `json:"seed"`
	// PolicyNames is informational and not checked; it is read so that it
	// is a known key.
	PolicyNames []string `json:"policyNames"`
	// Contributions and Beacon: as in auction.Replay.
	Contributions []commit.ReplayContribution `json:"contributions,omitempty"`
	Beacon        *commit.ReplayBeacon        `json:"beacon,omitempty"`
	Events        []bargainEvent              `json:"events"`
	Results       *bargainResultsWire         `json:"results"`
}

// bargainConfigWire is a replay's "config" as read.
type bargainConfigWire struct {
	Matches   *int     `json:"matches"`
	MaxTurns  *int     `json:"maxTurns"`
	ItemNames []string `json:"itemNames"`
}

// bargainResultsWire is a replay's claimed "results" as read.
type bargainResultsWire struct {
	Scores        []jsontext.Value `json:"scores"`
	Points        []int            `json:"points"`
	Matches       []int            `json:"matches"`
	Deals         []int            `json:"deals"`
	Giveaway      []jsontext.Value `json:"giveaway"`
	MatchesPlayed *int             `json:"matchesPlayed"`
	MaxMatches    *int             `json:"maxMatches"`
	Reason        *string          `json:"reason"`
}

// checkKinds refuses scores or giveaway that are not JSON numbers (a
// string holding a number included): decodeStrict calls it.
func (w *bargainWire) checkKinds() error {
	if w.Results == nil {
		return nil
	}
	if err := numbersOnly("results.scores", w.Results.Scores); err != nil {
		return err
	}
	return numbersOnly("results.giveaway", w.Results.Giveaway)
}

// bargainEvent is one event as read (see bargain.Event for the vocabulary).
type bargainEvent struct {
	Kind      string  `json:"kind"`
	Match     *int    `json:"match"`
	MatchKind *string `json:"matchKind"`
	Seats     []int   `json:"seats"`
	Opener    *int    `json:"opener"`
	Pool      []int   `json:"pool"`
	Values    [][]int `json:"values"`
	MaxTurns  *int    `json:"maxTurns"`
	Turn      *int    `json:"turn"`
	Seat      *int    `json:"seat"`
	Other     *int    `json:"other"`
	Take      []int   `json:"take"`
	Worth     []int   `json:"worth"`
	Payoff    []int   `json:"payoff"`
	Outcome   *string `json:"outcome"`
	// Scripted says whether a scripted bot acted; informational, not
	// checked.
	Scripted *bool  `json:"scripted"`
	Text     string `json:"text"`
	Notes    string `json:"notes"`
}

// absent is how a missing claim is shown in a Difference.
const absent = "absent"

// CheckBargainReplay re-simulates a Negotiation Games replay
// (negotiation.replay.v1, docs/replays.md "Negotiation Games replays";
// rules of seed 002). It checks the revealed seed against the seed
// commitment (SHA-256 of the seed's 64 lowercase hex characters,
// commit.CheckSeed), re-derives every match's seats, opener, pool and both
// valuations from the seed (bargain.DrawMatch), replays every offer, accept
// and deadline through bargain.Episode, and compares every claimed field:
// pools, valuations, turns, seats, worth, payoffs, outcomes, points,
// matches, deals, scores, giveaway and reason. Each difference is reported
// as (event index, field, claimed, derived); an illegal action is reported
// at its event, under the field the broken rule concerns, and changes
// nothing. Scores and giveaway are compared as exact decimals against the
// derived value rounded half up to bargain.ScorePlaces places.
//
// It returns an error, and no report, only when data cannot be read as such
// a replay: not JSON (RFC 8259, UTF-8 strings), a leading UTF-8 byte order
// mark, a key given twice in one object, a key the format does not define
// (keys match exactly), a field of the wrong JSON type (a null anywhere, a
// score that is not a JSON number), another format, a config outside 3|6
// matches and even 2..12 turns, a missing or malformed seed, a missing
// seed_commitment or one that is not a SHA-256 hash
// (commit.ParseCommitment), or an event whose kind or action fields (an
// offer's take) are unreadable or that carries a field its kind does not
// (docs/replays.md, "Reading a replay", "Events"). A
// well-formed seed_commitment that does not match the seed is a
// difference, with the usual mistakes named (commit.SeedHints).
func CheckBargainReplay(data []byte) (*Report, error) { return checkBargainReplay(data, nil) }

// checkBargainReplay is CheckBargainReplay, recording what it derived in d
// unless d is nil.
func checkBargainReplay(data []byte, d *BargainDerivation) (*Report, error) {
	var w bargainWire
	s := getScanner(data)
	defer s.release()
	if err := s.decodeBargain(&w); err != nil {
		return nil, err
	}
	if w.Format != FormatBargain {
		return nil, fmt.Errorf("replay format is %q; expected %q", w.Format, FormatBargain)
	}
	if w.Config == nil || w.Config.Matches == nil || w.Config.MaxTurns == nil {
		return nil, fmt.Errorf("bargaining replay has no config.matches or config.maxTurns")
	}
	cfg := bargain.Config{Matches: *w.Config.Matches, MaxTurns: *w.Config.MaxTurns}
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("bargaining replay config: %v", err)
	}
	if w.Seed == nil || w.SeedCommitment == nil {
		return nil, fmt.Errorf("bargaining replay needs \"seed\" and \"seed_commitment\"")
	}
	seed, err := commit.ParseSeed(*w.Seed)
	if err != nil {
		return nil, fmt.Errorf("bargaining replay seed: %v", err)
	}
	claimedCommit, err := commit.ParseCommitment(*w.SeedCommitment)
	if err != nil {
		return nil, fmt.Errorf("bargaining replay seed_commitment: %v", err)
	}
	rep := &Report{Format: FormatBargain, Differences: []Difference{}}
	drawSeed, err := matchSeed(seed, w.Contributions, w.Beacon, bargain.Seats, rep)
	if err != nil {
		return nil, fmt.Errorf("bargaining replay %v", err)
	}
	ep, err := bargain.NewEpisode(drawSeed[:], cfg)
	if err != nil {
		return nil, fmt.Errorf("bargaining replay: %v", err)
	}
	events := w.Events
	for i := range events {
		if err := checkBargainEvent(&events[i]); err != nil {
			return nil, fmt.Errorf("bargaining replay event %d: %v", i, err)
		}
	}

	c := &bargainCheck{ep: ep, rep: rep, out: d}
	c.rep.SeedCommitmentOK = commit.CheckSeed(seed, claimedCommit)
	if !c.rep.SeedCommitmentOK {
		derived := seed.Commitment().String()
		for _, h := range commit.SeedHints(seed, claimedCommit) {
			derived += " (the claim is the SHA-256 of the " + h.Name + ")"
		}
		claimed := strconv.Quote(*w.SeedCommitment)
		if r := []rune(claimed); len(r) > 80 { // cut on a rune, never inside one
			claimed = string(r[:80]) + "..."
		}
		c.diff(-1, "seed_commitment", claimed, derived)
	}
	if names := w.Config.ItemNames; names != nil && strings.Join(names, ",") != strings.Join(bargain.ItemNames[:], ",") {
		c.diff(-1, "config.itemNames", renderStrings(names), renderStrings(bargain.ItemNames[:]))
	}
	for i := range events {
		c.event(i, &events[i])
	}
	c.finish(len(events))
	c.results(w.Results)
	if d != nil {
		d.finish(ep)
	}
	c.rep.Events = len(events)
	return c.rep, nil
}

// checkBargainEvent checks the fields the re-simulation acts on: a known
// kind, only the fields that kind carries (eventFields) and, for an offer,
// a 3-entry take.
func checkBargainEvent(ev *bargainEvent) error {
	// Each case tests, in place, that none of the fields its kind lacks
	// was given (the common case: no call); extraField then names one.
	var allowed uint32
	switch bargain.EventKind(ev.Kind) {
	case bargain.EventOffer:
		if len(ev.Take) != bargain.NumItems {
			return fmt.Errorf("offer take has %d entries; expected %d (books, hats, balls)", len(ev.Take), bargain.NumItems)
		}
		if !ev.noPlan() || ev.Payoff != nil || ev.Outcome != nil {
			allowed = offerFields
		}
	case bargain.EventAccept:
		if !ev.noPlan() || ev.Worth != nil || ev.Outcome != nil {
			allowed = acceptFields
		}
	case bargain.EventMatch:
		if !ev.noMove() || ev.Payoff != nil || ev.Outcome != nil {
			allowed = matchFields
		}
	case bargain.EventMatchEnd:
		if !ev.noPlan() || ev.Seat != nil || ev.Other != nil || ev.Take != nil || ev.Worth != nil || ev.Scripted != nil || ev.Text != "" || ev.Notes != "" {
			allowed = matchEndFields
		}
	case bargain.EventStart, bargain.EventEnd:
		allowed = startFields
		if ev.Kind == string(bargain.EventEnd) {
			allowed = endFields
		}
		if ev.fields()&^allowed == 0 {
			allowed = 0
		}
	default:
		return fmt.Errorf("unknown kind %q; expected start, match, offer, accept, matchEnd or end", ev.Kind)
	}
	if allowed != 0 {
		return extraField(ev.Kind, ev.fields()&^allowed, allowed)
	}
	return nil
}

// noPlan reports that ev has none of a match event's own fields.
func (ev *bargainEvent) noPlan() bool {
	return ev.MatchKind == nil && ev.Seats == nil && ev.Opener == nil && ev.Pool == nil && ev.Values == nil && ev.MaxTurns == nil
}

// noMove reports that ev has none of the fields of an offer or an accept
// but match, worth and payoff.
func (ev *bargainEvent) noMove() bool {
	return ev.Turn == nil && ev.Seat == nil && ev.Other == nil && ev.Take == nil && ev.Worth == nil && ev.Scripted == nil && ev.Text == "" && ev.Notes == ""
}

// The fields each event kind carries (docs/replays.md, "Events"; the
// engine's eventToJson in src/negotiation/sim.nim), as bits 1<<evKind...
// of bargainEventKeys.
const (
	startFields    = 1 << evKind
	matchFields    = startFields | 1<<evMatch | 1<<evMatchKind | 1<<evSeats | 1<<evOpener | 1<<evPool | 1<<evValues | 1<<evMaxTurns
	moveFields     = startFields | 1<<evMatch | 1<<evTurn | 1<<evSeat | 1<<evOther | 1<<evTake | 1<<evScripted | 1<<evText | 1<<evNotes
	offerFields    = moveFields | 1<<evWorth
	acceptFields   = moveFields | 1<<evPayoff
	matchEndFields = startFields | 1<<evMatch | 1<<evOutcome | 1<<evPayoff | 1<<evTurn
	endFields      = startFields | 1<<evMatch | 1<<evText
)

// fields returns the bits (1<<evKind, ...) of the fields ev was given: a
// pointer or list that is not nil, a text that is not empty (an empty
// "text" or "notes" reads as none; it claims nothing).
func (ev *bargainEvent) fields() uint32 {
	m := uint32(startFields)
	set := func(present bool, k int) {
		if present {
			m |= 1 << k
		}
	}
	set(ev.Match != nil, evMatch)
	set(ev.MatchKind != nil, evMatchKind)
	set(ev.Seats != nil, evSeats)
	set(ev.Opener != nil, evOpener)
	set(ev.Pool != nil, evPool)
	set(ev.Values != nil, evValues)
	set(ev.MaxTurns != nil, evMaxTurns)
	set(ev.Turn != nil, evTurn)
	set(ev.Seat != nil, evSeat)
	set(ev.Other != nil, evOther)
	set(ev.Take != nil, evTake)
	set(ev.Worth != nil, evWorth)
	set(ev.Payoff != nil, evPayoff)
	set(ev.Outcome != nil, evOutcome)
	set(ev.Scripted != nil, evScripted)
	set(ev.Text != "", evText)
	set(ev.Notes != "", evNotes)
	return m
}

// extraField words the error for an event of kind carrying the fields
// extra, which its kind does not (allowed): a key the format does not
// define for that kind is refused as an unknown key is.
//
//go:noinline
func extraField(kind string, extra, allowed uint32) error {
	var first string
	var names []string
	for k, name := range bargainEventKeys.names {
		if extra&(1<<k) != 0 && first == "" {
			first = name
		}
		if allowed&(1<<k) != 0 {
			names = append(names, strconv.Quote(name))
		}
	}
	a := "a"
	if strings.ContainsRune("aeiou", rune(kind[0])) { // a known kind: not empty
		a = "an"
	}
	if len(names) == 1 {
		return fmt.Errorf("%s %s event has no field %q; it carries only %s (docs/replays.md, \"Events\")", a, kind, first, names[0])
	}
	return fmt.Errorf("%s %s event has no field %q; it carries only %s and %s (docs/replays.md, \"Events\")",
		a, kind, first, strings.Join(names[:len(names)-1], ", "), names[len(names)-1])
}

// bargainCheck is the state of one re-simulation.
type bargainCheck struct {
	ep      *bargain.Episode
	rep     *Report
	pending *bargain.Move // a settled match whose matchEnd event is due
	// settled holds the move pending points to, so that keeping it costs
	// no allocation.
	settled bargain.Move
	ended   bool // an end event was applied
	// engine is set for the engine's dialect: texts are checked against the
	// engine's cleaning (engineTexts) instead of the length rules, and
	// notes carry over from a seat's earlier actions.
	engine bool
	notes  [bargain.Seats]string // engine: each seat's latest notes
	// acted counts each seat's offers and accepts the rules applied (the
	// bound of results.fallbacks, engine).
	acted [bargain.Seats]int
	// out records what the re-simulation derived, unless it is nil.
	out *BargainDerivation
	// texts is the scanner's textInfo of each event (engine), or nil.
	texts []textInfo
}

// diff reports a difference. It copies claimed and derived, which may
// point into the replay's bytes (scanner.aliasStrings).
func (c *bargainCheck) diff(i int, field, claimed, derived string) {
	c.rep.Differences = append(c.rep.Differences, Difference{Event: i, Field: field,
		Claimed: strings.Clone(claimed), Derived: strings.Clone(derived)})
}

// event re-simulates event i.
func (c *bargainCheck) event(i int, ev *bargainEvent) {
	kind := bargain.EventKind(ev.Kind)
	if c.pending != nil && kind != bargain.EventMatchEnd {
		c.diff(i, "kind", ev.Kind, fmt.Sprintf("matchEnd of match %d", c.pending.Match))
		c.pending = nil
	}
	if (i == 0) != (kind == bargain.EventStart) {
		if i == 0 {
			c.diff(i, "kind", ev.Kind, "start")
		} else {
			c.diff(i, "kind", ev.Kind, "start only as event 0")
			return
		}
	}
	switch kind {
	case bargain.EventMatch:
		p, err := c.ep.BeginMatch()
		if err != nil {
			c.illegal(i, ev, err)
			return
		}
		if c.out != nil {
			c.out.match(p)
		}
		c.cmpInt(i, "match", ev.Match, p.Match)
		c.cmpString(i, "matchKind", ev.MatchKind, bargain.MatchKind)
		c.cmpInts(i, "seats", ev.Seats, p.Seats[:])
		c.cmpInt(i, "opener", ev.Opener, p.Opener)
		c.cmpInts(i, "pool", ev.Pool, p.Pool[:])
		if len(ev.Values) != 2 {
			c.diff(i, "values", renderMatrix(ev.Values), renderMatrix([][]int{p.Values[0][:], p.Values[1][:]}))
		} else {
			c.cmpInts(i, "values[0]", ev.Values[0], p.Values[0][:])
			c.cmpInts(i, "values[1]", ev.Values[1], p.Values[1][:])
		}
		c.cmpInt(i, "maxTurns", ev.MaxTurns, c.ep.Config().MaxTurns)
	case bargain.EventOffer:
		text, notes := ev.Text, ev.Notes
		if c.engine {
			text, notes = "", "" // engineTexts checks them
		}
		mv, err := c.ep.Offer(bargain.Vector(ev.Take), text, notes)
		if err != nil {
			c.illegal(i, ev, err)
			return
		}
		c.acted[mv.Seat]++
		if c.out != nil {
			c.out.move(i, &mv, ev.Text)
		}
		c.engineTexts(i, ev, mv.Seat)
		c.cmpMove(i, ev, &mv)
		c.cmpInts(i, "worth", ev.Worth, mv.Worth[:])
	case bargain.EventAccept:
		text, notes := ev.Text, ev.Notes
		if c.engine {
			text, notes = "", ""
		}
		mv, err := c.ep.Accept(text, notes)
		if err != nil {
			c.illegal(i, ev, err)
			return
		}
		c.acted[mv.Seat]++
		if c.out != nil {
			c.out.move(i, &mv, ev.Text)
		}
		c.engineTexts(i, ev, mv.Seat)
		c.cmpMove(i, ev, &mv)
		c.cmpInts(i, "take", ev.Take, mv.Take[:])
		c.cmpInts(i, "payoff", ev.Payoff, mv.Payoff[:])
	case bargain.EventMatchEnd:
		mv := c.pending
		if mv == nil {
			c.diff(i, "kind", ev.Kind, "no match ended here")
			return
		}
		c.pending = nil // mv still points at c.settled, rewritten only by a later cmpMove
		c.cmpInt(i, "match", ev.Match, mv.Match)
		c.cmpString(i, "outcome", ev.Outcome, string(mv.Outcome))
		c.cmpInts(i, "payoff", ev.Payoff, mv.Payoff[:])
		c.cmpInt(i, "turn", ev.Turn, mv.TurnsUsed)
	case bargain.EventEnd:
		c.end(i, ev)
	}
}

// cmpMove compares the claims every offer and accept carries.
func (c *bargainCheck) cmpMove(i int, ev *bargainEvent, mv *bargain.Move) {
	c.cmpInt(i, "match", ev.Match, mv.Match)
	c.cmpInt(i, "turn", ev.Turn, mv.Turn)
	c.cmpInt(i, "seat", ev.Seat, mv.Seat)
	c.cmpInt(i, "other", ev.Other, mv.Other)
	if mv.Ended {
		c.settled = *mv
		c.pending = &c.settled
	}
}

// end applies an end event: the claimed reason must be the derived one, and
// a deadline must fall between matches.
func (c *bargainCheck) end(i int, ev *bargainEvent) {
	done, reason := c.ep.Done()
	if done && c.ended {
		c.diff(i, "kind", ev.Kind, "nothing after the end")
		return
	}
	c.ended = true
	derived := string(reason)
	if !done {
		derived = string(bargain.ReasonDeadline)
		if err := c.ep.Deadline(); err != nil {
			c.illegal(i, ev, err)
			return
		}
	}
	if ev.Text != derived {
		c.diff(i, "text", ev.Text, fmt.Sprintf("%s (%d of %d matches settled)", derived, c.ep.Settled(), c.ep.Config().Matches))
	}
	c.cmpInt(i, "match", ev.Match, c.ep.Settled())
}

// illegal reports an action the rules refuse, under the field its rule
// concerns.
func (c *bargainCheck) illegal(i int, ev *bargainEvent, err error) {
	field, claimed := "kind", ev.Kind
	if ae, ok := err.(*bargain.ActionError); ok {
		switch ae.Rule {
		case bargain.RuleTakeWithinCounts:
			field, claimed = "take", renderInts(ev.Take)
		case bargain.RuleMessageLength:
			field, claimed = "text", quoteClaim(ev.Text)
		case bargain.RuleNotesLength:
			field, claimed = "notes", quoteClaim(ev.Notes)
		case bargain.RuleDeadlineBetweenMatches:
			field, claimed = "text", ev.Text
		}
	}
	c.diff(i, field, claimed, err.Error())
}

// finish reports events the derivation expects after the last one.
func (c *bargainCheck) finish(n int) {
	if m := c.ep.Current(); m != nil && !c.ended {
		p := m.Plan()
		c.diff(-1, "events", fmt.Sprintf("%d events, ending inside match %d before turn %d", n, p.Match, m.Turn()),
			fmt.Sprintf("the rest of match %d (up to turn %d), its matchEnd, and an end event", p.Match, m.MaxTurns()))
		return
	}
	if c.pending != nil {
		c.diff(-1, "events", fmt.Sprintf("%d events, ending before the matchEnd", n), fmt.Sprintf("matchEnd of match %d", c.pending.Match))
		c.pending = nil
	}
	if !c.ended {
		c.diff(-1, "events", fmt.Sprintf("%d events, no end event", n), "an end event with reason complete or deadline")
	}
}

// results compares the claimed results with the derived ones.
func (c *bargainCheck) results(claimed *bargainResultsWire) {
	d := c.ep.Results()
	if claimed == nil {
		c.diff(-1, "results", absent, "points, matches, deals, scores, giveaway and reason")
		return
	}
	c.cmpInts(-1, "results.points", claimed.Points, d.Points[:])
	c.cmpInts(-1, "results.matches", claimed.Matches, d.Matches[:])
	c.cmpInts(-1, "results.deals", claimed.Deals, d.Deals[:])
	c.cmpDecimals("results.scores", claimed.Scores, &d.Scores)
	c.cmpDecimals("results.giveaway", claimed.Giveaway, &d.Giveaway)
	if claimed.MatchesPlayed != nil {
		c.cmpInt(-1, "results.matchesPlayed", claimed.MatchesPlayed, d.MatchesPlayed)
	}
	if claimed.MaxMatches != nil {
		c.cmpInt(-1, "results.maxMatches", claimed.MaxMatches, d.MaxMatches)
	}
	c.cmpString(-1, "results.reason", claimed.Reason, string(d.Reason))
}

// cmpDecimals compares claimed decimals (JSON numbers: the decoders read
// nothing else, checkKinds) with the derived ones rounded to
// bargain.ScorePlaces places.
func (c *bargainCheck) cmpDecimals(field string, claimed []jsontext.Value, derived *[bargain.Seats]apd.Decimal) {
	want := make([]string, bargain.Seats)
	for s := range derived {
		want[s] = bargain.FormatDecimal(&derived[s])
	}
	if len(claimed) != bargain.Seats {
		got := absent
		if claimed != nil {
			got = "[" + string(bytes.Join(rawSlices(claimed), []byte(","))) + "]"
		}
		c.diff(-1, field, got, "["+strings.Join(want, ",")+"]")
		return
	}
	for s, raw := range claimed {
		got, _, err := apd.NewFromString(string(raw))
		exact, _, _ := apd.NewFromString(want[s])
		if err != nil || got.Form != apd.Finite || got.Cmp(exact) != 0 {
			c.diff(-1, fmt.Sprintf("%s[%d]", field, s), string(raw), want[s])
		}
	}
}

func rawSlices(r []jsontext.Value) [][]byte {
	out := make([][]byte, len(r))
	for i, x := range r {
		out[i] = x
	}
	return out
}

// cmpInt reports a claimed integer that is absent or not the derived one.
func (c *bargainCheck) cmpInt(i int, field string, claimed *int, derived int) {
	if claimed == nil || *claimed != derived {
		c.intDiff(i, field, claimed, derived)
	}
}

// intDiff reports the difference cmpInt found.
func (c *bargainCheck) intDiff(i int, field string, claimed *int, derived int) {
	got := absent
	if claimed != nil {
		got = strconv.Itoa(*claimed)
	}
	c.diff(i, field, got, strconv.Itoa(derived))
}

func (c *bargainCheck) cmpString(i int, field string, claimed *string, derived string) {
	if claimed == nil {
		c.diff(i, field, absent, derived)
	} else if *claimed != derived {
		c.diff(i, field, *claimed, derived)
	}
}

// cmpInts compares element by element ("pool[1]") when the lengths agree,
// and the whole list ("pool") otherwise.
func (c *bargainCheck) cmpInts(i int, field string, claimed []int, derived []int) {
	if len(claimed) != len(derived) {
		c.intsDiff(i, field, claimed, derived)
		return
	}
	for k := range claimed {
		if claimed[k] != derived[k] {
			c.intsDiff(i, field, claimed, derived)
			return
		}
	}
}

// intsDiff reports the differences cmpInts found.
func (c *bargainCheck) intsDiff(i int, field string, claimed []int, derived []int) {
	if len(claimed) != len(derived) {
		got := absent
		if claimed != nil {
			got = renderInts(claimed)
		}
		c.diff(i, field, got, renderInts(derived))
		return
	}
	for k := range claimed {
		if claimed[k] != derived[k] {
			c.diff(i, fmt.Sprintf("%s[%d]", field, k), strconv.Itoa(claimed[k]), strconv.Itoa(derived[k]))
		}
	}
}

// renderInts renders v as a JSON array, "[1,2,3]".
func renderInts(v []int) string { return string(appendInts(nil, v)) }

// appendInts appends v rendered as renderInts does to b.
func appendInts(b []byte, v []int) []byte {
	b = append(b, '[')
	for i, x := range v {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(x), 10)
	}
	return append(b, ']')
}

func renderMatrix(m [][]int) string {
	if m == nil {
		return absent
	}
	parts := make([]string, len(m))
	for i, row := range m {
		parts[i] = renderInts(row)
	}
	return "[" + strings.Join(parts, ",") + "]"
}

func renderStrings(v []string) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// maxQuotedRunes is the longest text a difference quotes whole: more than
// any text the rules allow (a message of 200 or notes of 400 characters),
// so a text within its cap always shows to its last character.
const maxQuotedRunes = 500

// quoteClaim quotes a text for a difference: whole when it has at most
// maxQuotedRunes characters, else its first 80 followed by its length, as
// the auction checker says "1000000 characters" (newcomer trial 7b,
// finding 3: a 10 MB message was printed whole in the report).
func quoteClaim(s string) string {
	n := utf8.RuneCountInString(s)
	if n <= maxQuotedRunes {
		return strconv.Quote(s)
	}
	cut, k := 0, 0
	for cut = range s {
		if k == 80 {
			break
		}
		k++
	}
	return strconv.Quote(s[:cut]) + fmt.Sprintf("... (%d characters)", n)
}
