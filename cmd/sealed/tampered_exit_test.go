package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sealedhq/sealed/internal/tamper"
)

// TestTamperedExitsOne: every verb that meets data that does not check
// out against the signed checkpoint exits 1 with the audit hint, as the
// contract says for altered data, not 2 (bad input): 'ledger checkpoint'
// on a latest checkpoint whose note was altered, 'action status' on an
// entry whose dedup column was altered.
func TestTamperedExitsOne(t *testing.T) {
	demo := filepath.Join(t.TempDir(), "demo.db")
	buildDemo(t, demo)
	good, err := os.ReadFile(demo)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		sql  string
		args []string
	}{
		// The root line of the latest checkpoint's note: its signature no
		// longer verifies.
		{"checkpoint note", `UPDATE checkpoints SET note = CAST(replace(CAST(note AS TEXT), '/', '+') AS BLOB) WHERE id = (SELECT max(id) FROM checkpoints)`,
			[]string{"ledger", "checkpoint"}},
		{"dedup column", `UPDATE entries SET dedup = zeroblob(32) WHERE idx = 9`,
			[]string{"action", "status"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			db := filepath.Join(t.TempDir(), "demo.db")
			if err := os.WriteFile(db, good, 0o644); err != nil {
				t.Fatal(err)
			}
			if err := tamper.Restoring(db, c.sql); err != nil {
				t.Fatal(err)
			}
			code, _, stderr := runSealed(t, "", append(c.args, "--db", db)...)
			if code != 1 || !strings.Contains(stderr, "altered") || !strings.Contains(stderr, "hint: run 'sealed ledger audit'") {
				t.Errorf("sealed %s: exit %d, %s; want exit 1, the data named as altered and the audit hint", strings.Join(c.args, " "), code, stderr)
			}
		})
	}
}
