package demo

import (
	"encoding/json"
	"time"

	"github.com/cockroachdb/apd/v3"
	"github.com/sealedhq/sealed/beacon"
	"github.com/sealedhq/sealed/commit"
	"github.com/sealedhq/sealed/ledger"
	"github.com/sealedhq/sealed/rules/auction"
	"github.com/sealedhq/sealed/verify"
)

// The demo's match with contributions and a beacon is played around a
// real, recorded drand quicknet round, so it is recorded at that round's
// time, before the week: round 657413 was published at 2023-09-15T11:00:03Z
// (genesis 1692803367 + 657412 * 3 s). Its signature is the one in
// shared/data/drand/README.md (verified there, and by beacon's tests, with
// circl sign/bls).
const (
	demoRound          = 657413
	demoRoundSignature = "b713718a38ae728dfd477991af2822e08d2f305e47718cef9f7848ce4050e7be41076862b98fad56e91a6b85b89cd97b"
	// DemoOperator is the operator named by the demo's seed-commits of
	// that day.
	DemoOperator = "demo-house"
)

var (
	// contribCommitAt is when the seed is committed, 63 seconds before
	// the round; play begins 7 seconds after it.
	contribCommitAt = time.Date(2023, 9, 15, 10, 59, 0, 0, time.UTC)
	contribPlayAt   = time.Date(2023, 9, 15, 11, 0, 10, 0, time.UTC)
	contribRevealBy = time.Date(2023, 9, 15, 12, 0, 0, 0, time.UTC)
	// demoClientSeeds are what seats 0 and 1 contribute (seat 2 does not).
	demoClientSeeds = []string{"lucky 7", "seat one says hi"}
)

// contributedSeats are the bots at the three-seat table of the match with
// contributions.
var contributedSeats = []string{"truthful", "shading", "random"}

// playContributed plays a three-seat, three-item Blind Auction whose match
// seed takes two contributions (entries first, first+1) and drand round
// demoRound (docs/rng.md, "The match seed").
func playContributed(id string, first int64) (*match, []commit.ReplayContribution, error) {
	seed, err := commit.NewSeed()
	if err != nil {
		return nil, nil, err
	}
	cfg := auction.DefaultConfig()
	cfg.Players, cfg.Items = 3, 3
	cs := make([]commit.ReplayContribution, len(demoClientSeeds))
	for i, c := range demoClientSeeds {
		e := first + int64(i)
		cs[i] = commit.ReplayContribution{Seat: i, ClientSeed: c, Entry: &e}
	}
	b := &commit.ReplayBeacon{Chain: beacon.Quicknet.Hash, Round: demoRound, Signature: demoRoundSignature}
	ms, err := verify.DeriveMatchSeed(seed, cs, b, cfg.Players)
	if err != nil {
		return nil, nil, err
	}
	bots := make([]auction.Bot, cfg.Players)
	for s := range bots {
		if bots[s], err = auction.NewBot(contributedSeats[s], ms[:], s); err != nil {
			return nil, nil, err
		}
	}
	r, err := auction.Play(ms[:], cfg, bots)
	if err != nil {
		return nil, nil, err
	}
	r.Seed, r.SeedCommitment, r.Contributions, r.Beacon = seed.String(), seed.Commitment().String(), cs, b
	data, err := r.Encode()
	if err != nil {
		return nil, nil, err
	}
	conf, err := json.Marshal(cfg)
	if err != nil {
		return nil, nil, err
	}
	sum, err := json.Marshal(struct {
		Seats   []string           `json:"seats"`
		Ranking []auction.Standing `json:"ranking"`
		Pot     *apd.Decimal       `json:"pot,omitempty"`
	}{r.Seats, r.Results.Ranking, r.Results.Pot})
	if err != nil {
		return nil, nil, err
	}
	return &match{game: "auction", id: id, rules: auction.RulesVersion, config: conf, seed: seed, replay: data, summary: sum, events: len(r.Events)}, cs, nil
}

// recordContributed records, at its 2023 times, the match with
// contributions (seed-commit naming the round, play_at and reveal_by; two
// contributions; seed-reveal recording the round's signature, and result) and a second seed-commit of the
// same operator that is never revealed: an abandoned match. It returns
// the match and its MatchCheck. add appends b integrated at t.
func recordContributed(id string, add func(t time.Time, b *ledger.Body) (int64, error), putReplay func([]byte) (string, error)) (*match, MatchCheck, error) {
	// The seed-commit is entry 0, so the contributions are entries 2 and 3
	// (entry 1 is the abandoned match's seed-commit).
	m, cs, err := playContributed("demo-contributions-"+id, 2)
	if err != nil {
		return nil, MatchCheck{}, err
	}
	mc := MatchCheck{Game: m.game, MatchID: m.id, Events: m.events}
	round := int64(demoRound)
	ts := func(t time.Time) string { return t.Format(ledger.TimeLayout) }
	if mc.SeedCommit, err = add(contribCommitAt, &ledger.Body{Kind: ledger.KindSeedCommit, Game: m.game, MatchID: m.id,
		RulesVersion: m.rules, Config: m.config, Commitment: m.seed.Commitment().String(),
		BeaconChain: beacon.Quicknet.Hash, BeaconRound: &round, PlayAt: ts(contribPlayAt), RevealBy: ts(contribRevealBy), Operator: DemoOperator}); err != nil {
		return nil, mc, err
	}
	abandoned, err := commit.NewSeed()
	if err != nil {
		return nil, mc, err
	}
	if _, err := add(contribCommitAt.Add(5*time.Second), &ledger.Body{Kind: ledger.KindSeedCommit, Game: m.game, MatchID: "demo-abandoned-" + id,
		RulesVersion: m.rules, Config: m.config, Commitment: abandoned.Commitment().String(),
		PlayAt: ts(contribPlayAt), RevealBy: ts(contribRevealBy), Operator: DemoOperator}); err != nil {
		return nil, mc, err
	}
	for i, c := range cs {
		seat, text := int64(c.Seat), c.ClientSeed
		if _, err := add(contribCommitAt.Add(time.Duration(20*(i+1))*time.Second), &ledger.Body{Kind: ledger.KindContribution,
			SeedCommit: &mc.SeedCommit, Seat: &seat, ClientSeed: &text}); err != nil {
			return nil, mc, err
		}
	}
	at := contribCommitAt.Add(11 * time.Minute)
	// The seed-reveal records the round's signature too (docs/ledger.md):
	// the replay carries it, and an engine replay of such a match would
	// take it from here.
	if mc.SeedReveal, err = add(at, &ledger.Body{Kind: ledger.KindSeedReveal, SeedCommit: &mc.SeedCommit, Seed: m.seed.String(),
		BeaconSignature: demoRoundSignature}); err != nil {
		return nil, mc, err
	}
	if mc.Replay, err = putReplay(m.replay); err != nil {
		return nil, mc, err
	}
	if mc.Result, err = add(at.Add(time.Second), &ledger.Body{Kind: ledger.KindResult, Game: m.game, MatchID: m.id, ReplaySHA256: mc.Replay, Summary: m.summary}); err != nil {
		return nil, mc, err
	}
	return m, mc, nil
}
