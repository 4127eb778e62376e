package verify

import (
	"github.com/cockroachdb/apd/v3"
	"github.com/sealedhq/sealed/rules/auction"
)

// decodeAuction reads the auction replay s scans strictly into r: the
// scanner's fast path, or decodeStrict (and its error) when the fast path
// gives up. r may hold memory of s until s.release.
func (s *scanner) decodeAuction(r *auction.Replay) error {
	if s.auctionReplay(r) {
		return nil
	}
	*r = auction.Replay{}
	return decodeStrict(s.data, r, "auction replay")
}

// auctionReplay is the scanner's fast path for auction.Replay; false
// means it gave up (r then holds a partial read).
func (s *scanner) auctionReplay(r *auction.Replay) bool {
	if !s.begin('{') {
		return false
	}
	var seen uint32
	for n := 0; s.member(&n); {
		switch string(s.data[s.k0:s.k1]) {
		case "format":
			s.once(&seen, 1<<0)
			r.Format = s.string()
		case "rules_version":
			s.once(&seen, 1<<1)
			r.RulesVersion = s.string()
		case "config":
			s.once(&seen, 1<<2)
			s.auctionConfig(&r.Config)
		case "seed_commitment":
			s.once(&seen, 1<<3)
			r.SeedCommitment = s.string()
		case "seed":
			s.once(&seen, 1<<4)
			r.Seed = s.string()
		case "seats":
			s.once(&seen, 1<<5)
			r.Seats = s.stringList()
		case "events":
			s.once(&seen, 1<<6)
			r.Events = s.auctionEventList()
		case "results":
			s.once(&seen, 1<<7)
			s.auctionResults(&r.Results)
		case "contributions":
			s.once(&seen, 1<<8)
			r.Contributions = s.contributionList()
		case "beacon":
			s.once(&seen, 1<<9)
			r.Beacon = s.beaconRef()
		default:
			s.fail()
		}
	}
	return s.end()
}

func (s *scanner) auctionConfig(c *auction.Config) {
	if !s.begin('{') {
		return
	}
	var seen uint32
	for n := 0; s.member(&n); {
		switch string(s.data[s.k0:s.k1]) {
		case "players":
			s.once(&seen, 1<<0)
			c.Players = s.int()
		case "items":
			s.once(&seen, 1<<1)
			c.Items = s.int()
		case "starting_credits":
			s.once(&seen, 1<<2)
			c.StartingCredits = s.int()
		case "value_min":
			s.once(&seen, 1<<3)
			c.ValueMin = s.int()
		case "value_max":
			s.once(&seen, 1<<4)
			c.ValueMax = s.int()
		case "talk_rounds":
			s.once(&seen, 1<<5)
			c.TalkRounds = s.int()
		case "pricing":
			s.once(&seen, 1<<6)
			c.Pricing = auction.Pricing(s.string())
		case "stake":
			s.once(&seen, 1<<7)
			c.Stake = s.decimal()
		case "rake":
			s.once(&seen, 1<<8)
			c.Rake = s.decimal()
		case "payout_unit":
			s.once(&seen, 1<<9)
			c.PayoutUnit = s.decimal()
		default:
			s.fail()
		}
	}
}

// decimal reads a JSON string into a new apd.Decimal with its
// UnmarshalText, as decodeStrict does.
func (s *scanner) decimal() *apd.Decimal {
	text := s.string()
	if s.failed {
		return nil
	}
	d := new(apd.Decimal)
	if err := d.UnmarshalText([]byte(text)); err != nil {
		s.fail()
		return nil
	}
	return d
}

func (s *scanner) auctionEventList() []auction.Event {
	if !s.begin('[') {
		return nil
	}
	evs := s.auctionEvents[:0]
	for n := 0; s.elem(&n); {
		evs = append(evs, auction.Event{})
		s.auctionEvent(&evs[len(evs)-1])
	}
	s.auctionEvents = evs
	if len(evs) == 0 {
		return []auction.Event{}
	}
	return evs[:len(evs):len(evs)]
}

