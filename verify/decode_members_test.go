package verify

import (
	"os"
	"strings"
	"testing"
)

// TestAuctionMissingMembers (newcomer trial 7b, finding 7): a member left
// out of a bid, a player's state, a standing or a payout makes the replay
// unreadable, naming it, whichever decoder reads it: before, the missing
// number was read as 0, so that dropping a ranking score of 0 checked
// clean. The event numbers are the example's lines 20 and 37 less line 9,
// where its events begin (events count from 0); the edits keep the
// writer's layout (the scanner's fast path tries first) or add a space
// after the object's brace (the scanner's slow path).
func TestAuctionMissingMembers(t *testing.T) {
	data, err := os.ReadFile("testdata/auction_example.json")
	if err != nil {
		t.Fatal(err)
	}
	example := string(data)
	if _, err := CheckAuctionReplay(data); err != nil {
		t.Fatalf("the example: %v", err)
	}
	for _, tc := range []struct{ old, new, want string }{
		{`{"seat":0,"rank":2,"score":0,"credits":100}`, `{"seat":0,"rank":2,"credits":100}`,
			`results.ranking[1] has no "score"; expected seat, rank, score and credits (a number left out is not read as 0)`},
		{`{"seat":1,"rank":1,"score":25,"credits":30}`, `{"seat":1,"score":25,"credits":30}`, `results.ranking[0] has no "rank"`},
		{`{"seat":0,"amount":"0.00"}`, `{"amount":"0.00"}`, `results.payouts[0] has no "seat"; expected seat and amount`},
		{`"bids":[{"seat":0,"amount":20},{"seat":1,"amount":36}`, `"bids":[{"seat":0},{"seat":1,"amount":36}`, `event 11, bids[0] has no "amount"; expected seat and amount`},
		{`"auction_end","players":[{"seat":0,"credits":100,"profit":0,"items_won":0}`, `"auction_end","players":[{"seat":0,"credits":100,"profit":0}`, `event 28, players[0] has no "items_won"; expected seat, credits, profit and items_won`},
		// The config's members without a default: left out, one read as
		// 0 either failed the check (exit 1) or, equal to 0, passed.
		{`"starting_credits":100,`, ``, `config has no "starting_credits"; expected players, items, starting_credits, value_min, value_max, talk_rounds and pricing`},
		{`"talk_rounds":1,`, ``, `config has no "talk_rounds"`},
		{`{"players":3,`, `{`, `config has no "players"`},
		{`"pricing":"first",`, ``, `config has no "pricing"`},
	} {
		if strings.Count(example, tc.old) != 1 {
			t.Fatalf("the example has %s %d times; want once", tc.old, strings.Count(example, tc.old))
		}
		// The slow path: a space after the edited object's opening brace.
		slow := strings.Replace(tc.new, `{"seat"`, `{ "seat"`, 1)
		slow = strings.Replace(slow, `{"amount"`, `{ "amount"`, 1)
		for _, edited := range []string{
			strings.Replace(example, tc.old, tc.new, 1),
			strings.Replace(example, tc.old, slow, 1),
		} {
			rep, err := CheckAuctionReplay([]byte(edited))
			if err == nil || !strings.Contains(err.Error(), "reading auction replay: "+tc.want) {
				t.Errorf("%s: report %+v, error %v; want an error saying %q", tc.new, rep, err, tc.want)
			}
		}
	}
}
