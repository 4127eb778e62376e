package ledger_test

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sealedhq/sealed/internal/demo"
	"github.com/sealedhq/sealed/ledger"
	"golang.org/x/mod/sumdb/tlog"
)

var (
	demoOnce sync.Once
	demoPath string
	demoErr  error
)

// demoLedger builds the demo ledger (internal/demo: seeds committed and
// revealed, two results with their replays, a week of secret actions)
// once per test binary and returns its closed file.
func demoLedger(t *testing.T) string {
	t.Helper()
	demoOnce.Do(func() {
		dir, err := os.MkdirTemp("", "sealed-tamper-demo-*")
		if err != nil {
			demoErr = err
			return
		}
		demoPath = dir + "/demo.db"
		_, demoErr = demo.Build(context.Background(), demo.Options{Path: demoPath, Now: time.Now()})
	})
	if demoErr != nil {
		t.Fatal(demoErr)
	}
	return demoPath
}

// auditCopy audits a copy of the demo ledger after the statements ran on
// it with the triggers dropped, at a clock an hour past now (so entries no
// checkpoint covers are past the grace), and returns the problem.
func auditCopy(t *testing.T, stmts ...string) *ledger.AuditProblem {
	t.Helper()
	c := copyFile(t, demoLedger(t))
	all := append([]string{`DROP TRIGGER IF EXISTS entries_no_update; DROP TRIGGER IF EXISTS entries_no_delete;
		DROP TRIGGER IF EXISTS hashes_no_update; DROP TRIGGER IF EXISTS hashes_no_delete;
		DROP TRIGGER IF EXISTS checkpoints_no_update; DROP TRIGGER IF EXISTS checkpoints_no_delete;
		DROP TRIGGER IF EXISTS replays_no_update; DROP TRIGGER IF EXISTS replays_no_delete;
		DROP TRIGGER IF EXISTS players_no_update; DROP TRIGGER IF EXISTS players_no_delete;
		DROP TRIGGER IF EXISTS players_tail_no_update; DROP TRIGGER IF EXISTS players_tail_no_delete;
		DROP TRIGGER IF EXISTS cosignatures_no_update; DROP TRIGGER IF EXISTS cosignatures_no_delete;
		DROP TRIGGER IF EXISTS lookup_no_update; DROP TRIGGER IF EXISTS lookup_no_delete;
		DROP TRIGGER IF EXISTS lookup_tail_no_update; DROP TRIGGER IF EXISTS lookup_tail_no_delete`}, stmts...)
	if err := attack(t, c, all...); err != nil {
		t.Fatalf("attack: %v", err)
	}
	l, err := openLedger(t, c, ledger.Options{ReadOnly: true, Clock: func() time.Time { return time.Now().Add(time.Hour) }})
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	defer l.Close()
	rep, err := l.Audit(context.Background(), nil)
	if err != nil {
		t.Fatalf("audit error (want a finding): %v", err)
	}
	if rep.OK || rep.Problem == nil {
		t.Fatalf("the audit passed")
	}
	t.Logf("audit: %s", rep.Problem)
	return rep.Problem
}

