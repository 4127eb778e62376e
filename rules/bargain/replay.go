package bargain

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/sealedhq/sealed/commit"
)

// ReplayFormat is the value of a Negotiation Games replay's "format" field.
// It names the event vocabulary of the public Negotiation Games engine
// (ReplayProtocol in github.com/Metta-AI/cogame-negotiation-games,
// src/negotiation/sim.nim), which this format follows.
const ReplayFormat = "negotiation.replay.v1"

// EventKind is the "kind" of a replay event.
type EventKind string

// The event kinds of negotiation.replay.v1, in the engine's spelling.
const (
	EventStart    EventKind = "start"
	EventMatch    EventKind = "match"
	EventOffer    EventKind = "offer"
	EventAccept   EventKind = "accept"
	EventMatchEnd EventKind = "matchEnd"
	EventEnd      EventKind = "end"
)

// Replay is a Negotiation Games replay (docs/replays.md, "Negotiation Games
// replays"): the config, the seed commitment, the revealed seed, every
// event, and the results the server claimed.
// A replay is read strictly (docs/replays.md, "Reading a replay",
// verify.CheckReplay): no key twice, no key the format does not define.
type Replay struct {
	// Format is ReplayFormat.
	Format string `json:"format"`
	// Config is the episode config plus the item names.
	Config ReplayConfig `json:"config"`
	// SeedCommitment is the lowercase hex SHA-256 of the 64 hex characters
	// of Seed (docs/design.md, "Seed commitment").
	SeedCommitment string `json:"seed_commitment"`
	// Seed is the revealed 32-byte seed as 64 lowercase hex characters.
	Seed string `json:"seed"`
	// PolicyNames names the policy (bot) of each seat; informational.
	PolicyNames []string `json:"policyNames,omitempty"`
	// Contributions and Beacon are the players' client seeds and the drand
	// round the match seed took (commit.MatchSeed, docs/rng.md "The match
	// seed"); absent when the draws come from Seed itself.
	Contributions []commit.ReplayContribution `json:"contributions,omitempty"`
	Beacon        *commit.ReplayBeacon        `json:"beacon,omitempty"`
	// Events is every event, in order.
	Events []Event `json:"events"`
	// Results is what the server claimed at the end.
	Results Results `json:"results"`
}

// ReplayConfig is a replay's "config" object.
type ReplayConfig struct {
	// Matches is the number of scheduled matches, 3 or 6.
	Matches int `json:"matches"`
	// MaxTurns is every match's turn limit, even, 2..12.
	MaxTurns int `json:"maxTurns"`
	// ItemNames is ["books", "hats", "balls"].
	ItemNames [NumItems]string `json:"itemNames"`
}

// Event is one event of a negotiation.replay.v1 replay. It is flat, like
// the engine's GameEvent: which fields a kind carries is fixed, and
// MarshalJSON writes exactly those (docs/replays.md has the table):
//
//	start     kind
//	match     kind, match, matchKind, seats [A, B], opener (a seat),
//	          pool [3], values [[3], [3]] (A's, B's), maxTurns
//	offer     kind, match, turn, seat, other, take [3] (the actor's),
//	          worth [actor's, other's], scripted, text?, notes?
//	accept    kind, match, turn, seat, other, take [3] (what the accepter
//	          receives), payoff [A's, B's], scripted, text?, notes?
//	matchEnd  kind, match, outcome ("deal"|"no_deal"), payoff [A's, B's],
//	          turn (turns used)
//	end       kind, match (matches settled), text (the reason)
type Event struct {
	Kind      EventKind // which event
	Match     int       // 0-based match index; for "end", the matches settled
	MatchKind string    // "bargaining" (match)
	Seats     [2]int    // seats A and B, 0..2 (match)
	Opener    int       // the seat that moves on turn 1 (match)
	Pool      Vector    // item counts (match)
	Values    [2]Vector // A's and B's per-item values (match)
	MaxTurns  int       // the match's turn limit (match)
	Turn      int       // 1-based turn (offer, accept); turns used (matchEnd)
	Seat      int       // the acting seat (offer, accept)
	Other     int       // its opponent (offer, accept)
	Take      Vector    // the actor's take (offer); what the accepter receives (accept)
	Worth     [2]int    // [to the actor, to the other], 0..10 each (offer)
	Payoff    [2]int    // [A's, B's], 0..10 each (accept, matchEnd)
	Outcome   Outcome   // "deal" or "no_deal" (matchEnd)
	Scripted  bool      // the action came from a scripted bot (offer, accept)
	Text      string    // the public message (offer, accept); the reason (end)
	Notes     string    // private notes given with the action (offer, accept)
}

