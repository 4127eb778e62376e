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
		for m := 0; s.member(&m); {
			switch string(s.data[s.k0:s.k1]) {
			case "seat":
				s.once(&seen, 1<<0)
				c.Seat = s.int()
			case "client_seed":
				s.once(&seen, 1<<1)
				c.ClientSeed = s.string()
			case "entry":
				s.once(&seen, 1<<2)
				v := s.int64()
				c.Entry = &v
			default:
				s.fail()
			}
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
	for m := 0; s.member(&m); {
		switch string(s.data[s.k0:s.k1]) {
		case "chain":
			s.once(&seen, 1<<0)
			b.Chain = s.string()
		case "round":
			s.once(&seen, 1<<1)
			if v := s.int64(); v >= 0 {
				b.Round = uint64(v)
			} else {
				s.fail() // decodeStrict says what is wrong
			}
		case "signature":
			s.once(&seen, 1<<2)
			b.Signature = s.string()
		default:
			s.fail()
		}
	}
	return b
}
