package ledger_test

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/sealedhq/sealed/ledger"
)

// TestAuditSchemaObjects: with every row intact, a trigger dropped (each
// of the demo ledger's in turn), an index dropped, a trigger replaced by
// another of the same name, or a trigger added is a finding of the audit
// naming the table and the trigger or index, and a writer refuses to open
// the file (ErrTampered).
func TestAuditSchemaObjects(t *testing.T) {
	demo := demoLedger(t)
	db, err := sql.Open("sqlite3", "file:"+demo+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	rows, err := db.Query(`SELECT name, tbl_name FROM sqlite_master WHERE type = 'trigger' ORDER BY name`)
	if err != nil {
		t.Fatal(err)
	}
	type tc struct{ name, stmt, table, what string }
	var cases []tc
	for rows.Next() {
		var n, table string
		if err := rows.Scan(&n, &table); err != nil {
			t.Fatal(err)
		}
		cases = append(cases, tc{"drop " + n, `DROP TRIGGER ` + n, table, "trigger " + n + " is missing"})
	}
	rows.Close()
	db.Close()
	if len(cases) < 14 {
		t.Fatalf("the demo ledger has %d triggers; the schema makes at least 14", len(cases))
	}
	cases = append(cases,
		tc{"drop index", `DROP INDEX entries_ref`, "entries", "index entries_ref is missing"},
		tc{"trigger replaced", `DROP TRIGGER entries_no_update; CREATE TRIGGER entries_no_update BEFORE UPDATE ON entries WHEN 0 BEGIN SELECT RAISE(ABORT, 'ledger entries are append-only'); END`,
			"entries", "trigger entries_no_update is not the one"},
		tc{"trigger added", `CREATE TRIGGER sneaky AFTER INSERT ON entries BEGIN SELECT 1; END`, "entries", "trigger sneaky that schema version"},
		tc{"index added", `CREATE INDEX sneaky_idx ON hashes(hash)`, "hashes", "index sneaky_idx that schema version"},
		// A virtual table of a module this build lacks (FTS5, which the
		// sqlite3 shell has): named as any extra table, not SQLite's "no
		// such module: fts5" (newcomer trial 6, finding 2).
		tc{"virtual table of a module not built in", `PRAGMA writable_schema = ON; INSERT INTO sqlite_master (type, name, tbl_name, rootpage, sql) VALUES ('table', 'ft', 'ft', 0, 'CREATE VIRTUAL TABLE ft USING fts5(a)')`,
			"ft", "table ft that schema version"},
	)
	key, err := os.ReadFile(strings.TrimSuffix(demo, ".db") + ".key")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := copyFile(t, demo)
			if err := os.WriteFile(keyOf(f), key, 0o600); err != nil {
				t.Fatal(err)
			}
			if err := attack(t, f, c.stmt); err != nil {
				t.Fatal(err)
			}
			if w, err := openLedger(t, f, ledger.Options{KeyFile: keyOf(f)}); err == nil {
				w.Close()
				t.Error("a writer opened the file")
			} else if !errors.Is(err, ledger.ErrTampered) || !strings.Contains(err.Error(), c.what) {
				t.Errorf("writer: %v; want ErrTampered naming %q", err, c.what)
			}
			l, err := openLedger(t, f, ledger.Options{ReadOnly: true})
			if err != nil {
				t.Fatal(err)
			}
			defer l.Close()
			rep, err := l.Audit(context.Background(), nil)
			if err != nil {
				t.Fatal(err)
			}
			if rep.OK || rep.Problem == nil || rep.Problem.Table != c.table || !strings.Contains(rep.Problem.What, c.what) {
				t.Fatalf("audit: %+v; want a finding in %s naming %q", rep.Problem, c.table, c.what)
			}
		})
	}
}
