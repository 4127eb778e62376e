package main

import (
	"github.com/sealedhq/sealed/internal/pgtest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestAuditRenamedColumnExit (trial 16, finding 4): docs/ledger.md, "Audit": "a table
// missing, a column renamed, dropped, retyped or with another key is a
// finding naming the table (`audit failed: players_tail: column 3 is
// name, where the schema has player ...`, exit 1)". That holds for
// entries, hashes, players_tail, replays, ... but a column of log_meta,
// schema_version or checkpoints renamed or dropped, or the checkpoints
// table dropped, makes `sealed ledger audit` exit 2 (bad input) with
// SQLite's own error and no hint ("sealed: cannot open the ledger X: no
// such column: key"): the ledger was altered, and the audit is the
// check that failed. A single bit flipped in the file (the "k" of
// log_meta's "key" in sqlite_master) gives the same exit 2.
func TestAuditRenamedColumnExit(t *testing.T) {
	dir := t.TempDir()
	base := filepath.Join(dir, "base.db")
	if code, _, stderr := runSealed(t, "", "ledger", "init", "--db", base, "--origin", "example.com/t16"); code != 0 {
		t.Fatalf("init: %d %s", code, stderr)
	}
	if code, _, stderr := runSealed(t, "", "ledger", "append", "--db", base, "--kind", "commit", "--player", "ann",
		"--action-type", "bid", "--channel", "#auctions", "--commitment", strings.Repeat("ab", 32)); code != 0 {
		t.Fatalf("append: %d %s", code, stderr)
	}
	tamperDB(t, base, `PRAGMA wal_checkpoint(TRUNCATE)`)
	raw, err := os.ReadFile(base)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, sql string }{
		{"log_meta key renamed", `ALTER TABLE log_meta RENAME COLUMN key TO cey`},
		{"log_meta value renamed", `ALTER TABLE log_meta RENAME COLUMN value TO val`},
		{"schema_version version renamed", `ALTER TABLE schema_version RENAME COLUMN version TO v`},
		{"checkpoints note renamed", `ALTER TABLE checkpoints RENAME COLUMN note TO n`},
		{"checkpoints created_at dropped", `ALTER TABLE checkpoints DROP COLUMN created_at`},
		{"checkpoints dropped", `DROP TABLE checkpoints`},
		// For comparison, these already exit 1 naming the table:
		{"entries kind renamed", `ALTER TABLE entries RENAME COLUMN kind TO kynd`},
		{"hashes dropped", `DROP TABLE hashes`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db := filepath.Join(t.TempDir(), "x.db")
			if err := os.WriteFile(db, raw, 0o600); err != nil {
				t.Fatal(err)
			}
			tamperDB(t, db, tc.sql)
			code, stdout, stderr := runSealed(t, "", "ledger", "audit", "--db", db)
			if code != 1 || !strings.Contains(stdout+stderr, "audit failed:") {
				t.Errorf("audit after %s: exit %d, want 1 and \"audit failed: ...\" naming the table\nstdout: %s\nstderr: %s", tc.sql, code, stdout, stderr)
			}
		})
	}
}

// TestAuditRenamedColumnPostgres is TestAuditRenamedColumnExit on
// PostgreSQL, whose server said "ERROR: column "key" does not exist
// (SQLSTATE 42703)" with exit 2: each altered table is the audit's
// finding, exit 1, naming the table.
func TestAuditRenamedColumnPostgres(t *testing.T) {
	srv := pgtest.Start(t, pgtest.Options{})
	src := filepath.Join(t.TempDir(), "base.db")
	mustRun(t, 0, "", "ledger", "init", "--db", src, "--origin", "example.com/t16pg")
	mustRun(t, 0, "", "ledger", "append", "--db", src, "--kind", "commit", "--player", "ann",
		"--action-type", "bid", "--channel", "#auctions", "--commitment", strings.Repeat("ab", 32))
	for _, tc := range []struct{ table, sql string }{
		{"log_meta", `ALTER TABLE log_meta RENAME COLUMN key TO cey`},
		{"schema_version", `ALTER TABLE schema_version RENAME COLUMN version TO v`},
		{"checkpoints", `ALTER TABLE checkpoints RENAME COLUMN note TO n`},
		{"checkpoints", `ALTER TABLE checkpoints DROP COLUMN created_at`},
	} {
		t.Run(tc.sql, func(t *testing.T) {
			pg := srv.NewDatabase(t)
			mustRun(t, 0, "", "ledger", "copy", "--from", src, "--to", pg)
			if err := pgtest.Exec(t, pg, tc.sql); err != nil {
				t.Fatal(err)
			}
			code, stdout, stderr := runSealed(t, "", "ledger", "audit", "--db", pg)
			if code != 1 || !strings.Contains(stdout, "audit failed: "+tc.table+": ") {
				t.Errorf("audit after %s: exit %d, want 1 and \"audit failed: %s: ...\"\nstdout: %s\nstderr: %s", tc.sql, code, tc.table, stdout, stderr)
			}
		})
	}
}

// TestUnfinishedSQLiteHint (trial 16): a SQLite file holding rows but no
// ledger identity (what a copy stopped by kill -9 leaves in TO.copying-*)
// is named as such, with a hint to remove the file, not PostgreSQL's
// DROP DATABASE.
func TestUnfinishedSQLiteHint(t *testing.T) {
	db := filepath.Join(t.TempDir(), "x.db")
	mustRun(t, 0, "", "ledger", "init", "--db", db, "--origin", "example.com/unfinished")
	tamperDB(t, db, `DROP TRIGGER IF EXISTS log_meta_no_delete; DELETE FROM log_meta`)
	code, _, stderr := runSealed(t, "", "ledger", "audit", "--db", db)
	if code != 2 || !strings.Contains(stderr, "holds rows but no ledger identity") ||
		!strings.Contains(stderr, "hint: if it is a stopped copy's file, remove it") || strings.Contains(stderr, "DROP") {
		t.Errorf("audit of a file without identity rows: exit %d\n%s", code, stderr)
	}
}
