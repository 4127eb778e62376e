package pgstore_test

import (
	"context"
	"errors"
	"fmt"
	neturl "net/url"
	"strings"
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

// TestDamagedPage: a read the server answers with SQLSTATE XX001
// (data_corrupted: "invalid page in block 5 of relation ...", a page of
// the table's file damaged on disk; raised here by a row security
// policy on the entries a non-superuser reader reads) is the database's
// damage, an error wrapping ledger.ErrTampered (exit 1 with the audit
// hint, 409), not a store that could not be read just now (the CLI
// exited 2 with no hint, the site answered 503 "try again later").
func TestDamagedPage(t *testing.T) {
	ctx := context.Background()
	url, key := newLedger(t)
	l := mustOpen(t, url, ledger.Options{KeyFile: key})
	for i := range int64(3) {
		if _, err := l.Append(ctx, commitBody("page", i)); err != nil {
			t.Fatal(err)
		}
	}
	l.Close()
	role := fmt.Sprintf("reader_%d", time.Now().UnixNano())
	if err := pgtest.Exec(t, url,
		`CREATE ROLE `+role+` LOGIN`,
		`GRANT SELECT ON ALL TABLES IN SCHEMA public TO `+role,
		`CREATE FUNCTION damaged_page() RETURNS boolean LANGUAGE plpgsql AS $$BEGIN RAISE EXCEPTION 'invalid page in block 5 of relation base/1/2' USING ERRCODE = 'data_corrupted'; END$$`,
		`CREATE POLICY damaged ON entries FOR SELECT TO `+role+` USING (damaged_page())`,
		`ALTER TABLE entries ENABLE ROW LEVEL SECURITY`); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pgtest.Exec(t, url, `DROP OWNED BY `+role, `DROP ROLE `+role) })
	u, err := neturl.Parse(url)
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	q.Set("user", role)
	u.RawQuery = q.Encode()
	r := mustOpen(t, u.String(), ledger.Options{ReadOnly: true})
	if es, err := r.Entries(0, 3); !errors.Is(err, ledger.ErrTampered) || !strings.Contains(err.Error(), "damaged") {
		t.Fatalf("Entries = %d entries, %v; want an error wrapping ErrTampered saying the database is damaged", len(es), err)
	}
}
