package verify

import (
	"github.com/go-json-experiment/json/jsontext"
)

// decodeEngine reads the engine replay s scans strictly into w: the
// scanner's fast path, or decodeStrict (and its error) when the fast path
// gives up. w may hold memory of s until s.release.
func (s *scanner) decodeEngine(w *engineWire) error {
	if s.engineReplay(w) {
		return nil
	}
	*w, s.texts = engineWire{}, s.texts[:0]
	return decodeStrict(s.data, w, "engine replay")
}

// decodeBargain reads one of sealed's bargaining replays strictly into w,
// as decodeEngine does.
func (s *scanner) decodeBargain(w *bargainWire) error {
	if s.bargainReplay(w) {
		return nil
	}
	*w, s.texts = bargainWire{}, s.texts[:0]
	if err := decodeStrict(s.data, w, "bargaining replay"); err != nil {
		return err
	}
	return requireMatchInputMembers(s.data, "bargaining replay")
}

// engineReplay is the scanner's fast path for engineWire; false means it
// gave up (w then holds a partial read).
func (s *scanner) engineReplay(w *engineWire) bool {
	if !s.begin('{') {
		return false
	}
	var seen uint32
	for k := s.key(engineReplayKeys, -1); k >= 0; k = s.key(engineReplayKeys, k) {
		s.once(&seen, 1<<k)
		switch k {
		case 0: // "protocol"
			w.Protocol = s.string()
		case 1: // "names"
			w.Names = s.stringList()
		case 2: // "policyNames"
			w.PolicyNames = s.stringList()
		case 3: // "config"
			w.Config = s.engineConfig()
		case 4: // "events"
			w.Events = s.bargainEventList()
		case 5: // "results"
			w.Results = s.engineResults()
		default:
			s.fail()
		}
	}
	return s.end()
}

// engineConfig reads an engine replay's "config" into s.engine's memory.
func (s *scanner) engineConfig() *engineConfigWire {
	c := &s.engine.config
	*c = engineConfigWire{}
	if !s.begin('{') {
		return c
	}
	var seen uint32
	for k := s.key(engineConfigKeys, -1); k >= 0; k = s.key(engineConfigKeys, k) {
		s.once(&seen, 1<<k)
		switch k {
		case 0: // "seed"
			s.engine.seed = s.int64()
			c.Seed = &s.engine.seed
		case 1: // "matches"
			c.Matches = s.intPtr()
		case 2: // "maxTurns"
			c.MaxTurns = s.intPtr()
		case 3: // "sampled"
			c.Sampled = s.boolPtr()
		case 4: // "itemNames"
			c.ItemNames = s.stringList()
		case 5: // "schedule"
			if !s.begin('[') {
				break
			}
			sched := s.engine.schedule[:0]
			for n := 0; s.elem(&n); {
				sched = append(sched, s.engineMatch())
			}
			s.engine.schedule = sched
			c.Schedule = sched[:len(sched):len(sched)]
			if c.Schedule == nil {
				c.Schedule = []engineMatchWire{}
			}
		default:
			s.fail()
		}
	}
	return c
}

// engineMatch reads one entry of config.schedule: as the engine writes it
// by engineMatchFast, else by the general member loop from its '{'.
func (s *scanner) engineMatch() engineMatchWire {
	var m engineMatchWire
	start := s.i
	if s.engineMatchFast(&m) {
		return m
	}
	m, s.i, s.failed = engineMatchWire{}, start, false
	if !s.begin('{') {
		return m
	}
	var seen uint32
	for k := s.key(engineMatchKeys, -1); k >= 0; k = s.key(engineMatchKeys, k) {
		s.once(&seen, 1<<k)
		switch k {
		case 0: // "kind"
			m.Kind = s.stringPtr()
		case 1: // "seats"
			m.Seats = s.intList()
		case 2: // "opener"
			m.Opener = s.intPtr()
		case 3: // "pool"
			m.Pool = s.intList()
		case 4: // "values"
			m.Values = s.intMatrix()
		default:
			s.fail()
		}
	}
	return m
}

