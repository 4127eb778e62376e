package pgstore_test

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/sealedhq/sealed/internal/pgtest"
	"github.com/sealedhq/sealed/ledger"
	"github.com/sealedhq/sealed/ledger/pgstore"
	"github.com/sealedhq/sealed/ledger/storetest"
)

func TestConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T) ledger.Store {
		s, err := pgstore.Open(context.Background(), pgtest.Shared(t).NewDatabase(t), pgstore.Options{Create: true})
		if err != nil {
			t.Fatal(err)
		}
		return s
	})
}

// TestNotLedger opens databases that hold no ledger.
func TestNotLedger(t *testing.T) {
	ctx := context.Background()
	url := pgtest.Shared(t).NewDatabase(t)
	// Without Create nothing is written to the database.
	s := openStore(t, url, pgstore.Options{})
	if _, err := s.Meta(ctx); !errors.Is(err, ledger.ErrNotLedger) {
		t.Errorf("Meta of an empty database: %v; want ErrNotLedger", err)
	}
	key := filepath.Join(t.TempDir(), "k")
	if _, err := ledger.Create(ctx, s, "test.example/x", key); !errors.Is(err, ledger.ErrNotLedger) {
		t.Errorf("ledger.Create on a store opened without Create: %v; want ErrNotLedger", err)
	}
	if _, err := openLedger(ctx, url, ledger.Options{ReadOnly: true}); !errors.Is(err, ledger.ErrNotLedger) {
		t.Errorf("ledger.Open of an empty database: %v; want ErrNotLedger", err)
	}
	if err := pgtest.Exec(t, url, `SELECT 1 FROM schema_version`); err == nil {
		t.Error("Open without Create made the schema")
	}

	// A database holding other tables is not made a ledger.
	other := pgtest.Shared(t).NewDatabase(t)
	if err := pgtest.Exec(t, other, `CREATE TABLE accounts(id bigint)`); err != nil {
		t.Fatal(err)
	}
	_, err := pgstore.Open(ctx, other, pgstore.Options{Create: true})
	if err == nil || !strings.Contains(err.Error(), `"accounts"`) {
		t.Errorf("Open with Create on a database with a table: %v; want a refusal naming the table", err)
	}
	s = openStore(t, other, pgstore.Options{})
	if _, err := s.Meta(ctx); !errors.Is(err, ledger.ErrNotLedger) {
		t.Errorf("Meta of a database with another table: %v; want ErrNotLedger", err)
	}
}

// TestCreateTwice: a database already holding a ledger is refused by
// Store.Create, also when opened with Create.
func TestCreateTwice(t *testing.T) {
	url, _ := newLedger(t)
	err := initLedger(url, filepath.Join(t.TempDir(), "k2"))
	if err == nil || !strings.Contains(err.Error(), "already holds a ledger") {
		t.Errorf("a second Init: %v; want a refusal", err)
	}
	s := openStore(t, url, pgstore.Options{})
	if m, err := s.Meta(context.Background()); err != nil || m.Origin != "test.example/pg" || m.Schema != pgstore.SchemaVersion() {
		t.Errorf("Meta after the refused Init = %+v, %v", m, err)
	}
}

func TestReadOnly(t *testing.T) {
	ctx := context.Background()
	url, key := newLedger(t)
	l, err := openLedger(ctx, url, ledger.Options{KeyFile: key})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l.Append(ctx, commitBody("ro", 0)); err != nil {
		t.Fatal(err)
	}
	l.Close()

	s := openStore(t, url, pgstore.Options{ReadOnly: true})
	if v, err := pgstore.Setting(s, "default_transaction_read_only"); err != nil || v != "on" {
		t.Errorf("default_transaction_read_only = %q, %v; want on", v, err)
	}
	if n, err := s.Size(ctx); err != nil || n != 1 {
		t.Errorf("Size = %d, %v; want 1", n, err)
	}
	cp := &ledger.StoredCheckpoint{Root: make([]byte, 32), Note: []byte("x")}
	for what, err := range map[string]error{
		"Create":        s.Create(ctx, &ledger.Meta{Origin: "a", VerifierKey: "b"}, cp),
		"Write":         s.Write(ctx, func(ledger.WriteTx) error { t.Error("Write ran fn"); return nil }),
		"PutCheckpoint": s.PutCheckpoint(ctx, cp),
		"PutReplay":     s.PutReplay(ctx, strings.Repeat("0", 64), []byte("r")),
	} {
		if !errors.Is(err, ledger.ErrReadOnly) {
			t.Errorf("%s on a read-only store: %v; want ErrReadOnly", what, err)
		}
	}
	if _, err := pgstore.Open(ctx, url, pgstore.Options{ReadOnly: true, Create: true}); err == nil {
		t.Error("Open with ReadOnly and Create succeeded")
	}
}

