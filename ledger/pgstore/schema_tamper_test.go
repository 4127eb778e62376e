package pgstore_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/sealedhq/sealed/internal/pgtest"
	"github.com/sealedhq/sealed/ledger"
	"github.com/sealedhq/sealed/ledger/pgstore"
)

// pgstoreReadOnly opens a store for reading only.
var pgstoreReadOnly = pgstore.Options{ReadOnly: true}

// schemaLedgers makes ledgers in schemas of their own in one database
// (the URL sets search_path): a database of its own for each would take
// a second to make.
type schemaLedgers struct {
	db string // the database's URL
	n  atomic.Int64
}

// newSchemaLedgers makes the database of a schemaLedgers.
func newSchemaLedgers(t *testing.T) *schemaLedgers {
	return &schemaLedgers{db: pgtest.Shared(t).NewDatabase(t)}
}

// tamperedLedger makes a ledger of n commit entries (closed, so its
// checkpoint is signed) in a new schema, runs sqls on it as the
// superuser, and returns its URL and key file.
func (ls *schemaLedgers) tamperedLedger(t *testing.T, n int64, sqls ...string) (url, key string) {
	t.Helper()
	ctx := context.Background()
	schema := fmt.Sprintf("ledger%d", ls.n.Add(1))
	if err := pgtest.Exec(t, ls.db, `CREATE SCHEMA `+schema); err != nil {
		t.Fatal(err)
	}
	url = ls.db + "&search_path=" + schema
	key = filepath.Join(t.TempDir(), "ledger.key")
	if err := initLedger(url, key); err != nil {
		t.Fatal(err)
	}
	l, err := openLedger(ctx, url, ledger.Options{KeyFile: key})
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		if _, err := l.Append(ctx, commitBody("schema", i)); err != nil {
			t.Fatal(err)
		}
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if err := pgtest.Exec(t, url, sqls...); err != nil {
		t.Fatal(err)
	}
	return url, key
}

// auditFinding audits the ledger at url, opened read-only as the CLI
// does, and returns its finding: the report's problem, or an error
// wrapping ledger.ErrTampered from opening or auditing (both exit 1).
// Any other error, and a clean audit, fail t.
func auditFinding(t *testing.T, url string) string {
	t.Helper()
	ctx := context.Background()
	l, err := openLedger(ctx, url, ledger.Options{ReadOnly: true})
	if errors.Is(err, ledger.ErrTampered) {
		return err.Error()
	}
	if err != nil {
		t.Fatalf("opening the ledger read-only: %v; want it open, or an error wrapping ErrTampered", err)
	}
	defer l.Close()
	rep, err := l.Audit(ctx, nil)
	if errors.Is(err, ledger.ErrTampered) {
		return err.Error()
	}
	if err != nil {
		t.Fatalf("audit: %v; want a finding", err)
	}
	if rep.OK || rep.Problem == nil {
		t.Fatalf("audit: ok (%+v); want a finding", rep)
	}
	return rep.Problem.String()
}

// countEntries counts the rows of entries with a query of its own.
func countEntries(t *testing.T, url string) int64 {
	t.Helper()
	return pgtest.QueryInt(t, url, `SELECT count(*) FROM entries`)
}

// refusesWriter opens the ledger at url for writing, requires the
// refusal to wrap ledger.ErrTampered and contain want, and no entry to
// have been written.
func refusesWriter(t *testing.T, url, key, want string) {
	t.Helper()
	before := countEntries(t, url)
	l, err := openLedger(context.Background(), url, ledger.Options{KeyFile: key})
	if err == nil {
		_, err = l.Append(context.Background(), commitBody("after", 0))
		l.Close()
	}
	if !errors.Is(err, ledger.ErrTampered) || !strings.Contains(err.Error(), want) {
		t.Errorf("a writer on the altered schema: %v; want an error wrapping ErrTampered containing %q", err, want)
	}
	if after := countEntries(t, url); after != before {
		t.Errorf("%d entries after the refused writer, %d before", after, before)
	}
}

