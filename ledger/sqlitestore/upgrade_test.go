package sqlitestore_test

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sealedhq/sealed/ledger"
	"github.com/sealedhq/sealed/ledger/sqlitestore"
)

// copyFixture copies the schema-1 ledger of testdata/v1 (written by the
// sealed of commit 8d9c23f, see its README) to a temp dir.
func copyFixture(t *testing.T) (db, key, vkey string) {
	t.Helper()
	dir := t.TempDir()
	for _, f := range []string{"v1.db", "v1.key"} {
		b, err := os.ReadFile(filepath.Join("testdata", "v1", f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	v, err := os.ReadFile(filepath.Join("testdata", "v1", "vkey.txt"))
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Join(dir, "v1.db"), filepath.Join(dir, "v1.key"), strings.TrimSpace(string(v))
}

func schemaVersion(t *testing.T, db string) int {
	t.Helper()
	c, err := sql.Open("sqlite3", "file:"+db+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var v int
	if err := c.QueryRow(`SELECT max(version) FROM schema_version`).Scan(&v); err != nil {
		t.Fatal(err)
	}
	return v
}

// TestOpensSchemaV1: a ledger written before the storage split opens
// unchanged: read-only it is read as it is (no migration, nothing
// written); opened for writing it gets the later migrations (the lookup
// keys: an index from migration 2, tables from migration 8), keeps its
// leaves byte for byte, takes new entries, and audits clean.
func TestOpensSchemaV1(t *testing.T) {
	ctx := context.Background()
	db, key, vkey := copyFixture(t)
	const commitment = "baef89a677af1ec9cd1f0248475b713055b2a76a58cc60086921c94e7f772846"
	before, err := os.ReadFile(db)
	if err != nil {
		t.Fatal(err)
	}

	s, err := sqlitestore.Open(db, sqlitestore.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	ro, err := ledger.Open(ctx, s, ledger.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	if ro.VerifierKey() != vkey {
		t.Errorf("verifier key %s, want %s", ro.VerifierKey(), vkey)
	}
	old, err := ro.Entries(0, 10)
	if err != nil || len(old) != 2 {
		t.Fatalf("entries of the v1 ledger: %d, %v", len(old), err)
	}
	if cs, err := ro.CommitsByCommitment(commitment); err != nil || len(cs) != 1 || cs[0].Index != 0 {
		t.Errorf("CommitsByCommitment on the unindexed v1 file = %v, %v", cs, err)
	}
	if rep, err := ro.Audit(ctx, nil); err != nil || !rep.OK || rep.Size != 2 {
		t.Fatalf("audit of the v1 ledger: %+v, %v", rep, err)
	}
	ro.Close()
	if after, _ := os.ReadFile(db); !bytes.Equal(before, after) || schemaVersion(t, db) != 1 {
		t.Fatal("opening read-only changed the file")
	}

	s, err = sqlitestore.Open(db, sqlitestore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	w, err := ledger.Open(ctx, s, ledger.Options{KeyFile: key})
	if err != nil {
		t.Fatal(err)
	}
	if v := schemaVersion(t, db); v != sqlitestore.SchemaVersion() {
		t.Errorf("after a writable open the schema version is %d, want %d", v, sqlitestore.SchemaVersion())
	}
	body := `{"kind":"commit","player":"bob","action_type":"bid","channel":"#auctions","commitment":"` + strings.Repeat("ab", 32) + `"}`
	if i, err := w.Append(ctx, []byte(body)); err != nil || i != 2 {
		t.Fatalf("append to the upgraded ledger = %d, %v", i, err)
	}
	// Migration 4 filled the players table from the v1 commit (alice at
	// 0); the append above added bob (to players_tail, migration 6). A lookalike of alice is refused.
	c, err := sql.Open("sqlite3", "file:"+db+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	var players []string
	// Rows appended since migration 6 are in players_tail.
	rows, err := c.Query(`SELECT skeleton || ' ' || player || ' ' || idx FROM (SELECT * FROM players UNION ALL SELECT skeleton, player, idx FROM players_tail) ORDER BY idx`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var r string
		rows.Scan(&r)
		players = append(players, r)
	}
	rows.Close()
	c.Close()
	if strings.Join(players, "; ") != "alice alice 0; bob bob 2" {
		t.Errorf("players after the upgrade: %q; want alice at 0 and bob at 2", players)
	}
	// Migration 8 moved the lookup keys of the v1 entries into lookup;
	// bob's went to lookup_tail.
	c, err = sql.Open("sqlite3", "file:"+db+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	var keys string
	err = c.QueryRow(`SELECT (SELECT group_concat(idx) FROM (SELECT idx FROM lookup ORDER BY idx)) || ' / ' || (SELECT group_concat(idx) FROM lookup_tail)`).Scan(&keys)
	c.Close()
	if err != nil || keys != "0,1 / 2" {
		t.Errorf("lookup / lookup_tail after the upgrade: %q, %v; want entries 0,1 / 2", keys, err)
	}
	if cs, err := w.CommitsByCommitment(commitment); err != nil || len(cs) != 1 || cs[0].Index != 0 {
		t.Errorf("CommitsByCommitment on the upgraded file = %v, %v; want entry 0", cs, err)
	}
	var ce *ledger.ConfusableNameError
	lookalike := `{"kind":"commit","player":"\u0430lice","action_type":"bid","channel":"#auctions","commitment":"` + strings.Repeat("cd", 32) + `"}`
	if _, err := w.Append(ctx, []byte(lookalike)); !errors.As(err, &ce) || ce.Existing != "alice" || ce.Index != 0 {
		t.Errorf("a lookalike of the v1 ledger's alice: %v; want a ConfusableNameError naming entry 0", err)
	}
	dupOld := `{"kind":"commit","player":"alice","action_type":"bid","channel":"#auctions","commitment":"` + commitment + `"}`
	var de *ledger.DuplicateError
	if _, err := w.Append(ctx, []byte(dupOld)); !errors.As(err, &de) || de.Index != 0 {
		t.Errorf("a copy of the v1 ledger's commit: %v; want a duplicate of entry 0 (found through the new index)", err)
	}
	now, err := w.Entries(0, 2)
	if err != nil {
		t.Fatal(err)
	}
	for i := range now {
		if !bytes.Equal(now[i].Leaf, old[i].Leaf) || now[i].LeafHash != old[i].LeafHash {
			t.Errorf("entry %d changed in the upgrade", i)
		}
	}
	if rep, err := w.Audit(ctx, nil); err != nil || !rep.OK || rep.Size != 3 {
		t.Errorf("audit after the upgrade: %+v, %v", rep, err)
	}
	w.Close()
}
