package witness_test

import (
	"context"
	"strings"
	"testing"

	"github.com/sealedhq/sealed/internal/tlogtest"
	"github.com/sealedhq/sealed/ledger/tiles"
	"github.com/sealedhq/sealed/ledger/witness"
)

// TestPolicyCheckTimestampRange (trial 18): Policy.Check, which
// check-proof, audit --url and watch use, counts toward the quorum and
// reports as "witnessed by ... by T" a cosignature/v1 whose timestamp is
// 0 (which the cosigning side refuses as "witnessed by 1970-01-01", no
// evidence of anything, TestZeroTimestampRefused) or above 2^63-1, which
// C2SP tlog-cosignature forbids ("It MUST NOT exceed 2^63 - 1"): 2^64-1
// is read as -1, and check-proof prints "witnessed by w by
// 1969-12-31T23:59:59Z", a time before the log existed. Such a
// cosignature should be refused (an error, like a malformed line).
func TestPolicyCheckTimestampRange(t *testing.T) {
	log := tlogtest.NewLog(t, "example.com/stamps")
	log.Fill(t, 2, "s")
	signed, _, err := tiles.Checkpoint(context.Background(), log.Store)
	if err != nil {
		t.Fatal(err)
	}
	body := signed[:strings.Index(string(signed), "\n\n")+1]
	c := newSpecCosigner(t, "w.example/stamps")
	pol, err := witness.ParsePolicy([]byte("witness " + c.vkey + "\nquorum 1\n"))
	if err != nil {
		t.Fatal(err)
	}
	line := func(ts uint64) []byte { return []byte(c.line([]byte(body), ts)) }
	if cs, err := pol.Check(append(append([]byte(nil), signed...), line(1_800_000_000)...)); err != nil || len(cs) != 1 {
		t.Fatalf("a cosignature at 1800000000: %+v, %v", cs, err)
	}
	for _, ts := range []uint64{0, 1 << 63, 1<<64 - 1} {
		cs, err := pol.Check(append(append([]byte(nil), signed...), line(ts)...))
		if err == nil {
			t.Errorf("timestamp %d: accepted as a cosignature at %v", ts, cs[0].Time)
		}
	}
}
