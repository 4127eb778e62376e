package sqlitestore

import (
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sealedhq/sealed/ledger"
)

// The tests here drive the writer's batch paths below the ledger: the
// lookup_tail rows written from the entries rows (keyMissing) or row by
// row, the stored hashes written from one blob (hashRunInsert) or row by
// row, and the writer's copy of lookup_tail (byKey, with more for a key
// several rows share), with entries made by hand so that their lookup
// keys collide as the ledger's never do.

func openBatchStore(t *testing.T, path string, create bool) *Store {
	t.Helper()
	s, err := Open(path, Options{Create: create})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	if create {
		err := s.Create(context.Background(), &ledger.Meta{Origin: "batch.example/log", VerifierKey: "batch.example/log+00000000+AAAA"},
			&ledger.StoredCheckpoint{Size: 0, Root: make([]byte, 32), Note: []byte("note 0\n"), CreatedAt: 1})
		if err != nil {
			t.Fatal(err)
		}
	}
	return s
}

// dedupOf is a 32-byte duplicate key: the 8 bytes of prefix, then the
// SHA-256 of rest (24 bytes of it).
func dedupOf(prefix string, rest string) []byte {
	if len(prefix) != 8 {
		panic("prefix of 8 bytes")
	}
	h := sha256.Sum256([]byte(rest))
	return append([]byte(prefix), h[:24]...)
}

func handEntry(i int64, kind ledger.Kind, commitment string, dedup []byte) ledger.StoredEntry {
	leaf := []byte(fmt.Sprintf(`{"i":%d}`, i))
	lh := sha256.Sum256(leaf)
	return ledger.StoredEntry{Index: i, Kind: kind, Leaf: leaf, LeafHash: lh[:], IntegratedAt: 1000 + i, Dedup: dedup, Commitment: commitment, Ref: -1}
}

func handHash(id int64, n int) []byte {
	h := sha256.Sum256([]byte(fmt.Sprint("hash ", id)))
	return bytes.Repeat(h[:], 2)[:n]
}

// keyRow is a lookup_tail or lookup row as SQL reads it.
type keyRow struct {
	idx  int64
	text bool
	k, d string // hex
}

