package verify

import (
	"fmt"
	"strings"

	json "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// auctionMembers is the shape of the auction replay's objects whose
// members are all required (docs/replays.md, "Reading a replay"): an
// event's bids and players' states, the ranking's standings and the
// payouts. Their numbers are Go ints, which a member left out would leave
// at 0, so that a missing ranking score of 0 would check clean and any
// other would be reported as a claim of 0 the replay never made.
type auctionMembers struct {
	Events []struct {
		Bids    []map[string]jsontext.Value `json:"bids"`
		Players []map[string]jsontext.Value `json:"players"`
	} `json:"events"`
	Results struct {
		Ranking []map[string]jsontext.Value `json:"ranking"`
		Payouts []map[string]jsontext.Value `json:"payouts"`
	} `json:"results"`
}

// The members each of those objects must have, in the order the format
// writes them.
var (
	seatBidMembers     = []string{"seat", "amount"}
	playerStateMembers = []string{"seat", "credits", "profit", "items_won"}
	standingMembers    = []string{"seat", "rank", "score", "credits"}
	seatPayoutMembers  = []string{"seat", "amount"}
)

// requireAuctionMembers returns an error naming the first of those
// objects in data, an auction replay decodeStrict has read, that lacks a
// member: "reading auction replay: results.ranking[1] has no "score";
// expected seat, rank, score and credits (a number left out is not read
// as 0)". The scanner's fast path gives such a replay to decodeStrict,
// so the error is the same whichever reads it first.
func requireAuctionMembers(data []byte) error {
	var m auctionMembers
	if err := json.Unmarshal(data, &m); err != nil {
		return nil // decodeStrict read it: not reached
	}
	for i, ev := range m.Events {
		if err := requireMembers(fmt.Sprintf("event %d, bids", i), ev.Bids, seatBidMembers); err != nil {
			return err
		}
		if err := requireMembers(fmt.Sprintf("event %d, players", i), ev.Players, playerStateMembers); err != nil {
			return err
		}
	}
	if err := requireMembers("results.ranking", m.Results.Ranking, standingMembers); err != nil {
		return err
	}
	return requireMembers("results.payouts", m.Results.Payouts, seatPayoutMembers)
}

// requireMembers checks that every object of the list field has each of
// names.
func requireMembers(field string, objs []map[string]jsontext.Value, names []string) error {
	for j, o := range objs {
		for _, n := range names {
			if _, ok := o[n]; !ok {
				return fmt.Errorf("reading auction replay: %s[%d] has no %q; expected %s (a number left out is not read as 0)",
					field, j, n, listAnd(names))
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