// TestSessionSettings: a writable store turns synchronous_commit on even
// where the database has it off, and ends transactions left idle.
func TestSessionSettings(t *testing.T) {
	url, _ := newLedger(t)
	if err := pgtest.Exec(t, url, `ALTER DATABASE `+pgx.Identifier{dbName(t, url)}.Sanitize()+` SET synchronous_commit = off`); err != nil {
		t.Fatal(err)
	}
	if err := pgtest.Exec(t, url, `DO $$ BEGIN IF current_setting('synchronous_commit') <> 'off' THEN RAISE 'setting not applied'; END IF; END $$`); err != nil {
		t.Fatalf("the database default did not apply to a new session: %v", err)
	}
	s := openStore(t, url, pgstore.Options{})
	if v, err := pgstore.Setting(s, "synchronous_commit"); err != nil || v != "on" {
		t.Errorf("synchronous_commit = %q, %v; want on", v, err)
	}
	if v, err := pgstore.Setting(s, "idle_in_transaction_session_timeout"); err != nil || v != "1min" {
		t.Errorf("idle_in_transaction_session_timeout = %q, %v; want 1min", v, err)
	}
}

// dbName is the database name of a pgtest URL (postgres:///NAME?...).
func dbName(t *testing.T, url string) string {
	cfg, err := pgx.ParseConfig(url)
	if err != nil {
		t.Fatal(err)
	}
	return cfg.Database
}

func TestSchemaTooNew(t *testing.T) {
	url, _ := newLedger(t)
	if err := pgtest.Exec(t, url, `INSERT INTO schema_version(version, applied_at) VALUES(1000, 'future')`); err != nil {
		t.Fatal(err)
	}
	for _, ro := range []bool{false, true} {
		if _, err := pgstore.Open(context.Background(), url, pgstore.Options{ReadOnly: ro}); !errors.Is(err, pgstore.ErrSchemaTooNew) {
			t.Errorf("Open (read-only %v) of a schema version 1000 database: %v; want ErrSchemaTooNew", ro, err)
		}
	}
}

// TestAppendOnly: every table refuses UPDATE, DELETE and TRUNCATE.
func TestAppendOnly(t *testing.T) {
	ctx := context.Background()
	url, key := newLedger(t)
	l, err := openLedger(ctx, url, ledger.Options{KeyFile: key})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l.Append(ctx, commitBody("ao", 0)); err != nil {
		t.Fatal(err)
	}
	if err := l.Store().PutReplay(ctx, strings.Repeat("a", 64), []byte("replay")); err != nil {
		t.Fatal(err)
	}
	l.Close()
	for table, col := range map[string]string{
		"schema_version": "applied_at", "log_meta": "value", "entries": "kind",
		"hashes": "hash", "checkpoints": "note", "replays": "bytes",
		"cosignatures": "line", "players": "player",
	} {
		for _, q := range []string{
			`UPDATE ` + table + ` SET ` + col + ` = ` + col,
			`DELETE FROM ` + table,
			`TRUNCATE ` + table + ` CASCADE`,
		} {
			err := pgtest.Exec(t, url, q)
			if err == nil || !strings.Contains(err.Error(), "refused") {
				t.Errorf("%s: %v; want the trigger's refusal", q, err)
			}
		}
	}
}