func (s *scanner) auctionEvent(ev *auction.Event) {
	if !s.begin('{') {
		return
	}
	var seen uint32
	for n := 0; s.member(&n); {
		switch string(s.data[s.k0:s.k1]) {
		case "type":
			s.once(&seen, 1<<0)
			ev.Type = s.string()
		case "item":
			s.once(&seen, 1<<1)
			ev.Item = s.int()
		case "seat":
			s.once(&seen, 1<<2)
			ev.Seat = s.intPtr()
		case "phase":
			s.once(&seen, 1<<3)
			ev.Phase = s.string()
		case "action":
			s.once(&seen, 1<<4)
			ev.Action = s.string()
		case "message":
			s.once(&seen, 1<<5)
			ev.Message = s.stringPtr()
		case "amount":
			s.once(&seen, 1<<6)
			ev.Amount = s.intPtr()
		case "bids":
			s.once(&seen, 1<<7)
			ev.Bids = s.seatBids()
		case "winner":
			s.once(&seen, 1<<8)
			ev.Winner = s.intPtr()
		case "price":
			s.once(&seen, 1<<9)
			ev.Price = s.intPtr()
		case "value":
			s.once(&seen, 1<<10)
			ev.Value = s.intPtr()
		case "profit":
			s.once(&seen, 1<<11)
			ev.Profit = s.intPtr()
		case "tie_break":
			s.once(&seen, 1<<12)
			ev.TieBreak = s.bool()
		case "unsold":
			s.once(&seen, 1<<13)
			ev.Unsold = s.bool()
		case "players":
			s.once(&seen, 1<<14)
			ev.Players = s.playerStates()
		default:
			s.fail()
		}
	}
}

func (s *scanner) seatBids() []auction.SeatBid {
	if !s.begin('[') {
		return nil
	}
	var tmp [16]auction.SeatBid
	vs := tmp[:0]
	for n := 0; s.elem(&n); {
		var b auction.SeatBid
		if !s.begin('{') {
			break
		}
		var seen uint32
		for n := 0; s.member(&n); {
			switch string(s.data[s.k0:s.k1]) {
			case "seat":
				s.once(&seen, 1<<0)
				b.Seat = s.int()
			case "amount":
				s.once(&seen, 1<<1)
				b.Amount = s.int()
			default:
				s.fail()
			}
		}
		vs = append(vs, b)
	}
	return s.bids.many(vs)
}

func (s *scanner) playerStates() []auction.PlayerState {
	if !s.begin('[') {
		return nil
	}
	var tmp [16]auction.PlayerState
	vs := tmp[:0]
	for n := 0; s.elem(&n); {
		var p auction.PlayerState
		if !s.begin('{') {
			break
		}
		var seen uint32
		for n := 0; s.member(&n); {
			switch string(s.data[s.k0:s.k1]) {
			case "seat":
				s.once(&seen, 1<<0)
				p.Seat = s.int()
			case "credits":
				s.once(&seen, 1<<1)
				p.Credits = s.int()
			case "profit":
				s.once(&seen, 1<<2)
				p.Profit = s.int()
			case "items_won":
				s.once(&seen, 1<<3)
				p.ItemsWon = s.int()
			default:
				s.fail()
			}
		}
		vs = append(vs, p)
	}
	return s.players.many(vs)
}

func (s *scanner) auctionResults(r *auction.Results) {
	if !s.begin('{') {
		return
	}
	var seen uint32
	for n := 0; s.member(&n); {
		switch string(s.data[s.k0:s.k1]) {
		case "ranking":
			s.once(&seen, 1<<0)
			if !s.begin('[') {
				break
			}
			r.Ranking = []auction.Standing{}
			for n := 0; s.elem(&n); {
				var st auction.Standing
				if !s.begin('{') {
					break
				}
				var seen uint32
				for n := 0; s.member(&n); {
					switch string(s.data[s.k0:s.k1]) {
					case "seat":
						s.once(&seen, 1<<0)
						st.Seat = s.int()
					case "rank":
						s.once(&seen, 1<<1)
						st.Rank = s.int()
					case "score":
						s.once(&seen, 1<<2)
						st.Score = s.int()
					case "credits":
						s.once(&seen, 1<<3)
						st.Credits = s.int()
					default:
						s.fail()
					}
				}
				r.Ranking = append(r.Ranking, st)
			}
		case "pot":
			s.once(&seen, 1<<1)
			r.Pot = s.decimal()
		case "rake":
			s.once(&seen, 1<<2)
			r.Rake = s.decimal()
		case "payouts":
			s.once(&seen, 1<<3)
			if !s.begin('[') {
				break
			}
			r.Payouts = []auction.SeatPayout{}
			for n := 0; s.elem(&n); {
				var p auction.SeatPayout
				if !s.begin('{') {
					break
				}
				var seen uint32
				for n := 0; s.member(&n); {
					switch string(s.data[s.k0:s.k1]) {
					case "seat":
						s.once(&seen, 1<<0)
						p.Seat = s.int()
					case "amount":
						s.once(&seen, 1<<1)
						p.Amount = s.decimal()
					default:
						s.fail()
					}
				}
				r.Payouts = append(r.Payouts, p)
			}
		default:
			s.fail()
		}
	}
}
