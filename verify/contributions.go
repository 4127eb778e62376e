package verify

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
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
// (docs/rng.md, "Which contributions count"). A contribution counts when
// all hold:
//
//   - the seed-commit says when play begins: play_at (the instant) or
//     play_at_entry (the ledger index of the entry that opens play);
//     without either the match takes no contributions;
//   - it comes after the seed-commit in ledger order, and its time (its
//     posted_at if it has one, else its integration time) is not before
//     the seed-commit's integration time: a client seed known before the
//     commitment would let the server choose its seed against it;
//   - it came before play began: integrated before play_at, or at an
//     index below play_at_entry (and the seed-commit's play_at_entry is
//     after the seed-commit itself). A client seed arriving after the
//     first move could be chosen against the play;
//   - it comes before result, the index of the match's result entry (-1
//     for none): by then play was over, whatever the seed-commit said;
//   - its seat is a seat of the match (0..seats-1) and no earlier counted
//     contribution is of the same seat.
//
// entries are the contribution entries naming sc, with their bodies;
// entries of other kinds are skipped. Each ContributionCheck that does not
// count says why, naming the entries and times compared. It returns an
// error only for a stored body it cannot read.
func CountContributions(sc ledger.Entry, scb *ledger.Body, seats int, entries []ledger.Entry, result int64) ([]ContributionCheck, error) {
	var playAt time.Time
	if scb.PlayAt != "" {
		t, err := time.Parse(ledger.TimeLayout, scb.PlayAt)
		if err != nil {
			return nil, fmt.Errorf("seed-commit entry %d: play_at: %w", sc.Index, err)
		}
		playAt = t
	}
	opener := int64(-1) // play_at_entry
	if scb.PlayAtEntry != nil {
		opener = *scb.PlayAtEntry
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
		case playAt.IsZero() && opener < 0:
			cc.Why = fmt.Sprintf("seed-commit entry %d names neither play_at nor play_at_entry, so its match takes no contributions", sc.Index)
		case opener >= 0 && opener <= sc.Index:
			cc.Why = fmt.Sprintf("seed-commit entry %d names entry %d as the one that opens play (play_at_entry), which is not after the seed-commit: no contribution can come between them", sc.Index, opener)
		case e.Index <= sc.Index:
			cc.Why = fmt.Sprintf("entry %d is placed before seed-commit entry %d in the ledger: it must come after the commitment", e.Index, sc.Index)
		case when.Before(sc.IntegratedAt):
			cc.Why = fmt.Sprintf("%s at %s, before seed-commit entry %d was integrated (%s): it must come after the commitment",
				src, when.UTC().Format(time.RFC3339Nano), sc.Index, sc.IntegratedAt.UTC().Format(time.RFC3339Nano))
		case opener >= 0 && e.Index >= opener:
			cc.Why = fmt.Sprintf("entry %d is not before entry %d, the entry that opens play (play_at_entry of seed-commit entry %d): it must come before the first move",
				e.Index, opener, sc.Index)
		case !playAt.IsZero() && !e.IntegratedAt.Before(playAt):
			cc.Why = fmt.Sprintf("integrated at %s, not before play began (play_at %s): it must come before the first move",
				e.IntegratedAt.UTC().Format(time.RFC3339Nano), playAt.Format(time.RFC3339Nano))
		case result >= 0 && e.Index > result:
			cc.Why = fmt.Sprintf("entry %d comes after the match's result entry %d: play was over", e.Index, result)
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

// tieMatchInputs holds the contributions and beacon a replay's match seed
// took (rcs, rb) to the ledger: c.Contributions (CountContributions of the
// entries naming the seed-commit sc) must be exactly the counted ones, and
// rb the drand round the seed-commit named, published after it was
// integrated, with a signature that verifies. sigEntry is the seed-reveal
// entry rb's signature came from (an engine replay, which cannot carry the
// round), -1 when rb is the replay's own; ledgerSig is the first
// beacon_signature a seed-reveal naming sc recorded ("" for none) and
// ledgerSigEntry its entry. Each problem names the entry at fault.
func (c *ResultCheck) tieMatchInputs(sc ledger.Entry, scb *ledger.Body, rcs []commit.ReplayContribution, rb *commit.ReplayBeacon,
	sigEntry int64, ledgerSig string, ledgerSigEntry int64, problem func(string, ...any)) {
	byEntry := map[int64]*ContributionCheck{}
	bySeat := map[int64]*ContributionCheck{}
	for i := range c.Contributions {
		cc := &c.Contributions[i]
		byEntry[cc.Entry] = cc
		if cc.Counts {
			bySeat[cc.Seat] = cc
		}
	}
	// uncounted finds a contribution entry that does not count with this
	// seat and client seed: what a replay took when it took it without
	// naming the entry.
	uncounted := func(seat int, cs string) *ContributionCheck {
		for i := range c.Contributions {
			if cc := &c.Contributions[i]; !cc.Counts && cc.Seat == int64(seat) && cc.ClientSeed == cs {
				return cc
			}
		}
		return nil
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
			if u := uncounted(rc.Seat, rc.ClientSeed); u != nil {
				problem("the replay's contributions[%d] (seat %d) is the client seed of entry %d, which does not count: %s", i, rc.Seat, u.Entry, u.Why)
			} else {
				problem("the replay's contributions[%d] (seat %d) matches no counted contribution entry for seed-commit entry %d", i, rc.Seat, c.SeedCommit)
			}
		case rc.ClientSeed != cc.ClientSeed:
			problem("the replay's contributions[%d] (seat %d) %s", i, rc.Seat, clientSeedMismatch(rc.ClientSeed, cc.ClientSeed, cc.Entry))
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
		return
	}
	c.BeaconNamed = &BeaconNamed{Chain: scb.BeaconChain, Round: *scb.BeaconRound}
	if sigEntry >= 0 {
		c.BeaconNamed.SignatureEntry = &sigEntry
	}
	chain, err := beacon.LookupChain(scb.BeaconChain)
	if err != nil {
		problem("seed-commit entry %d names %v", c.SeedCommit, err)
		return
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
	from := "in the replay"
	if sigEntry >= 0 {
		from = fmt.Sprintf("recorded at seed-reveal entry %d", sigEntry)
	}
	switch {
	case rb == nil && c.Replay != nil && c.Replay.Dialect == DialectEngine:
		problem("seed-commit entry %d named drand round %d (%s); an engine replay cannot carry it, and no seed-reveal naming entry %d records its signature (beacon_signature)",
			c.SeedCommit, round, chain.Name, c.SeedCommit)
	case rb == nil:
		problem("seed-commit entry %d named drand round %d (%s), which the replay ignored", c.SeedCommit, round, chain.Name)
	case rb.Round != round || !equalFoldHex(rb.Chain, scb.BeaconChain):
		problem("the replay takes drand round %d, but seed-commit entry %d named round %d of %s", rb.Round, c.SeedCommit, round, chain.Name)
	case c.Replay == nil || c.Replay.Beacon == nil || !c.Replay.Beacon.SignatureOK:
		problem("the signature of drand round %d %s does not verify with %s's public key (the round named by seed-commit entry %d)", round, from, chain.Name, c.SeedCommit)
	case ledgerSig != "" && sigEntry < 0 && !strings.EqualFold(rb.Signature, ledgerSig):
		problem("the replay's signature of drand round %d differs from the one seed-reveal entry %d recorded", round, ledgerSigEntry)
	default:
		c.BeaconNamed.SignatureOK = true
	}
}

// beaconSignature returns the first beacon_signature a seed-reveal among
// refs recorded that verifies as the signature of the round the
// seed-commit scb named, or else the first recorded at all, with its
// entry; "" and -1 when none is recorded or scb named no round.
func beaconSignature(refs []ledger.Entry, scb *ledger.Body) (string, int64, error) {
	if scb.BeaconChain == "" || scb.BeaconRound == nil {
		return "", -1, nil
	}
	chain, _ := beacon.LookupChain(scb.BeaconChain) // nil for an unknown network: tieMatchInputs says so
	sig, at := "", int64(-1)
	for _, r := range refs {
		if r.Kind != ledger.KindSeedReveal {
			continue
		}
		b, err := r.Body()
		if err != nil {
			return "", -1, err
		}
		if b.BeaconSignature == "" {
			continue
		}
		if at < 0 {
			sig, at = b.BeaconSignature, r.Index
		}
		raw, herr := hex.DecodeString(b.BeaconSignature)
		if chain != nil && herr == nil && chain.CheckRoundOnce(uint64(*scb.BeaconRound), raw) == nil {
			return b.BeaconSignature, r.Index, nil
		}
	}
	return sig, at, nil
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
	// verifies (for an engine replay: a seed-reveal records it).
	SignatureOK bool `json:"signature_ok"`
	// SignatureEntry is the seed-reveal entry whose beacon_signature the
	// check took, for an engine replay (which cannot carry the round);
	// absent when the signature is the replay's own.
	SignatureEntry *int64 `json:"signature_entry,omitempty"`
}

func equalFoldHex(a, b string) bool {
	x, err1 := ledger.NormaliseDigest(a)
	y, err2 := ledger.NormaliseDigest(b)
	return err1 == nil && err2 == nil && x == y
}

// clientSeedMismatch says that a replay carries the client seed replay
// where contribution entry index has entry: "has client seed ..., but
// entry N has ...". When a transformation of commit.NearMisses (Unicode
// NFC or NFD, outer white space, a trailing line break, invisible
// characters, ...) turns the replay's bytes into the entry's, the two can
// print alike: they are then quoted with every non-ASCII character
// escaped, and the transformations are named (newcomer trial 7b, finding
// 1).
func clientSeedMismatch(replay, entry string, index int64) string {
	hints := commit.NearMisses(commit.Sum([]byte(entry)), []byte(replay))
	if len(hints) == 0 {
		return fmt.Sprintf("has client seed %q, but entry %d has %q", truncate(replay, 80), index, truncate(entry, 80))
	}
	names := make([]string, len(hints))
	for i, h := range hints {
		names[i] = h.Name
	}
	return fmt.Sprintf("has client seed %+q, but entry %d has %+q: the same text in other bytes (the replay's would match after %s)",
		truncate(replay, 80), index, truncate(entry, 80), strings.Join(names, "; "))
}
