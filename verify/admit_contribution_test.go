package verify_test

import (
	"strconv"
	"strings"
	"testing"
)

// TestAdmitContributionAndBeacon: the admission rules of contributions and
// of a seed-commit naming a drand round (verify.Admit).
func TestAdmitContributionAndBeacon(t *testing.T) {
	al := newAdmitLedger(t)
	const qn = "52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971"
	h := strings.Repeat("ab", 32)
	sc := func(extra string) string {
		return `{"kind":"seed-commit","game":"auction","match_id":"m","rules_version":"auction-0.2","config":{"players":3},"commitment":"` + h + `"` + extra + `}`
	}
	// Round 657413 was published at 2023-09-15T11:00:03Z (genesis
	// 1692803367 + 657412 * 3 = 1694775603; date -u -d @1694775603).
	w, err := al.admit(sc(`,"beacon_chain":"`+qn+`","beacon_round":657413`), nil, "2023-09-15T11:00:03Z")
	wantRefused(t, "a round published at now", w, err, "beacon_round", "already public", "the next is 657414")
	if w, err := al.admit(sc(`,"beacon_chain":"`+qn+`","beacon_round":657413`), nil, "2023-09-15T11:00:02Z"); err != nil || len(w) > 0 {
		t.Errorf("a round one second in the future: %q, %v", w, err)
	}
	w, err = al.admit(sc(`,"beacon_chain":"`+h+`","beacon_round":5`), nil, "2023-09-15T11:00:02Z")
	wantRefused(t, "an unknown network", w, err, "beacon_chain", "not a network sealed knows")

	noPlay := al.add("2023-09-15T10:00:00Z", sc(""))
	withPlay := al.add("2023-09-15T10:00:01Z", strings.Replace(sc(`,"play_at":"2023-09-15T11:00:00Z"`), `"m"`, `"m2"`, 1))
	commitEntry := al.add("2023-09-15T10:00:02Z", `{"kind":"commit","player":"ann","action_type":"bid","channel":"c","commitment":"`+h+`"}`)
	contrib := func(sc int64, seat int, extra string) string {
		return `{"kind":"contribution","seed_commit":` + itoa(sc) + `,"seat":` + itoa(int64(seat)) + `,"client_seed":"abc"` + extra + `}`
	}
	w, err = al.admit(contrib(noPlay, 0, ""), nil, "2023-09-15T10:05:00Z")
	wantRefused(t, "no play_at", w, err, "seed_commit", "names no play_at")
	w, err = al.admit(contrib(commitEntry, 0, ""), nil, "2023-09-15T10:05:00Z")
	wantRefused(t, "a commit entry", w, err, "seed_commit", "is a commit entry")
	w, err = al.admit(contrib(withPlay, 3, ""), nil, "2023-09-15T10:05:00Z")
	wantRefused(t, "seat 3 of 3", w, err, "seat", "seats 0 to 2")
	if w, err := al.admit(contrib(withPlay, 2, ""), nil, "2023-09-15T10:05:00Z"); err != nil || len(w) > 0 {
		t.Errorf("a proper contribution: %q, %v", w, err)
	}
	w, err = al.admit(contrib(withPlay, 2, ""), nil, "2023-09-15T11:00:00Z")
	if err != nil || len(w) != 1 || !strings.Contains(w[0], "not before play began") {
		t.Errorf("a contribution at play_at: %q, %v; want a warning", w, err)
	}
	w, err = al.admit(contrib(withPlay, 1, `,"posted_at":"2023-09-15T09:00:00Z"`), nil, "2023-09-15T10:05:00Z")
	if err != nil || len(w) != 1 || !strings.Contains(w[0], "before seed-commit entry") {
		t.Errorf("a contribution posted before the commitment: %q, %v; want a warning", w, err)
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
