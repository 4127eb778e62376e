package verify

import (
	"encoding/json"

	"github.com/sealedhq/sealed/commit"
)

// Difference is one place where a replay's claim differs from what the rules
// derive from its revealed seed and events.
type Difference struct {
	// Event is the 0-based index of the event in the replay's event list,
	// or -1 for a difference in the replay's header (seed, config) or in its
	// claimed final results.
	Event int `json:"event"`
	// Field names what differs, as a JSON-path-like name relative to the
	// event or results, for example "price", "values[2][1]", "results.scores[0]".
	Field string `json:"field"`
	// Claimed is the value the replay claims, rendered as text.
	Claimed string `json:"claimed"`
	// Derived is the value re-derived from the seed and the rules.
	Derived string `json:"derived"`
}

// Report is the outcome of re-simulating one replay.
type Report struct {
	// Format is the replay's format name, "sealed.auction.replay.v1" or
	// "negotiation.replay.v1".
	Format string `json:"format"`
	// SeedCommitmentOK reports whether the revealed seed hashes to the seed
	// commitment the replay carries (docs/commitments.md, seeds).
	SeedCommitmentOK bool `json:"seed_commitment_ok"`
	// Dialect is "engine" for a replay written by the Negotiation Games
	// engine itself (docs/replays.md, "Engine replays"), and empty for
	// sealed's own replays.
	Dialect string `json:"dialect,omitempty"`
	// SeedNotCommitted is set when no seed commitment was checked: an
	// engine replay carries only its integer seed, so unless the check was
	// given the revealed 256-bit seed and its commitment, a clean report
	// shows that the claims follow from that seed, and nothing shows the
	// seed was fixed before play. SeedCommitmentOK is then false.
	SeedNotCommitted bool `json:"seed_not_committed,omitempty"`
	// MatchSeed is the seed the draws came from (commit.MatchSeed, 64
	// lowercase hex) when the replay carries contributions or a beacon;
	// empty when the draws came from the revealed seed itself.
	MatchSeed string `json:"match_seed,omitempty"`
	// Contributions are the client seeds that went into MatchSeed, as the
	// replay carries them; Beacon the drand round, when one did.
	Contributions []commit.ReplayContribution `json:"contributions,omitempty"`
	Beacon        *BeaconReport               `json:"beacon,omitempty"`
	// Events is the number of events re-simulated.
	Events int `json:"events"`
	// Differences lists every difference found, in event order; empty for a
	// clean replay. In JSON it is always a list, [] when empty (never null).
	Differences []Difference `json:"differences"`
	// Notes are plain sentences about what the check could not show or
	// did not check (for an engine replay: the seed was not committed;
	// which turns results.fallbacks counts is not derivable). They are not
	// differences.
	Notes []string `json:"notes,omitempty"`
}

// MarshalJSON writes the report with its json tags, and "differences" as []
// when there are none (docs/replays.md: the report's differences are a
// list).
func (r Report) MarshalJSON() ([]byte, error) {
	type plain Report // without the method, so no recursion
	p := plain(r)
	if p.Differences == nil {
		p.Differences = []Difference{}
	}
	return json.Marshal(p)
}

// Clean reports whether nothing differed and the replay's seed matched its
// commitment, or no commitment was checked (SeedNotCommitted: then Notes
// say that nothing shows the seed was fixed before play).
func (r *Report) Clean() bool {
	return (r.SeedCommitmentOK || r.SeedNotCommitted) && len(r.Differences) == 0
}
