package verify

import "github.com/sealedhq/sealed/rules/auction"

// The auction events as auction.Replay.Encode writes them: no whitespace,
// "type" first, then the members in a fixed order for each type
// (auctionOrders). auctionEventFast reads an event written so in one
// function, each member's name compared as a pattern `,"name":` and its
// value read in place; any other event (another order, whitespace, an
// integer of more than 18 digits, "-0", a leading zero, an escape in a
// name, within 16 bytes of the input's end) makes it give up, and the
// general member loop (auctionEvent) reads the event again from its '{'.
// The general loop accepts a superset with the same values, and neither
// requires a member, so an event that ends early is read alike.

// Indices of auctionEventKeys.
const (
	aeType = iota
	aeItem
	aeSeat
	aePhase
	aeAction
	aeMessage
	aeAmount
	aeBids
	aeWinner
	aePrice
	aeValue
	aeProfit
	aeTieBreak
	aeUnsold
	aePlayers
	aeFields
)

// auctionPats[k] is the pattern `,"name":` of auctionEventKeys name k.
var auctionPats = func() (p [aeFields]keyPat) {
	for k, name := range auctionEventKeys.names {
		p[k] = newKeyPat(`,"`+name+`":`, k)
	}
	return p
}()

// The patterns of the members of a bid and of a player's state after the
// first ("seat").
var (
	bidAmountPat      = newKeyPat(`,"amount":`, 1)
	playerCreditsPat  = newKeyPat(`,"credits":`, 1)
	playerProfitPat   = newKeyPat(`,"profit":`, 2)
	playerItemsWonPat = newKeyPat(`,"items_won":`, 3)
)

// auctionOrders are the members after "type" that Encode writes for each
// event type, in its order; item_result's "tie_break" only when true, an
// action's "message" only for a say. An unsold item_result ("item",
// "unsold") is left to the general loop.
var (
	orderItem         = []uint8{aeItem}
	orderValue        = []uint8{aeItem, aeSeat, aeValue}
	orderAction       = []uint8{aeItem, aeSeat, aeAction, aeMessage}
	orderTimeout      = []uint8{aeItem, aeSeat, aePhase}
	orderBid          = []uint8{aeItem, aeSeat, aeAmount}
	orderBidsRevealed = []uint8{aeItem, aeBids}
	orderItemResult   = []uint8{aeItem, aeWinner, aePrice, aeValue, aeProfit, aeTieBreak}
	orderProfitUpdate = []uint8{aeItem, aePlayers}
	orderAuctionEnd   = []uint8{aePlayers}
)

// auctionEventFast reads the event at s.i into ev if it is written as
// Encode writes it, and reports whether it was; when it was not, ev may
// hold part of the event and s.i and s.failed may have changed (a string
// was read, or was invalid): the caller restores them and reads the event
// again from its '{'.
func (s *scanner) auctionEventFast(ev *auction.Event) bool {
	d, i := s.data, s.i
	if i+26 > len(d) || string(d[i:i+9]) != `{"type":"` {
		return false
	}
	i += 9
	// The type and its closing quote, compared as constants (loads, not
	// a call); i+17 <= len(d) here.
	var order []uint8
	switch d[i] {
	case 'v':
		if string(d[i:i+14]) == `value_private"` {
			ev.Type, order = auction.EventValuePrivate, orderValue
		}
	case 'a':
		if string(d[i:i+7]) == `action"` {
			ev.Type, order = auction.EventAction, orderAction
		} else if string(d[i:i+12]) == `auction_end"` {
			ev.Type, order = auction.EventAuctionEnd, orderAuctionEnd
		}
	case 'b':
		if string(d[i:i+11]) == `bid_placed"` {
			ev.Type, order = auction.EventBidPlaced, orderBid
		} else if string(d[i:i+13]) == `bidding_open"` {
			ev.Type, order = auction.EventBiddingOpen, orderItem
		} else if string(d[i:i+14]) == `bids_revealed"` {
			ev.Type, order = auction.EventBidsRevealed, orderBidsRevealed
		}
	case 'i':
		if string(d[i:i+8]) == `item_up"` {
			ev.Type, order = auction.EventItemUp, orderItem
		} else if string(d[i:i+12]) == `item_result"` {
			ev.Type, order = auction.EventItemResult, orderItemResult
		}
	case 'p':
		if string(d[i:i+14]) == `profit_update"` {
			ev.Type, order = auction.EventProfitUpdate, orderProfitUpdate
		}
	case 't':
		if string(d[i:i+8]) == `timeout"` {
			ev.Type, order = auction.EventTimeout, orderTimeout
		}
	}
	if order == nil {
		return false
	}
	i += len(ev.Type) + 1
	b := s.intRoom()
	for _, k := range order {
		if i < len(d) && d[i] == '}' {
			break
		}
		if p := &auctionPats[k]; p.at(d, i) {
			i += p.n
		} else {
			return false
		}
		var v int
		switch k {
		case aeItem:
			if ev.Item, i = intAt(d, i); i < 0 {
				return false
			}
		case aeSeat, aeAmount, aeWinner, aePrice, aeValue, aeProfit:
			if v, i = intAt(d, i); i < 0 {
				return false
			}
			p := b.put(v)
			switch k {
			case aeSeat:
				ev.Seat = p
			case aeAmount:
				ev.Amount = p
			case aeWinner:
				ev.Winner = p
			case aePrice:
				ev.Price = p
			case aeValue:
				ev.Value = p
			case aeProfit:
				ev.Profit = p
			}
		case aeAction:
			// The two talk actions as constants; anything else (another
			// word, an escape) is read as a string.
			if i+7 <= len(d) && string(d[i:i+6]) == `"pass"` && (d[i+6] == ',' || d[i+6] == '}') {
				ev.Action, i = "pass", i+6
				continue
			}
			if i+6 <= len(d) && string(d[i:i+6]) == `"say",` {
				ev.Action, i = "say", i+5
				continue
			}
			fallthrough
		case aePhase, aeMessage:
			var str string
			if str, _, i = s.textAt(i); i < 0 {
				return false
			}
			switch k {
			case aePhase:
				ev.Phase = str
			case aeAction:
				ev.Action = str
			case aeMessage:
				if ev.Action != "say" {
					return false // requireAuctionMembers names it
				}
				ev.Message = s.strs.one(str)
			}
		case aeTieBreak:
			if ev.TieBreak, i = boolAt(d, i); i < 0 {
				return false
			}
		case aeBids:
			if ev.Bids, i = s.seatBidsAt(d, i); i < 0 {
				return false
			}
		case aePlayers:
			if ev.Players, i = s.playerStatesAt(d, i); i < 0 {
				return false
			}
		}
	}
	if i >= len(d) || d[i] != '}' {
		return false
	}
	s.i = i + 1
	s.keep(b)
	return true
}

