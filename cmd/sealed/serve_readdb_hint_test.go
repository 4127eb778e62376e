package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestServeReadDBNamedInError (trial 19): a --read-db that is no ledger
// (a file that does not exist, or on PostgreSQL an empty database or one
// that does not exist) is refused at start, but the error's hint named
// --db ("give --db a ledger ...", "create one with 'sealed ledger init',
// or give --db FILE ..."), which holds a good ledger: the hint must name
// the flag that is wrong, as ledger copy's errors name --from and --to.
func TestServeReadDBNamedInError(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "a.db")
	buildDemo(t, db)
	missing := filepath.Join(dir, "missing.db")
	code, stdout, stderr := serveRefused(t, &serveOptions{DB: db, ReadDB: missing, Addr: "127.0.0.1:0", Zone: "UTC"})
	if code != 2 || stdout != "" || !strings.Contains(stderr, "--read-db") || strings.Contains(stderr, "give --db") {
		t.Errorf("serve --db %s --read-db %s: exit %d, stdout %q, stderr %q; want exit 2 and a hint naming --read-db", db, missing, code, stdout, stderr)
	}
}
