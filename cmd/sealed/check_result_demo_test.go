package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestCheckResultDemoBeacon: on the demo's beacon match (entry 5), where
// check-result compares the round's publication time with the
// seed-commit's, the note that only the ledger can compare them is not
// printed (newcomer trial finding 14).
func TestCheckResultDemoBeacon(t *testing.T) {
	db := filepath.Join(t.TempDir(), "demo.db")
	mustRun(t, 0, "", "demo", "--db", db)
	const note = "note: the beacon round's publication time was not compared with the time the seed was committed"
	stdout, _ := mustRun(t, 0, "", "ledger", "check-result", "5", "--db", db)
	if !strings.Contains(stdout, "published after the commitment, signature ok") || strings.Contains(stdout, note) {
		t.Errorf("check-result 5:\n%s", stdout)
	}
}