// TestRedact: errors never show the connection password.
func TestRedact(t *testing.T) {
	srv := pgtest.Shared(t)
	const pw = "s3cr3t-Pw"
	for _, conn := range []string{
		"postgres://pgtest:" + pw + "@/nosuchdb?host=" + srv.SocketDir() + "&port=" + strconv.Itoa(srv.Port()),
		"postgres:///nosuchdb?host=" + srv.SocketDir() + "&port=" + strconv.Itoa(srv.Port()) + "&user=pgtest&password=" + pw,
		"postgres://pgtest:" + pw + "@/db?host=/nonexistent/dir",
		"postgresql://u:" + pw + "@localhost:1/db?connect_timeout=1&sslmode=disable",
		"host=/nonexistent/dir user=u password=" + pw + " dbname=db",
		"postgres://u:" + pw + "@host:notaport/db",
	} {
		_, err := pgstore.Open(context.Background(), conn, pgstore.Options{})
		if err == nil {
			t.Errorf("Open(%q) succeeded", conn)
			continue
		}
		if strings.Contains(err.Error(), pw) {
			t.Errorf("the error shows the password: %v", err)
		}
		t.Logf("%v", err)
	}
}

// TestReadOnlyDatabase: a read-only store serves the page reads from a
// database where every session is read-only, as on a hot standby.
func TestReadOnlyDatabase(t *testing.T) {
	ctx := context.Background()
	url, key := newLedger(t)
	l, err := openLedger(ctx, url, ledger.Options{KeyFile: key})
	if err != nil {
		t.Fatal(err)
	}
	for i := range int64(5) {
		if _, err := l.Append(ctx, commitBody("rodb", i)); err != nil {
			t.Fatal(err)
		}
	}
	if err := l.Close(); err != nil { // signs the checkpoint of size 5
		t.Fatal(err)
	}
	if err := pgtest.Exec(t, url, `ALTER DATABASE `+pgx.Identifier{dbName(t, url)}.Sanitize()+` SET default_transaction_read_only = on`); err != nil {
		t.Fatal(err)
	}
	if err := pgtest.Exec(t, url, `CREATE TABLE probe(x int)`); err == nil {
		t.Fatal("the database is not read-only")
	}
	r := mustOpen(t, url, ledger.Options{ReadOnly: true})
	es, err := r.Entries(0, 10)
	if err != nil || len(es) != 5 {
		t.Fatalf("Entries = %d, %v; want 5", len(es), err)
	}
	cp, err := r.LatestCheckpoint()
	if err != nil || cp.Size != 5 {
		t.Fatalf("LatestCheckpoint = %+v, %v", cp, err)
	}
	p, err := r.ProveInclusion(3, 5)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ledger.CheckInclusion(r.VerifierKey(), nil, p); err != nil {
		t.Errorf("CheckInclusion: %v", err)
	}
	if rep, err := r.Audit(ctx, nil); err != nil || !rep.OK {
		t.Errorf("Audit = %+v, %v", rep, err)
	}
}

// TestBigBatch: a batch large enough to go by COPY stores every column as
// given (NULLs included) and refuses a row already stored with
// ErrConflict, like the small batches of the conformance suite.
func TestBigBatch(t *testing.T) {
	ctx := context.Background()
	s := openStore(t, pgtest.Shared(t).NewDatabase(t), pgstore.Options{Create: true})
	const n = 1000
	var es []ledger.StoredEntry
	var hs []ledger.StoredHash
	for i := range int64(n) {
		leaf := fmt.Appendf(nil, `{"i":%d}`, i)
		d := sha256.Sum256(leaf)
		e := ledger.StoredEntry{Index: i, Kind: ledger.KindReveal, Leaf: leaf, LeafHash: d[:], IntegratedAt: 1e18 + i, Dedup: d[16:], Ref: -1}
		switch i % 3 {
		case 0:
			e.Kind, e.Commitment = ledger.KindCommit, fmt.Sprintf("%x", d)
		case 1:
			e.Ref, e.PostedAt, e.HasPostedAt = i-1, -i, true
		}
		es = append(es, e)
		hs = append(hs, ledger.StoredHash{ID: 2 * i, Hash: d[:]}, ledger.StoredHash{ID: 2*i + 1, Hash: d[1:]})
	}
	if err := s.Write(ctx, func(tx ledger.WriteTx) error { return tx.Insert(ctx, es, hs) }); err != nil {
		t.Fatal(err)
	}
	got, err := s.EntryRange(ctx, 0, n)
	if err != nil || len(got) != n {
		t.Fatalf("EntryRange = %d entries, %v", len(got), err)
	}
	for i, g := range got {
		if !reflect.DeepEqual(g, es[i]) {
			t.Fatalf("entry %d: got %+v, want %+v", i, g, es[i])
		}
	}
	gh, err := s.HashRange(ctx, 0, 2*n)
	if err != nil || len(gh) != 2*n {
		t.Fatalf("HashRange = %d hashes, %v", len(gh), err)
	}
	for i, h := range gh {
		if !reflect.DeepEqual(h, hs[i]) {
			t.Fatalf("hash %d: got %+v, want %+v", i, h, hs[i])
		}
	}
	for _, e := range es {
		e.Index += n - 1 // n-1 is stored
		es = append(es, e)
	}
	err = s.Write(ctx, func(tx ledger.WriteTx) error { return tx.Insert(ctx, es[n:], nil) })
	if !errors.Is(err, ledger.ErrConflict) {
		t.Errorf("a big batch over a stored index: %v; want ErrConflict", err)
	}
	if size, err := s.Size(ctx); err != nil || size != n {
		t.Errorf("Size after the refused batch = %d, %v; want %d", size, err, n)
	}
}

