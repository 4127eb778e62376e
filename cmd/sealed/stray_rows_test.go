package main

import (
	"database/sql"
	"path/filepath"
	"strings"
	"testing"
)

// TestAppendStrayRows: a row someone put past the end of the log (a stored
// hash at an id the next append writes) stops the append with an error
// naming it, exit 1, not a constraint error from SQLite; nothing is
// appended, and the audit names the row.
func TestAppendStrayRows(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "t.db")
	mustRun(t, 0, "", "ledger", "init", "--db", db, "--origin", "example.com/stray")
	commit := func(player string) []string {
		return []string{"ledger", "append", "--db", db, "--kind", "commit", "--player", player, "--action-type", "bid", "--channel", "c",
			"--commitment", strings.Repeat("ab", 32)}
	}
	mustRun(t, 0, "", commit("ann")...)
	c, err := sql.Open("sqlite3", "file:"+db)
	if err != nil {
		t.Fatal(err)
	}
	// A tree of 1 entry has stored hash 0; the next append writes ids 1
	// and 2 (tlog.StoredHashIndex).
	if _, err := c.Exec(`INSERT INTO hashes(id, hash) VALUES(2, zeroblob(32))`); err != nil {
		t.Fatal(err)
	}
	c.Close()
	code, _, stderr := runSealed(t, "", commit("bob")...)
	if code != 1 || !strings.Contains(stderr, "hashes: a row at id 2") || strings.Contains(stderr, "UNIQUE constraint") {
		t.Errorf("append onto a stray row: exit %d, %s", code, stderr)
	}
	stdout, _ := mustRun(t, 1, "", "ledger", "audit", "--db", db)
	if !strings.Contains(stdout, "hashes: a row at id 2") {
		t.Errorf("audit: %s", stdout)
	}
}

// TestAppendMissingStoredHash: a stored hash deleted below the log's size
// (the tree's right edge, which an append reads) stops the append as
// tampering, exit 1 with the audit hint, not as bad input; the audit
// names the hash.
func TestAppendMissingStoredHash(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "t.db")
	mustRun(t, 0, "", "ledger", "init", "--db", db, "--origin", "example.com/missing")
	commit := func(player string) []string {
		return []string{"ledger", "append", "--db", db, "--kind", "commit", "--player", player, "--action-type", "bid", "--channel", "c",
			"--commitment", strings.Repeat("cd", 32)}
	}
	mustRun(t, 0, "", commit("ann")...)
	c, err := sql.Open("sqlite3", "file:"+db)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Exec(`DROP TRIGGER hashes_no_delete; DELETE FROM hashes WHERE id = (SELECT max(id) FROM hashes)`); err != nil {
		t.Fatal(err)
	}
	c.Close()
	code, _, stderr := runSealed(t, "", commit("bob")...)
	if code != 1 || !strings.Contains(stderr, "database was altered") || !strings.Contains(stderr, "hint: run 'sealed ledger audit'") {
		t.Errorf("append with a stored hash missing: exit %d, %s; want exit 1 and the audit hint", code, stderr)
	}
	stdout, _ := mustRun(t, 1, "", "ledger", "audit", "--db", db)
	if !strings.Contains(stdout, "stored hash") {
		t.Errorf("audit: %s", stdout)
	}
}
