package ledger_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/sealedhq/sealed/ledger"
	"github.com/sealedhq/sealed/ledger/stores"
)

// storeOnly is a store with only the Store interface's methods: no
// optional fast path (ChunkReader and the others).
type storeOnly struct{ ledger.Store }

// TestVerifiedSizeEach: the entries handed to fn are those checked anew,
// in index order, each exactly as Entry reads it; a later call hands only
// the entries a newer checkpoint added; an error from fn is returned and
// the entries stay unverified.
func TestVerifiedSizeEach(t *testing.T) {
	ctx := context.Background()
	l, _, _ := newTestLedger(t, ledger.Options{CheckpointInterval: time.Millisecond})
	appendN := func(from, n int) {
		for i := from; i < from+n; i++ {
			c := fmt.Sprintf("%064x", i+1)
			idx, err := l.AppendBody(ctx, &ledger.Body{Kind: ledger.KindCommit, Player: "p", ActionType: "bid", Channel: "#auctions", Commitment: c})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := l.WaitCheckpoint(ctx, idx+1); err != nil {
				t.Fatal(err)
			}
		}
	}
	collect := func() ([]ledger.Entry, int64, error) {
		var got []ledger.Entry
		n, err := l.VerifiedSizeEach(ctx, func(e *ledger.Entry) error { got = append(got, *e); return nil })
		return got, n, err
	}
	appendN(0, 5)
	// An error from fn stops the check: nothing is verified.
	stop := errors.New("stop")
	if _, err := l.VerifiedSizeEach(ctx, func(*ledger.Entry) error { return stop }); !errors.Is(err, stop) {
		t.Fatalf("fn's error: got %v", err)
	}
	got, n, err := collect()
	if err != nil || n != 5 || len(got) != 5 {
		t.Fatalf("first call: size %d, %d entries, %v; want 5, 5", n, len(got), err)
	}
	for i, e := range got {
		want, err := l.Entry(int64(i))
		if err != nil {
			t.Fatal(err)
		}
		if e.Index != int64(i) || e.LeafHash != want.LeafHash || string(e.Leaf) != string(want.Leaf) || !e.IntegratedAt.Equal(want.IntegratedAt) {
			t.Errorf("entry %d handed as %+v, Entry reads %+v", i, e, want)
		}
	}
	appendN(5, 3)
	got, n, err = collect()
	if err != nil || n != 8 || len(got) != 3 || got[0].Index != 5 || got[2].Index != 7 {
		t.Fatalf("second call: size %d, entries %v, %v; want 8 and entries 5..7", n, got, err)
	}
	if got, n, err = collect(); err != nil || n != 8 || len(got) != 0 {
		t.Fatalf("third call: size %d, %d entries, %v; want 8 and none", n, len(got), err)
	}
}