// disabled runs sql on table with its user triggers disabled (as the
// superuser or the owner can).
func disabled(table string, sqls ...string) []string {
	out := []string{`ALTER TABLE ` + table + ` DISABLE TRIGGER USER`}
	out = append(out, sqls...)
	return append(out, `ALTER TABLE `+table+` ENABLE TRIGGER USER`)
}

// TestSchemaAltered: each change to the schema's objects, columns and
// tables that the superuser (or the owner) can make is an audit finding
// naming the table and the object, and a writer refuses the ledger with
// ErrTampered before writing anything. Each of these gave a clean audit
// and appends that succeeded, or a driver's error (exit 2).
func TestSchemaAltered(t *testing.T) {
	ls := newSchemaLedgers(t)
	for _, c := range []struct {
		name  string
		sqls  []string
		table string // the table the finding names
		want  string // in the finding and the writer's refusal
	}{
		{"trigger dropped", []string{`DROP TRIGGER entries_append_only ON entries`}, "entries", "the trigger entries_append_only is missing"},
		{"triggers disabled", []string{`ALTER TABLE entries DISABLE TRIGGER USER`}, "entries", "the trigger entries_append_only is disabled"},
		{"trigger for replicas only", []string{`ALTER TABLE hashes ENABLE REPLICA TRIGGER hashes_append_only`}, "hashes", "hashes_append_only is enabled in replica sessions only"},
		{"trigger replaced", []string{`DROP TRIGGER log_meta_append_only ON log_meta`,
			`CREATE TRIGGER log_meta_append_only BEFORE DELETE ON log_meta FOR EACH STATEMENT EXECUTE FUNCTION sealed_append_only('x')`},
			"log_meta", "the trigger log_meta_append_only is not the one"},
		{"function emptied", []string{`CREATE OR REPLACE FUNCTION sealed_append_only() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NULL; END $$`},
			"checkpoints", "the function sealed_append_only(), which the triggers of checkpoints, cosignatures, entries"},
		{"function made security definer", []string{`ALTER FUNCTION sealed_append_only() SECURITY DEFINER`},
			"checkpoints", "SECURITY DEFINER"},
		{"rule", []string{`CREATE RULE nothing AS ON INSERT TO entries DO INSTEAD NOTHING`}, "entries", "a rule nothing that schema version 4 does not make"},
		{"index dropped", []string{`DROP INDEX entries_dedup`}, "entries", "the index entries_dedup is missing"},
		{"index added", []string{`CREATE INDEX entries_body ON entries(body)`}, "entries", "an index entries_body that schema version 4 does not make"},
		{"constraint added", []string{`ALTER TABLE hashes ADD CONSTRAINT small CHECK (id < 1000000)`}, "hashes", "a constraint small"},
		{"internal trigger disabled", []string{`DO $$ DECLARE n name; BEGIN
			SELECT tgname INTO n FROM pg_trigger WHERE tgrelid = 'cosignatures'::regclass AND tgisinternal LIMIT 1;
			EXECUTE format('ALTER TABLE cosignatures DISABLE TRIGGER %I', n); END $$`},
			"cosignatures", "which enforces the constraint cosignatures_checkpoint_id_fkey, is disabled"},
		{"column added", []string{`ALTER TABLE entries ADD COLUMN extra integer`}, "entries", "column 10, extra integer, is one schema version 4 does not make"},
		{"table added", []string{`CREATE TABLE extra (x integer)`}, "extra", "a table that schema version 4 does not make"},
		{"view added", []string{`CREATE VIEW extra AS SELECT 1 AS x`}, "extra", "a view that schema version 4 does not make"},
		{"row level security", []string{`ALTER TABLE entries ENABLE ROW LEVEL SECURITY`}, "entries", "with row level security"},
		{"policy", []string{`CREATE POLICY p ON entries USING (idx < 3)`}, "entries", "a policy p"},
		{"unlogged", []string{`ALTER TABLE replays SET UNLOGGED`}, "replays", "the relation is an unlogged table"},
		{"inherited", []string{`CREATE SCHEMA other`, `CREATE TABLE other.more () INHERITS (entries)`}, "entries", "inherited by other.more"},
		{"default", []string{`ALTER TABLE entries ALTER COLUMN posted_at SET DEFAULT 0`}, "entries", "column posted_at has the default 0"},
		// The columns (docs/ledger.md: a finding, never a driver's scan
		// error).
		{"NOT NULL dropped, a NULL stored", append([]string{`ALTER TABLE entries ALTER COLUMN kind DROP NOT NULL`},
			disabled("entries", `UPDATE entries SET kind = NULL WHERE idx = 2`)...),
			"entries", "column kind is nullable (no NOT NULL), where the schema declares it NOT NULL"},
		{"column retyped", []string{`ALTER TABLE entries ALTER COLUMN integrated_at TYPE text`}, "entries", "column integrated_at is declared text, where the schema declares bigint"},
		{"column dropped", []string{`ALTER TABLE entries DROP COLUMN commitment`}, "entries", "column 8 is ref, where the schema has commitment"},
		{"table renamed", []string{`ALTER TABLE hashes RENAME TO hashes2`}, "hashes", "the table is missing, but schema version 4 makes it"},
		{"players dropped", []string{`DROP TABLE players`}, "players", "the table is missing, but schema version 4 makes it"},
		{"table made a view", []string{`ALTER TABLE replays RENAME TO replays_old`, `CREATE VIEW replays AS SELECT * FROM replays_old`}, "replays", "the relation is a view, where schema version 4 makes a table"},
		// schema_version (the writers re-applied a migration whose
		// objects exist).
		{"last schema_version row deleted", disabled("schema_version", `DELETE FROM schema_version WHERE version = 4`),
			"seed_commits", "the table is made by schema migration 4, but schema_version lists versions 1..3"},
		{"schema_version row deleted", disabled("schema_version", `DELETE FROM schema_version WHERE version = 2`),
			"schema_version", "versions [1 3 4]; expected 1..4, one row each"},
		{"schema_version rows deleted", disabled("schema_version", `DELETE FROM schema_version`),
			"schema_version", "no rows"},
		{"schema_version retyped", disabled("schema_version", `ALTER TABLE schema_version ALTER COLUMN version TYPE text`, `UPDATE schema_version SET version = 'v' || version WHERE version = '3'`),
			"schema_version", `a row's version is "v3", not an integer`},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			url, key := ls.tamperedLedger(t, 3, c.sqls...)
			finding := auditFinding(t, url)
			if !strings.HasPrefix(finding, c.table+": ") || !strings.Contains(finding, c.want) {
				t.Errorf("audit: %s\nwant a finding naming the table %s, containing %q", finding, c.table, c.want)
			}
			refusesWriter(t, url, key, c.want)
		})
	}
}