func keyRows(t *testing.T, path, table string) []keyRow {
	t.Helper()
	db, err := sql.Open("sqlite3", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query(`SELECT idx, typeof(k) = 'text', CASE WHEN typeof(k) = 'text' THEN k ELSE hex(k) END, hex(d) FROM ` + table + ` ORDER BY idx`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []keyRow
	for rows.Next() {
		var r keyRow
		if err := rows.Scan(&r.idx, &r.text, &r.k, &r.d); err != nil {
			t.Fatal(err)
		}
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func hashRows(t *testing.T, path string) map[int64][]byte {
	t.Helper()
	db, err := sql.Open("sqlite3", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query(`SELECT id, hash FROM hashes`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[int64][]byte{}
	for rows.Next() {
		var id int64
		var h []byte
		if err := rows.Scan(&id, &h); err != nil {
			t.Fatal(err)
		}
		out[id] = h
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func hexOf(s string) string { return fmt.Sprintf("%X", s) }

// TestSharedLookupKeys: entries whose lookup keys (k, d) are the same
// without being duplicates: two entries without a commitment whose
// duplicate keys share their first 8 bytes, and two commits whose
// commitments share their first 16 characters and whose duplicate keys
// share their first 8 bytes. Each is found as the duplicate of its own
// key, a key sharing theirs that is not stored is no duplicate, and so
// it stays when the writer's copy of lookup_tail is built by the commit
// (added), read from the table (another writer's copy, and this one's
// after the other appended), and once the rows moved into lookup.
func TestSharedLookupKeys(t *testing.T) {
	defer func(n int) { lookupFoldAt = n }(lookupFoldAt)
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "t.db")
	a := openBatchStore(t, path, true)

	c1 := "0123456789abcdef" + strings.Repeat("1", 48)
	c2 := "0123456789abcdef" + strings.Repeat("2", 48)
	es := []ledger.StoredEntry{
		handEntry(0, ledger.KindContribution, "", dedupOf("PPPPPPPP", "x")),
		handEntry(1, ledger.KindContribution, "", dedupOf("PPPPPPPP", "y")),
		handEntry(2, ledger.KindCommit, c1, dedupOf("QQQQQQQQ", "x")),
		handEntry(3, ledger.KindCommit, c2, dedupOf("QQQQQQQQ", "y")),
	}
	hs := []ledger.StoredHash{{ID: 0, Hash: handHash(0, 32)}, {ID: 1, Hash: handHash(1, 32)}}
	if err := a.Write(ctx, func(tx ledger.WriteTx) error { return tx.Insert(ctx, es, hs) }); err != nil {
		t.Fatal(err)
	}
	// The rows as SQL stored them, worked by hand: k is the commitment's
	// first 16 characters (text) or the duplicate key's first 8 bytes
	// (blob); d the duplicate key's first 8 bytes.
	want := []keyRow{
		{0, false, hexOf("PPPPPPPP"), hexOf("PPPPPPPP")},
		{1, false, hexOf("PPPPPPPP"), hexOf("PPPPPPPP")},
		{2, true, "0123456789abcdef", hexOf("QQQQQQQQ")},
		{3, true, "0123456789abcdef", hexOf("QQQQQQQQ")},
	}
	if got := keyRows(t, path, "lookup_tail"); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("lookup_tail rows = %v; want %v", got, want)
	}

	probes := []ledger.DuplicateProbe{
		{Dedup: [32]byte(es[0].Dedup)},
		{Dedup: [32]byte(es[1].Dedup)},
		{Dedup: [32]byte(dedupOf("PPPPPPPP", "z"))}, // same keys, not stored
		{Dedup: [32]byte(es[2].Dedup), Commitment: c1},
		{Dedup: [32]byte(es[3].Dedup), Commitment: c2},
		{Dedup: [32]byte(dedupOf("QQQQQQQQ", "z")), Commitment: c1}, // same keys, not stored
	}
	wantDups := map[[32]byte]ledger.IndexKind{
		[32]byte(es[0].Dedup): {Index: 0, Kind: ledger.KindContribution},
		[32]byte(es[1].Dedup): {Index: 1, Kind: ledger.KindContribution},
		[32]byte(es[2].Dedup): {Index: 2, Kind: ledger.KindCommit},
		[32]byte(es[3].Dedup): {Index: 3, Kind: ledger.KindCommit},
	}
	check := func(name string, s *Store) {
		t.Helper()
		// Each probe alone (one key's rows found), then all together.
		for i, p := range probes {
			var got map[[32]byte]ledger.IndexKind
			if err := s.Write(ctx, func(tx ledger.WriteTx) (err error) {
				got, err = tx.Duplicates(ctx, []ledger.DuplicateProbe{p})
				return err
			}); err != nil {
				t.Fatal(err)
			}
			w, ok := wantDups[p.Dedup]
			if (ok && (len(got) != 1 || got[p.Dedup] != w)) || (!ok && len(got) != 0) {
				t.Errorf("%s: Duplicates(probe %d) = %v; want %v (found %v)", name, i, got, w, ok)
			}
		}
		var got map[[32]byte]ledger.IndexKind
		if err := s.Write(ctx, func(tx ledger.WriteTx) (err error) {
			got, err = tx.Duplicates(ctx, probes)
			return err
		}); err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(got) != fmt.Sprint(wantDups) {
			t.Errorf("%s: Duplicates(all) = %v; want %v", name, got, wantDups)
		}
	}
	check("the writer's copy built by its commits", a)
	b := openBatchStore(t, path, false)
	check("another writer's copy, read from lookup_tail", b)
	// b appends: a's copy is read again.
	e4 := handEntry(4, ledger.KindContribution, "", dedupOf("RRRRRRRR", "x"))
	if err := b.Write(ctx, func(tx ledger.WriteTx) error {
		return tx.Insert(ctx, []ledger.StoredEntry{e4}, []ledger.StoredHash{{ID: 2, Hash: handHash(2, 32)}})
	}); err != nil {
		t.Fatal(err)
	}
	check("the writer's copy after another writer appended", a)
	// The next append folds the tail into lookup.
	lookupFoldAt = 4
	e5 := handEntry(5, ledger.KindContribution, "", dedupOf("SSSSSSSS", "x"))
	if err := a.Write(ctx, func(tx ledger.WriteTx) error {
		return tx.Insert(ctx, []ledger.StoredEntry{e5}, []ledger.StoredHash{{ID: 3, Hash: handHash(3, 32)}})
	}); err != nil {
		t.Fatal(err)
	}
	if n := len(keyRows(t, path, "lookup_tail")); n != 0 {
		t.Fatalf("lookup_tail holds %d rows after the fold; want 0", n)
	}
	if got := keyRows(t, path, "lookup"); len(got) != 6 || fmt.Sprint(got[:4]) != fmt.Sprint(want) {
		t.Fatalf("lookup rows = %v; want 6, the first %v", got, want)
	}
	check("after the fold, writer", a)
	check("after the fold, other writer", b)
}

// TestInsertRowByRow: Insert as the conformance suite may call it, with
// entries whose indexes are not consecutive, stored hashes whose ids are
// not, and hashes that are not 32 bytes (the one-statement paths take
// consecutive runs of 32-byte hashes only): every row is stored as
// given, the key rows as lookupKeys computes them, and duplicates are
// found by the copy the commit built and by one read from the table.
func TestInsertRowByRow(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "t.db")
	s := openBatchStore(t, path, true)
	c := strings.Repeat("c", 64)
	batches := []struct {
		es []ledger.StoredEntry
		hs []ledger.StoredHash
	}{
		// Indexes 0 and 2; ids 0, 2, 3.
		{[]ledger.StoredEntry{handEntry(0, ledger.KindCommit, c, dedupOf("AAAAAAAA", "0")), handEntry(2, ledger.KindContribution, "", dedupOf("BBBBBBBB", "2"))},
			[]ledger.StoredHash{{ID: 0, Hash: handHash(0, 32)}, {ID: 2, Hash: handHash(2, 32)}, {ID: 3, Hash: handHash(3, 32)}}},
		// Index 1; consecutive ids 1, 4, no: 4, 5, 6 with a 31-byte hash
		// in the middle and a 33-byte one at the end.
		{[]ledger.StoredEntry{handEntry(1, ledger.KindContribution, "", dedupOf("CCCCCCCC", "1"))},
			[]ledger.StoredHash{{ID: 4, Hash: handHash(4, 32)}, {ID: 5, Hash: handHash(5, 31)}, {ID: 6, Hash: handHash(6, 33)}}},
		// Consecutive indexes and ids, hashes of 32 bytes, but given
		// out of order.
		{[]ledger.StoredEntry{handEntry(4, ledger.KindContribution, "", dedupOf("DDDDDDDD", "4")), handEntry(3, ledger.KindContribution, "", dedupOf("EEEEEEEE", "3"))},
			[]ledger.StoredHash{{ID: 8, Hash: handHash(8, 32)}, {ID: 7, Hash: handHash(7, 32)}}},
	}
	wantHashes := map[int64][]byte{}
	for _, b := range batches {
		if err := s.Write(ctx, func(tx ledger.WriteTx) error { return tx.Insert(ctx, b.es, b.hs) }); err != nil {
			t.Fatal(err)
		}
		for _, h := range b.hs {
			wantHashes[h.ID] = h.Hash
		}
	}
	got := hashRows(t, path)
	if len(got) != len(wantHashes) {
		t.Errorf("%d hashes stored; want %d", len(got), len(wantHashes))
	}
	for id, h := range wantHashes {
		if !bytes.Equal(got[id], h) {
			t.Errorf("hash %d stored as %x; want %x", id, got[id], h)
		}
	}
	want := []keyRow{
		{0, true, strings.Repeat("c", 16), hexOf("AAAAAAAA")},
		{1, false, hexOf("CCCCCCCC"), hexOf("CCCCCCCC")},
		{2, false, hexOf("BBBBBBBB"), hexOf("BBBBBBBB")},
		{3, false, hexOf("EEEEEEEE"), hexOf("EEEEEEEE")},
		{4, false, hexOf("DDDDDDDD"), hexOf("DDDDDDDD")},
	}
	if got := keyRows(t, path, "lookup_tail"); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("lookup_tail rows = %v; want %v", got, want)
	}
	var probes []ledger.DuplicateProbe
	wantDups := map[[32]byte]ledger.IndexKind{}
	for _, b := range batches {
		for _, e := range b.es {
			probes = append(probes, ledger.DuplicateProbe{Dedup: [32]byte(e.Dedup), Commitment: e.Commitment})
			wantDups[[32]byte(e.Dedup)] = ledger.IndexKind{Index: e.Index, Kind: e.Kind}
		}
	}
	for _, st := range []*Store{s, openBatchStore(t, path, false)} {
		var got map[[32]byte]ledger.IndexKind
		if err := st.Write(ctx, func(tx ledger.WriteTx) (err error) {
			got, err = tx.Duplicates(ctx, probes)
			return err
		}); err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(got) != fmt.Sprint(wantDups) {
			t.Errorf("Duplicates = %v; want %v", got, wantDups)
		}
	}
}

// TestBatchRowsPartlyDropped: a trigger that is not in the schema drops
// every other row of a table (RAISE(IGNORE)) from a batch of several
// entries: the one-statement inserts of hashes and lookup_tail count the
// rows stored, so the Write fails with ErrTampered and stores nothing,
// and the next Write, once the trigger is gone, stores the batch.
func TestBatchRowsPartlyDropped(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct{ table, col string }{{"hashes", "id"}, {"lookup_tail", "idx"}} {
		t.Run(c.table, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "t.db")
			s := openBatchStore(t, path, true)
			var es []ledger.StoredEntry
			var hs []ledger.StoredHash
			for i := range int64(5) {
				es = append(es, handEntry(i, ledger.KindContribution, "", dedupOf("ZZZZZZZ"+fmt.Sprint(i), "z")))
			}
			for id := range int64(8) {
				hs = append(hs, ledger.StoredHash{ID: id, Hash: handHash(id, 32)})
			}
			other, err := sql.Open("sqlite3", "file:"+path+"?_busy_timeout=10000")
			if err != nil {
				t.Fatal(err)
			}
			defer other.Close()
			trigger := fmt.Sprintf(`CREATE TRIGGER foreign_drop BEFORE INSERT ON %s WHEN NEW.%s %% 2 = 1 BEGIN SELECT RAISE(IGNORE); END`, c.table, c.col)
			if _, err := other.Exec(trigger); err != nil {
				t.Fatal(err)
			}
			err = s.Write(ctx, func(tx ledger.WriteTx) error { return tx.Insert(ctx, es, hs) })
			if !errors.Is(err, ledger.ErrTampered) {
				t.Fatalf("Write with every other %s row dropped: %v; want ErrTampered", c.table, err)
			}
			var n int
			if err := other.QueryRow(`SELECT (SELECT count(*) FROM entries) + (SELECT count(*) FROM hashes) + (SELECT count(*) FROM lookup_tail)`).Scan(&n); err != nil {
				t.Fatal(err)
			}
			if n != 0 {
				t.Fatalf("%d rows stored by a refused Write; want 0", n)
			}
			if _, err := other.Exec(`DROP TRIGGER foreign_drop`); err != nil {
				t.Fatal(err)
			}
			if err := s.Write(ctx, func(tx ledger.WriteTx) error { return tx.Insert(ctx, es, hs) }); err != nil {
				t.Fatalf("Write once the trigger is gone: %v", err)
			}
			if got := hashRows(t, path); len(got) != 8 {
				t.Errorf("%d hashes stored; want 8", len(got))
			}
			if got := keyRows(t, path, "lookup_tail"); len(got) != 5 {
				t.Errorf("%d lookup_tail rows stored; want 5", len(got))
			}
		})
	}
}