// MarshalJSON writes the fields of e's kind, in the engine's order and
// names. It returns an error for an unknown kind.
func (e Event) MarshalJSON() ([]byte, error) {
	switch e.Kind {
	case EventStart:
		return json.Marshal(struct {
			Kind EventKind `json:"kind"`
		}{e.Kind})
	case EventMatch:
		return json.Marshal(struct {
			Kind      EventKind `json:"kind"`
			Match     int       `json:"match"`
			MatchKind string    `json:"matchKind"`
			Seats     [2]int    `json:"seats"`
			Opener    int       `json:"opener"`
			Pool      Vector    `json:"pool"`
			Values    [2]Vector `json:"values"`
			MaxTurns  int       `json:"maxTurns"`
		}{e.Kind, e.Match, e.MatchKind, e.Seats, e.Opener, e.Pool, e.Values, e.MaxTurns})
	case EventOffer:
		return json.Marshal(struct {
			Kind     EventKind `json:"kind"`
			Match    int       `json:"match"`
			Turn     int       `json:"turn"`
			Seat     int       `json:"seat"`
			Other    int       `json:"other"`
			Take     Vector    `json:"take"`
			Worth    [2]int    `json:"worth"`
			Scripted bool      `json:"scripted"`
			Text     string    `json:"text,omitempty"`
			Notes    string    `json:"notes,omitempty"`
		}{e.Kind, e.Match, e.Turn, e.Seat, e.Other, e.Take, e.Worth, e.Scripted, e.Text, e.Notes})
	case EventAccept:
		return json.Marshal(struct {
			Kind     EventKind `json:"kind"`
			Match    int       `json:"match"`
			Turn     int       `json:"turn"`
			Seat     int       `json:"seat"`
			Other    int       `json:"other"`
			Take     Vector    `json:"take"`
			Payoff   [2]int    `json:"payoff"`
			Scripted bool      `json:"scripted"`
			Text     string    `json:"text,omitempty"`
			Notes    string    `json:"notes,omitempty"`
		}{e.Kind, e.Match, e.Turn, e.Seat, e.Other, e.Take, e.Payoff, e.Scripted, e.Text, e.Notes})
	case EventMatchEnd:
		return json.Marshal(struct {
			Kind    EventKind `json:"kind"`
			Match   int       `json:"match"`
			Outcome Outcome   `json:"outcome"`
			Payoff  [2]int    `json:"payoff"`
			Turn    int       `json:"turn"`
		}{e.Kind, e.Match, e.Outcome, e.Payoff, e.Turn})
	case EventEnd:
		return json.Marshal(struct {
			Kind  EventKind `json:"kind"`
			Match int       `json:"match"`
			Text  string    `json:"text"`
		}{e.Kind, e.Match, e.Text})
	}
	return nil, fmt.Errorf("bargain: cannot write an event of unknown kind %q", e.Kind)
}

// MatchEvent returns the "match" event of plan in an episode whose matches
// have maxTurns turns.
func MatchEvent(plan MatchPlan, maxTurns int) Event {
	return Event{Kind: EventMatch, Match: plan.Match, MatchKind: MatchKind, Seats: plan.Seats,
		Opener: plan.Opener, Pool: plan.Pool, Values: plan.Values, MaxTurns: maxTurns}
}

// MoveEvents returns the events of a legal move: its "offer" or "accept"
// event and, when the move settled the match, the "matchEnd" event.
func MoveEvents(mv Move, scripted bool, message, notes string) []Event {
	ev := Event{Match: mv.Match, Turn: mv.Turn, Seat: mv.Seat, Other: mv.Other, Take: mv.Take,
		Scripted: scripted, Text: message, Notes: notes}
	if mv.Accept {
		ev.Kind, ev.Payoff = EventAccept, mv.Payoff
	} else {
		ev.Kind, ev.Worth = EventOffer, mv.Worth
	}
	out := []Event{ev}
	if mv.Ended {
		out = append(out, Event{Kind: EventMatchEnd, Match: mv.Match, Outcome: mv.Outcome, Payoff: mv.Payoff, Turn: mv.TurnsUsed})
	}
	return out
}

// MarshalJSON writes results in the engine's field names (resultsJson in
// src/negotiation/sim.nim), with scores and giveaway as JSON numbers with
// exactly ScorePlaces places, never through float64.
func (r Results) MarshalJSON() ([]byte, error) {
	var scores, give [Seats]json.Number
	for s := 0; s < Seats; s++ {
		scores[s] = json.Number(FormatDecimal(&r.Scores[s]))
		give[s] = json.Number(FormatDecimal(&r.Giveaway[s]))
	}
	return json.Marshal(struct {
		Scores        [Seats]json.Number `json:"scores"`
		Points        [Seats]int         `json:"points"`
		Matches       [Seats]int         `json:"matches"`
		Deals         [Seats]int         `json:"deals"`
		Giveaway      [Seats]json.Number `json:"giveaway"`
		MatchesPlayed int                `json:"matchesPlayed"`
		MaxMatches    int                `json:"maxMatches"`
		Reason        Reason             `json:"reason"`
	}{scores, r.Points, r.Matches, r.Deals, give, r.MatchesPlayed, r.MaxMatches, r.Reason})
}

// Encode returns r as JSON text for people and line tools: the header and
// results indented, and each event on a line of its own. It returns an
// error only for an event of unknown kind.
func (r *Replay) Encode() ([]byte, error) {
	head := struct {
		Format         string                      `json:"format"`
		Config         ReplayConfig                `json:"config"`
		SeedCommitment string                      `json:"seed_commitment"`
		Seed           string                      `json:"seed"`
		PolicyNames    []string                    `json:"policyNames,omitempty"`
		Contributions  []commit.ReplayContribution `json:"contributions,omitempty"`
		Beacon         *commit.ReplayBeacon        `json:"beacon,omitempty"`
	}{r.Format, r.Config, r.SeedCommitment, r.Seed, r.PolicyNames, r.Contributions, r.Beacon}
	h, err := json.MarshalIndent(head, "", "  ")
	if err != nil {
		return nil, err
	}
	b := append([]byte(nil), bytes.TrimSuffix(h, []byte("\n}"))...)
	b = append(b, ",\n  \"events\": [\n"...)
	for i, ev := range r.Events {
		e, err := json.Marshal(ev)
		if err != nil {
			return nil, fmt.Errorf("event %d: %w", i, err)
		}
		b = append(b, "    "...)
		b = append(b, e...)
		if i < len(r.Events)-1 {
			b = append(b, ',')
		}
		b = append(b, '\n')
	}
	res, err := json.Marshal(r.Results)
	if err != nil {
		return nil, err
	}
	b = append(b, "  ],\n  \"results\": "...)
	b = append(b, res...)
	b = append(b, "\n}\n"...)
	return b, nil
}
