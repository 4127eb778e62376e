package pgstore_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sealedhq/sealed/internal/pgtest"
	"github.com/sealedhq/sealed/ledger"
	"github.com/sealedhq/sealed/ledger/pgstore"
)

// countObjects counts the tables and functions in url's current schema.
func countObjects(t *testing.T, url string) (tables, funcs int) {
	t.Helper()
	return pgtest.CountTables(t, url), int(pgtest.QueryInt(t, url, `SELECT count(*) FROM pg_proc WHERE pronamespace = current_schema()::regnamespace`))
}

// TestDiscard: Discard drops the schema and the rows of a database that
// holds no identity rows (what a copy that did not complete leaves), so
// that the database is empty again, and refuses one that holds a ledger.
func TestDiscard(t *testing.T) {
	ctx := context.Background()
	srv := pgtest.Shared(t)
	url := srv.NewDatabase(t)
	s := openStore(t, url, pgstore.Options{Create: true})
	if err := s.PutCheckpoint(ctx, &ledger.StoredCheckpoint{Size: 0, Root: make([]byte, 32), Note: []byte("n\n")}); err != nil {
		t.Fatal(err)
	}
	if tables, funcs := countObjects(t, url); tables == 0 || funcs == 0 {
		t.Fatalf("the schema: %d tables, %d functions", tables, funcs)
	}
	if err := s.Discard(ctx); err != nil {
		t.Fatalf("Discard: %v", err)
	}
	if tables, funcs := countObjects(t, url); tables != 0 || funcs != 0 {
		t.Errorf("after Discard: %d tables and %d functions left", tables, funcs)
	}
	// The database takes a ledger again.
	s2 := openStore(t, url, pgstore.Options{Create: true})
	if _, err := ledger.Create(ctx, s2, "test.example/d", filepath.Join(t.TempDir(), "k")); err != nil {
		t.Fatalf("Create after Discard: %v", err)
	}
	// A ledger is never discarded.
	if err := s2.Discard(ctx); err == nil || !strings.Contains(err.Error(), "holds a ledger") {
		t.Errorf("Discard of a ledger: %v", err)
	}
	if m, err := s2.Meta(ctx); err != nil || m.Origin != "test.example/d" {
		t.Errorf("Meta after a refused Discard: %+v, %v", m, err)
	}
}

// TestLockCopy: the copy lock is held by one session at a time, and is
// free again once released.
func TestLockCopy(t *testing.T) {
	ctx := context.Background()
	url := pgtest.Shared(t).NewDatabase(t)
	l1, err := pgstore.LockCopy(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	if l2, err := pgstore.LockCopy(ctx, url); err == nil || !strings.Contains(err.Error(), "another copy into this database is running") {
		if l2 != nil {
			l2.Release()
		}
		t.Fatalf("a second LockCopy: %v", err)
	}
	if err := l1.Release(); err != nil {
		t.Fatal(err)
	}
	l3, err := pgstore.LockCopy(ctx, url)
	if err != nil {
		t.Fatalf("LockCopy after Release: %v", err)
	}
	l3.Release()
	// A connection that fails shows no password.
	if _, err := pgstore.LockCopy(ctx, "postgres://u:s3cret@127.0.0.1:1/x?connect_timeout=2"); err == nil || strings.Contains(err.Error(), "s3cret") {
		t.Errorf("LockCopy on a server that is not there: %v", err)
	}
}
