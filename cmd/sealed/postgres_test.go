package main

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/sealedhq/sealed/internal/demo"
	"github.com/sealedhq/sealed/internal/pgtest"
)

// TestPostgresRoundTrip runs the CLI on a real PostgreSQL server: the demo
// ledger (SQLite) copied to PostgreSQL, audited there with the demo's
// published verifier key, appended to there with the action verbs, and
// copied back to SQLite; the round trip of the demo ledger gives the same
// bytes in every table of the SQLite file (compared row by row here, not
// through sealed).
func TestPostgresRoundTrip(t *testing.T) {
	srv := pgtest.Start(t, pgtest.Options{})
	dir := t.TempDir()
	src := filepath.Join(dir, "demo.db")
	mustRun(t, 0, "", "demo", "--db", src)
	vkeyFile := demo.VerifierKeyFile(src)
	// A witness cosigned the demo's first two checkpoints (sizes 0 and 1).
	w := cosignStored(t, src, demo.KeyFile(src), "witness.example/rt", 0, 1)

	pg := srv.NewDatabase(t)
	stdout, _ := mustRun(t, 0, "", "ledger", "copy", "--from", src, "--to", pg)
	if !strings.Contains(stdout, "audit of the copy: ok") || !strings.Contains(stdout, "and 2 witness cosignatures") {
		t.Errorf("copy to PostgreSQL: %s", stdout)
	}
	stdout, stderr := mustRun(t, 0, "", "ledger", "audit", "--db", pg, "--vkey-file", vkeyFile, "--witness", w)
	if !strings.Contains(stdout, "ok: 27 entries") || !strings.Contains(stderr, "2 stored cosignatures by the given witnesses verified") {
		t.Errorf("audit on PostgreSQL: %s%s", stdout, stderr)
	}
	// A second copy into the same database is refused: it holds a ledger.
	if code, _, stderr := runSealed(t, "", "ledger", "copy", "--from", src, "--to", pg); code == 0 || !strings.Contains(stderr, "already holds a ledger") {
		t.Errorf("copy into a database holding a ledger: exit %d, %s", code, stderr)
	}

	back := filepath.Join(dir, "back.db")
	mustRun(t, 0, "", "ledger", "copy", "--from", pg, "--to", back)
	for _, table := range []string{"entries", "hashes", "checkpoints", "replays", "log_meta", "cosignatures", "players"} {
		a, b := dumpTable(t, src, table), dumpTable(t, back, table)
		if !bytes.Equal(a, b) {
			t.Errorf("table %s differs after SQLite -> PostgreSQL -> SQLite (%d and %d bytes)", table, len(a), len(b))
		}
	}

	// Writing on PostgreSQL: the action verbs need --key with a URL.
	code, _, stderr := runSealed(t, "", "action", "post", "--db", pg, "--player", "zoe", "--type", "bid", "--commitment", strings.Repeat("cd", 32))
	if code != 2 || !strings.Contains(stderr, "needs the ledger's signer key") || strings.Contains(stderr, "password") {
		t.Errorf("action post on a URL without --key: exit %d, %s", code, stderr)
	}
	stdout, _ = mustRun(t, 0, "", "action", "post", "--db", pg, "--key", demo.KeyFile(src), "--player", "zoe", "--type", "bid", "--commitment", strings.Repeat("cd", 32))
	if !strings.Contains(stdout, "commit entry 27") {
		t.Errorf("action post on PostgreSQL: %s", stdout)
	}
	stdout, _ = mustRun(t, 0, "", "ledger", "audit", "--db", pg, "--vkey-file", vkeyFile)
	if !strings.Contains(stdout, "ok: 28 entries") {
		t.Errorf("audit after the append: %s", stdout)
	}
	// A password never shows: a URL with one that cannot connect.
	code, _, stderr = runSealed(t, "", "ledger", "list", "--db", "postgres://u:s3cret@127.0.0.1:1/nodb?connect_timeout=2")
	if code != 2 || strings.Contains(stderr, "s3cret") {
		t.Errorf("a URL with a password: exit %d, stderr %q", code, stderr)
	}
}

