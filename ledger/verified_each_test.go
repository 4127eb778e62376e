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
)

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
// entries each), with commits, reveals
// and edits, some with posted_at, every entry handed to fn is exactly the
// one Entry reads (row by row, entryOf); with a lookup column rewritten in
// the second chunk, the check fails as the row-by-row reading says, and fn
// has seen the entries before the altered one only.
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

	// A rewritten commitment column in the second chunk, on a fresh
	// reading of the file.
	db, err := sql.Open("sqlite3", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	const bad = 1500 // a commit in the second chunk (1500 % 5 == 0, 1500 % 11 == 4)
	for _, s := range []string{`DROP TRIGGER IF EXISTS entries_no_update`, `UPDATE entries SET commitment = '` + fmt.Sprintf("%064x", 1) + `' WHERE idx = ` + fmt.Sprint(bad)} {
		if _, err := db.Exec(s); err != nil {
			t.Fatal(err)
		}
	}
	r, err := openLedger(t, path, ledger.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	seen := 0
	_, err = r.VerifiedSizeEach(ctx, func(e *ledger.Entry) error {
		if e.Index != int64(seen) {
			t.Fatalf("entry %d handed after %d others", e.Index, seen)
		}
		seen++
		return nil
	})
	if !errors.Is(err, ledger.ErrTampered) || !strings.Contains(err.Error(), fmt.Sprintf("entry %d: the stored columns disagree", bad)) || seen != bad {
		t.Fatalf("with entry %d's commitment column rewritten: %v, %d entries handed; want ErrTampered naming it, %d handed", bad, err, seen, bad)
	}
}
