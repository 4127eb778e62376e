package web

import (
	"net/http"
	"strings"
	"testing"

	"github.com/sealedhq/sealed/ledger"
)

// TestNeverTakenHasNoDates (newcomer trial 5a, finding 5): an action
// never taken (a bid in the wrong channel, or posted outside the Auction
// Phase) has no maturation or revelation date, and the API's JSON leaves
// both members out, as `sealed action status --json` does
// (docs/secret-actions.md, "Never taken"), instead of writing Go's zero
// time, "0001-01-01T00:00:00Z"; a taken action keeps both.
func TestNeverTakenHasNoDates(t *testing.T) {
	f := newFixture(t)
	wrong, phase := strings.Repeat("1e", 32), strings.Repeat("2f", 32)
	f.add(t, "wrong-channel", "2026-03-03T09:00:00Z", &ledger.Body{Kind: ledger.KindCommit, Player: "walt", ActionType: "bid", Channel: "#general", Commitment: wrong})
	f.add(t, "wrong-phase", "2026-03-07T09:00:00Z", &ledger.Body{Kind: ledger.KindCommit, Player: "xena", ActionType: "bid", Channel: "#auctions", Commitment: phase})
	s := f.server(t, nil)
	for _, h := range []string{wrong, phase} {
		w := do(s, "GET", "/api/v1/commitments/"+h, "")
		body := w.Body.String()
		if w.Code != http.StatusOK || !strings.Contains(body, `"state":"failed"`) {
			t.Fatalf("%s: %d %.300s", h, w.Code, body)
		}
		if strings.Contains(body, "0001-01-01") || strings.Contains(body, `"maturation"`) || strings.Contains(body, `"revelation"`) {
			t.Errorf("%s, never taken: the JSON has a maturation or revelation date: %.600s", h, body)
		}
	}
	w := do(s, "GET", "/api/v1/commitments/"+readVector(t, "bid").Commitment, "")
	if body := w.Body.String(); !strings.Contains(body, `"maturation":"2026-`) || !strings.Contains(body, `"revelation":"2026-`) {
		t.Errorf("a taken action lost its dates: %.600s", body)
	}
}
