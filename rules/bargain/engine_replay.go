package bargain

import (
	"fmt"
	"math"
	"strconv"
	"unicode/utf8"
)

// EngineReplay is a replay in the engine's own dialect (the document the
// engine server's replayPayload writes, docs/replays.md "Engine replays"):
// aliases and policy names, the config with the integer seed and the whole
// schedule, every event, and results with float64 scores. Encode writes it.
type EngineReplay struct {
	// Names are the seat aliases drawn from the seed (DrawEngine).
	Names [Seats]string
	// PolicyNames name the policy of each seat.
	PolicyNames [Seats]string
	// Config is the episode config as the engine records it.
	Config EngineConfig
	// Events is every event, in order (the same vocabulary as Replay).
	Events []Event
	// Results is what the engine reports at the end.
	Results EngineResults
}

// EngineConfig is an engine replay's "config".
type EngineConfig struct {
	// Seed is the engine's integer seed, 0..MaxEngineSeed.
	Seed int64
	// Matches (3 or 6) and MaxTurns (even, 2..12) as in Config.
	Matches, MaxTurns int
	// Sampled is true: the engine has fitted the match count to its call
	// budget (sampleEpisode in sim.nim) and always writes true.
	Sampled bool
	// ItemNames is ItemNames.
	ItemNames [NumItems]string
	// Schedule is every match's plan (seats, opener, pool, values).
	Schedule []MatchPlan
}

// EngineResults are an engine replay's "results" (resultsJson in sim.nim).
type EngineResults struct {
	// Names are the policy names (not the aliases), seat 0 first.
	Names [Seats]string
	// Scores and Giveaway are Results.EngineScore and EngineGiveaway.
	Scores, Giveaway [Seats]float64
	// Points, Matches and Deals are as in Results.
	Points, Matches, Deals [Seats]int
	// Fallbacks counts per seat the turns the engine filled with its
	// scripted fallback. Not derivable from the events.
	Fallbacks [Seats]int
	// MatchesPlayed is the number of settled matches, MaxMatches
	// config.matches.
	MatchesPlayed, MaxMatches int
	// Reason is "complete" or "deadline".
	Reason Reason
}

// EngineResultsOf converts an episode's Results into the engine's results
// with the given policy names and fallback counts.
func EngineResultsOf(r *Results, names [Seats]string, fallbacks [Seats]int) EngineResults {
	out := EngineResults{Names: names, Points: r.Points, Matches: r.Matches, Deals: r.Deals, Fallbacks: fallbacks,
		MatchesPlayed: r.MatchesPlayed, MaxMatches: r.MaxMatches, Reason: r.Reason}
	for s := 0; s < Seats; s++ {
		out.Scores[s], out.Giveaway[s] = r.EngineScore(s), r.EngineGiveaway(s)
	}
	return out
}

// FloatStyle chooses how Encode prints float64 scores.
type FloatStyle int

const (
	// FloatShortest prints the shortest decimal that reads back as the
	// same float64, with ".0" on whole numbers: Nim 2's `$` (the engine
	// asks for Nim >= 2.2.4), e.g. 1.3333333333333333.
	FloatShortest FloatStyle = iota
	// FloatNim16 prints C's %.16g with ".0" on whole numbers: Nim 1.6's
	// `$`, e.g. 1.333333333333333, which does not always read back as the
	// same float64.
	FloatNim16
)

// AppendEngineFloat appends f as the engine's JSON writer prints it in the
// given style. f must be finite.
func AppendEngineFloat(b []byte, f float64, style FloatStyle) []byte {
	start := len(b)
	if style == FloatNim16 {
		b = strconv.AppendFloat(b, f, 'g', 16, 64)
	} else {
		b = strconv.AppendFloat(b, f, 'g', -1, 64)
	}
	for _, c := range b[start:] {
		if c == '.' || c == 'e' || c == 'n' || c == 'N' || c == 'I' {
			return b
		}
	}
	return append(b, ".0"...)
}

