package verify_test

import (
	"crypto/sha256"
	"encoding/hex"
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
	// Each match commits to its own seed (a seed is committed once): the
	// commitments are arbitrary digests, the SHA-256 of the match id.
	sc := func(match, extra string) string {
		d := sha256.Sum256([]byte(match))
		c := hex.EncodeToString(d[:])
		return `{"kind":"seed-commit","game":"auction","match_id":"` + match + `","rules_version":"auction-0.2","config":` + auctionConfigJSON + `,"commitment":"` + c + `"` + extra + `}`
	}
	// Round 657413 was published at 2023-09-15T11:00:03Z (genesis
	// 1692803367 + 657412 * 3 = 1694775603; date -u -d @1694775603).
	w, err := al.admit(sc("m", `,"beacon_chain":"`+qn+`","beacon_round":657413`), nil, "2023-09-15T11:00:03Z")
	wantRefused(t, "a round published at now", w, err, "beacon_round", "already public", "the next is 657414")
	if w, err := al.admit(sc("m", `,"beacon_chain":"`+qn+`","beacon_round":657413`), nil, "2023-09-15T11:00:02Z"); err != nil || len(w) > 0 {
		t.Errorf("a round one second in the future: %q, %v", w, err)
	}
	// More than 30 days ahead is admitted with a warning (more likely a
	// typo than a match planned so long ahead): 2023-08-15T11:00:02Z is
	// 31 days and a second before the round; 29 days before, no warning.
	w, err = al.admit(sc("m", `,"beacon_chain":"`+qn+`","beacon_round":657413`), nil, "2023-08-15T11:00:02Z")
	if err != nil || len(w) != 1 || !strings.Contains(w[0], "drand round 657413 of quicknet is published at 2023-09-15T11:00:03Z, 31 days from now") {
		t.Errorf("a round 31 days ahead: %q, %v; want a warning naming its date", w, err)
	}
	// Round 10^11 is published at 1692803367 + (10^11 - 1) * 3 =
	// 301692803364 (date -u -d @301692803364: Mon Apr 7 20:29:24 UTC
	// 11530), (301692803364 - 1694775602) / 86400 = 3472199 days after
	// 2023-09-15T11:00:02Z: not the 106751 days (292 years) at which a
	// time.Duration saturates (trial 9).
	w, err = al.admit(sc("m", `,"beacon_chain":"`+qn+`","beacon_round":100000000000`), nil, "2023-09-15T11:00:02Z")
	if err != nil || len(w) != 1 || !strings.Contains(w[0], "drand round 100000000000 of quicknet is published at 11530-04-07T20:29:24Z, 3472199 days from now") {
		t.Errorf("a round 9504 years ahead: %q, %v; want a warning naming its date and days", w, err)
	}
	if w, err := al.admit(sc("m", `,"beacon_chain":"`+qn+`","beacon_round":657413`), nil, "2023-08-17T11:00:03Z"); err != nil || len(w) > 0 {
		t.Errorf("a round 29 days ahead: %q, %v; want no warning", w, err)
	}
	w, err = al.admit(sc("m", `,"beacon_chain":"`+h+`","beacon_round":5`), nil, "2023-09-15T11:00:02Z")
	wantRefused(t, "an unknown network", w, err, "beacon_chain", "not a network sealed knows")

	noPlay := al.add("2023-09-15T10:00:00Z", sc("m", ""))
	withPlay := al.add("2023-09-15T10:00:01Z", sc("m2", `,"play_at":"2023-09-15T11:00:00Z"`))
	commitEntry := al.add("2023-09-15T10:00:02Z", `{"kind":"commit","player":"ann","action_type":"bid","channel":"c","commitment":"`+h+`"}`)
	contrib := func(sc int64, seat int, extra string) string {
		return `{"kind":"contribution","seed_commit":` + itoa(sc) + `,"seat":` + itoa(int64(seat)) + `,"client_seed":"abc"` + extra + `}`
	}
	w, err = al.admit(contrib(noPlay, 0, ""), nil, "2023-09-15T10:05:00Z")
	wantRefused(t, "no play_at", w, err, "seed_commit", "names neither play_at nor play_at_entry")
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

	// play_at_entry: the seed-commit would be entry 3 (the log holds 0..2),
	// so the entry opening play must be 4 or later.
	w, err = al.admit(sc("m3", `,"play_at_entry":3`), nil, "2023-09-15T10:00:03Z")
	wantRefused(t, "play_at_entry at the seed-commit's own index", w, err, "play_at_entry", "entry 3 would open play, but the seed-commit will be entry 3")
	byEntry := al.add("2023-09-15T10:00:03Z", sc("m3", `,"play_at_entry":5`)) // 3
	if w, err := al.admit(contrib(byEntry, 0, ""), nil, "2023-09-15T10:05:00Z"); err != nil || len(w) > 0 {
		t.Errorf("a contribution that will be entry 4, before entry 5 opens play: %q, %v", w, err)
	}
	al.add("2023-09-15T10:05:00Z", contrib(byEntry, 0, "")) // 4
	w, err = al.admit(contrib(byEntry, 1, ""), nil, "2023-09-15T10:06:00Z")
	if err != nil || len(w) != 1 || !strings.Contains(w[0], "entry 5 is not before entry 5, the entry that opens play (play_at_entry of seed-commit entry 3)") {
		t.Errorf("a contribution that would be entry 5, the one opening play: %q, %v; want a warning", w, err)
	}
}

