package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/base64"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/sealedhq/sealed/internal/demo"
	"github.com/sealedhq/sealed/ledger"
	"github.com/sealedhq/sealed/ledger/stores"
	tdnote "github.com/transparency-dev/formats/note"
	"golang.org/x/mod/sumdb/note"
)

// cosignStored has a new witness key named name cosign the stored
// checkpoints of the given sizes (C2SP tlog-cosignature, cosignature/v1,
// signed with transparency-dev/formats/note's signer, as litewitness
// does) and stores each cosignature in the ledger at db. It returns the
// witness's Ed25519 verifier key (which ledger/witness takes for its
// cosignature/v1 key).
func cosignStored(t *testing.T, db, key, name string, sizes ...int64) string {
	t.Helper()
	ctx := context.Background()
	skey, vkey, err := note.GenerateKey(rand.Reader, name)
	if err != nil {
		t.Fatal(err)
	}
	signer, err := tdnote.NewSignerForCosignatureV1(skey)
	if err != nil {
		t.Fatal(err)
	}
	l, err := stores.Open(ctx, db, ledger.Options{KeyFile: key})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	cps, err := l.Store().Checkpoints(ctx, math.MaxInt64)
	if err != nil {
		t.Fatal(err)
	}
	for _, size := range sizes {
		i := slices.IndexFunc(cps, func(c ledger.StoredCheckpoint) bool { return c.Size == size })
		if i < 0 {
			t.Fatalf("no checkpoint of size %d", size)
		}
		cp := cps[i]
		text, _, _ := strings.Cut(string(cp.Note), "\n\n")
		signed, err := note.Sign(&note.Note{Text: text + "\n"}, signer)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.SplitAfter(strings.TrimSuffix(string(signed), "\n"), "\n")
		line := lines[len(lines)-1] + "\n"
		ts, err := tdnote.CoSigV1Timestamp(note.Signature{Base64: strings.Fields(line)[2]})
		if err != nil {
			t.Fatal(err)
		}
		if err := l.Store().PutCosignature(ctx, &ledger.StoredCosignature{CheckpointID: cp.ID, Size: cp.Size, Witness: name, Line: []byte(line), Time: ts.Unix()}); err != nil {
			t.Fatal(err)
		}
	}
	return vkey
}

// copyDB copies the SQLite file src into a new temp dir.
func copyDB(t *testing.T, src string) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), "copy.db")
	in, err := os.Open(src)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.Create(dst)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
	return dst
}

// sweepColumn is a column of a table (PRAGMA table_info).
type sweepColumn struct {
	name string
	pk   bool
}

// sweepRow is one row of a table: its key columns' values (the primary
// key, or rowid) and every column's value as SQLite holds it.
type sweepRow struct {
	key    []any
	values map[string]any
}

// sweepExempt lists the columns where no change can alter what the
// ledger stores or states, each with the reason.
var sweepExempt = map[string]string{
	// The wall-clock time a schema migration was applied, for people
	// reading the file: nothing reads it and nothing rests on it (the
	// versions themselves are checked).
	"schema_version.applied_at": "when a migration ran: informational only",
}

