package pgstore_test

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sealedhq/sealed/internal/pgtest"
	"github.com/sealedhq/sealed/ledger"
	"github.com/sealedhq/sealed/ledger/pgstore"
)

// copyRacingStore is a store whose Create first lets another session write
// what a `sealed ledger copy` into the same database writes before its
// identity rows (a checkpoint row, here), as happens when the copy starts
// between ledger.Create's census of the store and its Store.Create.
type copyRacingStore struct {
	*pgstore.Store
	copyWrites func()
}

func (s copyRacingStore) Create(ctx context.Context, m *ledger.Meta, first *ledger.StoredCheckpoint) error {
	s.copyWrites()
	return s.Store.Create(ctx, m, first)
}

// TestCreateRacingCopy (trial 19): `sealed ledger init` and `sealed
// ledger copy --to` run at once on one empty database. ledger.Create
// checks for a copy's rows (ErrUnfinished) by a census outside
// Store.Create's transaction, and Store.Create only checks that log_meta
// is empty, so a copy that has written rows by then is taken over: init
// exits 0 and prints its verifier key, but the database holds the other
// log's entries and checkpoints under init's identity (its audit fails,
// no writer opens it), and the copy, which fails, says no ledger was
// left. Seen from the CLI 3 times in 3 runs. Store.Create must refuse
// rows it did not write, in its own transaction.
func TestCreateRacingCopy(t *testing.T) {
	ctx := context.Background()
	url := pgtest.Shared(t).NewDatabase(t)
	s := openStore(t, url, pgstore.Options{Create: true})
	copier := openStore(t, url, pgstore.Options{Create: true})
	racing := copyRacingStore{Store: s, copyWrites: func() {
		// The copy's first checkpoint row, as TestDiscard writes it.
		if err := copier.PutCheckpoint(ctx, &ledger.StoredCheckpoint{Size: 0, Root: make([]byte, 32), Note: []byte("another log's note\n")}); err != nil {
			t.Fatal(err)
		}
	}}
	vkey, err := ledger.Create(ctx, racing, "test.example/init", filepath.Join(t.TempDir(), "k"))
	if err == nil {
		n := pgtest.QueryInt(t, url, `SELECT count(*) FROM checkpoints`)
		t.Fatalf("ledger.Create over a copy's rows succeeded (verifier key %s); the database holds %d checkpoints, one of them the copy's: want an error wrapping ledger.ErrUnfinished", vkey, n)
	}
	if !errors.Is(err, ledger.ErrUnfinished) {
		t.Errorf("ledger.Create over a copy's rows: %v; want an error wrapping ledger.ErrUnfinished", err)
	}
}

// TestCreateUnderCopyLock: a new ledger is not made while a copy into the
// database holds its copy lock, even before the copy has written a row
// (its rows would follow under the new identity); once the lock is
// released, Create succeeds.
func TestCreateUnderCopyLock(t *testing.T) {
	ctx := context.Background()
	url := pgtest.Shared(t).NewDatabase(t)
	s := openStore(t, url, pgstore.Options{Create: true})
	lock, err := pgstore.LockCopy(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if _, err := ledger.Create(ctx, s, "test.example/locked", filepath.Join(dir, "k1")); err == nil || !strings.Contains(err.Error(), "a ledger copy into this database is under way") {
		t.Errorf("Create under a copy's lock: %v; want it refused", err)
	}
	if err := lock.Release(); err != nil {
		t.Fatal(err)
	}
	if _, err := ledger.Create(ctx, s, "test.example/locked", filepath.Join(dir, "k2")); err != nil {
		t.Errorf("Create once the copy lock is released: %v", err)
	}
}
