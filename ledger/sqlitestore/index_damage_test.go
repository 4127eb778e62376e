package sqlitestore_test

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/sealedhq/sealed/ledger"
	"github.com/sealedhq/sealed/ledger/sqlitestore"
)

// TestIndexDisagreesWithTable: one byte of an entries_lookup key changed
// in the file (the index entry of a commit no longer carries the first
// bytes of its duplicate key, so a writer would not find the entry it
// guards and would admit its duplicate) passes SQLite's quick_check,
// which skips index content; the audit finds it (trial 10b, finding 12):
// an error wrapping ledger.ErrTampered that names the index.
func TestIndexDisagreesWithTable(t *testing.T) {
	db, _ := newLedgerFile(t, 20)
	c, err := sql.Open("sqlite3", "file:"+db+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	var root, pageSize int64
	var key []byte
	err = c.QueryRow(`SELECT rootpage FROM sqlite_master WHERE type = 'index' AND name = 'entries_lookup'`).Scan(&root)
	if err == nil {
		err = c.QueryRow(`PRAGMA page_size`).Scan(&pageSize)
	}
	if err == nil {
		// The index's second column (schema.sql, migration 5).
		err = c.QueryRow(`SELECT substr(dedup, 1, 8) FROM entries WHERE idx = 7`).Scan(&key)
	}
	c.Close()
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(db)
	if err != nil {
		t.Fatal(err)
	}
	page := data[(root-1)*pageSize : root*pageSize]
	if page[0] != 10 { // an index leaf page (fileformat2.html, "B-tree Pages")
		t.Fatalf("entries_lookup's root page has type %d; want 10, one leaf holding all 20 keys", page[0])
	}
	at := bytes.Index(page, key)
	if at < 0 || bytes.Index(page[at+1:], key) >= 0 {
		t.Fatalf("entry 7's key %x is not on the index page exactly once", key)
	}
	page[at+len(key)-1] ^= 0x01 // the key's last byte: the keys' order is kept
	if err := os.WriteFile(db, data, 0o644); err != nil {
		t.Fatal(err)
	}

	c, err = sql.Open("sqlite3", "file:"+db+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	var quick string
	err = c.QueryRow(`PRAGMA quick_check`).Scan(&quick)
	c.Close()
	if err != nil || quick != "ok" {
		t.Fatalf("quick_check = %q, %v; the case this test is for is a change it does not see", quick, err)
	}

	s, err := sqlitestore.Open(db, sqlitestore.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	l, err := ledger.Open(context.Background(), s, ledger.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	rep, err := l.Audit(context.Background(), nil)
	if !errors.Is(err, ledger.ErrTampered) || !strings.Contains(err.Error(), "entries_lookup") {
		t.Errorf("audit = %+v, %v; want an error wrapping ErrTampered naming entries_lookup", rep, err)
	}
}
