package verify

import (
	"slices"
	"testing"

	"github.com/sealedhq/sealed/commit"
)

// TestCheckResultBeaconNote: a replay whose match seed took a drand round,
// checked alone, notes that the round's publication time was not compared
// with the commitment's ("that needs the ledger"); CheckResult, which
// compares them (BeaconNamed.AfterCommit), drops the note, for a sealed
// replay carrying the round and for an engine replay whose round a
// seed-reveal records. Round 657413 was published at
// 2023-09-15T11:00:03Z, after the seed-commits at 10:00.
func TestCheckResultBeaconNote(t *testing.T) {
	tl, _, ids := contributionLedger(t, "2023-09-15T10:00:00Z")
	counted := []commit.ReplayContribution{{Seat: 0, ClientSeed: "lucky 7", Entry: &ids[0]}}
	data := playAuction(t, counted, beacon657413)
	alone, err := CheckReplay(data)
	if err != nil || !slices.Contains(alone.Notes, noteBeaconTime) {
		t.Fatalf("the replay alone: %v, notes %q; want the note %q", err, alone.Notes, noteBeaconTime)
	}
	c := checkResult(t, tl, tl.resultBytes("2023-09-15T12:00:01Z", data))
	if !c.Clean() || c.BeaconNamed == nil || !c.BeaconNamed.AfterCommit || slices.Contains(c.Replay.Notes, noteBeaconTime) {
		t.Errorf("against the ledger: clean %v, beacon %+v, notes %q; want clean, compared, without the note", c.Clean(), c.BeaconNamed, c.Replay.Notes)
	}

	ms, _ := commit.ParseSeed(engineMatchSeed)
	tl, _, _, _ = engineBeaconLedger(t, round657413)
	c = checkResult(t, tl, tl.engineResult("2023-09-15T12:00:01Z", "e", playEngine(t, ms)))
	if !c.Clean() || c.BeaconNamed == nil || !c.BeaconNamed.AfterCommit || slices.Contains(c.Replay.Notes, noteBeaconTime) {
		t.Errorf("an engine replay against the ledger: clean %v, beacon %+v, notes %q; want clean, compared, without the note", c.Clean(), c.BeaconNamed, c.Replay.Notes)
	}
}
