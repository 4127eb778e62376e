package verify

import (
	"os"
	"strings"
	"testing"
)

// TestAuctionFieldOfAnotherType (trial 17): an auction event carrying a
// field that belongs to another event type is read, never compared, and
// the replay checks clean: a bids_revealed claiming that seat 2 won item 1
// for 1 on a tie-break, an item_result carrying standings, a pass carrying
// a message, an item_up claiming the item unsold. docs/replays.md
// ("Reading a replay") refuses extra fields because "a field the checker
// does not know would be a claim it silently does not check", and the
// Negotiation Games section refuses a field of another kind as an unknown
// key (exit 2); each of these is such a claim. Want: unreadable (an
// error, exit 2), naming the member, whichever of the scanner's paths
// reads the event.
func TestAuctionFieldOfAnotherType(t *testing.T) {
	data, err := os.ReadFile("testdata/auction_example.json")
	if err != nil {
		t.Fatal(err)
	}
	example := string(data)
	for _, tc := range []struct{ old, new, want string }{
		{`{"type":"bids_revealed","item":1,`, `{"type":"bids_revealed","item":1,"winner":2,"price":1,"tie_break":true,`, `(bids_revealed) has "price"`},
		{`{"type":"item_result","item":1,`, `{"type":"item_result","item":1,"players":[{"seat":0,"credits":1,"profit":99,"items_won":2}],`, `(item_result) has "players"`},
		{`{"type":"action","item":1,"seat":1,"action":"pass"}`, `{"type":"action","item":1,"seat":1,"action":"pass","message":"I bid 99"}`, `(action "pass") has "message"`},
		{`{"type":"item_up","item":1}`, `{"type":"item_up","item":1,"unsold":true}`, `(item_up) has "unsold"`},
		{`{"type":"bid_placed","item":1,"seat":2,"amount":30}`, `{"type":"bid_placed","item":1,"seat":2,"amount":30,"value":99}`, `(bid_placed) has "value"`},
		// The members in another order, and spaced, as a hand edit leaves
		// them: the scanner's general loop, not its fast path, reads them.
		{`{"type":"action","item":1,"seat":1,"action":"pass"}`, `{"message": "I bid 99", "type": "action", "item": 1, "seat": 1, "action": "pass"}`, `(action "pass") has "message"`},
		{`{"type":"item_up","item":1}`, `{"item": 1, "bids": [], "type": "item_up"}`, `(item_up) has "bids"`},
		{`{"type":"bid_placed","item":1,"seat":2,"amount":30}`, `{"type": "bid_placed", "item": 1, "seat": 2, "amount": 30, "phase": "bid"}`, `(bid_placed) has "phase"`},
	} {
		if strings.Count(example, tc.old) != 1 {
			t.Fatalf("the example has %s %d times; want once", tc.old, strings.Count(example, tc.old))
		}
		rep, err := CheckAuctionReplay([]byte(strings.Replace(example, tc.old, tc.new, 1)))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: report %+v, error %v; want an error saying %s", tc.new, rep, err, tc.want)
		}
	}
	// The members each type has, in another order and spaced, and a say's
	// message, are still read.
	for _, tc := range []struct{ old, new string }{
		{`{"type":"bid_placed","item":1,"seat":2,"amount":30}`, `{"amount": 30, "message": "thirty", "seat": 2, "item": 1, "type": "bid_placed"}`},
		{`{"type":"item_up","item":1}`, `{ "item" : 1 , "type" : "item_up" }`},
	} {
		if strings.Count(example, tc.old) != 1 {
			t.Fatalf("the example has %s %d times; want once", tc.old, strings.Count(example, tc.old))
		}
		if rep, err := CheckAuctionReplay([]byte(strings.Replace(example, tc.old, tc.new, 1))); err != nil || !rep.Clean() {
			t.Errorf("%s: report %+v, error %v; want it clean", tc.new, rep, err)
		}
	}
}
