package verify

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	json "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/sealedhq/sealed/rules/auction"
)

// auctionMembers is the shape of the auction replay's objects whose
// members are all required (docs/replays.md, "Reading a replay"): the
// config's members without a default, an event's bids and players'
// states, the ranking's standings, the payouts, the contributions and the
// beacon. Their numbers are Go ints, which a member left out would leave
// at 0, so that a missing ranking score of 0 would check clean and any
// other would be reported as a claim of 0 the replay never made. The
// events are read whole, so that a member of another type of event is
// seen too.
type auctionMembers struct {
	Config  map[string]jsontext.Value   `json:"config"`
	Events  []map[string]jsontext.Value `json:"events"`
	Results struct {
		Ranking []map[string]jsontext.Value `json:"ranking"`
		Payouts []map[string]jsontext.Value `json:"payouts"`
	} `json:"results"`
	matchInputMembers
}

// The members each of those objects must have, in the order the format
// writes them. auctionConfigMembers are the config's first members in
// auctionConfigKeys, the ones without a default (stake, rake and
// payout_unit have one: docs/replays.md, "Sealed auction replays").
var (
	auctionConfigMembers = []string{"players", "items", "starting_credits", "value_min", "value_max", "talk_rounds", "pricing"}
	seatBidMembers       = []string{"seat", "amount"}
	playerStateMembers   = []string{"seat", "credits", "profit", "items_won"}
	standingMembers      = []string{"seat", "rank", "score", "credits"}
	seatPayoutMembers    = []string{"seat", "amount"}
)

// auctionEventMembers are the members each type of auction event has
// besides "type" (docs/replays.md, "Events"): a member of another type
// (a "winner" on a bids_revealed, "players" on an item_result) would be a
// claim the check never compares, so it makes the replay unreadable. An
// action's "message" belongs to a say only (auctionEventHas).
var auctionEventMembers = map[string][]string{
	auction.EventItemUp:       {"item"},
	auction.EventValuePrivate: {"item", "seat", "value"},
	auction.EventAction:       {"item", "seat", "action", "message"},
	auction.EventTimeout:      {"item", "seat", "phase"},
	auction.EventBiddingOpen:  {"item"},
	auction.EventBidPlaced:    {"item", "seat", "amount", "message"},
	auction.EventBidsRevealed: {"item", "bids"},
	auction.EventItemResult:   {"item", "winner", "price", "value", "profit", "tie_break", "unsold"},
	auction.EventProfitUpdate: {"item", "players"},
	auction.EventAuctionEnd:   {"players"},
}

// auctionEventMasks are auctionEventMembers as bits of auctionEventKeys
// ("type" included), for the scanner; an action's "message" is among them,
// and auctionEventFits leaves it to a say.
var auctionEventMasks = func() map[string]uint32 {
	m := make(map[string]uint32, len(auctionEventMembers))
	for typ, members := range auctionEventMembers {
		mask := uint32(1) << slices.Index(auctionEventKeys.names, "type")
		for _, name := range members {
			mask |= 1 << slices.Index(auctionEventKeys.names, name)
		}
		m[typ] = mask
	}
	return m
}()

// auctionEventFits reports whether seen, the bits of auctionEventKeys an
// auction event of type typ and action action has, are all members of
// its type: those of auctionEventMembers and "type", an action's
// "message" for a say only. An event of a type the format does not
// define may have any member of an event: the check reports its type as
// a difference.
func auctionEventFits(typ, action string, seen uint32) bool {
	mask, ok := auctionEventMasks[typ]
	if !ok {
		return true
	}
	if typ == auction.EventAction && action != "say" {
		mask &^= 1 << aeMessage
	}
	return seen&^mask == 0
}

// matchInputMembers is the shape of a replay's contributions and beacon
// (docs/replays.md, "Contributions and a beacon"), whose members are
// required as the auction objects' are: a seat left out would otherwise be
// read as seat 0, and a round as round 0.
type matchInputMembers struct {
	Contributions []map[string]jsontext.Value `json:"contributions"`
	Beacon        map[string]jsontext.Value   `json:"beacon"`
}

// check returns an error naming the first contribution, or the beacon,
// that lacks a member, in the replay what.
func (m *matchInputMembers) check(what string) error {
	if err := requireMembers(what, "contributions", m.Contributions, contributionMembers); err != nil {
		return err
	}
	if m.Beacon != nil {
		for _, n := range beaconMembers {
			if _, ok := m.Beacon[n]; !ok {
				return fmt.Errorf("reading %s: beacon has no %q; expected %s (a number left out is not read as 0)", what, n, listAnd(beaconMembers))
			}
		}
	}
	return nil
}

