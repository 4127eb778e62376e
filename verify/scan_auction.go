package verify

import (
	"github.com/cockroachdb/apd/v3"
	"github.com/sealedhq/sealed/rules/auction"
)

// decodeAuction reads the auction replay s scans strictly into r: the
// scanner's fast path, or decodeStrict (and its error) when the fast path
// gives up. r may hold memory of s until s.release, and its events'
// strings point into s's input and memory: r must not be kept past
// s.release nor the input changed while it is used.
func (s *scanner) decodeAuction(r *auction.Replay) error {
	if s.auctionReplay(r) {
		return nil
	}
	*r = auction.Replay{}
	if err := decodeStrict(s.data, r, "auction replay"); err != nil {
		return err
	}
	return requireAuctionMembers(s.data)
}

// auctionReplay is the scanner's fast path for auction.Replay; false
// means it gave up (r then holds a partial read).
func (s *scanner) auctionReplay(r *auction.Replay) bool {
	if !s.begin('{') {
		return false
	}
	var seen uint32
	for k := s.key(auctionReplayKeys, -1); k >= 0; k = s.key(auctionReplayKeys, k) {
		s.once(&seen, 1<<k)
		switch k {
		case 0: // "format"
			r.Format = s.string()
		case 1: // "rules_version"
			r.RulesVersion = s.string()
		case 2: // "config"
			s.auctionConfig(&r.Config)
		case 3: // "seed_commitment"
			r.SeedCommitment = s.string()
		case 4: // "seed"
			r.Seed = s.string()
		case 5: // "seats"
			r.Seats = s.stringList()
		case 6: // "events"
			r.Events = s.auctionEventList()
		case 7: // "results"
			s.auctionResults(&r.Results)
		case 8: // "contributions"
			r.Contributions = s.contributionList()
		case 9: // "beacon"
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
	for k := s.key(auctionConfigKeys, -1); k >= 0; k = s.key(auctionConfigKeys, k) {
		s.once(&seen, 1<<k)
		switch k {
		case 0: // "players"
			c.Players = s.int()
		case 1: // "items"
			c.Items = s.int()
		case 2: // "starting_credits"
			c.StartingCredits = s.int()
		case 3: // "value_min"
			c.ValueMin = s.int()
		case 4: // "value_max"
			c.ValueMax = s.int()
		case 5: // "talk_rounds"
			c.TalkRounds = s.int()
		case 6: // "pricing"
			c.Pricing = auction.Pricing(s.string())
		case 7: // "stake"
			c.Stake = s.decimal()
		case 8: // "rake"
			c.Rake = s.decimal()
		case 9: // "payout_unit"
			c.PayoutUnit = s.decimal()
		default:
			s.fail()
		}
	}
	if seen&(1<<len(auctionConfigMembers)-1) != 1<<len(auctionConfigMembers)-1 {
		s.fail() // a required member left out: requireAuctionMembers names it
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
	// The events' strings (types, phases, actions, messages) point into
	// the input and the scanner's arena: CheckAuctionReplay keeps none of
	// them past the check (auctionChecker.diff copies its claims).
	alias := s.alias
	s.alias = true
	defer func() { s.alias = alias }()
	evs := s.auctionEvents[:0]
	for n := 0; ; {
		// Encode's separator, ",\n    " before an event, is skipped here
		// at once; elem reads any other.
		if d, i := s.data, s.i; n > 0 && i+7 <= len(d) && string(d[i:i+7]) == ",\n    {" {
			s.i = i + 6
			n++
		} else if !s.elem(&n) {
			break
		}
		evs = append(evs, auction.Event{})
		ev := &evs[len(evs)-1]
		if s.peek() == '{' {
			if start := s.i; !s.auctionEventFast(ev) {
				*ev = auction.Event{}
				s.i, s.failed = start, false
				s.auctionEvent(ev)
			}
		} else {
			s.auctionEvent(ev)
		}
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
	for k := s.key(auctionEventKeys, -1); k >= 0; k = s.key(auctionEventKeys, k) {
		s.once(&seen, 1<<k)
		switch k {
		case 0: // "type"
			ev.Type = s.string()
		case 1: // "item"
			ev.Item = s.int()
		case 2: // "seat"
			ev.Seat = s.intPtr()
		case 3: // "phase"
			ev.Phase = s.string()
		case 4: // "action"
			ev.Action = s.string()
		case 5: // "message"
			ev.Message = s.stringPtr()
		case 6: // "amount"
			ev.Amount = s.intPtr()
		case 7: // "bids"
			ev.Bids = s.seatBids()
		case 8: // "winner"
			ev.Winner = s.intPtr()
		case 9: // "price"
			ev.Price = s.intPtr()
		case 10: // "value"
			ev.Value = s.intPtr()
		case 11: // "profit"
			ev.Profit = s.intPtr()
		case 12: // "tie_break"
			ev.TieBreak = s.bool()
		case 13: // "unsold"
			ev.Unsold = s.bool()
		case 14: // "players"
			ev.Players = s.playerStates()
		default:
			s.fail()
		}
	}
	if !auctionEventFits(ev.Type, ev.Action, seen) {
		s.fail() // requireAuctionMembers names the member
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
		for k := s.key(seatBidKeys, -1); k >= 0; k = s.key(seatBidKeys, k) {
			s.once(&seen, 1<<k)
			switch k {
			case 0: // "seat"
				b.Seat = s.int()
			case 1: // "amount"
				b.Amount = s.int()
			default:
				s.fail()
			}
		}
		s.all(seen, seatBidKeys)
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
		for k := s.key(playerStateKeys, -1); k >= 0; k = s.key(playerStateKeys, k) {
			s.once(&seen, 1<<k)
			switch k {
			case 0: // "seat"
				p.Seat = s.int()
			case 1: // "credits"
				p.Credits = s.int()
			case 2: // "profit"
				p.Profit = s.int()
			case 3: // "items_won"
				p.ItemsWon = s.int()
			default:
				s.fail()
			}
		}
		s.all(seen, playerStateKeys)
		vs = append(vs, p)
	}
	return s.players.many(vs)
}

func (s *scanner) auctionResults(r *auction.Results) {
	if !s.begin('{') {
		return
	}
	var seen uint32
	for k := s.key(auctionResultsKeys, -1); k >= 0; k = s.key(auctionResultsKeys, k) {
		s.once(&seen, 1<<k)
		switch k {
		case 0: // "ranking"
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
				for k := s.key(standingKeys, -1); k >= 0; k = s.key(standingKeys, k) {
					s.once(&seen, 1<<k)
					switch k {
					case 0: // "seat"
						st.Seat = s.int()
					case 1: // "rank"
						st.Rank = s.int()
					case 2: // "score"
						st.Score = s.int()
					case 3: // "credits"
						st.Credits = s.int()
					default:
						s.fail()
					}
				}
				s.all(seen, standingKeys)
				r.Ranking = append(r.Ranking, st)
			}
		case 1: // "pot"
			r.Pot = s.decimal()
		case 2: // "rake"
			r.Rake = s.decimal()
		case 3: // "payouts"
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
				for k := s.key(seatPayoutKeys, -1); k >= 0; k = s.key(seatPayoutKeys, k) {
					s.once(&seen, 1<<k)
					switch k {
					case 0: // "seat"
						p.Seat = s.int()
					case 1: // "amount"
						p.Amount = s.decimal()
					default:
						s.fail()
					}
				}
				s.all(seen, seatPayoutKeys)
				r.Payouts = append(r.Payouts, p)
			}
		default:
			s.fail()
		}
	}
}

// The member names of an auction replay's objects (auction.Replay's json
// tags), in the order of their field indices, which is the order
// auction.Replay.Encode writes them in; events list the orders of each
// event type, most frequent first.
var (
	auctionReplayKeys = ordered("format", "rules_version", "config", "seed_commitment", "seed", "seats", "events", "results", "contributions", "beacon")
	auctionConfigKeys = ordered("players", "items", "starting_credits", "value_min", "value_max", "talk_rounds", "pricing", "stake", "rake", "payout_unit")
	auctionEventKeys  = newKeySet([]string{"type", "item", "seat", "phase", "action", "message", "amount", "bids", "winner", "price", "value", "profit", "tie_break", "unsold", "players"},
		[]string{"type", "item", "seat", "value"},                                   // value_private
		[]string{"type", "item", "seat", "amount"},                                  // bid_placed
		[]string{"type", "item", "seat", "action", "message"},                       // action
		[]string{"type", "item", "seat", "phase"},                                   // timeout
		[]string{"type", "item", "bids"},                                            // bids_revealed
		[]string{"type", "item", "winner", "price", "value", "profit", "tie_break"}, // item_result
		[]string{"type", "item", "players"},                                         // profit_update
		[]string{"type", "players"},                                                 // auction_end
		[]string{"type", "item", "unsold"},                                          // item_result, unsold
	)
	seatBidKeys        = ordered("seat", "amount")
	playerStateKeys    = ordered("seat", "credits", "profit", "items_won")
	auctionResultsKeys = ordered("ranking", "pot", "rake", "payouts")
	standingKeys       = ordered("seat", "rank", "score", "credits")
	seatPayoutKeys     = ordered("seat", "amount")
)
