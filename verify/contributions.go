package verify

import (
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"github.com/sealedhq/sealed/beacon"
	"github.com/sealedhq/sealed/commit"
	"github.com/sealedhq/sealed/ledger"
	"github.com/sealedhq/sealed/rules/bargain"
)

// ContributionCheck is one contribution entry naming a match's
// seed-commit, and whether it counts (docs/rng.md, "The match seed").
type ContributionCheck struct {
	Entry        int64  `json:"entry"`
	Seat         int64  `json:"seat"`
	ClientSeed   string `json:"client_seed"`
	IntegratedAt string `json:"integrated_at"`
	// Counts reports whether the contribution goes into the match seed;
	// Why says why not, when it does not.
	Counts bool   `json:"counts"`
	Why    string `json:"why,omitempty"`
}

// CountContributions decides which contribution entries count for the
// match of the seed-commit entry sc (body scb), in index order
// (docs/rng.md, "The match seed"). A contribution counts when all hold:
//
//   - the seed-commit names play_at (the instant play begins; without it
//     the match takes no contributions);
//   - it comes after the seed-commit in ledger order, and its time (its
//     posted_at if it has one, else its integration time) is not before
//     the seed-commit's integration time: a client seed known before the
//     commitment would let the server choose its seed against it;
//   - it was integrated before play_at: a client seed arriving after the
//     first move could be chosen against the play;
//   - its seat is a seat of the match (0..seats-1) and no earlier counted
//     contribution is of the same seat.
//
// entries are the contribution entries naming sc, with their bodies.
func CountContributions(sc ledger.Entry, scb *ledger.Body, seats int, entries []ledger.Entry) ([]ContributionCheck, error) {
	var playAt time.Time
	if scb.PlayAt != "" {
		t, err := time.Parse(ledger.TimeLayout, scb.PlayAt)
		if err != nil {
			return nil, fmt.Errorf("seed-commit entry %d: play_at: %w", sc.Index, err)
		}
		playAt = t
	}
	counted := map[int64]int64{}
	var out []ContributionCheck
	for _, e := range entries {
		if e.Kind != ledger.KindContribution {
			continue
		}
		b, err := e.Body()
		if err != nil {
			return nil, err
		}
		cc := ContributionCheck{Entry: e.Index, IntegratedAt: e.IntegratedAt.UTC().Format(ledger.TimeLayout)}
		if b.Seat != nil {
			cc.Seat = *b.Seat
		}
		if b.ClientSeed != nil {
			cc.ClientSeed = *b.ClientSeed
		}
		when, src := e.IntegratedAt, "integrated"
		if !e.PostedAt.IsZero() {
			when, src = e.PostedAt, "posted"
		}
		switch {
		case playAt.IsZero():
			cc.Why = fmt.Sprintf("seed-commit entry %d names no play_at, so its match takes no contributions", sc.Index)
		case e.Index <= sc.Index || when.Before(sc.IntegratedAt):
			cc.Why = fmt.Sprintf("%s at %s, before seed-commit entry %d was integrated (%s): it must come after the commitment",
				src, when.UTC().Format(time.RFC3339Nano), sc.Index, sc.IntegratedAt.UTC().Format(time.RFC3339Nano))
		case !e.IntegratedAt.Before(playAt):
			cc.Why = fmt.Sprintf("integrated at %s, not before play began (play_at %s): it must come before the first move",
				e.IntegratedAt.UTC().Format(time.RFC3339Nano), playAt.Format(time.RFC3339Nano))
		case cc.Seat < 0 || cc.Seat >= int64(seats):
			cc.Why = fmt.Sprintf("seat %d is not a seat of the match (0 to %d)", cc.Seat, seats-1)
		default:
			if first, ok := counted[cc.Seat]; ok {
				cc.Why = fmt.Sprintf("seat %d already contributed at entry %d", cc.Seat, first)
			} else {
				cc.Counts = true
				counted[cc.Seat] = e.Index
			}
		}
		out = append(out, cc)
	}
	return out, nil
}

// matchSeats is the number of seats of a match from its seed-commit's
// config: an auction's "players", 3 for Negotiation Games. 0 when the
// config does not say.
func matchSeats(game string, config json.RawMessage) int {
	if game == "bargain" {
		return bargain.Seats
	}
	var cfg struct {
		Players json.RawMessage `json:"players"`
	}
	if json.Unmarshal(config, &cfg) != nil {
		return 0
	}
	n, err := strconv.Atoi(string(cfg.Players))
	if err != nil {
		return 0
	}
	return n
}

