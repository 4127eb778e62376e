package commit

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"slices"
)

// MaxClientSeed is the largest client seed a player may contribute, in
// bytes; the smallest is 1 (docs/rng.md, "The match seed").
const MaxClientSeed = 64

// MatchSeedLabel starts the message MatchSeed authenticates, so that the
// match seed is no other HMAC the server's seed keys.
const MatchSeedLabel = "sealed/match-seed/v1"

// Contribution is a client seed one seat contributed to a match: the
// bytes exactly as posted (1..MaxClientSeed of them).
type Contribution struct {
	Seat       int
	ClientSeed []byte
}

// MatchSeed derives the seed every draw of a match comes from (docs/rng.md,
// "The match seed") from the server's revealed seed, the counted
// contributions and, when the match named a drand round, that round's
// randomness (beacon, nil for none). With no contribution and no beacon it
// is server itself, so matches played before contributions existed keep
// their draws. Otherwise it is
//
//	HMAC-SHA256(key = server,
//	            msg = "sealed/match-seed/v1" || 0x00 || uint32_be(n)
//	                  || for each contribution in seat order:
//	                       uint32_be(seat) || uint32_be(len) || client seed
//	                  || 0x00                           (no beacon)
//	                   | 0x01 || beacon randomness      (32 bytes))
//
// The contributions may be given in any order; they are taken in seat
// order. It returns an error for a negative seat, a seat given twice, or
// a client seed outside 1..MaxClientSeed bytes.
func MatchSeed(server Seed, contributions []Contribution, beacon *[32]byte) (Seed, error) {
	if len(contributions) == 0 && beacon == nil {
		return server, nil
	}
	cs := slices.Clone(contributions)
	slices.SortFunc(cs, func(a, b Contribution) int { return a.Seat - b.Seat })
	msg := make([]byte, 0, len(MatchSeedLabel)+6+len(cs)*(8+MaxClientSeed)+33)
	msg = append(msg, MatchSeedLabel...)
	msg = append(msg, 0)
	msg = binary.BigEndian.AppendUint32(msg, uint32(len(cs)))
	for i, c := range cs {
		switch {
		case c.Seat < 0 || c.Seat > 1<<31:
			return Seed{}, fmt.Errorf("contribution of seat %d: expected a seat >= 0", c.Seat)
		case i > 0 && cs[i-1].Seat == c.Seat:
			return Seed{}, fmt.Errorf("seat %d contributes twice; expected at most one client seed per seat", c.Seat)
		case len(c.ClientSeed) < 1 || len(c.ClientSeed) > MaxClientSeed:
			return Seed{}, fmt.Errorf("client seed of seat %d is %d bytes; expected 1 to %d", c.Seat, len(c.ClientSeed), MaxClientSeed)
		}
		msg = binary.BigEndian.AppendUint32(msg, uint32(c.Seat))
		msg = binary.BigEndian.AppendUint32(msg, uint32(len(c.ClientSeed)))
		msg = append(msg, c.ClientSeed...)
	}
	if beacon == nil {
		msg = append(msg, 0)
	} else {
		msg = append(msg, 1)
		msg = append(msg, beacon[:]...)
	}
	m := hmac.New(sha256.New, server[:])
	m.Write(msg)
	var out Seed
	m.Sum(out[:0])
	return out, nil
}

// ReplayContribution is a contribution as a replay carries it
// (docs/replays.md, "Contributions and a beacon"): the seat, the client
// seed as posted (UTF-8 text, 1..MaxClientSeed bytes) and, when the match
// was played against a ledger, the index of the contribution entry.
type ReplayContribution struct {
	Seat       int    `json:"seat"`
	ClientSeed string `json:"client_seed"`
	Entry      *int64 `json:"entry,omitempty"`
}

// ReplayBeacon is the drand round a replay's match seed took: the chain
// hash (64 hex), the round number and the round's signature (96 hex, a
// compressed G1 point). The randomness is SHA-256 of the signature.
type ReplayBeacon struct {
	Chain     string `json:"chain"`
	Round     uint64 `json:"round"`
	Signature string `json:"signature"`
}
