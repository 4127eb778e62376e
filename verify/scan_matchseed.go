package verify

import "github.com/sealedhq/sealed/commit"

// contributionList is the scanner's fast path for a replay's
// "contributions" (commit.ReplayContribution).
func (s *scanner) contributionList() []commit.ReplayContribution {
	if !s.begin('[') {
		return nil
	}
	var out []commit.ReplayContribution
	for n := 0; s.elem(&n); {
		var c commit.ReplayContribution
		if !s.begin('{') {
			break
		}
		var seen uint32
		for k := s.key(contributionKeys, -1); k >= 0; k = s.key(contributionKeys, k) {
			s.once(&seen, 1<<k)
			switch k {
			case 0: // "seat"
				c.Seat = s.int()
			case 1: // "client_seed"
				c.ClientSeed = s.string()
			case 2: // "entry"
				v := s.int64()
				c.Entry = &v
			default:
				s.fail()
			}
		}
		if seen&3 != 3 {
			s.fail() // no "seat" or "client_seed": requireMatchInputMembers says which
		}
		out = append(out, c)
	}
	return out
}

// beaconRef is the scanner's fast path for a replay's "beacon"
// (commit.ReplayBeacon).
func (s *scanner) beaconRef() *commit.ReplayBeacon {
	b := new(commit.ReplayBeacon)
	if !s.begin('{') {
		return b
	}
	var seen uint32
	for k := s.key(beaconKeys, -1); k >= 0; k = s.key(beaconKeys, k) {
		s.once(&seen, 1<<k)
		switch k {
		case 0: // "chain"
			b.Chain = s.string()
		case 1: // "round"
			if v := s.int64(); v >= 0 {
				b.Round = uint64(v)
			} else {
				s.fail() // decodeStrict says what is wrong
			}
		case 2: // "signature"
			b.Signature = s.string()
		default:
			s.fail()
		}
	}
	s.all(seen, beaconKeys) // requireMatchInputMembers names a missing one
	return b
}

var (
	contributionKeys = ordered("seat", "client_seed", "entry")
	beaconKeys       = ordered("chain", "round", "signature")
)
