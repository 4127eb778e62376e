package verify

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/sealedhq/sealed/commit"
	"github.com/sealedhq/sealed/rules/auction"
	"github.com/sealedhq/sealed/rules/bargain"
)

// Replay format names, the value of a replay's top-level "format" field.
const (
	// FormatAuction is a Blind Auction (auction-0.2) replay,
	// "sealed.auction.replay.v1" (auction.ReplayFormat).
	FormatAuction = auction.ReplayFormat
	// FormatBargain is a Negotiation Games replay (negotiation.replay.v1),
	// in sealed's dialect ("format") or, as the top-level "protocol", in
	// the engine's (CheckEngineReplay).
	FormatBargain = "negotiation.replay.v1"
)

// CheckReplay re-simulates a replay of either game and returns the report;
// it is CheckReplayWith with no options.
func CheckReplay(data []byte) (*Report, error) { return CheckReplayWith(data, ReplayOptions{}) }

// CheckReplayWith re-simulates a replay, chosen by its dialect field: a
// top-level "format" is one of sealed's replays (CheckAuctionReplay,
// CheckBargainReplay), a top-level "protocol" one the Negotiation Games
// engine wrote (CheckEngineReplay). o holds the replay to a revealed seed
// and its commitment given from outside: for an engine replay, which
// carries neither, that is the only way to show its seed was fixed before
// play; a sealed replay's own seed and seed_commitment must then equal
// them (a difference otherwise).
//
// It returns an error only when data is not a replay it can read (not a
// JSON object, a leading UTF-8 byte order mark, a duplicate or unknown
// key, neither field or an unknown format or protocol, missing or
// malformed fields, a malformed seed or seed commitment: docs/replays.md,
// "Reading a replay") or o.SeedCommitment comes without o.Seed;
// differences between claim and derivation are in the report.
func CheckReplayWith(data []byte, o ReplayOptions) (*Report, error) {
	return checkReplay(data, o, nil)
}

// checkReplay is CheckReplayWith, recording what it derived in d unless d
// is nil (CheckReplayDerived).
func checkReplay(data []byte, o ReplayOptions, d *Derivation) (*Report, error) {
	key, name, err := replayFormat(data)
	if err != nil {
		return nil, err
	}
	known := (key == "format" && (name == FormatAuction || name == FormatBargain)) ||
		(key == "protocol" && name == bargain.EngineProtocol)
	if !known {
		// About to blame the dialect field: first make sure the replay is
		// well-formed JSON without a second such key.
		if err := checkSyntax(data); err != nil {
			return nil, err
		}
	}
	if o.SeedCommitment != nil && o.Seed == nil {
		return nil, fmt.Errorf("a seed commitment was given without the revealed seed; expected both, or the seed alone")
	}
	var rep *Report
	switch {
	case key == "protocol" && name == bargain.EngineProtocol:
		if d != nil {
			d.Bargain = &BargainDerivation{Engine: true}
		}
		return checkEngineReplay(data, o, d.bargain())
	case key == "protocol":
		return nil, fmt.Errorf("unknown replay protocol %q; expected %q (the Negotiation Games engine's replays)", name, bargain.EngineProtocol)
	case key == "":
		return nil, fmt.Errorf("replay has no \"format\" or \"protocol\" field; expected \"format\" %q or %q (sealed's replays), or \"protocol\" %q (the Negotiation Games engine's)",
			FormatAuction, FormatBargain, bargain.EngineProtocol)
	case name == FormatAuction:
		if d != nil {
			d.Auction = new(AuctionDerivation)
		}
		rep, err = checkAuctionReplay(data, d.auction())
	case name == FormatBargain:
		if d != nil {
			d.Bargain = new(BargainDerivation)
		}
		rep, err = checkBargainReplay(data, d.bargain())
	default:
		return nil, fmt.Errorf("unknown replay format %q; expected %q or %q", name, FormatAuction, FormatBargain)
	}
	if err != nil || o.Seed == nil {
		return rep, err
	}
	var head struct {
		SeedCommitment string `json:"seed_commitment"`
		Seed           string `json:"seed"`
	}
	_ = json.Unmarshal(data, &head) // read strictly above
	if s, err := commit.ParseSeed(head.Seed); err != nil || s != *o.Seed {
		rep.Differences = append(rep.Differences, Difference{Event: -1, Field: "seed", Claimed: head.Seed, Derived: o.Seed.String() + " (the given seed)"})
	}
	if o.SeedCommitment != nil {
		if c, err := commit.ParseCommitment(head.SeedCommitment); err != nil || c != *o.SeedCommitment {
			rep.Differences = append(rep.Differences, Difference{Event: -1, Field: "seed_commitment", Claimed: strings.ToLower(head.SeedCommitment),
				Derived: o.SeedCommitment.String() + " (the given commitment)"})
		}
		if !commit.CheckSeed(*o.Seed, *o.SeedCommitment) {
			rep.SeedCommitmentOK = false
			rep.Differences = append(rep.Differences, Difference{Event: -1, Field: "seed_commitment", Claimed: o.SeedCommitment.String() + " (the given commitment)",
				Derived: o.Seed.Commitment().String() + " (of the given seed)"})
		}
	}
	return rep, nil
}
