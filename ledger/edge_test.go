package ledger_test

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sealedhq/sealed/internal/tamper"
	"github.com/sealedhq/sealed/ledger"
	"golang.org/x/mod/sumdb/tlog"
)

// rfc6962Root is MTH of RFC 6962 section 2.1 over the given leaf hashes,
// written from the RFC's definition (the largest power of two below n
// splits the list), independent of tlog.
func rfc6962Root(leaves [][32]byte) [32]byte {
	switch n := len(leaves); n {
	case 0:
		return sha256.Sum256(nil)
	case 1:
		return leaves[0]
	default:
		k := 1
		for k*2 < n {
			k *= 2
		}
		l, r := rfc6962Root(leaves[:k]), rfc6962Root(leaves[k:])
		return sha256.Sum256(append(append([]byte{1}, l[:]...), r[:]...))
	}
}

// edgeLedger makes a closed ledger of n commit entries (its last
// checkpoint covers them all) and returns its file and key.
func edgeLedger(t *testing.T, n int) (db, key string) {
	t.Helper()
	dir := t.TempDir()
	db, key = filepath.Join(dir, "edge.db"), filepath.Join(dir, "edge.key")
	if _, err := initLedger(db, testOrigin, key); err != nil {
		t.Fatal(err)
	}
	l, err := openLedger(t, db, ledger.Options{KeyFile: key})
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		if _, err := l.Append(context.Background(), []byte(commitBody(fmt.Sprintf("p%d", i), fmt.Sprintf("%064x", i+1)))); err != nil {
			t.Fatal(err)
		}
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	return db, key
}

// appendOne opens db for writing and appends one more commit entry.
func appendOne(t *testing.T, db, key, player string) error {
	t.Helper()
	l, err := openLedger(t, db, ledger.Options{KeyFile: key})
	if err != nil {
		return err
	}
	_, err = l.Append(context.Background(), []byte(commitBody(player, fmt.Sprintf("%064x", 999))))
	if cerr := l.Close(); err == nil {
		err = cerr
	}
	return err
}

