package bargain

import (
	"fmt"

	"github.com/sealedhq/sealed/commit"
)

// PlayOptions adjusts PlayEpisode.
type PlayOptions struct {
	// StopAfter, when in 1..Matches-1, simulates the play clock running
	// out: a deadline stops play after that many settled matches, and the
	// episode ends with reason "deadline". 0 plays every match.
	StopAfter int
}

// PlayEpisode plays a whole episode with bots[s] in seat s and returns its
// replay: seed commitment and seed, every event, and the results. seed is
// 32 bytes (its commitment is the SHA-256 of its 64 lowercase hex
// characters, docs/design.md "Seed commitment"). It returns an error for a bad
// seed, config or option, a nil bot, or a bot that makes an illegal move.
func PlayEpisode(seed []byte, cfg Config, bots [Seats]Bot, opt PlayOptions) (*Replay, error) {
	ep, err := NewEpisode(seed, cfg)
	if err != nil {
		return nil, err
	}
	if opt.StopAfter < 0 || opt.StopAfter >= cfg.Matches {
		return nil, fmt.Errorf("stop after %d matches: expected 1..%d, or 0 to play every match", opt.StopAfter, cfg.Matches-1)
	}
	names := make([]string, Seats)
	for s, b := range bots {
		if b == nil {
			return nil, fmt.Errorf("seat %d has no bot", s)
		}
		names[s] = b.Name()
	}
	var s commit.Seed
	copy(s[:], seed) // NewEpisode checked that seed is 32 bytes
	r := &Replay{
		Format:         ReplayFormat,
		Config:         ReplayConfig{Matches: cfg.Matches, MaxTurns: cfg.MaxTurns, ItemNames: ItemNames},
		SeedCommitment: s.Commitment().String(),
		Seed:           s.String(),
		PolicyNames:    names,
		Events:         []Event{{Kind: EventStart}},
	}
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
			var mv Move
			if d.Accept {
				mv, err = ep.Accept(d.Message, d.Notes)
			} else {
				mv, err = ep.Offer(d.Take, d.Message, d.Notes)
			}
			if err != nil {
				return nil, fmt.Errorf("bot %s in seat %d, match %d turn %d: %w", names[v.Seat], v.Seat, plan.Match, v.Turn, err)
			}
			r.Events = append(r.Events, MoveEvents(mv, true, d.Message, d.Notes)...)
		}
	}
	_, reason := ep.Done()
	r.Events = append(r.Events, Event{Kind: EventEnd, Match: ep.Settled(), Text: string(reason)})
	r.Results = ep.Results()
	return r, nil
}