// storeOnly is a ledger.Store without the store's optional checks
// (SchemaChecker among them), so that the audit reads the rows whatever
// the schema says.
type storeOnly struct{ ledger.Store }

// TestBadValues: a NULL or a value of another type in a column (its NOT
// NULL dropped, or the column retyped, which the schema check names
// first) is read as an error wrapping ErrTampered that names the table,
// the row and the column, never a driver's scan error; the audit, even
// without the schema check, reports it as a finding; a stored hash on
// the tree's right edge that is not 32 bytes is ErrTampered for a
// writer too.
func TestBadValues(t *testing.T) {
	ctx := context.Background()
	ls := newSchemaLedgers(t)
	digest := strings.Repeat("ab", 32)
	for _, c := range []struct {
		name string
		sqls []string
		read func(s ledger.Store) error
		want string
	}{
		{"entries NULL", append([]string{`ALTER TABLE entries ALTER COLUMN kind DROP NOT NULL`}, disabled("entries", `UPDATE entries SET kind = NULL WHERE idx = 2`)...),
			func(s ledger.Store) error { _, err := s.EntryRange(ctx, 0, 5); return err },
			"entries: the row at index 2 holds NULL in column kind; expected text"},
		{"entries retyped", []string{`ALTER TABLE entries ALTER COLUMN integrated_at TYPE text`},
			func(s ledger.Store) error {
				_, err := s.EntriesByRef(ctx, -5)
				_, err2 := s.EntryRange(ctx, 0, 5)
				return errors.Join(err, err2)
			},
			"entries: the row at index 0 holds the text"},
		{"hashes NULL", append([]string{`ALTER TABLE hashes ALTER COLUMN hash DROP NOT NULL`}, disabled("hashes", `UPDATE hashes SET hash = NULL WHERE id = 1`)...),
			func(s ledger.Store) error { _, err := s.HashRange(ctx, 0, 5); return err },
			"hashes: the row of id 1 holds NULL in column hash"},
		// Stored hash 7 is entry 4's leaf hash, on the right edge of the
		// tree of 5 entries.
		{"hashes short", disabled("hashes", `UPDATE hashes SET hash = '\x0102030405' WHERE id = 7`),
			func(s ledger.Store) error { _, err := s.ReadHashes(ctx, []int64{0, 7}); return err },
			"hashes: stored hash 7 has 5 bytes, want 32"},
		{"checkpoints retyped", []string{`ALTER TABLE checkpoints ALTER COLUMN created_at TYPE numeric`},
			func(s ledger.Store) error { _, err := s.Checkpoints(ctx, 100); return err },
			"checkpoints: the row of id 1 holds the pgtype.Numeric value"},
		{"players NULL", append([]string{`ALTER TABLE players ALTER COLUMN idx DROP NOT NULL`}, disabled("players", `UPDATE players SET idx = NULL WHERE player = 'p3'`)...),
			func(s ledger.Store) error { return s.EachPlayer(ctx, func(ledger.StoredPlayer) error { return nil }) },
			`players: the row of skeleton "p3" holds NULL in column idx`},
		{"replays NULL", []string{`ALTER TABLE replays ALTER COLUMN bytes DROP NOT NULL`, `INSERT INTO replays VALUES('` + digest + `', NULL)`},
			func(s ledger.Store) error {
				_, err := s.Replay(ctx, digest)
				return errors.Join(err, s.EachReplay(ctx, func(string, []byte) error { return nil }))
			},
			`replays: the row of digest "` + digest + `" holds NULL in column bytes`},
		{"log_meta NULL", append([]string{`ALTER TABLE log_meta ALTER COLUMN value DROP NOT NULL`}, disabled("log_meta", `UPDATE log_meta SET value = NULL WHERE key = 'origin'`)...),
			func(s ledger.Store) error { _, err := s.Meta(ctx); return err },
			`log_meta: the row of key "origin" holds NULL in column value`},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			url, key := ls.tamperedLedger(t, 5, c.sqls...)
			s := openStore(t, url, pgstoreReadOnly)
			err := c.read(s)
			if !errors.Is(err, ledger.ErrTampered) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("reading: %v; want an error wrapping ErrTampered containing %q", err, c.want)
			}
			// The audit without the schema check: the same, as a finding.
			l, err := ledger.Open(ctx, storeOnly{s}, ledger.Options{ReadOnly: true})
			var finding string
			if err == nil {
				var rep *ledger.AuditReport
				if rep, err = l.Audit(ctx, nil); err == nil && !rep.OK {
					finding = rep.Problem.String()
				}
			}
			if errors.Is(err, ledger.ErrTampered) {
				finding, err = err.Error(), nil
			}
			if err != nil || finding == "" {
				t.Errorf("audit without the schema check: %q, %v; want a finding", finding, err)
			}
			t.Logf("audit without the schema check: %s", finding)
			if strings.HasPrefix(c.want, "hashes: stored hash") {
				// On the right edge of the tree of 5: a writer refuses.
				refusesWriter(t, url, key, c.want)
			}
		})
	}
}
