package pgstore_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/sealedhq/sealed/internal/pgtest"
	"github.com/sealedhq/sealed/ledger"
)

// TestDiskFull: a batch the server refuses for lack of disk space
// (SQLSTATE 53100, disk_full; raised here by a trigger, as PostgreSQL
// raises it when it cannot extend a table's file) fails with an error
// wrapping ledger.ErrStoreFull, which the CLI reports as nothing
// appended with a hint to free space (it said "the ledger refused the
// entry", exit 2, as for a bad entry). Nothing of it is stored, and once
// there is room the next append takes the next index.
func TestDiskFull(t *testing.T) {
	ctx := context.Background()
	url, key := newLedger(t)
	l := mustOpen(t, url, ledger.Options{KeyFile: key, CheckpointInterval: time.Millisecond})
	defer l.Close()
	for i := range int64(3) {
		if _, err := l.Append(ctx, commitBody("before", i)); err != nil {
			t.Fatal(err)
		}
	}
	if err := pgtest.Exec(t, url,
		`CREATE FUNCTION foreign_full() RETURNS trigger LANGUAGE plpgsql AS $$BEGIN RAISE EXCEPTION 'could not extend file: No space left on device' USING ERRCODE = 'disk_full'; END$$`,
		`CREATE TRIGGER foreign_full BEFORE INSERT ON entries FOR EACH ROW EXECUTE FUNCTION foreign_full()`); err != nil {
		t.Fatal(err)
	}
	if _, err := l.Append(ctx, commitBody("full", 9)); !errors.Is(err, ledger.ErrStoreFull) {
		t.Fatalf("append on a full disk: %v; want an error wrapping ErrStoreFull", err)
	}
	if err := pgtest.Exec(t, url, `DROP TRIGGER foreign_full ON entries`, `DROP FUNCTION foreign_full()`); err != nil {
		t.Fatal(err)
	}
	if i, err := l.Append(ctx, commitBody("room", 9)); err != nil || i != 3 {
		t.Fatalf("append once there is room = %d, %v; want index 3", i, err)
	}
}