// TestAuditSweep is issue 10's generated sweep: on a copy of a demo
// ledger whose checkpoints two witnesses cosigned, with every trigger
// dropped, one column of one row of one table is changed (a blob or text
// by one flipped bit, an integer by one, or to another value where one
// would collide with a key, a NULL to a value), and `sealed ledger
// audit` with the published verifier key pinned must exit 1 naming the
// table and the row. Every table in the file (sqlite_master, so a new
// table is swept without editing this test) and every column is swept;
// rows are all rows, but for the entries and hashes tables a
// deterministic sample (the first, the last and evenly spaced ones).
// Columns where no change can alter meaning are in sweepExempt.
func TestAuditSweep(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the demo ledger and audits a few hundred copies")
	}
	src := filepath.Join(t.TempDir(), "demo.db")
	buildDemo(t, src)
	vkeyFile := demo.VerifierKeyFile(src)
	// Two witnesses: one cosigns two checkpoints, the other the newest.
	l, err := stores.Open(context.Background(), src, ledger.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	cps, err := l.Store().Checkpoints(context.Background(), math.MaxInt64)
	if err != nil || len(cps) < 3 {
		t.Fatalf("checkpoints of the demo ledger: %d, %v", len(cps), err)
	}
	l.Close()
	mid, newest := cps[len(cps)/2].Size, cps[len(cps)-1].Size
	w1 := cosignStored(t, src, demo.KeyFile(src), "witness.example/one", mid, newest)
	w2 := cosignStored(t, src, demo.KeyFile(src), "witness.example/two", newest)
	// The audit as a monitor runs it: the published log key and the
	// witnesses' keys pinned.
	audit := []string{"ledger", "audit", "--vkey-file", vkeyFile, "--witness", w1, "--witness", w2, "--db"}
	if out, errOut := mustRun(t, 0, "", append(audit, src)...); !strings.Contains(out, "ok:") || !strings.Contains(errOut, "3 stored cosignatures by the given witnesses verified") {
		t.Fatalf("the cosigned demo ledger does not audit clean: %s%s", out, errOut)
	}

	// A small ledger's players rows are all in players_tail (the rows the
	// SQLite store has not yet moved into players, migration 6), and its
	// lookup keys in lookup_tail (migration 8): move the earlier half of
	// each as the store's folds do, so that all four tables have rows to
	// sweep, as on a ledger past its first folds.
	rw, err := sql.Open("sqlite3", "file:"+src+"?mode=rw")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := rw.Exec(`CREATE TEMP TABLE moved AS SELECT idx FROM players_tail ORDER BY idx LIMIT (SELECT count(*) / 2 FROM players_tail);
		INSERT INTO players(skeleton, player, idx) SELECT skeleton, player, idx FROM players_tail WHERE idx IN (SELECT idx FROM moved);
		DELETE FROM players_tail WHERE idx IN (SELECT idx FROM moved);
		CREATE TEMP TABLE keys_moved AS SELECT idx FROM lookup_tail ORDER BY idx LIMIT (SELECT count(*) / 2 FROM lookup_tail);
		INSERT INTO lookup(k, d, idx) SELECT k, d, idx FROM lookup_tail WHERE idx IN (SELECT idx FROM keys_moved);
		DELETE FROM lookup_tail WHERE idx IN (SELECT idx FROM keys_moved)`); err != nil {
		t.Fatal(err)
	}
	rw.Close()
	if out, errOut := mustRun(t, 0, "", append(audit, src)...); !strings.Contains(out, "ok:") {
		t.Fatalf("the demo ledger with players rows in both tables does not audit clean: %s%s", out, errOut)
	}

	db, err := sql.Open("sqlite3", "file:"+src+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var tables []string
	rows, err := db.Query(`SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var n string
		rows.Scan(&n)
		tables = append(tables, n)
	}
	rows.Close()
	for _, want := range []string{"checkpoints", "cosignatures", "entries", "hashes", "log_meta", "lookup", "lookup_tail", "players", "players_tail", "replays", "schema_version", "seed_commits"} {
		if !slices.Contains(tables, want) {
			t.Fatalf("the demo ledger has no %s table (tables %v)", want, tables)
		}
	}
	cases := 0
	for _, table := range tables {
		cols, rowid := tableColumns(t, db, table)
		all := tableRows(t, db, table, cols, rowid)
		if len(all) == 0 {
			t.Fatalf("table %s has no row to change", table)
		}
		sample := all
		if len(all) > 16 {
			sample = nil
			for k := range 16 {
				sample = append(sample, all[k*(len(all)-1)/15])
			}
		}
		for _, col := range cols {
			if why, ok := sweepExempt[table+"."+col.name]; ok {
				t.Logf("%s.%s not swept: %s", table, col.name, why)
				continue
			}
			for _, r := range sample {
				cases++
				variants := []string{""}
				if table == "cosignatures" && col.name == "line" {
					variants = lineParts
				}
				for _, part := range variants {
					t.Run(fmt.Sprintf("%s.%s%s/%v", table, col.name, part, r.key), func(t *testing.T) {
						sweepOne(t, src, audit, table, cols, rowid, all, r, col, part)
					})
				}
			}
		}
	}
	t.Logf("%d changes swept over %d tables", cases, len(tables))
}

// tableColumns reads a table's columns; rowid is true when the table has
// no primary key column of its own to name rows by (a rowid table whose
// key is not an INTEGER PRIMARY KEY).
func tableColumns(t *testing.T, db *sql.DB, table string) (cols []sweepColumn, rowid bool) {
	rows, err := db.Query(`SELECT name, pk FROM pragma_table_info(?) ORDER BY cid`, table)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	anyPK := false
	for rows.Next() {
		var c sweepColumn
		var pk int
		rows.Scan(&c.name, &pk)
		c.pk = pk > 0
		anyPK = anyPK || c.pk
		cols = append(cols, c)
	}
	return cols, !anyPK
}

// tableRows reads every row of a table, keyed by its primary key (or
// rowid).
func tableRows(t *testing.T, db *sql.DB, table string, cols []sweepColumn, rowid bool) []sweepRow {
	var names, keys []string
	for _, c := range cols {
		names = append(names, c.name)
		if c.pk {
			keys = append(keys, c.name)
		}
	}
	if rowid {
		keys = []string{"rowid"}
	}
	q := fmt.Sprintf(`SELECT %s, %s FROM %s ORDER BY %s`, strings.Join(keys, ", "), strings.Join(names, ", "), table, strings.Join(keys, ", "))
	rows, err := db.Query(q)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []sweepRow
	for rows.Next() {
		vals := make([]any, len(keys)+len(names))
		ptrs := make([]any, len(vals))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		r := sweepRow{key: vals[:len(keys)], values: map[string]any{}}
		for i, n := range names {
			r.values[n] = vals[len(keys)+i]
		}
		out = append(out, r)
	}
	return out
}

// changed returns another value for v, of the same SQLite type: a blob
// or text with the low bit of its middle byte flipped, an integer plus
// one (minus one, or far off, where taken is true of the candidate: a
// key another row holds), a NULL as the integer 0 or the text "x".
func changed(v any, textual bool, taken func(int64) bool) any {
	switch x := v.(type) {
	case int64:
		for _, c := range []int64{x + 1, x - 1, x + 1_000_003} {
			if !taken(c) {
				return c
			}
		}
	case []byte:
		b := bytes.Clone(x)
		if len(b) == 0 {
			return []byte{0}
		}
		b[len(b)/2] ^= 1
		return b
	case string:
		if x == "" {
			return "x"
		}
		b := []byte(x)
		b[len(b)/2] ^= 1
		return string(b)
	case nil:
		if textual {
			return "x"
		}
		return int64(0)
	}
	panic(fmt.Sprintf("value of type %T", v))
}

// rowNames returns regular expressions of which the audit's finding
// must match one to name the row r of table (by its values before or
// after the change).
func rowNames(table string, r sweepRow) []string {
	v := r.values
	q := func(x any) string { return regexp.QuoteMeta(fmt.Sprint(x)) }
	switch table {
	case "entries":
		return []string{fmt.Sprintf(`\bentry %d\b`, v["idx"]), fmt.Sprintf(`\bindex %d\b`, v["idx"])}
	case "hashes":
		return []string{fmt.Sprintf(`\bstored hash %d\b`, v["id"]), fmt.Sprintf(`\bid %d\b`, v["id"])}
	case "checkpoints":
		return []string{fmt.Sprintf(`\bsize %d\b`, v["size"]), fmt.Sprintf(`\bfor %d\b`, v["size"]), fmt.Sprintf(`\bid %d\b`, v["id"]), fmt.Sprintf(`\bids %d\b`, v["id"])}
	case "cosignatures":
		return []string{fmt.Sprintf(`checkpoint_id %d, witness "%s"`, v["checkpoint_id"], q(v["witness"]))}
	case "players", "players_tail":
		return []string{fmt.Sprintf(`skeleton "%s"`, q(v["skeleton"])), fmt.Sprintf(`\bentry %d\b`, v["idx"]), fmt.Sprintf(`\bidx %d\b`, v["idx"])}
	case "seed_commits":
		return []string{fmt.Sprintf(`\bentry %d\b`, v["idx"]), fmt.Sprintf(`\bindex %d\b`, v["idx"]), q(v["commitment"])}
	case "lookup", "lookup_tail":
		return []string{fmt.Sprintf(`\bentry %d\b`, v["idx"])}
	case "replays":
		return []string{q(v["sha256"])}
	case "log_meta":
		return []string{q(v["key"]), strings.ReplaceAll(q(v["key"]), "_", " ")}
	case "schema_version":
		return []string{`\bversions\b`}
	}
	return nil
}

// lineParts are the parts of a cosignature line the sweep changes one
// at a time: the witness name, and in the signature (base64 of key hash,
// 8-byte timestamp, Ed25519 signature: C2SP tlog-cosignature) the key
// hash, the timestamp and the signature.
var lineParts = []string{"[name]", "[keyhash]", "[timestamp]", "[signature]"}

// changedLine changes one part of a cosignature line (lineParts).
func changedLine(t *testing.T, line []byte, part string) []byte {
	f := strings.Fields(string(line)) // "—", name, base64
	if len(f) != 3 {
		t.Fatalf("line %q", line)
	}
	if part == "[name]" {
		n := []byte(f[1])
		n[len(n)/2] ^= 1
		return []byte("— " + string(n) + " " + f[2] + "\n")
	}
	sig, err := base64.StdEncoding.DecodeString(f[2])
	if err != nil || len(sig) != 76 {
		t.Fatalf("line %q: %v", line, err)
	}
	pos := map[string]int{"[keyhash]": 1, "[timestamp]": 4 + 7, "[signature]": 12 + 40}[part]
	sig[pos] ^= 1
	return []byte("— " + f[1] + " " + base64.StdEncoding.EncodeToString(sig) + "\n")
}

// sweepOne changes column col of row r of table in a copy of src, with
// every trigger dropped, and requires the pinned audit to exit 1 naming
// the table and the row.
func sweepOne(t *testing.T, src string, audit []string, table string, cols []sweepColumn, rowid bool, all []sweepRow, r sweepRow, col sweepColumn, part string) {
	c := copyDB(t, src)
	db, err := sql.Open("sqlite3", "file:"+c)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var triggers []string
	rows, err := db.Query(`SELECT name FROM sqlite_master WHERE type = 'trigger'`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var n string
		rows.Scan(&n)
		triggers = append(triggers, n)
	}
	rows.Close()
	for _, n := range triggers {
		if _, err := db.Exec(`DROP TRIGGER ` + n); err != nil {
			t.Fatal(err)
		}
	}
	taken := func(x int64) bool {
		if !col.pk {
			return false
		}
		for _, o := range all {
			if o.values[col.name] == x {
				return true
			}
		}
		return false
	}
	old := r.values[col.name]
	textual := map[string]bool{"commitment": true}[col.name]
	nv := changed(old, textual, taken)
	if part != "" {
		nv = changedLine(t, old.([]byte), part)
	}
	var where []string
	var args []any
	args = append(args, nv)
	keys := []string{"rowid"}
	if !rowid {
		keys = nil
		for _, k := range cols {
			if k.pk {
				keys = append(keys, k.name)
			}
		}
	}
	for i, k := range keys {
		where = append(where, k+" = ?")
		args = append(args, r.key[i])
	}
	res, err := db.Exec(fmt.Sprintf(`UPDATE %s SET %s = ? WHERE %s`, table, col.name, strings.Join(where, " AND ")), args...)
	if err != nil {
		t.Fatalf("changing %v to %v: %v", old, nv, err)
	}
	if n, _ := res.RowsAffected(); n != 1 {
		t.Fatalf("changing %v to %v changed %d rows", old, nv, n)
	}
	db.Close()
	code, stdout, stderr := runSealed(t, "", append(audit[:len(audit):len(audit)], c)...)
	finding := strings.TrimSpace(stdout)
	// The audit names the players table for a row of either table the
	// store keeps it in (players, players_tail), by skeleton and entry,
	// and likewise the lookup table (lookup, lookup_tail), by entry.
	named := strings.TrimSuffix(table, "_tail")
	if code != 1 || !regexp.MustCompile(`audit failed: `+named+`\b`).MatchString(finding) {
		t.Fatalf("%s.%s of row %v changed from %s to %s: exit %d, %s%s; want exit 1 and a finding in table %s",
			table, col.name, r.key, short(old), short(nv), code, stdout, stderr, table)
	}
	after := sweepRow{key: r.key, values: maps.Clone(r.values)}
	after.values[col.name] = nv
	names := append(rowNames(table, r), rowNames(table, after)...)
	if !slices.ContainsFunc(names, func(n string) bool { return regexp.MustCompile(n).MatchString(finding) }) {
		t.Errorf("%s.%s of row %v changed from %s to %s: the finding %q names none of %q", table, col.name, r.key, short(old), short(nv), finding, names)
	}
}

// short shows a value for a failure message.
func short(v any) string {
	s := fmt.Sprintf("%q", v)
	if b, ok := v.([]byte); ok {
		s = fmt.Sprintf("x'%x'", b)
	}
	if len(s) > 80 {
		s = s[:80] + "..."
	}
	return s
}

// TestCopyCosignatures: `ledger copy` copies the witness cosignatures
// with their checkpoints (the copy verifies with the witness's key), and
// a cosignature row that does not check out against its checkpoint (its
// time changed, with the triggers dropped) stops the copy, exit 1,
// naming the witness and the checkpoint (the source's audit finds it).
func TestCopyCosignatures(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "demo.db")
	mustRun(t, 0, "", "demo", "--db", src)
	w := cosignStored(t, src, demo.KeyFile(src), "witness.example/copy", 0, 1)
	dst := filepath.Join(dir, "copy.db")
	stdout, _ := mustRun(t, 0, "", "ledger", "copy", "--from", src, "--to", dst)
	if !strings.Contains(stdout, "and 2 witness cosignatures") || !strings.Contains(stdout, "audit of the copy: ok") {
		t.Errorf("copy: %s", stdout)
	}
	if _, stderr := mustRun(t, 0, "", "ledger", "audit", "--db", dst, "--vkey-file", demo.VerifierKeyFile(src), "--witness", w); !strings.Contains(stderr, "2 stored cosignatures by the given witnesses verified") {
		t.Errorf("audit of the copy with the witness key: %s", stderr)
	}

	bad := copyDB(t, src)
	db, err := sql.Open("sqlite3", "file:"+bad)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`DROP TRIGGER cosignatures_no_update; UPDATE cosignatures SET time = time + 1 WHERE size = 1`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	code, _, stderr := runSealed(t, "", "ledger", "copy", "--from", bad, "--to", filepath.Join(t.TempDir(), "c.db"))
	if code != 1 || !strings.Contains(stderr, `copy stopped: source: audit failed: cosignatures, checkpoint of size 1: `) || !strings.Contains(stderr, `witness "witness.example/copy"`) || !strings.Contains(stderr, "timestamp") {
		t.Errorf("copy of a ledger with a changed cosignature time: exit %d, %s", code, stderr)
	}
}