// checkSignedRoots: every checkpoint the ledger at db holds signs the
// RFC 6962 root of the stored leaves (re-hashed from their bytes) of its
// size.
func checkSignedRoots(t *testing.T, db string) {
	t.Helper()
	l, err := openLedger(t, db, ledger.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	ctx := context.Background()
	size, err := l.Size()
	if err != nil {
		t.Fatal(err)
	}
	es, err := l.Store().EntryRange(ctx, 0, size)
	if err != nil {
		t.Fatal(err)
	}
	var leaves [][32]byte
	for _, e := range es {
		leaves = append(leaves, sha256.Sum256(append([]byte{0}, e.Leaf...)))
	}
	cps, err := l.Store().Checkpoints(ctx, size)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cps {
		if c.Size > int64(len(leaves)) {
			t.Fatalf("checkpoint %d covers %d entries; %d stored", c.ID, c.Size, len(leaves))
		}
		if want := rfc6962Root(leaves[:c.Size]); [32]byte(c.Root) != want {
			t.Errorf("checkpoint %d (size %d) signs root %x; the stored leaves give %x", c.ID, c.Size, c.Root, want)
		}
	}
}

// TestAppendRefusesAlteredEdge: with a stored hash on the right edge of
// the tree changed (the subtree of entries 0..7 or the last leaf of nine),
// an append refuses with ErrTampered and signs nothing; with a hash off
// the edge changed it appends, and every signed root is still the RFC
// 6962 root of the stored leaves (a writer never signs a root the
// altered hash gives).
func TestAppendRefusesAlteredEdge(t *testing.T) {
	base, key := edgeLedger(t, 9)
	cases := []struct {
		id     int64
		refuse bool
	}{
		{tlog.StoredHashIndex(3, 0), true},  // entries 0..7, on the edge of 9
		{tlog.StoredHashIndex(0, 8), true},  // the last leaf
		{tlog.StoredHashIndex(1, 1), false}, // entries 2..3: not on the edge
		{tlog.StoredHashIndex(0, 0), false},
	}
	for _, c := range cases {
		t.Run(fmt.Sprint(c.id), func(t *testing.T) {
			db := copyFile(t, base)
			copyKey(t, key, db)
			if err := attackRestoring(t, db, fmt.Sprintf(`UPDATE hashes SET hash = zeroblob(32) WHERE id = %d`, c.id)); err != nil {
				t.Fatal(err)
			}
			err := appendOne(t, db, keyOf(db), "zed")
			switch {
			case c.refuse && !errors.Is(err, ledger.ErrTampered):
				t.Fatalf("append with stored hash %d changed: %v, want ErrTampered", c.id, err)
			case !c.refuse && err != nil:
				t.Fatalf("append with stored hash %d (off the edge) changed: %v", c.id, err)
			}
			checkSignedRoots(t, db)
		})
	}
}

// TestAppendChecksEntriesPastCheckpoint: entries past the latest signed
// checkpoint (here: the newest checkpoints removed, as a writer that
// stopped before signing leaves them) are re-hashed from their stored
// bytes before the tree is extended: a changed leaf hash or edge hash
// among them is refused; intact, the append goes on and signs the right
// root.
func TestAppendChecksEntriesPastCheckpoint(t *testing.T) {
	base, key := edgeLedger(t, 9)
	drop := []string{`DELETE FROM checkpoints WHERE size > 4`}
	for _, c := range []struct {
		name   string
		stmts  []string
		refuse bool
	}{
		{"intact", nil, false},
		{"leaf hash", []string{`UPDATE entries SET leaf_hash = zeroblob(32) WHERE idx = 6`}, true},
		{"edge hash", []string{fmt.Sprintf(`UPDATE hashes SET hash = zeroblob(32) WHERE id = %d`, tlog.StoredHashIndex(0, 8))}, true},
		{"row removed", []string{`DELETE FROM entries WHERE idx = 5`}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			db := copyFile(t, base)
			copyKey(t, key, db)
			if err := attackRestoring(t, db, append(drop, c.stmts...)...); err != nil {
				t.Fatal(err)
			}
			err := appendOne(t, db, keyOf(db), "zed")
			switch {
			case c.refuse && !errors.Is(err, ledger.ErrTampered):
				t.Fatalf("append: %v, want ErrTampered", err)
			case !c.refuse && err != nil:
				t.Fatalf("append: %v", err)
			}
			if !c.refuse {
				checkSignedRoots(t, db)
			}
		})
	}
}

// TestWriterChecksAnotherWritersEdge: two writers on one file; after the
// second appends, a right-edge hash is changed in the file; the first
// writer's next append (which reloads the edge the other left) is refused
// with ErrTampered.
func TestWriterChecksAnotherWritersEdge(t *testing.T) {
	db, key := edgeLedger(t, 5)
	ctx := context.Background()
	a, err := openLedger(t, db, ledger.Options{KeyFile: key})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := openLedger(t, db, ledger.Options{KeyFile: key})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.Append(ctx, []byte(commitBody("a1", fmt.Sprintf("%064x", 100)))); err != nil {
		t.Fatal(err)
	}
	idx, err := b.Append(ctx, []byte(commitBody("b1", fmt.Sprintf("%064x", 101))))
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	if err := attackRestoring(t, db, fmt.Sprintf(`UPDATE hashes SET hash = zeroblob(32) WHERE id = %d`, tlog.StoredHashIndex(0, idx))); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Append(ctx, []byte(commitBody("a2", fmt.Sprintf("%064x", 102)))); !errors.Is(err, ledger.ErrTampered) {
		t.Fatalf("append after another writer's edge was altered: %v, want ErrTampered", err)
	}
}

// keyOf is the key file of a ledger file (X.db: X.key).
func keyOf(db string) string { return strings.TrimSuffix(db, ".db") + ".key" }

// copyKey copies the key file src beside db, as keyOf(db), mode 0600.
func copyKey(t *testing.T, src, db string) {
	t.Helper()
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(keyOf(db), b, 0o600); err != nil {
		t.Fatal(err)
	}
}