// TestTamperEveryTable: each tamper issue 10 found passing the audit, done
// with plain SQL on a copy of a demo ledger with the triggers dropped, is
// now a finding that names the table (and the row where there is one).
func TestTamperEveryTable(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the demo ledger")
	}
	// The demo's first result entry and its replay digest.
	l, err := openLedger(t, demoLedger(t), ledger.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	size, _ := l.Size()
	var result int64 = -1
	var digest string
	var commit int64 = -1
	for i := range size {
		e, err := l.Entry(i)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := e.Body()
		if e.Kind == ledger.KindResult && result < 0 {
			result, digest = i, b.ReplaySHA256
		}
		if e.Kind == ledger.KindCommit && commit < 0 {
			commit = i
		}
	}
	l.Close()
	if result < 0 || commit < 0 {
		t.Fatal("the demo ledger has no result or commit entry")
	}
	other := fmt.Sprintf("%x", sha256.Sum256([]byte("another ledger's replay")))
	// fold moves the players_tail rows into players, as the SQLite store does
	// when the tail is full.
	const fold = `INSERT INTO players(skeleton, player, idx) SELECT skeleton, player, idx FROM players_tail; DELETE FROM players_tail`
	// lookupFold moves the lookup_tail rows into lookup likewise
	// (migration 8).
	const lookupFold = `INSERT INTO lookup(k, d, idx) SELECT k, d, idx FROM lookup_tail; DELETE FROM lookup_tail`
	cases := []struct {
		name, table, what string
		stmts             []string
	}{
		{"all checkpoints deleted", "checkpoints", "no checkpoint at all", []string{`DELETE FROM checkpoints`}},
		// What an append after that leaves: one checkpoint, id 1, of the
		// whole tree (the row signed then, moved to id 1).
		{"all checkpoints deleted, then one signed", "checkpoints", "the first checkpoint of a ledger is the empty tree's",
			[]string{`CREATE TEMP TABLE last AS SELECT * FROM checkpoints WHERE id = (SELECT max(id) FROM checkpoints)`,
				`DELETE FROM checkpoints`, `INSERT INTO checkpoints SELECT 1, size, root, note, created_at FROM last`}},
		{"a middle checkpoint deleted", "checkpoints", "id", []string{`DELETE FROM checkpoints WHERE id = 2`}},
		{"the newest checkpoints deleted", "checkpoints", "covered by no signed checkpoint",
			[]string{`DELETE FROM checkpoints WHERE id > 1`}},
		{"a checkpoint row copied", "checkpoints", "repeats the note",
			[]string{`INSERT INTO checkpoints(size, root, note, created_at) SELECT size, root, note, created_at FROM checkpoints WHERE id = 2`}},
		{"created_at changed", "checkpoints", "created_at",
			[]string{`UPDATE checkpoints SET created_at = created_at + 1000000000 WHERE id = 2`}},
		{"replay bytes flipped", "replays", "hash to",
			[]string{`UPDATE replays SET bytes = CAST(replace(CAST(bytes AS TEXT), '"', '''') AS BLOB) WHERE sha256 = '` + digest + `'`}},
		{"replay truncated", "replays", "hash to",
			[]string{`UPDATE replays SET bytes = substr(bytes, 1, 100) WHERE sha256 = '` + digest + `'`}},
		{"replay row deleted", "replays", "is not stored", []string{`DELETE FROM replays WHERE sha256 = '` + digest + `'`}},
		{"replay key changed", "replays", "hash to", []string{`UPDATE replays SET sha256 = '` + other + `' WHERE sha256 = '` + digest + `'`}},
		{"a row at a negative index", "entries", "index -1",
			[]string{`INSERT INTO entries SELECT -1, kind, body, leaf_hash, integrated_at, posted_at, dedup, commitment, ref FROM entries WHERE idx = 0`}},
		{"a stored hash at id -1", "hashes", "id -1", []string{`INSERT INTO hashes(id, hash) SELECT -1, hash FROM hashes WHERE id = 0`}},
		{"a stored hash past the end", "hashes", "outside the stored hash ids",
			[]string{`INSERT INTO hashes(id, hash) SELECT (SELECT max(id) FROM hashes) + 1000, hash FROM hashes WHERE id = 0`}},
		{"origin changed", "log_meta", "origin", []string{`UPDATE log_meta SET value = 'evil.example/log' WHERE key = 'origin'`}},
		{"an extra log_meta key", "log_meta", "keys", []string{`INSERT INTO log_meta(key, value) VALUES('extra', 'x')`}},
		{"schema_version row deleted", "schema_version", "versions", []string{`DELETE FROM schema_version WHERE version = 1`}},
		{"schema_version bumped", "schema_version", "versions", []string{`INSERT INTO schema_version(version, applied_at) VALUES(99, 'now')`}},
		{"dedup column changed", "entries", "dedup", []string{fmt.Sprintf(`UPDATE entries SET dedup = zeroblob(32) WHERE idx = %d`, commit)}},
		// A small ledger's players rows are in players_tail (the SQLite
		// store's rows not yet moved into players, migration 6); fold
		// moves them as the store does, so both tables are tampered.
		{"players row deleted", "players", "no row for the skeleton", []string{`DELETE FROM players_tail WHERE idx = (SELECT min(idx) FROM players_tail)`}},
		{"players row deleted after a fold", "players", "no row for the skeleton", []string{fold, `DELETE FROM players WHERE idx = (SELECT min(idx) FROM players)`}},
		{"players row added for a later commit", "players", "is not the first commit entry",
			[]string{`INSERT INTO players(skeleton, player, idx) VALUES('zz-nobody', 'zz-nobody', 0)`}},
		{"players_tail row added for a later commit", "players", "is not the first commit entry",
			[]string{`INSERT INTO players_tail(idx, skeleton, player) SELECT min(idx), 'zz-nobody', 'zz-nobody' FROM entries WHERE idx NOT IN (SELECT idx FROM players_tail)`}},
		{"players row past the end", "players", "outside the log",
			[]string{`INSERT INTO players(skeleton, player, idx) VALUES('zz-nobody', 'zz-nobody', 100000)`}},
		{"players_tail row past the end", "players", "outside the log",
			[]string{`INSERT INTO players_tail(idx, skeleton, player) VALUES(100000, 'zz-nobody', 'zz-nobody')`}},
		{"players row in both tables", "players", "two rows",
			[]string{`INSERT INTO players(skeleton, player, idx) SELECT skeleton, player, idx FROM players_tail WHERE skeleton = 'alice'`}},
		{"players player changed to a lookalike", "players", "names the player",
			// U+0430 for the first a: the skeleton stays "alice".
			[]string{`UPDATE players_tail SET player = char(1072) || substr(player, 2) WHERE skeleton = 'alice'`}},
		{"players player changed to a lookalike after a fold", "players", "names the player",
			[]string{fold, `UPDATE players SET player = char(1072) || substr(player, 2) WHERE skeleton = 'alice'`}},
		{"players skeleton stored as a blob", "players", "not text",
			[]string{`UPDATE players_tail SET skeleton = CAST(skeleton AS BLOB) WHERE idx = (SELECT min(idx) FROM players_tail)`}},
		{"players skeleton stored as a blob after a fold", "players", "not text",
			[]string{fold, `UPDATE players SET skeleton = CAST(skeleton AS BLOB) WHERE idx = (SELECT min(idx) FROM players)`}},
		{"players table dropped", "players", "table is missing", []string{`DROP TABLE players`}},
		{"players_tail column renamed", "players_tail", "column 3 is name, where the schema has player",
			[]string{`ALTER TABLE players_tail RENAME COLUMN player TO name`}},
		{"hashes rebuilt with id as text", "hashes", "column id is declared TEXT, where the schema declares INTEGER",
			[]string{`CREATE TABLE h2(id TEXT NOT NULL PRIMARY KEY, hash BLOB NOT NULL); INSERT INTO h2 SELECT id, hash FROM hashes;
				DROP TABLE hashes; ALTER TABLE h2 RENAME TO hashes`}},
		{"players rebuilt without its primary key", "players", "column skeleton has another NOT NULL or PRIMARY KEY",
			[]string{`CREATE TABLE p2(skeleton TEXT NOT NULL, player TEXT NOT NULL, idx INTEGER NOT NULL); INSERT INTO p2 SELECT * FROM players;
				DROP TABLE players; ALTER TABLE p2 RENAME TO players`}},
		// The lookup keys (migration 8): a small ledger's are in
		// lookup_tail; lookupFold moves them as the store does.
		{"lookup_tail row deleted", "lookup", "rows in lookup and lookup_tail for",
			[]string{fmt.Sprintf(`DELETE FROM lookup_tail WHERE idx = %d`, commit)}},
		{"lookup_tail key changed", "lookup", fmt.Sprintf("entry %d's lookup keys", commit),
			[]string{fmt.Sprintf(`UPDATE lookup_tail SET d = zeroblob(8) WHERE idx = %d`, commit)}},
		{"lookup_tail row added", "lookup", "names entry 100000, past the end of the log",
			[]string{`INSERT INTO lookup_tail(idx, k, d) VALUES(100000, 'x', zeroblob(8))`}},
		{"lookup row deleted after a fold", "lookup", "rows in lookup and lookup_tail for",
			[]string{lookupFold, fmt.Sprintf(`DELETE FROM lookup WHERE idx = %d`, commit)}},
		{"lookup row added for an entry after a fold", "lookup", "rows in lookup and lookup_tail for",
			[]string{lookupFold, fmt.Sprintf(`INSERT INTO lookup(k, d, idx) SELECT k, zeroblob(8), idx FROM lookup WHERE idx = %d`, commit)}},
		{"lookup row moved to another entry after a fold", "lookup", fmt.Sprintf("entry %d's lookup keys", commit),
			[]string{lookupFold, fmt.Sprintf(`UPDATE lookup SET idx = -5 WHERE idx = %d`, commit)}},
		{"lookup commitment key changed after a fold", "lookup", fmt.Sprintf("entry %d's lookup keys", commit),
			[]string{lookupFold, fmt.Sprintf(`UPDATE lookup SET k = '0000000000000000' WHERE idx = %d`, commit)}},
		// The same bytes of another type: the leaf's checks pass, the
		// lookup keys no longer match.
		{"dedup column stored as text", "entries", fmt.Sprintf("entry %d: the dedup column holds text; expected a blob", commit),
			[]string{fmt.Sprintf(`UPDATE entries SET dedup = CAST(dedup AS TEXT) WHERE idx = %d`, commit)}},
		{"integrated_at set to text", "entries", "integrated_at",
			[]string{fmt.Sprintf(`UPDATE entries SET integrated_at = 'yesterday' WHERE idx = %d`, commit)}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := auditCopy(t, tc.stmts...)
			if p.Table != tc.table || !strings.Contains(p.What, tc.what) {
				t.Errorf("problem %s (table %q); want table %q and %q", p, p.Table, tc.table, tc.what)
			}
		})
	}
	// A body rewritten with its leaf hash and stored hashes recomputed (as
	// tlog would), and every checkpoint covering it deleted.
	t.Run("body rewritten, hashes recomputed, covering checkpoints deleted", func(t *testing.T) {
		p := auditCopy(t, rewriteBody(t, commit)...)
		if p.Table != "checkpoints" {
			t.Errorf("problem %s; want a checkpoints finding", p)
		}
	})
}