// Encode returns r as the engine writes it: one line of compact JSON with
// the keys in the engine's order, strings escaped as Nim's escapeJson does
// (quote, backslash and control characters; everything else as UTF-8),
// and scores in the given float style. It returns an error for an event
// of unknown kind or a non-finite score.
func (r *EngineReplay) Encode(style FloatStyle) ([]byte, error) {
	b := make([]byte, 0, 4096)
	b = append(b, `{"protocol":`...)
	b = appendNimString(b, EngineProtocol)
	b = append(b, `,"names":`...)
	b = appendStrings(b, r.Names[:])
	b = append(b, `,"policyNames":`...)
	b = appendStrings(b, r.PolicyNames[:])
	c := &r.Config
	b = append(b, `,"config":{"seed":`...)
	b = strconv.AppendInt(b, c.Seed, 10)
	b = append(b, `,"matches":`...)
	b = strconv.AppendInt(b, int64(c.Matches), 10)
	b = append(b, `,"maxTurns":`...)
	b = strconv.AppendInt(b, int64(c.MaxTurns), 10)
	b = append(b, `,"sampled":`...)
	b = strconv.AppendBool(b, c.Sampled)
	b = append(b, `,"itemNames":`...)
	b = appendStrings(b, c.ItemNames[:])
	b = append(b, `,"schedule":[`...)
	for i, p := range c.Schedule {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"kind":"bargaining","seats":`...)
		b = appendInts(b, p.Seats[:])
		b = append(b, `,"opener":`...)
		b = strconv.AppendInt(b, int64(p.Opener), 10)
		b = append(b, `,"pool":`...)
		b = appendInts(b, p.Pool[:])
		b = append(b, `,"values":[`...)
		b = appendInts(b, p.Values[0][:])
		b = append(b, ',')
		b = appendInts(b, p.Values[1][:])
		b = append(b, "]}"...)
	}
	b = append(b, `]},"events":[`...)
	for i := range r.Events {
		if i > 0 {
			b = append(b, ',')
		}
		var err error
		if b, err = appendEngineEvent(b, &r.Events[i]); err != nil {
			return nil, fmt.Errorf("event %d: %w", i, err)
		}
	}
	res := &r.Results
	b = append(b, `],"results":{"names":`...)
	b = appendStrings(b, res.Names[:])
	b = append(b, `,"scores":`...)
	b, err := appendFloats(b, res.Scores[:], style)
	if err != nil {
		return nil, fmt.Errorf("results.scores: %w", err)
	}
	b = append(b, `,"points":`...)
	b = appendInts(b, res.Points[:])
	b = append(b, `,"matches":`...)
	b = appendInts(b, res.Matches[:])
	b = append(b, `,"deals":`...)
	b = appendInts(b, res.Deals[:])
	b = append(b, `,"giveaway":`...)
	if b, err = appendFloats(b, res.Giveaway[:], style); err != nil {
		return nil, fmt.Errorf("results.giveaway: %w", err)
	}
	b = append(b, `,"fallbacks":`...)
	b = appendInts(b, res.Fallbacks[:])
	b = append(b, `,"matchesPlayed":`...)
	b = strconv.AppendInt(b, int64(res.MatchesPlayed), 10)
	b = append(b, `,"maxMatches":`...)
	b = strconv.AppendInt(b, int64(res.MaxMatches), 10)
	b = append(b, `,"reason":`...)
	b = appendNimString(b, string(res.Reason))
	b = append(b, "}}"...)
	return b, nil
}

// appendEngineEvent appends e as eventToJson in sim.nim writes it: kind,
// match (when the event has one), the kind's fields, then text and notes
// when non-empty.
func appendEngineEvent(b []byte, e *Event) ([]byte, error) {
	b = append(b, `{"kind":`...)
	b = appendNimString(b, string(e.Kind))
	if e.Kind != EventStart {
		b = append(b, `,"match":`...)
		b = strconv.AppendInt(b, int64(e.Match), 10)
	}
	text, notes := e.Text, e.Notes
	switch e.Kind {
	case EventStart:
	case EventMatch:
		b = append(b, `,"matchKind":`...)
		b = appendNimString(b, e.MatchKind)
		b = append(b, `,"seats":`...)
		b = appendInts(b, e.Seats[:])
		b = append(b, `,"opener":`...)
		b = strconv.AppendInt(b, int64(e.Opener), 10)
		b = append(b, `,"pool":`...)
		b = appendInts(b, e.Pool[:])
		b = append(b, `,"values":[`...)
		b = appendInts(b, e.Values[0][:])
		b = append(b, ',')
		b = appendInts(b, e.Values[1][:])
		b = append(b, `],"maxTurns":`...)
		b = strconv.AppendInt(b, int64(e.MaxTurns), 10)
	case EventOffer, EventAccept:
		b = append(b, `,"turn":`...)
		b = strconv.AppendInt(b, int64(e.Turn), 10)
		b = append(b, `,"seat":`...)
		b = strconv.AppendInt(b, int64(e.Seat), 10)
		b = append(b, `,"other":`...)
		b = strconv.AppendInt(b, int64(e.Other), 10)
		b = append(b, `,"take":`...)
		b = appendInts(b, e.Take[:])
		if e.Kind == EventOffer {
			b = append(b, `,"worth":`...)
			b = appendInts(b, e.Worth[:])
		} else {
			b = append(b, `,"payoff":`...)
			b = appendInts(b, e.Payoff[:])
		}
		b = append(b, `,"scripted":`...)
		b = strconv.AppendBool(b, e.Scripted)
	case EventMatchEnd:
		b = append(b, `,"outcome":`...)
		b = appendNimString(b, string(e.Outcome))
		b = append(b, `,"payoff":`...)
		b = appendInts(b, e.Payoff[:])
		b = append(b, `,"turn":`...)
		b = strconv.AppendInt(b, int64(e.Turn), 10)
		text, notes = "", ""
	case EventEnd:
		notes = ""
	default:
		return nil, fmt.Errorf("unknown event kind %q", e.Kind)
	}
	if text != "" {
		b = append(b, `,"text":`...)
		b = appendNimString(b, text)
	}
	if notes != "" {
		b = append(b, `,"notes":`...)
		b = appendNimString(b, notes)
	}
	return append(b, '}'), nil
}

// appendNimString appends s as a JSON string the way Nim's escapeJson
// writes it: '"' and '\' escaped, \b \f \n \r \t by name, other bytes
// below 0x20 as \u00XX, everything else (DEL, non-ASCII UTF-8) as it is.
// Invalid UTF-8 is replaced by U+FFFD so the output is always valid JSON.
func appendNimString(b []byte, s string) []byte {
	const hex = "0123456789ABCDEF"
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c >= utf8.RuneSelf {
			r, n := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && n == 1 {
				b = append(b, "\uFFFD"...)
			} else {
				b = append(b, s[i:i+n]...)
			}
			i += n
			continue
		}
		switch c {
		case '"':
			b = append(b, `\"`...)
		case '\\':
			b = append(b, `\\`...)
		case '\b':
			b = append(b, `\b`...)
		case '\f':
			b = append(b, `\f`...)
		case '\n':
			b = append(b, `\n`...)
		case '\r':
			b = append(b, `\r`...)
		case '\t':
			b = append(b, `\t`...)
		default:
			if c < 0x20 {
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			} else {
				b = append(b, c)
			}
		}
		i++
	}
	return append(b, '"')
}