// intAt reads at d[i] an integer as uintAt does, or '-' and such an
// integer other than 0, and returns it and the index after it, or -1 for
// the index. Integers of 1 to 3 digits followed by ',' or '}' (nearly all
// of a replay's) are read here, others by intAtSlow.
func intAt(d []byte, i int) (int, int) {
	if i+4 <= len(d) {
		c0 := d[i] - '0'
		if c0 <= 9 {
			c1 := d[i+1]
			if c1 == ',' || c1 == '}' {
				return int(c0), i + 1
			}
			if c1 -= '0'; c1 <= 9 && c0 != 0 {
				c2 := d[i+2]
				if c2 == ',' || c2 == '}' {
					return int(c0)*10 + int(c1), i + 2
				}
				if c2 -= '0'; c2 <= 9 {
					if c3 := d[i+3]; c3 == ',' || c3 == '}' {
						return int(c0)*100 + int(c1)*10 + int(c2), i + 3
					}
				}
			}
		}
	}
	return intAtSlow(d, i)
}

// intAtSlow is intAt for any input.
func intAtSlow(d []byte, i int) (int, int) {
	if i < len(d) && d[i] == '-' {
		v, j := uintAt(d, i+1)
		if j < 0 || v == 0 {
			return 0, -1
		}
		return -v, j
	}
	return uintAt(d, i)
}

// boolAt reads at d[i] true or false followed by ',' or '}' and returns it
// and the index after it, or -1 for the index.
func boolAt(d []byte, i int) (bool, int) {
	switch {
	case i+5 <= len(d) && string(d[i:i+4]) == "true" && (d[i+4] == ',' || d[i+4] == '}'):
		return true, i + 4
	case i+6 <= len(d) && string(d[i:i+5]) == "false" && (d[i+5] == ',' || d[i+5] == '}'):
		return false, i + 5
	}
	return false, -1
}

// seatBidsAt reads at d[i] a bids_revealed list written as Encode writes
// it, [{"seat":S,"amount":A},...] with no whitespace and at most 16 bids,
// and returns it (in s.bids) and the index after it, or -1 for the index.
func (s *scanner) seatBidsAt(d []byte, i int) ([]auction.SeatBid, int) {
	if i >= len(d) || d[i] != '[' {
		return nil, -1
	}
	i++
	vs := s.bids.free(16)
	for i < len(d) && d[i] != ']' {
		if len(vs) > 0 {
			if d[i] != ',' {
				return nil, -1
			}
			i++
		}
		if len(vs) == cap(vs) || i+8 > len(d) || string(d[i:i+8]) != `{"seat":` {
			return nil, -1
		}
		var b auction.SeatBid
		if b.Seat, i = intAt(d, i+8); i < 0 || !bidAmountPat.at(d, i) {
			return nil, -1
		}
		if b.Amount, i = intAt(d, i+bidAmountPat.n); i < 0 || i >= len(d) || d[i] != '}' {
			return nil, -1
		}
		i++
		vs = append(vs, b)
	}
	if i >= len(d) {
		return nil, -1
	}
	return s.bids.take(vs), i + 1
}

// playerStatesAt reads at d[i] a list of players' states written as
// Encode writes it, [{"seat":S,"credits":C,"profit":P,"items_won":W},...]
// with no whitespace and at most 16 states, and returns it (in s.players)
// and the index after it, or -1 for the index.
func (s *scanner) playerStatesAt(d []byte, i int) ([]auction.PlayerState, int) {
	if i >= len(d) || d[i] != '[' {
		return nil, -1
	}
	i++
	vs := s.players.free(16)
	for i < len(d) && d[i] != ']' {
		if len(vs) > 0 {
			if d[i] != ',' {
				return nil, -1
			}
			i++
		}
		if len(vs) == cap(vs) || i+8 > len(d) || string(d[i:i+8]) != `{"seat":` {
			return nil, -1
		}
		var p auction.PlayerState
		if p.Seat, i = intAt(d, i+8); i < 0 || !playerCreditsPat.at(d, i) {
			return nil, -1
		}
		if p.Credits, i = intAt(d, i+playerCreditsPat.n); i < 0 || !playerProfitPat.at(d, i) {
			return nil, -1
		}
		if p.Profit, i = intAt(d, i+playerProfitPat.n); i < 0 || !playerItemsWonPat.at(d, i) {
			return nil, -1
		}
		if p.ItemsWon, i = intAt(d, i+playerItemsWonPat.n); i < 0 || i >= len(d) || d[i] != '}' {
			return nil, -1
		}
		i++
		vs = append(vs, p)
	}
	if i >= len(d) {
		return nil, -1
	}
	return s.players.take(vs), i + 1
}