// TestAdmitBeaconSignature: a seed-reveal may record the signature of the
// round its seed-commit named (for engine replays, which cannot carry
// it); one that does not verify, or for a seed-commit that named no
// round, is refused.
func TestAdmitBeaconSignature(t *testing.T) {
	al := newAdmitLedger(t)
	const (
		qn = "52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971"
		// Quicknet rounds 657413 and 3 (beacon/testdata, real rounds).
		sig657413 = "b713718a38ae728dfd477991af2822e08d2f305e47718cef9f7848ce4050e7be41076862b98fad56e91a6b85b89cd97b"
		sig3      = "b6b6a585449b66eb12e875b64fcbab3799861a00e4dbf092d99e969a5eac57dd3f798acf61e705fe4f093db926626807"
	)
	withRound := al.add("2023-09-15T10:00:00Z", `{"kind":"seed-commit","game":"bargain","match_id":"e","rules_version":"r","config":{},"commitment":"`+admitCommitA+`","beacon_chain":"`+qn+`","beacon_round":657413}`)
	noRound := al.add("2023-09-15T10:00:01Z", `{"kind":"seed-commit","game":"bargain","match_id":"f","rules_version":"r","config":{},"commitment":"`+admitCommitB+`"}`)
	reveal := func(sc int64, sig string) string {
		seed := admitSeedA
		if sc == noRound {
			seed = admitSeedB
		}
		return `{"kind":"seed-reveal","seed_commit":` + itoa(sc) + `,"seed":"` + seed + `","beacon_signature":"` + sig + `"}`
	}
	now := "2023-09-15T12:00:00Z"
	w, err := al.admit(reveal(withRound, strings.ToUpper(sig657413)), nil, now)
	wantAdmitted(t, "round 657413's signature", w, err)
	w, err = al.admit(reveal(withRound, sig3), nil, now)
	wantRefused(t, "round 3's signature for round 657413", w, err, "beacon_signature", "does not verify", "round 657413 of quicknet, which seed-commit entry 0 named")
	flipped := []byte(sig657413)
	flipped[95] = 'a' // hex digit b (1011) -> a (1010): the signature's last bit
	w, err = al.admit(reveal(withRound, string(flipped)), nil, now)
	wantRefused(t, "a flipped bit", w, err, "beacon_signature", "round 657413")
	w, err = al.admit(reveal(noRound, sig657413), nil, now)
	wantRefused(t, "a seed-commit naming no round", w, err, "beacon_signature", "seed-commit entry 1 named no drand round")
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