// TestVerifiedSizeEachChunks: over three chunks of the store's
// aggregated reads (VerifiedSizeEach's fast path, VerifyEntryChunk
// entries each), with commits, reveals and edits, some with posted_at,
// every entry handed to fn is exactly the one Entry reads (row by row,
// entryOf). With a lookup column rewritten in the second chunk, which the
// signed tree does not cover, the check passes on both paths (the chunks,
// and rows for a store without them) and hands the entry as its leaf
// says, while Entry refuses the row; with a stored leaf hash or a ref
// column (which reads select rows by) rewritten there instead, the check
// fails on both paths naming the entry, and fn has seen the entries
// before it only.
func TestVerifiedSizeEachChunks(t *testing.T) {
	ctx := context.Background()
	l, path, _ := newTestLedger(t, ledger.Options{CheckpointInterval: time.Millisecond})
	const n = 3000 // three chunks: the first reader reads two
	if n <= 2*ledger.VerifyEntryChunk || n > 3*ledger.VerifyEntryChunk {
		t.Fatalf("%d entries are not three chunks of %d", n, ledger.VerifyEntryChunk)
	}
	last, lastCommit := int64(-1), int64(0)
	for i := range n {
		b := &ledger.Body{Kind: ledger.KindCommit, Player: fmt.Sprintf("p%d", i%7), ActionType: "bid", Channel: "#auctions", Commitment: fmt.Sprintf("%064x", i+1)}
		switch {
		case i%5 == 1:
			c, text := lastCommit, fmt.Sprintf("bid %d on lot 1\nsalt: s%d \"é\"", i, i)
			b = &ledger.Body{Kind: ledger.KindReveal, Commit: &c, Player: "p1", Text: &text}
		case i%11 == 3:
			c := lastCommit
			b = &ledger.Body{Kind: ledger.KindEdit, Commit: &c, Player: "someone"}
		}
		if i%3 == 0 {
			b.PostedAt = time.Date(2026, 3, 2, 0, 0, i, 0, time.UTC).Format(ledger.TimeLayout)
		}
		idx, err := l.AppendBody(ctx, b)
		if err != nil {
			t.Fatal(err)
		}
		if last = idx; b.Kind == ledger.KindCommit {
			lastCommit = idx
		}
	}
	if _, err := l.WaitCheckpoint(ctx, last+1); err != nil {
		t.Fatal(err)
	}
	var got []ledger.Entry
	size, err := l.VerifiedSizeEach(ctx, func(e *ledger.Entry) error { got = append(got, *e); return nil })
	if err != nil || size != n || len(got) != n {
		t.Fatalf("size %d, %d entries, %v; want %d", size, len(got), err, n)
	}
	for i := range got {
		want, err := l.Entry(int64(i))
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got[i], *want) {
			t.Fatalf("entry %d handed as\n%+v\nEntry reads\n%+v", i, got[i], *want)
		}
	}

	// Each alteration on a copy of the file (the writer closed first, so
	// that no WAL checkpoint runs while the file is copied), read afresh,
	// through the chunks and (the store's other methods only) row by row.
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	const bad = 1500 // a commit in the second chunk (1500 % 5 == 0, 1500 % 11 == 4)
	alter := func(t *testing.T, stmt string) string {
		t.Helper()
		c := copyFile(t, path)
		db, err := sql.Open("sqlite3", "file:"+c)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		for _, s := range []string{`DROP TRIGGER IF EXISTS entries_no_update`, stmt} {
			if _, err := db.Exec(s); err != nil {
				t.Fatal(err)
			}
		}
		return c
	}
	readers := func(t *testing.T, c string) map[string]*ledger.Ledger {
		t.Helper()
		out := map[string]*ledger.Ledger{}
		for _, name := range []string{"chunks", "rows"} {
			st, err := stores.OpenStore(ctx, c, true, false)
			if err != nil {
				t.Fatal(err)
			}
			var s ledger.Store = st
			if name == "rows" {
				s = storeOnly{st}
				if _, ok := s.(ledger.ChunkReader); ok {
					t.Fatal("storeOnly still reads chunks")
				}
			}
			r, err := ledger.Open(ctx, s, ledger.Options{ReadOnly: true})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { r.Close() })
			out[name] = r
		}
		return out
	}

	col := alter(t, `UPDATE entries SET commitment = '`+fmt.Sprintf("%064x", 1)+`' WHERE idx = `+fmt.Sprint(bad))
	for name, r := range readers(t, col) {
		var seen []ledger.Entry
		size, err := r.VerifiedSizeEach(ctx, func(e *ledger.Entry) error { seen = append(seen, *e); return nil })
		if err != nil || size != n || !reflect.DeepEqual(seen, got) {
			t.Fatalf("%s, with entry %d's commitment column rewritten: size %d, %d entries (as before: %v), %v; want %d, every entry as its leaf says",
				name, bad, size, len(seen), reflect.DeepEqual(seen, got), err, n)
		}
		if _, err := r.Entry(bad); !errors.Is(err, ledger.ErrTampered) || !strings.Contains(err.Error(), fmt.Sprintf("entry %d: the stored columns disagree", bad)) {
			t.Fatalf("%s: Entry(%d) with its commitment column rewritten: %v; want ErrTampered naming the columns", name, bad, err)
		}
	}

	// What the check refuses, naming the entry, on both paths: a stored
	// leaf hash rewritten, and a ref column moved (EntriesReferencing
	// selects rows by it: the row would be missing there, not refused).
	const reveal = 1501 // a reveal of commit 1500 (1501 % 5 == 1)
	for _, c := range []struct {
		name, stmt, want string
		first            int64 // the entry refused (-1: none)
	}{
		{"leaf hash", `UPDATE entries SET leaf_hash = zeroblob(32) WHERE idx = ` + fmt.Sprint(bad), fmt.Sprintf("entry %d: the leaf hashes to", bad), bad},
		{"ref NULL", `UPDATE entries SET ref = NULL WHERE idx = ` + fmt.Sprint(reveal), fmt.Sprintf("entry %d: the stored columns disagree with the leaf: ref none (leaf %d)", reveal, bad), reveal},
		{"ref moved", `UPDATE entries SET ref = 3 WHERE idx = ` + fmt.Sprint(reveal), fmt.Sprintf("entry %d: the stored columns disagree with the leaf: ref 3 (leaf %d)", reveal, bad), reveal},
		{"ref on a commit", `UPDATE entries SET ref = 0 WHERE idx = ` + fmt.Sprint(bad), fmt.Sprintf("entry %d: the stored columns disagree with the leaf: ref 0 (leaf none)", bad), bad},
		// SQLite's INTEGER affinity stores the text '1500' as the
		// integer 1500 again: nothing to refuse.
		{"ref as text", `UPDATE entries SET ref = '` + fmt.Sprint(bad) + `' WHERE idx = ` + fmt.Sprint(reveal), "", -1},
		// A value of another type: the store refuses the row's read
		// (its range's, so fewer entries may be handed first).
		{"ref as real", `UPDATE entries SET ref = 1500.5 WHERE idx = ` + fmt.Sprint(reveal), fmt.Sprintf("the row at index %d holds the real number 1500.5 in column ref", reveal), reveal},
		{"ref as blob", `UPDATE entries SET ref = x'01' WHERE idx = ` + fmt.Sprint(reveal), fmt.Sprintf("the row at index %d holds", reveal), reveal},
	} {
		first := c.first
		for name, r := range readers(t, alter(t, c.stmt)) {
			seen := int64(0)
			_, err = r.VerifiedSizeEach(ctx, func(e *ledger.Entry) error {
				if e.Index != seen {
					t.Fatalf("%s, %s: entry %d handed after %d others", c.name, name, e.Index, seen)
				}
				seen++
				return nil
			})
			if first < 0 {
				if err != nil || seen != n {
					t.Fatalf("%s, %s: %v, %d entries handed; want all %d", c.name, name, err, seen, n)
				}
				continue
			}
			typed := strings.HasPrefix(c.name, "ref as ")
			if !errors.Is(err, ledger.ErrTampered) || !strings.Contains(err.Error(), c.want) || seen != first && !(typed && seen < first) {
				t.Fatalf("%s, %s: %v, %d entries handed; want ErrTampered containing %q, %d handed", c.name, name, err, seen, c.want, first)
			}
		}
	}

}
