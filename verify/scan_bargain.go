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
	*w = engineWire{}
	return decodeStrict(s.data, w, "engine replay")
}

// decodeBargain reads one of sealed's bargaining replays strictly into w,
// as decodeEngine does.
func (s *scanner) decodeBargain(w *bargainWire) error {
	if s.bargainReplay(w) {
		return nil
	}
	*w = bargainWire{}
	return decodeStrict(s.data, w, "bargaining replay")
}

// engineReplay is the scanner's fast path for engineWire; false means it
// gave up (w then holds a partial read).
func (s *scanner) engineReplay(w *engineWire) bool {
	if !s.begin('{') {
		return false
	}
	var seen uint32
	for n := 0; s.member(&n); {
		switch string(s.data[s.k0:s.k1]) {
		case "protocol":
			s.once(&seen, 1<<0)
			w.Protocol = s.string()
		case "names":
			s.once(&seen, 1<<1)
			w.Names = s.stringList()
		case "policyNames":
			s.once(&seen, 1<<2)
			w.PolicyNames = s.stringList()
		case "config":
			s.once(&seen, 1<<3)
			w.Config = s.engineConfig()
		case "events":
			s.once(&seen, 1<<4)
			w.Events = s.bargainEventList()
		case "results":
			s.once(&seen, 1<<5)
			w.Results = s.engineResults()
		default:
			s.fail()
		}
	}
	return s.end()
}

func (s *scanner) engineConfig() *engineConfigWire {
	c := new(engineConfigWire)
	if !s.begin('{') {
		return c
	}
	var seen uint32
	for n := 0; s.member(&n); {
		switch string(s.data[s.k0:s.k1]) {
		case "seed":
			s.once(&seen, 1<<0)
			v := s.int64()
			c.Seed = &v
		case "matches":
			s.once(&seen, 1<<1)
			c.Matches = s.intPtr()
		case "maxTurns":
			s.once(&seen, 1<<2)
			c.MaxTurns = s.intPtr()
		case "sampled":
			s.once(&seen, 1<<3)
			c.Sampled = s.boolPtr()
		case "itemNames":
			s.once(&seen, 1<<4)
			c.ItemNames = s.stringList()
		case "schedule":
			s.once(&seen, 1<<5)
			if !s.begin('[') {
				break
			}
			c.Schedule = []engineMatchWire{}
			for n := 0; s.elem(&n); {
				c.Schedule = append(c.Schedule, s.engineMatch())
			}
		default:
			s.fail()
		}
	}
	return c
}

func (s *scanner) engineMatch() engineMatchWire {
	var m engineMatchWire
	if !s.begin('{') {
		return m
	}
	var seen uint32
	for n := 0; s.member(&n); {
		switch string(s.data[s.k0:s.k1]) {
		case "kind":
			s.once(&seen, 1<<0)
			m.Kind = s.stringPtr()
		case "seats":
			s.once(&seen, 1<<1)
			m.Seats = s.intList()
		case "opener":
			s.once(&seen, 1<<2)
			m.Opener = s.intPtr()
		case "pool":
			s.once(&seen, 1<<3)
			m.Pool = s.intList()
		case "values":
			s.once(&seen, 1<<4)
			m.Values = s.intMatrix()
		default:
			s.fail()
		}
	}
	return m
}