// engineResults reads an engine replay's "results" into s.engine's memory.
func (s *scanner) engineResults() *engineResultsWire {
	r := &s.engine.results
	*r = engineResultsWire{}
	if !s.begin('{') {
		return r
	}
	var seen uint32
	for k := s.key(engineResultsKeys, -1); k >= 0; k = s.key(engineResultsKeys, k) {
		s.once(&seen, 1<<k)
		switch k {
		case 0: // "names"
			r.Names = s.stringList()
		case 1: // "scores"
			r.Scores = s.numberList()
		case 2: // "points"
			r.Points = s.intList()
		case 3: // "matches"
			r.Matches = s.intList()
		case 4: // "deals"
			r.Deals = s.intList()
		case 5: // "giveaway"
			r.Giveaway = s.numberList()
		case 6: // "fallbacks"
			r.Fallbacks = s.intList()
		case 7: // "matchesPlayed"
			r.MatchesPlayed = s.intPtr()
		case 8: // "maxMatches"
			r.MaxMatches = s.intPtr()
		case 9: // "reason"
			r.Reason = s.stringPtr()
		default:
			s.fail()
		}
	}
	return r
}

// numberList reads an array of JSON numbers as raw values (what
// decodeStrict keeps of a number in a []jsontext.Value: its text).
func (s *scanner) numberList() []jsontext.Value {
	if !s.begin('[') {
		return nil
	}
	var tmp [8]jsontext.Value
	vs := tmp[:0]
	for n := 0; s.elem(&n); {
		vs = append(vs, jsontext.Value(s.number()))
	}
	return s.values.many(vs)
}

// bargainReplay is the scanner's fast path for bargainWire.
func (s *scanner) bargainReplay(w *bargainWire) bool {
	if !s.begin('{') {
		return false
	}
	var seen uint32
	for k := s.key(bargainReplayKeys, -1); k >= 0; k = s.key(bargainReplayKeys, k) {
		s.once(&seen, 1<<k)
		switch k {
		case 0: // "format"
			w.Format = s.string()
		case 1: // "config"
			w.Config = s.bargainConfig()
		case 2: // "seed_commitment"
			w.SeedCommitment = s.stringPtr()
		case 3: // "seed"
			w.Seed = s.stringPtr()
		case 4: // "policyNames"
			w.PolicyNames = s.stringList()
		case 5: // "events"
			w.Events = s.bargainEventList()
		case 6: // "results"
			w.Results = s.bargainResults()
		case 7: // "contributions"
			w.Contributions = s.contributionList()
		case 8: // "beacon"
			w.Beacon = s.beaconRef()
		default:
			s.fail()
		}
	}
	return s.end()
}

func (s *scanner) bargainConfig() *bargainConfigWire {
	c := new(bargainConfigWire)
	if !s.begin('{') {
		return c
	}
	var seen uint32
	for k := s.key(bargainConfigKeys, -1); k >= 0; k = s.key(bargainConfigKeys, k) {
		s.once(&seen, 1<<k)
		switch k {
		case 0: // "matches"
			c.Matches = s.intPtr()
		case 1: // "maxTurns"
			c.MaxTurns = s.intPtr()
		case 2: // "itemNames"
			c.ItemNames = s.stringList()
		default:
			s.fail()
		}
	}
	return c
}

func (s *scanner) bargainResults() *bargainResultsWire {
	r := new(bargainResultsWire)
	if !s.begin('{') {
		return r
	}
	var seen uint32
	for k := s.key(bargainResultsKeys, -1); k >= 0; k = s.key(bargainResultsKeys, k) {
		s.once(&seen, 1<<k)
		switch k {
		case 0: // "scores"
			r.Scores = s.numberList()
		case 1: // "points"
			r.Points = s.intList()
		case 2: // "matches"
			r.Matches = s.intList()
		case 3: // "deals"
			r.Deals = s.intList()
		case 4: // "giveaway"
			r.Giveaway = s.numberList()
		case 5: // "matchesPlayed"
			r.MatchesPlayed = s.intPtr()
		case 6: // "maxMatches"
			r.MaxMatches = s.intPtr()
		case 7: // "reason"
			r.Reason = s.stringPtr()
		default:
			s.fail()
		}
	}
	return r
}

// textInfo is what scanner.text returned for an event's text and notes:
// 1 + the rune count of one written without escapes and with no DEL, or
// 0 (unknown; absent, or read by decodeStrict).
type textInfo struct{ text, notes int }