// rewriteBody returns SQL that changes the body of entry idx of the demo
// ledger (one digit of its commitment), recomputes its leaf hash and every
// stored hash from there on with tlog, and deletes every checkpoint of a
// size above idx.
func rewriteBody(t *testing.T, idx int64) []string {
	l, err := openLedger(t, demoLedger(t), ledger.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	n, _ := l.Size()
	hashes := map[int64]tlog.Hash{}
	var stmts []string
	for i := range n {
		e, err := l.Entry(i)
		if err != nil {
			t.Fatal(err)
		}
		leaf := e.Leaf
		if i == idx {
			leaf = []byte(strings.Replace(string(leaf), `"commitment":"`, `"commitment":"f`, 1))
			leaf = []byte(strings.Replace(string(leaf), `"commitment":"f`+string(leaf[strings.Index(string(leaf), `"commitment":"`)+14]), `"commitment":"f`, 1))
			lh := tlog.RecordHash(leaf)
			// The lookup columns too, as docs/ledger.md defines them: the
			// commitment, and the duplicate key SHA-256("commit" NUL player
			// NUL action_type NUL commitment NUL).
			var b ledger.Body
			if err := json.Unmarshal(leaf, &b); err != nil {
				t.Fatal(err)
			}
			dedup := sha256.Sum256([]byte("commit\x00" + b.Player + "\x00" + b.ActionType + "\x00" + b.Commitment + "\x00"))
			stmts = append(stmts, fmt.Sprintf(`UPDATE entries SET body = x'%x', leaf_hash = x'%x', commitment = '%s', dedup = x'%x' WHERE idx = %d`,
				leaf, lh[:], b.Commitment, dedup[:], i))
		}
		hs, err := tlog.StoredHashes(i, leaf, tlog.HashReaderFunc(func(ix []int64) ([]tlog.Hash, error) {
			out := make([]tlog.Hash, len(ix))
			for k, x := range ix {
				out[k] = hashes[x]
			}
			return out, nil
		}))
		if err != nil {
			t.Fatal(err)
		}
		for k, h := range hs {
			id := tlog.StoredHashIndex(0, i) + int64(k)
			hashes[id] = h
			if i >= idx {
				stmts = append(stmts, fmt.Sprintf(`UPDATE hashes SET hash = x'%x' WHERE id = %d`, h[:], id))
			}
		}
	}
	return append(stmts, fmt.Sprintf(`DELETE FROM checkpoints WHERE size > %d`, idx))
}

// TestIdentityRowsDeleted: a ledger whose log_meta lost one identity row
// is a tampered ledger (ErrTampered, audit exit 1); one that lost both,
// its other rows still there, is refused as not a ledger with
// ErrUnfinished (what a killed copy leaves, or a ledger whose identity
// rows were all deleted): it never opens, for reading or writing.
func TestIdentityRowsDeleted(t *testing.T) {
	for _, c := range []struct {
		stmt string
		want error
	}{
		{`DELETE FROM log_meta WHERE key = 'origin'`, ledger.ErrTampered},
		{`DELETE FROM log_meta`, ledger.ErrUnfinished},
	} {
		t.Run(c.stmt, func(t *testing.T) {
			db := copyFile(t, demoLedger(t))
			if err := attackRestoring(t, db, c.stmt); err != nil {
				t.Fatal(err)
			}
			for _, opts := range []ledger.Options{{ReadOnly: true}, {KeyFile: keyOf(db)}} {
				if _, err := openLedger(t, db, opts); !errors.Is(err, c.want) {
					t.Fatalf("open (%+v) after %s: %v; want %v", opts, c.stmt, err, c.want)
				}
			}
		})
	}
}
