package verify

import (
	"encoding/hex"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/sealedhq/sealed/beacon"
	"github.com/sealedhq/sealed/commit"
)

// BeaconReport is what a check found about the drand round a replay's
// match seed took (docs/replays.md, "Contributions and a beacon").
type BeaconReport struct {
	// Chain is the drand chain hash (64 lowercase hex) and Network its
	// name ("quicknet"); Round the round number.
	Chain   string `json:"chain"`
	Network string `json:"network"`
	Round   uint64 `json:"round"`
	// Published is the round's publication time, genesis + (round-1) *
	// period (RFC 3339, UTC); empty when the round has none: round 0, or
	// a round so far ahead that its time overflows (never published).
	Published string `json:"published"`
	// SignatureOK reports that the round's BLS signature verifies with the
	// network's public key (beacon.Chain.CheckRound).
	SignatureOK bool `json:"signature_ok"`
	// Randomness is SHA-256 of the signature, 64 lowercase hex.
	Randomness string `json:"randomness"`
}

// noteBeaconTime is the Report note of a replay with a beacon checked
// without a ledger.
const noteBeaconTime = "the beacon round's publication time was not compared with the time the seed was committed: that needs the ledger ('sealed ledger check-result')"

// matchSeed derives the seed a replay's draws come from (commit.MatchSeed)
// from the revealed seed, the replay's contributions and beacon, and
// records them in rep. seats is the number of seats of the match. A
// contribution that cannot be one (a seat outside 0..seats-1 or given
// twice, a client seed outside 1..64 bytes or not valid UTF-8) or a beacon
// of an unknown network or with a signature that is not hex makes the
// replay unreadable (an error); a signature that does not verify is a difference (field
// beacon.signature), and the draws still take its SHA-256.
func matchSeed(seed commit.Seed, cs []commit.ReplayContribution, b *commit.ReplayBeacon, seats int, rep *Report) (commit.Seed, error) {
	if len(cs) == 0 && b == nil {
		return seed, nil
	}
	in := make([]commit.Contribution, len(cs))
	for i, c := range cs {
		if c.Seat < 0 || c.Seat >= seats {
			return seed, fmt.Errorf("contributions[%d]: seat %d; expected a seat 0 to %d", i, c.Seat, seats-1)
		}
		if !utf8.ValidString(c.ClientSeed) {
			// A replay carries the client seed as JSON text, which cannot
			// hold these bytes: the ledger refuses them the same way.
			return seed, fmt.Errorf("contributions[%d]: the client seed of seat %d (%q) is not valid UTF-8; expected text", i, c.Seat, c.ClientSeed)
		}
		in[i] = commit.Contribution{Seat: c.Seat, ClientSeed: []byte(c.ClientSeed)}
	}
	var rnd *[32]byte
	if b != nil {
		chain, err := beacon.LookupChain(b.Chain)
		if err != nil {
			return seed, fmt.Errorf("beacon.chain: %v", err)
		}
		sig, err := hex.DecodeString(b.Signature)
		if err != nil {
			return seed, fmt.Errorf("beacon.signature: expected hex, %v", err)
		}
		r := beacon.Randomness(sig)
		rnd = &r
		br := &BeaconReport{Chain: chain.Hash, Network: chain.Name, Round: b.Round, Randomness: hex.EncodeToString(r[:])}
		if pub := chain.RoundTime(b.Round); !pub.IsZero() { // not "0001-01-01" (newcomer trial 7b, finding 6)
			br.Published = pub.Format(time.RFC3339)
		}
		if err := chain.CheckRoundOnce(b.Round, sig); err != nil {
			rep.Differences = append(rep.Differences, Difference{Event: -1, Field: "beacon.signature",
				Claimed: truncate(strings.ToLower(b.Signature), 40), Derived: "not a valid signature of the round: " + err.Error()})
		} else {
			br.SignatureOK = true
		}
		rep.Beacon = br
		rep.Notes = append(rep.Notes, noteBeaconTime)
	}
	ms, err := commit.MatchSeed(seed, in, rnd)
	if err != nil {
		return seed, fmt.Errorf("contributions: %v", err)
	}
	rep.MatchSeed = ms.String()
	rep.Contributions = cs
	return ms, nil
}

// DeriveMatchSeed is the match seed of a match played from the server's
// seed with the contributions cs and the drand round b (nil for none), for
// a game server or a replay writer: what the draws of its replay must come
// from (commit.MatchSeed). seats is the number of seats. It returns an
// error for a contribution that cannot be one (seat outside 0..seats-1 or
// given twice, a client seed outside 1..64 bytes or not valid UTF-8), a
// beacon of an unknown network, or a round whose signature does not verify.
func DeriveMatchSeed(server commit.Seed, cs []commit.ReplayContribution, b *commit.ReplayBeacon, seats int) (commit.Seed, error) {
	rep := &Report{}
	ms, err := matchSeed(server, cs, b, seats, rep)
	if err != nil {
		return ms, err
	}
	if len(rep.Differences) > 0 {
		return ms, fmt.Errorf("beacon: %s", rep.Differences[0].Derived)
	}
	return ms, nil
}