// attackRestoring runs the statements on the file with every trigger
// dropped, then creates the triggers again as they were: an attacker who
// covers the schema's tracks, leaving only the rows changed.
func attackRestoring(t *testing.T, path string, stmts ...string) error {
	t.Helper()
	return tamper.Restoring(path, stmts...)
}

// TestCheckEdge: a read-only ledger reports an altered right-edge hash
// (what `sealed serve` warns of at start) and passes an intact one.
func TestCheckEdge(t *testing.T) {
	base, _ := edgeLedger(t, 9)
	for _, c := range []struct {
		stmts  []string
		refuse bool
	}{
		{nil, false},
		{[]string{fmt.Sprintf(`UPDATE hashes SET hash = zeroblob(32) WHERE id = %d`, tlog.StoredHashIndex(0, 8))}, true},
		{[]string{fmt.Sprintf(`UPDATE hashes SET hash = zeroblob(32) WHERE id = %d`, tlog.StoredHashIndex(0, 0))}, false},
	} {
		db := copyFile(t, base)
		if err := attackRestoring(t, db, c.stmts...); err != nil {
			t.Fatal(err)
		}
		l, err := openLedger(t, db, ledger.Options{ReadOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		err = l.CheckEdge(context.Background())
		l.Close()
		if c.refuse != errors.Is(err, ledger.ErrTampered) || (!c.refuse && err != nil) {
			t.Errorf("%v: CheckEdge = %v; want ErrTampered %v", c.stmts, err, c.refuse)
		}
	}
}

// TestCreateOriginLength: an origin of 255 bytes is taken, one of 256 is
// refused saying its length (not echoing it), and nothing is created.
func TestCreateOriginLength(t *testing.T) {
	dir := t.TempDir()
	if _, err := initLedger(filepath.Join(dir, "ok.db"), strings.Repeat("a", 255), filepath.Join(dir, "ok.key")); err != nil {
		t.Fatalf("255-byte origin: %v", err)
	}
	_, err := initLedger(filepath.Join(dir, "long.db"), strings.Repeat("a", 256), filepath.Join(dir, "long.key"))
	if err == nil || !strings.Contains(err.Error(), "origin of 256 bytes: expected at most 255") || strings.Contains(err.Error(), strings.Repeat("a", 100)) {
		t.Fatalf("256-byte origin: %v", err)
	}
	for _, f := range []string{"long.db", "long.key"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err == nil {
			t.Errorf("%s was created", f)
		}
	}
}

// TestAppendStrayPlayersRow: the last entry, its checkpoint and its
// stored hashes removed leave its players_tail and lookup_tail rows
// behind; the next new player's append at that index is refused with
// ErrTampered naming the row it ran into, not a database error (the
// newcomer trial's case): the lookup_tail row, written first, or, with
// that one removed too, the players row.
func TestAppendStrayPlayersRow(t *testing.T) {
	base, key := edgeLedger(t, 5)
	for _, c := range []struct {
		also, want string
	}{
		{"", "lookup_tail: a row is already stored at an index of entries 4..4"},
		{`DELETE FROM lookup_tail WHERE idx = 4`, "players: a row the log did not write"},
	} {
		db := copyFile(t, base)
		copyKey(t, key, db)
		stmts := []string{`DELETE FROM entries WHERE idx = 4`, `DELETE FROM checkpoints WHERE size = 5`,
			fmt.Sprintf(`DELETE FROM hashes WHERE id >= %d`, tlog.StoredHashCount(4))}
		if c.also != "" {
			stmts = append(stmts, c.also)
		}
		if err := attackRestoring(t, db, stmts...); err != nil {
			t.Fatal(err)
		}
		err := appendOne(t, db, keyOf(db), "newcomer")
		if !errors.Is(err, ledger.ErrTampered) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("append (%s): %v; want ErrTampered naming the row: %q", c.also, err, c.want)
		}
	}
}