// bargainEventList reads the "events" array of either dialect; s.texts
// holds each event's textInfo until s.release.
func (s *scanner) bargainEventList() []bargainEvent {
	if !s.begin('[') {
		return nil
	}
	evs, texts := s.bargainEvents[:0], s.texts[:0]
	for n := 0; s.elem(&n); {
		evs = append(evs, bargainEvent{})
		texts = append(texts, textInfo{})
		s.bargainEvent(&evs[len(evs)-1], &texts[len(texts)-1])
	}
	s.bargainEvents, s.texts = evs, texts
	if len(evs) == 0 {
		return []bargainEvent{}
	}
	return evs[:len(evs):len(evs)]
}

// bargainEvent reads one event into ev, and what the engine's text rules
// need of its text and notes into t.
func (s *scanner) bargainEvent(ev *bargainEvent, t *textInfo) {
	start := s.i
	if s.bargainEventFast(ev, t) {
		return
	}
	*ev, *t = bargainEvent{}, textInfo{}
	s.i, s.failed = start, false
	if !s.begin('{') {
		return
	}
	var seen uint32
	for k := s.key(bargainEventKeys, -1); k >= 0; k = s.key(bargainEventKeys, k) {
		s.once(&seen, 1<<k)
		switch k {
		case 0: // "kind"
			ev.Kind = s.string()
		case 1: // "match"
			ev.Match = s.intPtr()
		case 2: // "matchKind"
			ev.MatchKind = s.stringPtr()
		case 3: // "seats"
			ev.Seats = s.intList()
		case 4: // "opener"
			ev.Opener = s.intPtr()
		case 5: // "pool"
			ev.Pool = s.intList()
		case 6: // "values"
			ev.Values = s.intMatrix()
		case 7: // "maxTurns"
			ev.MaxTurns = s.intPtr()
		case 8: // "turn"
			ev.Turn = s.intPtr()
		case 9: // "seat"
			ev.Seat = s.intPtr()
		case 10: // "other"
			ev.Other = s.intPtr()
		case 11: // "take"
			ev.Take = s.intList()
		case 12: // "worth"
			ev.Worth = s.intList()
		case 13: // "payoff"
			ev.Payoff = s.intList()
		case 14: // "outcome"
			ev.Outcome = s.stringPtr()
		case 15: // "scripted"
			ev.Scripted = s.boolPtr()
		case 16: // "text"
			ev.Text, t.text = s.text()
		case 17: // "notes"
			ev.Notes, t.notes = s.text()
		default:
			s.fail()
		}
	}
}

// The member names of the bargaining replays' objects (the wire structs'
// json tags), in the order of their field indices, which is the order the
// engine (and sealed) write them in; events list the orders of each event
// kind, most frequent first.
var (
	engineReplayKeys   = ordered("protocol", "names", "policyNames", "config", "events", "results")
	engineConfigKeys   = ordered("seed", "matches", "maxTurns", "sampled", "itemNames", "schedule")
	engineMatchKeys    = ordered("kind", "seats", "opener", "pool", "values")
	engineResultsKeys  = ordered("names", "scores", "points", "matches", "deals", "giveaway", "fallbacks", "matchesPlayed", "maxMatches", "reason")
	bargainReplayKeys  = ordered("format", "config", "seed_commitment", "seed", "policyNames", "events", "results", "contributions", "beacon")
	bargainConfigKeys  = ordered("matches", "maxTurns", "itemNames")
	bargainResultsKeys = ordered("scores", "points", "matches", "deals", "giveaway", "matchesPlayed", "maxMatches", "reason")
	bargainEventKeys   = newKeySet([]string{"kind", "match", "matchKind", "seats", "opener", "pool", "values", "maxTurns", "turn", "seat", "other", "take", "worth", "payoff", "outcome", "scripted", "text", "notes"},
		[]string{"kind", "match", "turn", "seat", "other", "take", "worth", "scripted", "text", "notes"},  // offer
		[]string{"kind", "match", "turn", "seat", "other", "take", "payoff", "scripted", "text", "notes"}, // accept
		[]string{"kind", "match", "matchKind", "seats", "opener", "pool", "values", "maxTurns"},           // match
		[]string{"kind", "match", "outcome", "payoff", "turn"},                                            // matchEnd
		[]string{"kind", "match", "text"},                                                                 // end
		[]string{"kind", "match", "turn", "seat", "other", "take", "worth", "scripted", "notes"},          // offer without text
	)
)
