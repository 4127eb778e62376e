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
// key (exit 2); each of these is such a claim. Want: not clean (an error,
// as for bargaining, or a difference).
func TestAuctionFieldOfAnotherType(t *testing.T) {
	data, err := os.ReadFile("testdata/auction_example.json")
	if err != nil {
		t.Fatal(err)
	}
	example := string(data)
	for _, tc := range []struct{ old, new string }{
		{`{"type":"bids_revealed","item":1,`, `{"type":"bids_revealed","item":1,"winner":2,"price":1,"tie_break":true,`},
		{`{"type":"item_result","item":1,`, `{"type":"item_result","item":1,"players":[{"seat":0,"credits":1,"profit":99,"items_won":2}],`},
		{`{"type":"action","item":1,"seat":1,"action":"pass"}`, `{"type":"action","item":1,"seat":1,"action":"pass","message":"I bid 99"}`},
		{`{"type":"item_up","item":1}`, `{"type":"item_up","item":1,"unsold":true}`},
		{`{"type":"bid_placed","item":1,"seat":2,"amount":30}`, `{"type":"bid_placed","item":1,"seat":2,"amount":30,"value":99}`},
	} {
		if strings.Count(example, tc.old) != 1 {
			t.Fatalf("the example has %s %d times; want once", tc.old, strings.Count(example, tc.old))
		}
		rep, err := CheckAuctionReplay([]byte(strings.Replace(example, tc.old, tc.new, 1)))
		if err == nil && rep.Clean() {
			t.Errorf("%s: checks clean; want it refused (exit 2) or a difference", tc.new)
		}
	}
}
