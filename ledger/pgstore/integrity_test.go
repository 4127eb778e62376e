package pgstore_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/sealedhq/sealed/internal/pgtest"
	"github.com/sealedhq/sealed/ledger"
)

// TestIndexDisagreesWithTable: an entry appended while entries_dedup was
// not maintained (pg_index.indisready false, then true again: the index
// then lacks the entry's key, as a damaged index file would, and the
// catalog reads as before) is found by the audit when the database has
// PostgreSQL's amcheck extension: an error wrapping ledger.ErrTampered
// naming the index (bt_index_check with heapallindexed). Without the
// extension, the audit passes the rows and lists the indexes as not
// checked, saying why (trial 10b, finding 12, on PostgreSQL).
func TestIndexDisagreesWithTable(t *testing.T) {
	ctx := context.Background()
	url, key := newLedger(t)
	w := mustOpen(t, url, ledger.Options{KeyFile: key})
	for i := range int64(3) {
		if _, err := w.Append(ctx, commitBody("index", i)); err != nil {
			t.Fatal(err)
		}
	}
	audit := func() (*ledger.AuditReport, error) {
		r := mustOpen(t, url, ledger.Options{ReadOnly: true})
		defer r.Close()
		return r.Audit(ctx, nil)
	}

	rep, err := audit()
	if err != nil || !rep.OK || len(rep.Unchecked) != 1 || !strings.Contains(rep.Unchecked[0], "amcheck extension is not installed") {
		t.Fatalf("audit without amcheck = %+v, %v; want ok, with the indexes listed as not checked for want of amcheck", rep, err)
	}
	if err := pgtest.Exec(t, url, `CREATE EXTENSION amcheck`); err != nil {
		t.Fatal(err)
	}
	if rep, err := audit(); err != nil || !rep.OK || len(rep.Unchecked) != 0 {
		t.Fatalf("audit with amcheck of a sound ledger = %+v, %v; want ok, all checked", rep, err)
	}

	if err := pgtest.Exec(t, url, `UPDATE pg_index SET indisready = false WHERE indexrelid = 'entries_dedup'::regclass`); err != nil {
		t.Fatal(err)
	}
	w.Close()
	w = mustOpen(t, url, ledger.Options{KeyFile: key}) // new connections, which see the index as not ready
	if _, err := w.Append(ctx, commitBody("index", 3)); err != nil {
		t.Fatal(err)
	}
	w.Close()
	if err := pgtest.Exec(t, url, `UPDATE pg_index SET indisready = true WHERE indexrelid = 'entries_dedup'::regclass`); err != nil {
		t.Fatal(err)
	}
	rep, err = audit()
	if !errors.Is(err, ledger.ErrTampered) || !strings.Contains(err.Error(), "entries_dedup") {
		t.Errorf("audit = %+v, %v; want an error wrapping ErrTampered naming entries_dedup", rep, err)
	}
}

// TestInvalidIndexNotChecked: an index PostgreSQL marks not valid (a
// CREATE or REINDEX ... CONCURRENTLY that did not finish) is refused by
// amcheck with SQLSTATE 0A000; the audit failed with that error (a
// store that could not be read, not a verdict) instead of its report:
// the schema altered (the index is not the one the schema makes), and
// the index listed as not checked (trial 10e, finding 2).
func TestInvalidIndexNotChecked(t *testing.T) {
	ctx := context.Background()
	url, key := newLedger(t)
	w := mustOpen(t, url, ledger.Options{KeyFile: key})
	for i := range int64(3) {
		if _, err := w.Append(ctx, commitBody("invalid", i)); err != nil {
			t.Fatal(err)
		}
	}
	w.Close()
	for _, q := range []string{`CREATE EXTENSION amcheck`, `UPDATE pg_index SET indisvalid = false WHERE indexrelid = 'entries_dedup'::regclass`} {
		if err := pgtest.Exec(t, url, q); err != nil {
			t.Fatal(err)
		}
	}
	r := mustOpen(t, url, ledger.Options{ReadOnly: true})
	defer r.Close()
	rep, err := r.Audit(ctx, nil)
	if err != nil || rep.OK || rep.Problem == nil || !strings.Contains(fmt.Sprint(*rep.Problem), "entries_dedup") || len(rep.Unchecked) != 1 || !strings.Contains(rep.Unchecked[0], "entries_dedup") {
		t.Fatalf("audit with entries_dedup not valid = %+v, %v; want a report of the schema altered at entries_dedup, and entries_dedup listed as not checked", rep, err)
	}
}