// TestUpgradeFillsPlayers: a ledger of schema version 2 (before the
// players table) opened for writing gets migration 3, which fills the
// players table from the commit entries in index order, the first commit
// of each skeleton; a lookalike of a player named before the upgrade is
// then refused, and the audit is clean.
func TestUpgradeFillsPlayers(t *testing.T) {
	ctx := context.Background()
	url, key := newLedger(t)
	l := mustOpen(t, url, ledger.Options{KeyFile: key})
	for i, p := range []string{"alice", "bob", "alice", "Bob"} {
		body := fmt.Sprintf(`{"kind":"commit","player":%q,"action_type":"bid","channel":"web","commitment":"%064x"}`, p, i)
		if _, err := l.Append(ctx, []byte(body)); err != nil {
			t.Fatal(err)
		}
	}
	l.Close()
	// Back to schema version 2, as an older sealed left it.
	c := downgrade(t, url, 2, "players", "seed_commits")
	l = mustOpen(t, url, ledger.Options{KeyFile: key})
	rows, err := c.Query(ctx, `SELECT skeleton, player, idx FROM players ORDER BY idx`)
	if err != nil {
		t.Fatal(err)
	}
	got, err := pgx.CollectRows(rows, pgx.RowToStructByPos[ledger.StoredPlayer])
	if err != nil {
		t.Fatal(err)
	}
	// Skeletons by confusables.txt: none of the letters of these names
	// (a, b, B, c, e, i, l, o) has a line there, so each is its own.
	want := []ledger.StoredPlayer{{Skeleton: "alice", Player: "alice", Index: 0}, {Skeleton: "bob", Player: "bob", Index: 1}, {Skeleton: "Bob", Player: "Bob", Index: 3}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("players after the upgrade = %v; want %v", got, want)
	}
	var ce *ledger.ConfusableNameError
	if _, err := l.Append(ctx, []byte(`{"kind":"commit","player":"\u0430lice","action_type":"bid","channel":"web","commitment":"`+strings.Repeat("ee", 32)+`"}`)); !errors.As(err, &ce) || ce.Existing != "alice" || ce.Index != 0 {
		t.Errorf("a lookalike of alice after the upgrade: %v; want a ConfusableNameError naming entry 0", err)
	}
	if rep, err := l.Audit(ctx, nil); err != nil || !rep.OK {
		t.Errorf("audit after the upgrade: %+v, %v", rep, err)
	}
}

