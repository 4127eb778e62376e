package web

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/sealedhq/sealed/ledger"
	"github.com/sealedhq/sealed/rules/secret"
)

// TestPhaseNote: when a bid counts, worked by hand from seed 004's
// calendar (Auction Phase Monday 00:00 to Thursday 00:00 local, reading
// S5). Weekdays from `date -d 2026-03-16 +%A` (Monday); the Paris instants
// from `date -u -d 'TZ="Europe/Paris" 2026-03-09 00:00'` (2026-03-08 23:00
// UTC); Paris moves to CEST on Sunday 2026-03-29 (EU rule: last Sunday of
// March).
func TestPhaseNote(t *testing.T) {
	paris, err := time.LoadLocation("Europe/Paris")
	if err != nil {
		t.Skip("no zone data:", err)
	}
	utcGame, parisGame := secret.Game{}, secret.Game{Calendar: secret.Calendar{Location: paris}}
	const rule = "A bid counts only when its commitment is posted in the Auction Phase, Monday 00:00 to Thursday 00:00 "
	for _, tc := range []struct {
		name   string
		g      secret.Game
		action string
		now    string
		want   string
	}{
		{"friday", utcGame, "bid", "2026-03-13T10:00:00Z", rule + "UTC. It is the Bartering Phase now; the next Auction Phase starts Monday 2026-03-16 00:00 UTC."},
		{"monday", utcGame, "bid", "2026-03-09T12:00:00Z", rule + "UTC. It is the Auction Phase now, until Thursday 2026-03-12 00:00 UTC."},
		{"thursday 00:00 is bartering", utcGame, "bid", "2026-03-12T00:00:00Z", rule + "UTC. It is the Bartering Phase now; the next Auction Phase starts Monday 2026-03-16 00:00 UTC."},
		{"monday 00:00 is auction", utcGame, "bid", "2026-03-16T00:00:00Z", rule + "UTC. It is the Auction Phase now, until Thursday 2026-03-19 00:00 UTC."},
		{"paris sunday night", parisGame, "bid", "2026-03-08T22:30:00Z", rule + "Europe/Paris. It is the Bartering Phase now; the next Auction Phase starts Monday 2026-03-09 00:00 CET."},
		{"paris monday 00:30", parisGame, "bid", "2026-03-08T23:30:00Z", rule + "Europe/Paris. It is the Auction Phase now, until Thursday 2026-03-12 00:00 CET."},
		{"paris over the DST change", parisGame, "bid", "2026-03-28T12:00:00Z", rule + "Europe/Paris. It is the Bartering Phase now; the next Auction Phase starts Monday 2026-03-30 00:00 CEST."},
		{"hand", utcGame, "hand", "2026-03-13T10:00:00Z", "A hand counts only when its commitment is posted in the Auction Phase, Monday 00:00 to Thursday 00:00 UTC. It is the Bartering Phase now; the next Auction Phase starts Monday 2026-03-16 00:00 UTC."},
		{"any phase", utcGame, "vote", "2026-03-13T10:00:00Z", ""},
	} {
		if got := PhaseNote(tc.g, tc.action, at(t, tc.now)); got != tc.want {
			t.Errorf("%s:\n got %q\nwant %q", tc.name, got, tc.want)
		}
	}
}

// TestPhaseHelpOnPages: /hash says when a bid counts; a bid posted in the
// Bartering Phase fails ("outside the action's phase") and its /c/ page
// says when the next Auction Phase starts.
func TestPhaseHelpOnPages(t *testing.T) {
	f := newFixture(t)
	s := f.server(t, nil)
	// The fixture judges at Monday 2026-03-09 12:00 UTC: Auction Phase.
	w := do(s, "GET", "/hash", "")
	if w.Code != http.StatusOK || !strings.Contains(w.Body.String(), "A bid counts only when its commitment is posted in the Auction Phase, Monday 00:00 to Thursday 00:00 UTC. It is the Auction Phase now, until Thursday 2026-03-12 00:00 UTC.") {
		t.Errorf("/hash on Monday: %d\n%s", w.Code, w.Body.String())
	}

	// A bid posted on Saturday 2026-03-07 (Bartering Phase), judged on
	// Sunday 2026-03-08 09:00 UTC.
	f.now = at(t, "2026-03-08T09:00:00Z")
	// printf '' | sha256sum
	const c = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
	f.add(t, "late", "2026-03-07T13:00:00Z", &ledger.Body{Kind: ledger.KindCommit, Player: "newcomer", ActionType: "bid", Channel: "#auctions", Commitment: c})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := f.w.WaitCheckpoint(ctx, 10); err != nil {
		t.Fatal(err)
	}
	s = f.server(t, nil)
	w = do(s, "GET", "/hash", "")
	if !strings.Contains(w.Body.String(), "It is the Bartering Phase now; the next Auction Phase starts Monday 2026-03-09 00:00 UTC.") {
		t.Errorf("/hash on Sunday:\n%s", w.Body.String())
	}
	help := "A bid counts only when posted in the Auction Phase (Monday 00:00 to Thursday 00:00 UTC); this one was posted outside it and cannot count. " +
		"The next Auction Phase starts Monday 2026-03-09 00:00 UTC: post a new commitment then."
	w = do(s, "GET", "/c/"+c, "")
	if body := w.Body.String(); w.Code != http.StatusOK || !strings.Contains(body, "failed: outside the action&#39;s phase") || !strings.Contains(body, help) {
		t.Errorf("/c/ of the Saturday bid: %d\n%s", w.Code, body)
	}
	w = do(s, "GET", "/api/v1/commitments/"+c, "")
	if !strings.Contains(w.Body.String(), `"phase_help":"`+help+`"`) {
		t.Errorf("API of the Saturday bid: %s", w.Body.String())
	}
	// Alice's bid, posted on Monday, failed for no phase reason: no help.
	w = do(s, "GET", "/api/v1/commitments/"+readVector(t, "bid").Commitment, "")
	if strings.Contains(w.Body.String(), "phase_help") {
		t.Errorf("alice's bid has phase help: %s", w.Body.String())
	}
}
