package sqlitestore_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sealedhq/sealed/ledger"
	"github.com/sealedhq/sealed/ledger/sqlitestore"
)

// newLedgerFile makes a closed ledger of n commit entries in a new
// directory and returns the database and key paths.
func newLedgerFile(t *testing.T, n int) (db, key string) {
	t.Helper()
	ctx := context.Background()
	dir := t.TempDir()
	db, key = filepath.Join(dir, "t.db"), filepath.Join(dir, "t.key")
	s, err := sqlitestore.Open(db, sqlitestore.Options{Create: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ledger.Create(ctx, s, "example.com/damage", key); err != nil {
		t.Fatal(err)
	}
	l, err := ledger.Open(ctx, s, ledger.Options{KeyFile: key})
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		body := fmt.Sprintf(`{"kind":"commit","player":"p%d","action_type":"bid","channel":"c","commitment":"%064x"}`, i, i+1)
		if _, err := l.Append(ctx, []byte(body)); err != nil {
			t.Fatal(err)
		}
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	return db, key
}

// holdSnapshot opens a read transaction on db after checking that it
// holds want entries; while it is open, the WAL checkpointer cannot copy
// later appends into the file, so they stay in the WAL. It ends with t.
func holdSnapshot(t *testing.T, db string, want int) *sql.Tx {
	t.Helper()
	r, err := sql.Open("sqlite3", "file:"+db+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	tx, err := r.BeginTx(context.Background(), &sql.TxOptions{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tx.Rollback() })
	var n int
	if err := tx.QueryRow(`SELECT count(*) FROM entries`).Scan(&n); err != nil || n != want {
		t.Fatalf("reader: %d entries, %v; want %d", n, err, want)
	}
	return tx
}

// appendWhileHeld opens db as its writer with key and appends n commit
// entries (players q0, q1, ...), returning the open ledger.
func appendWhileHeld(t *testing.T, db, key string, n int) *ledger.Ledger {
	t.Helper()
	s, err := sqlitestore.Open(db, sqlitestore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	l, err := ledger.Open(context.Background(), s, ledger.Options{KeyFile: key})
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		body := fmt.Sprintf(`{"kind":"commit","player":"q%d","action_type":"bid","channel":"c","commitment":"%064x"}`, i, 1000+i)
		if _, err := l.Append(context.Background(), []byte(body)); err != nil {
			t.Fatal(err)
		}
	}
	return l
}

// damagePage XORs the two bytes of the b-tree page header that count its
// cells (sqlite.org/fileformat2.html, "B-tree Pages": offset 3) on the
// root page of table, after checking that it is a table leaf page
// (type 13), so that SQLite cannot read that page.
func damagePage(t *testing.T, db, table string) {
	t.Helper()
	c, err := sql.Open("sqlite3", "file:"+db+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	var root, pageSize int64
	err = c.QueryRow(`SELECT rootpage FROM sqlite_master WHERE type = 'table' AND name = ?`, table).Scan(&root)
	if err == nil {
		err = c.QueryRow(`PRAGMA page_size`).Scan(&pageSize)
	}
	c.Close()
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(db)
	if err != nil {
		t.Fatal(err)
	}
	off := (root - 1) * pageSize
	if b[off] != 13 {
		t.Fatalf("page %d of %s is of type %d, not a table leaf", root, table, b[off])
	}
	b[off+3] ^= 0x5a
	b[off+4] ^= 0x5a
	if err := os.WriteFile(db, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestDamagedPage: a page of the entries table that SQLite cannot read
// (its header damaged, the file whole) is the file's damage wherever it
// is met: the audit's integrity check, which SQLite stops on that page,
// and every read of the entries return an error wrapping
// ledger.ErrTampered saying the file is damaged (exit 1 from the CLI,
// 409 from the site), not a store that could not be read just now (exit
// 2, 503 with Retry-After).
func TestDamagedPage(t *testing.T) {
	ctx := context.Background()
	db, _ := newLedgerFile(t, 5)
	damagePage(t, db, "entries")
	damaged := func(err error) bool {
		return errors.Is(err, ledger.ErrTampered) && strings.Contains(err.Error(), "damaged")
	}
	s, err := sqlitestore.Open(db, sqlitestore.Options{ReadOnly: true})
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	l, err := ledger.Open(ctx, s, ledger.Options{ReadOnly: true})
	if err != nil {
		t.Fatalf("ledger open: %v", err)
	}
	defer l.Close()
	if es, err := l.Entries(0, 5); !damaged(err) {
		t.Errorf("Entries = %d entries, %v; want an error wrapping ErrTampered saying the file is damaged", len(es), err)
	}
	if rep, err := l.Audit(ctx, nil); !damaged(err) {
		t.Errorf("Audit = %+v, %v; want an error wrapping ErrTampered saying the file is damaged", rep, err)
	}
}