// dumpTable returns every row of table in the SQLite file, in primary-key
// order, as bytes.
func dumpTable(t *testing.T, path, table string) []byte {
	t.Helper()
	db, err := sql.Open("sqlite3", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query(`SELECT * FROM ` + table + ` ORDER BY 1`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	var out bytes.Buffer
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		for _, v := range vals {
			fmt.Fprintf(&out, "%T:%v|", v, v)
		}
		out.WriteByte('\n')
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// pgTables counts the tables of the database at url (its current schema).
func pgTables(t *testing.T, url string) int {
	t.Helper()
	ctx := context.Background()
	c, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(ctx)
	var n int
	if err := c.QueryRow(ctx, `SELECT count(*) FROM pg_class WHERE relnamespace = current_schema()::regnamespace AND relkind = 'r'`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestPostgresCopyLeavesNoLedger: a copy into PostgreSQL that stops (a
// source whose entry 3 was altered: exit 1) leaves the destination
// database empty: no signed empty ledger under the source's identity
// for an audit to pass and an append to fork; the copy can be run again.
// A source database that holds no ledger is refused before anything is
// created, in it or at the destination.
func TestPostgresCopyLeavesNoLedger(t *testing.T) {
	srv := pgtest.Start(t, pgtest.Options{})
	dir := t.TempDir()
	src := filepath.Join(dir, "demo.db")
	mustRun(t, 0, "", "demo", "--db", src)
	bad := copyDB(t, src)
	tamperDB(t, bad, `DROP TRIGGER entries_no_update; UPDATE entries SET body = CAST(replace(CAST(body AS TEXT), 'seat one', 'seat onf') AS BLOB) WHERE idx = 3`)

	tb := srv.NewDatabase(t)
	code, _, stderr := runSealed(t, "", "ledger", "copy", "--from", bad, "--to", tb)
	if code != 1 || !strings.Contains(stderr, "entries, entry 3: ") || !strings.Contains(stderr, "\nhint: ") {
		t.Errorf("copy of an altered source: exit %d, %s", code, stderr)
	}
	if n := pgTables(t, tb); n != 0 {
		t.Errorf("the failed copy left %d tables", n)
	}
	if code, _, stderr := runSealed(t, "", "ledger", "audit", "--db", tb, "--vkey-file", demo.VerifierKeyFile(src)); code != 2 || !strings.Contains(stderr, "not a sealed ledger") {
		t.Errorf("audit after the failed copy: exit %d, %s", code, stderr)
	}
	if code, _, stderr := runSealed(t, "", "ledger", "append", "--db", tb, "--key", demo.KeyFile(src), "--kind", "commit", "--player", "zoe",
		"--action-type", "bid", "--channel", "c", "--commitment", strings.Repeat("ab", 32)); code != 2 || !strings.Contains(stderr, "not a sealed ledger") {
		t.Errorf("append after the failed copy: exit %d, %s", code, stderr)
	}
	mustRun(t, 0, "", "ledger", "copy", "--from", src, "--to", tb)

	// A source that is no ledger: an empty database.
	empty := srv.NewDatabase(t)
	x3 := filepath.Join(dir, "x3.db")
	if code, _, _ := runSealed(t, "", "ledger", "copy", "--from", empty, "--to", x3); code == 0 {
		t.Errorf("copy from an empty database: exit 0")
	}
	if _, err := os.Lstat(x3); err == nil {
		t.Errorf("a copy from an empty database created %s", x3)
	}
	other := srv.NewDatabase(t)
	if code, _, _ := runSealed(t, "", "ledger", "copy", "--from", empty, "--to", other); code == 0 {
		t.Errorf("copy from an empty database to PostgreSQL: exit 0")
	}
	if n := pgTables(t, other); n != 0 {
		t.Errorf("a copy from an empty database made %d tables at the destination", n)
	}
	if n := pgTables(t, empty); n != 0 {
		t.Errorf("a copy from an empty database made %d tables in it", n)
	}
}

// TestPostgresCopyExitCodes: the exit codes of every verb. A database
// that holds no ledger is bad input as a source (exit 2); a destination
// that holds a ledger, the source itself included, is bad input (exit
// 2), one line and a hint, as an existing SQLite file is.
func TestPostgresCopyExitCodes(t *testing.T) {
	srv := pgtest.Start(t, pgtest.Options{})
	dir := t.TempDir()
	src := filepath.Join(dir, "demo.db")
	mustRun(t, 0, "", "demo", "--db", src)
	tb := srv.NewDatabase(t)
	mustRun(t, 0, "", "ledger", "copy", "--from", src, "--to", tb)
	for _, from := range []string{src, tb} {
		code, _, stderr := runSealed(t, "", "ledger", "copy", "--from", from, "--to", tb)
		want := "sealed: --to " + tb + " already holds a ledger (origin demo.sealed.invalid/ledger)\nhint: --to must be a new SQLite file or an empty PostgreSQL database\n"
		if code != 2 || stderr != want {
			t.Errorf("copy from %s into a database holding a ledger: exit %d, %q; want exit 2, %q", from, code, stderr, want)
		}
	}
	empty := srv.NewDatabase(t)
	for _, to := range []string{filepath.Join(dir, "x3.db"), srv.NewDatabase(t)} {
		code, _, stderr := runSealed(t, "", "ledger", "copy", "--from", empty, "--to", to)
		want := "sealed: --from " + empty + " is not a sealed ledger: no log_meta or schema_version table\nhint: --from takes a ledger: a SQLite file made by 'sealed ledger init' or the postgres:// URL of a database holding one\n"
		if code != 2 || stderr != want {
			t.Errorf("copy from an empty database to %s: exit %d, %q; want exit 2, %q", to, code, stderr, want)
		}
	}
}
