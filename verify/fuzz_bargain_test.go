package verify

import (
	"os"
	"testing"
)

// FuzzCheckBargainReplay: no input makes the bargaining replay checker
// panic; it returns either a report or an error, never both or neither.
// Run longer with: go test ./verify -run XXX -fuzz FuzzCheckBargainReplay -fuzztime 60s
func FuzzCheckBargainReplay(f *testing.F) {
	for _, name := range []string{"testdata/bargain_handworked.json", "testdata/bargain_example.json"} {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(`{"format":"negotiation.replay.v1","config":{"matches":3,"maxTurns":2},"seed":"` +
		`000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f","seed_commitment":"00","events":[{"kind":"offer","take":[9,-1,1e3]}]}`))
	f.Add([]byte(`{"format":"negotiation.replay.v1","events":[null,{},[]],"results":{"scores":["x",1e999999999,{}]}}`))
	f.Add([]byte(`null`))
	f.Fuzz(func(t *testing.T, data []byte) {
		rep, err := CheckBargainReplay(data)
		if (rep == nil) == (err == nil) {
			t.Fatalf("report %v and error %v", rep, err)
		}
	})
}
