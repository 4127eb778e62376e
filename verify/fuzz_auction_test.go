package verify

import (
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/sealedhq/sealed/rules/auction"
)

// FuzzCheckAuctionReplay feeds arbitrary bytes to the auction replay
// checker: it must return a report or an error, never panic, and a report
// must account for no more events than the replay has. A replay the
// strict reader accepts must read the same through encoding/json, the
// loose reader other code uses (web/, tests): same report.
func FuzzCheckAuctionReplay(f *testing.F) {
	example, err := os.ReadFile("testdata/auction_example.json")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(example)
	s := string(example)
	for _, edit := range [][2]string{
		{`"amount":36`, `"amount":-5`},
		{`"amount":36`, `"amount":1e3`},
		{`"players":3`, `"players":8`},
		{`"items":2`, `"items":1000`},
		{`"stake":"10"`, `"stake":"1e999999"`},
		{`"rake":"0.05"`, `"rake":"NaN"`},
		{`"value_max":60`, `"value_max":4`},
		{`"type":"bidding_open","item":1}`, `"type":"bidding_open","item":1},{"type":"bidding_open"}`},
		{`"pot": "30.00"`, `"pot": "-Infinity"`},
		{`"payouts": [`, `"payouts": [{"seat":9,"amount":null},`},
	} {
		f.Add([]byte(strings.Replace(s, edit[0], edit[1], 1)))
	}
	f.Add([]byte(`{"format":"sealed.auction.replay.v1"}`))
	f.Add([]byte(`null`))
	f.Fuzz(func(t *testing.T, data []byte) {
		rep, err := CheckAuctionReplay(data)
		if err != nil {
			if rep != nil {
				t.Fatal("both a report and an error")
			}
			return
		}
		if rep.Events < 0 || rep.Events > strings.Count(string(data), "{") {
			t.Fatalf("report counts %d events", rep.Events)
		}
		var loose auction.Replay
		if err := json.Unmarshal(data, &loose); err != nil {
			t.Fatalf("strict reader accepted what encoding/json refuses: %v", err)
		}
		rep2, err := CheckAuction(&loose)
		if err != nil || !reflect.DeepEqual(rep, rep2) {
			t.Fatalf("encoding/json reads it differently: %+v / %+v %v", rep, rep2, err)
		}
	})
}