var (
	contributionMembers = []string{"seat", "client_seed"} // "entry" is optional
	beaconMembers       = []string{"chain", "round", "signature"}
)

// requireMatchInputMembers returns an error naming the first contribution,
// or the beacon, of data (a replay decodeStrict has read, what naming it
// as there) that lacks a member: "reading auction replay:
// contributions[0] has no "seat"; expected seat and client_seed (a number
// left out is not read as 0)".
func requireMatchInputMembers(data []byte, what string) error {
	var m matchInputMembers
	if err := json.Unmarshal(data, &m); err != nil {
		return nil // decodeStrict read it: not reached
	}
	return m.check(what)
}

// requireAuctionMembers returns an error naming the first of those
// objects in data, an auction replay decodeStrict has read, that lacks a
// member: "reading auction replay: results.ranking[1] has no "score";
// expected seat, rank, score and credits (a number left out is not read
// as 0)"; or the first event that has a member of another type (event 12
// (bids_revealed) has "winner" ...); or a contribution or the beacon
// lacking a member (requireMatchInputMembers). The scanner's fast path
// gives such a replay to decodeStrict, so the error is the same whichever
// reads it first.
func requireAuctionMembers(data []byte) error {
	const what = "auction replay"
	var m auctionMembers
	if err := json.Unmarshal(data, &m); err != nil {
		return nil // decodeStrict read it: not reached
	}
	for _, n := range auctionConfigMembers {
		if _, ok := m.Config[n]; !ok && m.Config != nil {
			return fmt.Errorf("reading %s: config has no %q; expected %s, and optionally stake, rake and payout_unit (a number left out is not read as 0)", what, n, listAnd(auctionConfigMembers))
		}
	}
	for i, ev := range m.Events {
		if err := eventMembersFit(i, ev); err != nil {
			return err
		}
		for _, l := range []struct {
			name    string
			members []string
		}{{"bids", seatBidMembers}, {"players", playerStateMembers}} {
			var objs []map[string]jsontext.Value
			if v, ok := ev[l.name]; ok && json.Unmarshal(v, &objs) != nil {
				return nil // decodeStrict read it: not reached
			}
			if err := requireMembers(what, fmt.Sprintf("event %d, %s", i, l.name), objs, l.members); err != nil {
				return err
			}
		}
	}
	if err := requireMembers(what, "results.ranking", m.Results.Ranking, standingMembers); err != nil {
		return err
	}
	if err := requireMembers(what, "results.payouts", m.Results.Payouts, seatPayoutMembers); err != nil {
		return err
	}
	return m.matchInputMembers.check(what)
}

// eventMembersFit returns an error naming the first member, in name
// order, of auction event i (its members ev) that its type does not have
// (auctionEventFits).
func eventMembersFit(i int, ev map[string]jsontext.Value) error {
	var typ, action string
	json.Unmarshal(ev["type"], &typ)      // decodeStrict read it as a string
	json.Unmarshal(ev["action"], &action) // or it is absent: ""
	for _, name := range slices.Sorted(maps.Keys(ev)) {
		// decodeStrict refused a name auctionEventKeys does not hold.
		if auctionEventFits(typ, action, 1<<slices.Index(auctionEventKeys.names, name)) {
			continue
		}
		if name == "message" {
			return fmt.Errorf("reading auction replay: event %d (action %q) has \"message\", which only a say has (a pass or a timeout says nothing)", i, action)
		}
		return fmt.Errorf("reading auction replay: event %d (%s) has %q, which a %s event does not have; its members are type, %s (a member the check does not compare would be a claim it does not check)",
			i, typ, name, typ, listAnd(auctionEventMembers[typ]))
	}
	return nil
}

// requireMembers checks that every object of the list field of the
// replay what ("auction replay") has each of names.
func requireMembers(what, field string, objs []map[string]jsontext.Value, names []string) error {
	for j, o := range objs {
		for _, n := range names {
			if _, ok := o[n]; !ok {
				return fmt.Errorf("reading %s: %s[%d] has no %q; expected %s (a number left out is not read as 0)",
					what, field, j, n, listAnd(names))
			}
		}
	}
	return nil
}

// listAnd joins names as "a, b and c".
func listAnd(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}