func appendStrings(b []byte, v []string) []byte {
	b = append(b, '[')
	for i, s := range v {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendNimString(b, s)
	}
	return append(b, ']')
}

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

func appendFloats(b []byte, v []float64, style FloatStyle) ([]byte, error) {
	b = append(b, '[')
	for i, f := range v {
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return nil, fmt.Errorf("%v is not a finite number", f)
		}
		if i > 0 {
			b = append(b, ',')
		}
		b = AppendEngineFloat(b, f, style)
	}
	return append(b, ']'), nil
}

// PlayEngineEpisode plays a whole episode with bots[s] in seat s under the
// engine's rules and draws for the integer seed (DrawEngine), and returns
// its replay in the engine's dialect: every message and note cleaned as
// the engine cleans it (CleanMessage, CleanNotes; an event carries the
// seat's latest non-empty notes), scores as the engine's float64, no
// fallbacks (bots never time out), policy names the bots' names. It
// returns an error for a seed outside 0..MaxEngineSeed, a bad config or
// option, a nil bot, or a bot that makes an illegal move.
func PlayEngineEpisode(seed int64, cfg Config, bots [Seats]Bot, opt PlayOptions) (*EngineReplay, error) {
	var ep Episode
	aliases, err := ep.ResetEngine(seed, cfg)
	if err != nil {
		return nil, err
	}
	if opt.StopAfter < 0 || opt.StopAfter >= cfg.Matches {
		return nil, fmt.Errorf("stop after %d matches: expected 1..%d, or 0 to play every match", opt.StopAfter, cfg.Matches-1)
	}
	r := &EngineReplay{Names: aliases,
		Config: EngineConfig{Seed: seed, Matches: cfg.Matches, MaxTurns: cfg.MaxTurns, Sampled: true, ItemNames: ItemNames},
		Events: []Event{{Kind: EventStart}}}
	for s, b := range bots {
		if b == nil {
			return nil, fmt.Errorf("seat %d has no bot", s)
		}
		r.PolicyNames[s] = b.Name()
	}
	for m := 0; m < cfg.Matches; m++ {
		p, _ := ep.Plan(m)
		r.Config.Schedule = append(r.Config.Schedule, p)
	}
	var notes [Seats]string
	for {
		if done, _ := ep.Done(); done {
			break
		}
		if opt.StopAfter > 0 && ep.Settled() == opt.StopAfter {
			if err := ep.Deadline(); err != nil {
				return nil, err
			}
			break
		}
		plan, err := ep.BeginMatch()
		if err != nil {
			return nil, err
		}
		r.Events = append(r.Events, MatchEvent(plan, cfg.MaxTurns))
		for m := ep.Current(); m != nil && !m.Ended(); {
			side := m.ActorSide()
			v := View{Seat: plan.Seats[side], Pool: plan.Pool, Values: plan.Values[side], Turn: m.Turn(), MaxTurns: cfg.MaxTurns}
			if take, _, ok := m.Standing(); ok {
				v.HasStanding, v.Receive = true, plan.Pool.Minus(take)
			}
			d := bots[v.Seat].Decide(v)
			msg := CleanMessage(d.Message)
			if kept := CleanNotes(d.Notes); kept != "" {
				notes[v.Seat] = kept
			}
			var mv Move
			if d.Accept {
				mv, err = ep.Accept(msg, "")
			} else {
				mv, err = ep.Offer(d.Take, msg, "")
			}
			if err != nil {
				return nil, fmt.Errorf("bot %s in seat %d, match %d turn %d: %w", r.PolicyNames[v.Seat], v.Seat, plan.Match, v.Turn, err)
			}
			r.Events = append(r.Events, MoveEvents(mv, true, msg, notes[v.Seat])...)
		}
	}
	_, reason := ep.Done()
	r.Events = append(r.Events, Event{Kind: EventEnd, Match: ep.Settled(), Text: string(reason)})
	res := ep.Results()
	r.Results = EngineResultsOf(&res, r.PolicyNames, [Seats]int{})
	return r, nil
}
