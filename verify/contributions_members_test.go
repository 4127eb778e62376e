package verify

import (
	"strings"
	"testing"

	"github.com/sealedhq/sealed/commit"
)

// TestContributionAndBeaconMissingMembers (trial 17): a contribution
// without its "seat", or a beacon without its "round", is read as seat 0
// or round 0, as a ranking's missing score once was (TestAuctionMissingMembers):
// a replay that drops seat 0's "seat" re-simulates clean and ties to the
// ledger, and one that drops the round is a difference (exit 1) about
// round 0, a claim the replay never made. docs/replays.md ("Reading a
// replay": a number left out is not read as 0; "Contributions and a
// beacon": each contribution is a seat and its client seed) makes both
// unreadable (exit 2), naming the member, whichever decoder reads them.
func TestContributionAndBeaconMissingMembers(t *testing.T) {
	tl, _, ids := contributionLedger(t, "2023-09-15T10:00:00Z")
	good := string(playAuction(t, []commit.ReplayContribution{{Seat: 0, ClientSeed: "lucky 7", Entry: &ids[0]}}, beacon657413))
	if rep, err := CheckReplay([]byte(good)); err != nil || !rep.Clean() {
		t.Fatalf("the played replay: %v, %+v", err, rep)
	}
	for _, tc := range []struct{ old, new, member string }{
		{`{"seat":0,"client_seed":"lucky 7"`, `{"client_seed":"lucky 7"`, `"seat"`},
		{`{"seat":0,"client_seed":"lucky 7"`, `{ "client_seed":"lucky 7"`, `"seat"`},
		{`"round":657413,`, ``, `"round"`},
		{`"round":657413,`, ` `, `"round"`},
	} {
		if strings.Count(good, tc.old) != 1 {
			t.Fatalf("the replay has %s %d times; want once", tc.old, strings.Count(good, tc.old))
		}
		edited := []byte(strings.Replace(good, tc.old, tc.new, 1))
		rep, err := CheckReplay(edited)
		if err == nil || !strings.Contains(err.Error(), tc.member) {
			t.Errorf("%s left out: report %+v, error %v; want an error naming %s", tc.member, rep, err, tc.member)
		}
		n := tl.resultBytes("2023-09-15T12:00:01Z", edited)
		if c, err := CheckResult(tl.l, n); err == nil && (c.Tied() || c.Clean()) {
			t.Errorf("%s left out: the ledger check ties it (problems %q)", tc.member, c.Problems)
		} else if err != nil && !strings.Contains(err.Error(), tc.member) {
			t.Errorf("%s left out: the ledger check says %v; want it to name %s", tc.member, err, tc.member)
		}
	}
}