// tieMatchInputs holds the replay's contributions and beacon to the
// ledger: the counted contribution entries naming the seed-commit, and the
// drand round the seed-commit named (published after it was integrated,
// signature verified).
func (c *ResultCheck) tieMatchInputs(sc ledger.Entry, scb *ledger.Body, refs []ledger.Entry, rcs []commit.ReplayContribution, rb *commit.ReplayBeacon, problem func(string, ...any)) error {
	var err error
	c.Contributions, err = CountContributions(sc, scb, matchSeats(scb.Game, scb.Config), refs)
	if err != nil {
		return err
	}
	byEntry := map[int64]*ContributionCheck{}
	bySeat := map[int64]*ContributionCheck{}
	for i := range c.Contributions {
		cc := &c.Contributions[i]
		byEntry[cc.Entry] = cc
		if cc.Counts {
			bySeat[cc.Seat] = cc
		}
	}
	used := map[int64]bool{}
	for i, rc := range rcs {
		if rc.Entry != nil {
			if cc, ok := byEntry[*rc.Entry]; ok && !cc.Counts {
				problem("the replay's contributions[%d] is entry %d, which does not count: %s", i, cc.Entry, cc.Why)
				continue
			} else if !ok {
				problem("the replay's contributions[%d] names entry %d, which is no contribution to seed-commit entry %d", i, *rc.Entry, c.SeedCommit)
				continue
			}
		}
		cc, ok := bySeat[int64(rc.Seat)]
		switch {
		case !ok:
			problem("the replay's contributions[%d] (seat %d) matches no counted contribution entry for seed-commit entry %d", i, rc.Seat, c.SeedCommit)
		case rc.ClientSeed != cc.ClientSeed:
			problem("the replay's contributions[%d] (seat %d) has client seed %q, but entry %d has %q", i, rc.Seat, truncate(rc.ClientSeed, 80), cc.Entry, truncate(cc.ClientSeed, 80))
			used[cc.Entry] = true
		default:
			used[cc.Entry] = true
		}
	}
	for _, cc := range c.Contributions {
		if cc.Counts && !used[cc.Entry] {
			problem("contribution entry %d (seat %d) counts, but the replay leaves it out", cc.Entry, cc.Seat)
		}
	}

	if scb.BeaconChain == "" {
		if rb != nil {
			problem("the replay takes drand round %d, but seed-commit entry %d named no beacon", rb.Round, c.SeedCommit)
		}
		return nil
	}
	c.BeaconNamed = &BeaconNamed{Chain: scb.BeaconChain, Round: *scb.BeaconRound}
	chain, err := beacon.LookupChain(scb.BeaconChain)
	if err != nil {
		problem("seed-commit entry %d names %v", c.SeedCommit, err)
		return nil
	}
	round := uint64(*scb.BeaconRound)
	pub := chain.RoundTime(round)
	c.BeaconNamed.Published = pub.Format(time.RFC3339)
	if !pub.After(sc.IntegratedAt) {
		problem("drand round %d named by seed-commit entry %d was published at %s, before the commitment was integrated (%s): its randomness was already public",
			round, c.SeedCommit, pub.Format(time.RFC3339), sc.IntegratedAt.UTC().Format(time.RFC3339Nano))
	} else {
		c.BeaconNamed.AfterCommit = true
	}
	switch {
	case rb == nil:
		problem("seed-commit entry %d named drand round %d (%s), which the replay ignored", c.SeedCommit, round, chain.Name)
	case rb.Round != round || !equalFoldHex(rb.Chain, scb.BeaconChain):
		problem("the replay takes drand round %d, but seed-commit entry %d named round %d of %s", rb.Round, c.SeedCommit, round, chain.Name)
	case c.Replay == nil || c.Replay.Beacon == nil || !c.Replay.Beacon.SignatureOK:
		problem("the signature of drand round %d in the replay does not verify with %s's public key", round, chain.Name)
	default:
		c.BeaconNamed.SignatureOK = true
	}
	return nil
}

// BeaconNamed is the drand round a seed-commit entry named and what the
// check found about it.
type BeaconNamed struct {
	Chain string `json:"chain"`
	Round int64  `json:"round"`
	// Published is the round's publication time (RFC 3339).
	Published string `json:"published"`
	// AfterCommit: published after the seed-commit was integrated.
	AfterCommit bool `json:"after_commit"`
	// SignatureOK: the replay carries this round with a signature that
	// verifies.
	SignatureOK bool `json:"signature_ok"`
}

func equalFoldHex(a, b string) bool {
	x, err1 := ledger.NormaliseDigest(a)
	y, err2 := ledger.NormaliseDigest(b)
	return err1 == nil && err2 == nil && x == y
}
