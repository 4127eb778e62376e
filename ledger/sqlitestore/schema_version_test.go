package sqlitestore_test

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sealedhq/sealed/ledger"
	"github.com/sealedhq/sealed/ledger/sqlitestore"
)

// TestSchemaVersionRowDeleted: a schema_version row deleted is an audit
// finding, and a writer refuses the file with ErrTampered before writing
// anything: it neither applies again the migration whose row is gone
// (which failed on its table, "already exists", exit 2) nor appends to a
// file whose recorded versions have a gap (which it did).
func TestSchemaVersionRowDeleted(t *testing.T) {
	ctx := context.Background()
	latest := sqlitestore.SchemaVersion()
	// gap is what the writer says of schema_version without row v.
	gap := func(v int) string {
		var vs []int
		for i := 1; i <= latest; i++ {
			if i != v {
				vs = append(vs, i)
			}
		}
		return fmt.Sprintf("versions %v; expected 1..%d, one row each", vs, latest)
	}
	for _, c := range []struct {
		version int
		table   string // the table the audit and the writer name
		want    string
	}{
		{latest, "lookup", fmt.Sprintf("the table is made by schema migration %d, but schema_version lists versions 1..%d", latest, latest-1)},
		{3, "schema_version", gap(3)},
		{1, "schema_version", gap(1)},
	} {
		t.Run(fmt.Sprint(c.version), func(t *testing.T) {
			dir := t.TempDir()
			path, key := filepath.Join(dir, "l.db"), filepath.Join(dir, "l.key")
			s, err := sqlitestore.Open(path, sqlitestore.Options{Create: true})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := ledger.Create(ctx, s, "versions.example/log", key); err != nil {
				t.Fatal(err)
			}
			l, err := ledger.Open(ctx, s, ledger.Options{KeyFile: key})
			if err != nil {
				t.Fatal(err)
			}
			for i := range 3 {
				c := sha256.Sum256(fmt.Appendf(nil, "v %d", i))
				if _, err := l.Append(ctx, fmt.Appendf(nil, `{"kind":"commit","player":"p%d","action_type":"bid","channel":"web","commitment":"%x"}`, i, c)); err != nil {
					t.Fatal(err)
				}
			}
			if err := l.Close(); err != nil {
				t.Fatal(err)
			}
			db, err := sql.Open("sqlite3", "file:"+path)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := db.Exec(`DELETE FROM schema_version WHERE version = ?`, c.version); err != nil {
				t.Fatal(err)
			}
			db.Close()

			// The audit.
			r, err := sqlitestore.Open(path, sqlitestore.Options{ReadOnly: true})
			if err != nil {
				t.Fatal(err)
			}
			ro, err := ledger.Open(ctx, r, ledger.Options{ReadOnly: true})
			if err != nil {
				t.Fatal(err)
			}
			rep, err := ro.Audit(ctx, nil)
			ro.Close()
			if err != nil || rep.OK || rep.Problem.Table != c.table {
				t.Errorf("audit: %+v, %v; want a finding naming %s", rep.Problem, err, c.table)
			}

			// A writer.
			w, err := sqlitestore.Open(path, sqlitestore.Options{})
			if err == nil {
				w.Close()
			}
			if !errors.Is(err, ledger.ErrTampered) || !strings.HasPrefix(err.Error(), c.table+": ") || !strings.Contains(err.Error(), c.want) {
				t.Errorf("opening for writing: %v; want an error wrapping ErrTampered naming %s, containing %q", err, c.table, c.want)
			}
		})
	}
}