// TestCheckSeedCommitsPostgres: on PostgreSQL, CheckSeedCommits reads
// only the leaves the server finds holding ledger.SeedLeafNeedle
// (SeedLeafCandidates): a result whose summary nests that member is one
// and no seed-commit, and the table checks out; with a seed-commit's row
// deleted (its trigger disabled), a new reader's check is ErrTampered
// naming the entry.
func TestCheckSeedCommitsPostgres(t *testing.T) {
	ctx := context.Background()
	url, key := newLedger(t)
	l := mustOpen(t, url, ledger.Options{KeyFile: key})
	for _, body := range []string{
		`{"kind":"commit","player":"ann","action_type":"bid","channel":"web","commitment":"` + strings.Repeat("a1", 32) + `"}`,
		`{"kind":"seed-commit","game":"auction","match_id":"m1","rules_version":"auction-0.2","config":{"players":3},"commitment":"` + strings.Repeat("b2", 32) + `"}`,
		`{"kind":"result","game":"auction","match_id":"m1","replay_sha256":"` + strings.Repeat("c3", 32) + `","summary":{"kind":"seed-commit"}}`,
	} {
		if _, err := l.Append(ctx, []byte(body)); err != nil {
			t.Fatal(err)
		}
	}
	if err := l.CheckSeedCommits(ctx); err != nil {
		t.Fatalf("a clean table: %v", err)
	}
	l.Close()
	if err := pgtest.Exec(t, url, `ALTER TABLE seed_commits DISABLE TRIGGER USER`, `DELETE FROM seed_commits WHERE idx = 1`,
		`ALTER TABLE seed_commits ENABLE TRIGGER USER`); err != nil {
		t.Fatal(err)
	}
	r := mustOpen(t, url, ledger.Options{ReadOnly: true})
	defer r.Close()
	if err := r.CheckSeedCommits(ctx); !errors.Is(err, ledger.ErrTampered) || !strings.Contains(err.Error(), "seed-commit entry 1") {
		t.Errorf("the row of entry 1 deleted: %v; want ErrTampered naming seed-commit entry 1", err)
	}
}

// downgrade makes the ledger at url look as a sealed of schema version v
// left it (the schema_version rows after v deleted, the tables of later
// migrations dropped), and returns a connection to it, closed when the
// test ends.
func downgrade(t *testing.T, url string, v int, drop ...string) *pgx.Conn {
	t.Helper()
	sqls := []string{`ALTER TABLE schema_version DISABLE TRIGGER USER`, fmt.Sprintf(`DELETE FROM schema_version WHERE version > %d`, v)}
	for _, table := range drop {
		sqls = append(sqls, `DROP TABLE `+table)
	}
	if err := pgtest.Exec(t, url, append(sqls, `ALTER TABLE schema_version ENABLE TRIGGER USER`)...); err != nil {
		t.Fatal(err)
	}
	c, err := pgx.Connect(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close(context.Background()) })
	return c
}

