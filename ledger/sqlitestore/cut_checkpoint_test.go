package sqlitestore_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/sealedhq/sealed/ledger"
	"github.com/sealedhq/sealed/ledger/sqlitestore"
)

// TestCheckpointCutShort: a WAL checkpoint that could not write its last
// page whole (the file system full, or the writer's file size limit
// reached: RLIMIT_FSIZE) leaves the database file ending in part of a
// page, while the WAL still holds every acknowledged commit. That is not
// a damaged ledger: it is read and audited whole, with every entry, and
// a writer opens it and appends (its checkpoint then writes the page
// whole). It was refused everywhere as "not a whole number of pages"
// (exit 1, "the database was altered").
func TestCheckpointCutShort(t *testing.T) {
	ctx := context.Background()
	db, key := newLedgerFile(t, 3)
	// A reader holding a snapshot keeps the checkpointer from copying
	// the appends below into the file: they stay in the WAL, and the
	// database they make is larger than the file.
	const more = 300
	tx := holdSnapshot(t, db, 3)
	l := appendWhileHeld(t, db, key, more)
	// The files as a crash leaves them, with the last page of the
	// database cut short by half, as the failed checkpoint wrote it.
	dir := t.TempDir()
	cp := filepath.Join(dir, "c.db")
	for _, suffix := range []string{"", "-wal", "-shm"} {
		b, err := os.ReadFile(db + suffix)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(cp+suffix, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tx.Rollback()
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(cp, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write(make([]byte, 2048)); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if wal, err := os.Stat(cp + "-wal"); err != nil || wal.Size() == 0 {
		t.Fatalf("the WAL holds nothing (%v): the test proves nothing", err)
	}

	rs, err := sqlitestore.Open(cp, sqlitestore.Options{ReadOnly: true})
	if err != nil {
		t.Fatalf("open read-only: %v", err)
	}
	rl, err := ledger.Open(ctx, rs, ledger.Options{ReadOnly: true})
	if err != nil {
		t.Fatalf("ledger open read-only: %v", err)
	}
	rep, err := rl.Audit(ctx, nil)
	rl.Close()
	if err != nil || !rep.OK || rep.Size != 3+more {
		t.Fatalf("audit = %+v, %v; want ok with %d entries", rep, err, 3+more)
	}
	ws, err := sqlitestore.Open(cp, sqlitestore.Options{})
	if err != nil {
		t.Fatalf("open for writing: %v", err)
	}
	wl, err := ledger.Open(ctx, ws, ledger.Options{KeyFile: key})
	if err != nil {
		t.Fatalf("ledger open for writing: %v", err)
	}
	i, err := wl.Append(ctx, []byte(fmt.Sprintf(`{"kind":"commit","player":"z","action_type":"bid","channel":"c","commitment":"%064x"}`, 7777)))
	if err != nil || i != 3+more {
		t.Fatalf("append = %d, %v; want index %d", i, err, 3+more)
	}
	if err := wl.Close(); err != nil {
		t.Fatal(err)
	}
}