func (s *scanner) engineResults() *engineResultsWire {
	r := new(engineResultsWire)
	if !s.begin('{') {
		return r
	}
	var seen uint32
	for n := 0; s.member(&n); {
		switch string(s.data[s.k0:s.k1]) {
		case "names":
			s.once(&seen, 1<<0)
			r.Names = s.stringList()
		case "scores":
			s.once(&seen, 1<<1)
			r.Scores = s.numberList()
		case "points":
			s.once(&seen, 1<<2)
			r.Points = s.intList()
		case "matches":
			s.once(&seen, 1<<3)
			r.Matches = s.intList()
		case "deals":
			s.once(&seen, 1<<4)
			r.Deals = s.intList()
		case "giveaway":
			s.once(&seen, 1<<5)
			r.Giveaway = s.numberList()
		case "fallbacks":
			s.once(&seen, 1<<6)
			r.Fallbacks = s.intList()
		case "matchesPlayed":
			s.once(&seen, 1<<7)
			r.MatchesPlayed = s.intPtr()
		case "maxMatches":
			s.once(&seen, 1<<8)
			r.MaxMatches = s.intPtr()
		case "reason":
			s.once(&seen, 1<<9)
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
	for n := 0; s.member(&n); {
		switch string(s.data[s.k0:s.k1]) {
		case "format":
			s.once(&seen, 1<<0)
			w.Format = s.string()
		case "config":
			s.once(&seen, 1<<1)
			w.Config = s.bargainConfig()
		case "seed_commitment":
			s.once(&seen, 1<<2)
			w.SeedCommitment = s.stringPtr()
		case "seed":
			s.once(&seen, 1<<3)
			w.Seed = s.stringPtr()
		case "policyNames":
			s.once(&seen, 1<<4)
			w.PolicyNames = s.stringList()
		case "events":
			s.once(&seen, 1<<5)
			w.Events = s.bargainEventList()
		case "results":
			s.once(&seen, 1<<6)
			w.Results = s.bargainResults()
		case "contributions":
			s.once(&seen, 1<<7)
			w.Contributions = s.contributionList()
		case "beacon":
			s.once(&seen, 1<<8)
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
	for n := 0; s.member(&n); {
		switch string(s.data[s.k0:s.k1]) {
		case "matches":
			s.once(&seen, 1<<0)
			c.Matches = s.intPtr()
		case "maxTurns":
			s.once(&seen, 1<<1)
			c.MaxTurns = s.intPtr()
		case "itemNames":
			s.once(&seen, 1<<2)
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
	for n := 0; s.member(&n); {
		switch string(s.data[s.k0:s.k1]) {
		case "scores":
			s.once(&seen, 1<<0)
			r.Scores = s.numberList()
		case "points":
			s.once(&seen, 1<<1)
			r.Points = s.intList()
		case "matches":
			s.once(&seen, 1<<2)
			r.Matches = s.intList()
		case "deals":
			s.once(&seen, 1<<3)
			r.Deals = s.intList()
		case "giveaway":
			s.once(&seen, 1<<4)
			r.Giveaway = s.numberList()
		case "matchesPlayed":
			s.once(&seen, 1<<5)
			r.MatchesPlayed = s.intPtr()
		case "maxMatches":
			s.once(&seen, 1<<6)
			r.MaxMatches = s.intPtr()
		case "reason":
			s.once(&seen, 1<<7)
			r.Reason = s.stringPtr()
		default:
			s.fail()
		}
	}
	return r
}

// bargainEvents reads the "events" array of either dialect.
func (s *scanner) bargainEventList() []bargainEvent {
	if !s.begin('[') {
		return nil
	}
	evs := s.bargainEvents[:0]
	for n := 0; s.elem(&n); {
		evs = append(evs, bargainEvent{})
		s.bargainEvent(&evs[len(evs)-1])
	}
	s.bargainEvents = evs
	if len(evs) == 0 {
		return []bargainEvent{}
	}
	return evs[:len(evs):len(evs)]
}

func (s *scanner) bargainEvent(ev *bargainEvent) {
	if !s.begin('{') {
		return
	}
	var seen uint32
	for n := 0; s.member(&n); {
		switch string(s.data[s.k0:s.k1]) {
		case "kind":
			s.once(&seen, 1<<0)
			ev.Kind = s.string()
		case "match":
			s.once(&seen, 1<<1)
			ev.Match = s.intPtr()
		case "matchKind":
			s.once(&seen, 1<<2)
			ev.MatchKind = s.stringPtr()
		case "seats":
			s.once(&seen, 1<<3)
			ev.Seats = s.intList()
		case "opener":
			s.once(&seen, 1<<4)
			ev.Opener = s.intPtr()
		case "pool":
			s.once(&seen, 1<<5)
			ev.Pool = s.intList()
		case "values":
			s.once(&seen, 1<<6)
			ev.Values = s.intMatrix()
		case "maxTurns":
			s.once(&seen, 1<<7)
			ev.MaxTurns = s.intPtr()
		case "turn":
			s.once(&seen, 1<<8)
			ev.Turn = s.intPtr()
		case "seat":
			s.once(&seen, 1<<9)
			ev.Seat = s.intPtr()
		case "other":
			s.once(&seen, 1<<10)
			ev.Other = s.intPtr()
		case "take":
			s.once(&seen, 1<<11)
			ev.Take = s.intList()
		case "worth":
			s.once(&seen, 1<<12)
			ev.Worth = s.intList()
		case "payoff":
			s.once(&seen, 1<<13)
			ev.Payoff = s.intList()
		case "outcome":
			s.once(&seen, 1<<14)
			ev.Outcome = s.stringPtr()
		case "scripted":
			s.once(&seen, 1<<15)
			ev.Scripted = s.boolPtr()
		case "text":
			s.once(&seen, 1<<16)
			ev.Text = s.string()
		case "notes":
			s.once(&seen, 1<<17)
			ev.Notes = s.string()
		default:
			s.fail()
		}
	}
}