// TestUpgradeFillsSeedCommits: a ledger of schema version 3 (before the
// seed_commits table) opened for writing gets migration 4, which fills
// the table from the seed-commit leaves (their commitment members, one
// row each, a commit entry holding a digest is none); a seed-commit of a
// commitment committed before the upgrade is then refused, naming that
// entry, and the audit is clean.
func TestUpgradeFillsSeedCommits(t *testing.T) {
	ctx := context.Background()
	url, key := newLedger(t)
	l := mustOpen(t, url, ledger.Options{KeyFile: key})
	a, b := strings.Repeat("a1", 32), strings.Repeat("b2", 32)
	for _, body := range []string{
		`{"kind":"commit","player":"ann","action_type":"bid","channel":"web","commitment":"` + a + `"}`,
		`{"kind":"seed-commit","game":"auction","match_id":"m1","rules_version":"auction-0.2","config":{"players":3},"commitment":"` + b + `"}`,
		`{"kind":"seed-commit","game":"auction","match_id":"m2","rules_version":"auction-0.2","config":{"players":3},"commitment":"` + a + `"}`,
	} {
		if _, err := l.Append(ctx, []byte(body)); err != nil {
			t.Fatal(err)
		}
	}
	l.Close()
	// Back to schema version 3, as an older sealed left it.
	c := downgrade(t, url, 3, "seed_commits")
	l = mustOpen(t, url, ledger.Options{KeyFile: key})
	rows, err := c.Query(ctx, `SELECT commitment, idx, game, match_id FROM seed_commits ORDER BY idx`)
	if err != nil {
		t.Fatal(err)
	}
	got, err := pgx.CollectRows(rows, pgx.RowToStructByPos[ledger.StoredSeedCommit])
	if err != nil {
		t.Fatal(err)
	}
	want := []ledger.StoredSeedCommit{{Commitment: b, Index: 1, Game: "auction", MatchID: "m1"}, {Commitment: a, Index: 2, Game: "auction", MatchID: "m2"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("seed_commits after the upgrade = %v; want %v", got, want)
	}
	var de *ledger.DuplicateError
	if _, err := l.Append(ctx, []byte(`{"kind":"seed-commit","game":"bargain","match_id":"b1","rules_version":"r","config":{},"commitment":"`+b+`"}`)); !errors.As(err, &de) || de.Index != 1 || de.Kind != ledger.KindSeedCommit {
		t.Errorf("seed b again after the upgrade: %v; want a DuplicateError naming seed-commit entry 1", err)
	}
	if rep, err := l.Audit(ctx, nil); err != nil || !rep.OK {
		t.Errorf("audit after the upgrade: %+v, %v", rep, err)
	}
}

// TestForeignTables: a database holding another application's table of
// one of sealed's names (schema_version above all, a common name) is
// refused by init and copy (Open with Create) with one clear error,
// whatever that table holds, and nothing is written to it; opened
// without Create, it is not a ledger, and Meta says why.
func TestForeignTables(t *testing.T) {
	ctx := context.Background()
	const want = "the database holds another application's tables (%s is not sealed's); use an empty database"
	for _, c := range []struct {
		name, table string
		sqls        []string
	}{
		{"versions 1 and 2", "schema_version", []string{`CREATE TABLE schema_version (version integer PRIMARY KEY, applied_at text)`, `INSERT INTO schema_version VALUES (1, 'a'), (2, 'b')`}},
		{"empty", "schema_version", []string{`CREATE TABLE schema_version (version bigint, applied_at text)`}},
		{"text versions", "schema_version", []string{`CREATE TABLE schema_version (version text)`, `INSERT INTO schema_version VALUES ('20240101_init')`}},
		{"log_meta", "log_meta", []string{`CREATE TABLE log_meta (key text, value text)`}},
		{"entries", "entries", []string{`CREATE TABLE entries (id serial, body text)`}},
	} {
		t.Run(c.name, func(t *testing.T) {
			url := pgtest.Shared(t).NewDatabase(t)
			if err := pgtest.Exec(t, url, c.sqls...); err != nil {
				t.Fatal(err)
			}
			msg := fmt.Sprintf(want, c.table)
			_, err := pgstore.Open(ctx, url, pgstore.Options{Create: true})
			if err == nil || !strings.Contains(err.Error(), msg) || errors.Is(err, ledger.ErrTampered) {
				t.Errorf("Open with Create: %v; want %q", err, msg)
			}
			if err := initLedger(url, filepath.Join(t.TempDir(), "k")); err == nil || !strings.Contains(err.Error(), msg) {
				t.Errorf("init: %v; want %q", err, msg)
			}
			if err := pgtest.Exec(t, url, `DO $$ BEGIN IF (SELECT count(*) FROM pg_class WHERE relnamespace = current_schema()::regnamespace AND relkind = 'r') <> 1 THEN RAISE 'tables were made'; END IF; END $$`); err != nil {
				t.Errorf("after the refusals: %v", err)
			}
			s := openStore(t, url, pgstore.Options{})
			if _, err := s.Meta(ctx); !errors.Is(err, ledger.ErrNotLedger) || (c.table != "entries" && !strings.Contains(err.Error(), msg)) {
				t.Errorf("Meta: %v; want ErrNotLedger and %q", err, msg)
			}
			if _, err := openLedger(ctx, url, ledger.Options{ReadOnly: true}); !errors.Is(err, ledger.ErrNotLedger) {
				t.Errorf("opening it read-only (the audit): %v; want ErrNotLedger", err)
			}
		})
	}
}

// TestOpenMixedCaseScheme: Open reads POSTGRES:// and Postgresql:// as
// the URLs they are (pgx parses only the lowercase scheme as one, and
// would read the rest as keyword=value, sending the whole string to the
// server as a parameter name).
func TestOpenMixedCaseScheme(t *testing.T) {
	url, _ := newLedger(t)
	rest, ok := strings.CutPrefix(url, "postgres://")
	if !ok {
		t.Fatalf("pgtest URL %q does not start with postgres://", url)
	}
	for _, scheme := range []string{"POSTGRES://", "Postgresql://"} {
		s := openStore(t, scheme+rest, pgstore.Options{ReadOnly: true})
		if m, err := s.Meta(context.Background()); err != nil || m.Origin == "" {
			t.Errorf("%s: Meta %+v, %v", scheme, m, err)
		}
	}
}
