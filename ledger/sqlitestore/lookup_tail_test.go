package sqlitestore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/sealedhq/sealed/ledger"
)

// TestLookupTailFold appends past lookupFoldAt (made small here) from two
// stores on one file (two writers, as two processes): the keys move from
// lookup_tail into lookup, a duplicate is refused naming the first entry
// wherever its keys are (folded, in the tail, written by the other
// writer), a commitment lookup finds its commits in either table, and
// the audit holds the two tables to the entries.
func TestLookupTailFold(t *testing.T) {
	defer func(n int) { lookupFoldAt = n }(lookupFoldAt)
	lookupFoldAt = 100
	ctx := context.Background()
	path, key := createTailFile(t)
	a, b := openTailLedger(t, path, key), openTailLedger(t, path, key)

	first := tailCommit("alice")
	ia, err := a.Append(ctx, first)
	if err != nil {
		t.Fatal(err)
	}
	// b refuses a's entry again: b's copy of the tail is read again.
	var de *ledger.DuplicateError
	if _, err := b.Append(ctx, first); !errors.As(err, &de) || de.Index != ia {
		t.Fatalf("a duplicate of entry %d (in lookup_tail, by the other writer): %v; want a DuplicateError naming it", ia, err)
	}

	// b appends until the tail has folded twice (64 writers at a time: a
	// batch that brings the tail to lookupFoldAt may add up to 63 rows
	// more, all moved by that fold, so two folds take up to
	// 2*lookupFoldAt + 63 entries; fresh-check once saw one fold of 162
	// rows after 251).
	n := 2*lookupFoldAt + 100
	appendConcurrently(t, b, n, func(i int) []byte { return tailCommit(fmt.Sprintf("player-%d", i)) })
	folded, tail := rowCounts(t, path, "lookup", "lookup_tail")
	if folded+tail != n+1 || folded < 2*lookupFoldAt || tail >= lookupFoldAt {
		t.Fatalf("after %d entries: lookup %d, lookup_tail %d rows; want %d in all, at least %d moved into lookup", n+1, folded, tail, n+1, 2*lookupFoldAt)
	}

	// a's copy is stale (b folded): duplicates of a folded entry and of
	// one still in the tail are refused by a, naming them.
	last := tailCommit(fmt.Sprintf("player-%d", n-1))
	lastIdx := int64(-1)
	if es, err := a.CommitsByCommitment(commitmentOf(t, last)); err != nil || len(es) != 1 {
		t.Fatalf("commits of the last commitment: %v, %v; want one", es, err)
	} else {
		lastIdx = es[0].Index
	}
	for _, c := range []struct {
		body []byte
		idx  int64
	}{{first, ia}, {last, lastIdx}} {
		if _, err := a.Append(ctx, c.body); !errors.As(err, &de) || de.Index != c.idx {
			t.Errorf("a duplicate of entry %d: %v; want a DuplicateError naming it", c.idx, err)
		}
		es, err := a.CommitsByCommitment(commitmentOf(t, c.body))
		if err != nil || len(es) != 1 || es[0].Index != c.idx {
			t.Errorf("commits of entry %d's commitment: %v, %v; want entry %d", c.idx, es, err, c.idx)
		}
	}
	if _, err := a.WaitCheckpoint(ctx, mustSize(t, a)); err != nil {
		t.Fatal(err)
	}
	rep, err := a.Audit(ctx, nil)
	if err != nil || !rep.OK {
		t.Fatalf("audit: %v, %+v", err, rep)
	}
}

// commitmentOf is the commitment of a tailCommit body.
func commitmentOf(t *testing.T, body []byte) string {
	t.Helper()
	b, err := ledger.ParseBody(body)
	if err != nil {
		t.Fatal(err)
	}
	return b.Commitment
}

// TestCheckLookupDuringAppends: the lookup check of a reader while a
// writer appends and folds (lookupFoldAt made small) finds nothing: rows
// of entries past the size the reader read, and rows a fold moves from
// one table to the other between its reads, are not changes. The whole
// audit likewise.
func TestCheckLookupDuringAppends(t *testing.T) {
	defer func(n int) { lookupFoldAt = n }(lookupFoldAt)
	lookupFoldAt = 10
	ctx := context.Background()
	path, key := createTailFile(t)
	w := openTailLedger(t, path, key)
	appendConcurrently(t, w, 100, func(i int) []byte { return tailCommit(fmt.Sprintf("before-%d", i)) })
	stop, done := make(chan struct{}), make(chan error, 1)
	go func() {
		for i := 0; ; i++ {
			select {
			case <-stop:
				done <- nil
				return
			default:
			}
			if _, err := w.Append(ctx, tailCommit(fmt.Sprintf("during-%d", i))); err != nil {
				done <- err
				return
			}
		}
	}()
	s, err := Open(path, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	r, err := ledger.Open(ctx, s, ledger.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	sizes := map[int64]bool{}
	for range 200 {
		n := mustSize(t, r)
		sizes[n] = true
		if table, what, err := s.CheckLookup(ctx, n); err != nil || table != "" {
			t.Fatalf("CheckLookup(%d) during appends: %s: %s, %v", n, table, what, err)
		}
	}
	if rep, err := r.Audit(ctx, nil); err != nil || !rep.OK {
		t.Errorf("audit during appends: %+v, %v", rep, err)
	}
	close(stop)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if len(sizes) < 10 {
		t.Errorf("the checks saw %d sizes of the log; want the appends to run alongside them", len(sizes))
	}
}

// TestKeysOfAnEarlierWriter: entries appended without key rows, as a
// writer of an earlier sealed still running when this one migrated the
// file appends them (here: appended, then their lookup_tail rows removed
// with the trigger put back), get their rows at this writer's next
// append, before its duplicate lookups: a duplicate of one is refused,
// a reader finds its commitment, and the audit is clean.
func TestKeysOfAnEarlierWriter(t *testing.T) {
	ctx := context.Background()
	path, key := createTailFile(t)
	a, b := openTailLedger(t, path, key), openTailLedger(t, path, key)
	if _, err := a.Append(ctx, tailCommit("alice")); err != nil {
		t.Fatal(err)
	}
	var old []int64
	for _, p := range []string{"bob", "carol"} {
		i, err := b.Append(ctx, tailCommit(p))
		if err != nil {
			t.Fatal(err)
		}
		old = append(old, i)
	}
	db, err := sql.Open("sqlite3", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	var trigger string
	err = db.QueryRow(`SELECT sql FROM sqlite_master WHERE name = 'lookup_tail_no_delete'`).Scan(&trigger)
	if err == nil {
		_, err = db.Exec(`DROP TRIGGER lookup_tail_no_delete; DELETE FROM lookup_tail WHERE idx >= ?; `+trigger, old[0])
	}
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	if f, tl := rowCounts(t, path, "lookup", "lookup_tail"); f+tl != 1 {
		t.Fatalf("lookup, lookup_tail: %d and %d rows; want only alice's", f, tl)
	}

	var de *ledger.DuplicateError
	if _, err := a.Append(ctx, tailCommit("carol")); !errors.As(err, &de) || de.Index != old[1] {
		t.Fatalf("a duplicate of entry %d, appended without its key row: %v; want a DuplicateError naming it", old[1], err)
	}
	if f, tl := rowCounts(t, path, "lookup", "lookup_tail"); f+tl != 3 {
		t.Errorf("lookup, lookup_tail after the next append: %d and %d rows; want 3", f, tl)
	}
	if es, err := b.CommitsByCommitment(commitmentOf(t, tailCommit("bob"))); err != nil || len(es) != 1 || es[0].Index != old[0] {
		t.Errorf("commits of bob's commitment: %v, %v; want entry %d", es, err, old[0])
	}
	if _, err := a.WaitCheckpoint(ctx, mustSize(t, a)); err != nil {
		t.Fatal(err)
	}
	if rep, err := a.Audit(ctx, nil); err != nil || !rep.OK {
		t.Fatalf("audit: %v, %+v", err, rep)
	}
}

// TestRaceSameBodiesAcrossFolds (trial 12): two writers (as two
// processes) race to append the same 300 bodies, twice each, from 16
// goroutines each, across many folds (lookupFoldAt made small): each body
// is appended exactly once, and every other attempt is refused naming
// it.
func TestRaceSameBodiesAcrossFolds(t *testing.T) {
	defer func(n int) { lookupFoldAt = n }(lookupFoldAt)
	lookupFoldAt = 10
	ctx := context.Background()
	path, key := createTailFile(t)
	ws := []*ledger.Ledger{openTailLedger(t, path, key), openTailLedger(t, path, key)}
	const n = 300
	type result struct {
		body     int
		idx, dup int64 // the index appended at, or the one a refusal names (-1 if not)
		err      error
	}
	out := make(chan result, 2*2*n)
	var wg sync.WaitGroup
	for wi, w := range ws {
		for g := range 16 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := g; i < n; i += 16 {
					j := i
					if wi == 1 { // the other writer runs the bodies backwards
						j = n - 1 - i
					}
					for range 2 {
						idx, err := w.Append(ctx, tailCommit(fmt.Sprintf("q%d", j)))
						var de *ledger.DuplicateError
						if errors.As(err, &de) {
							out <- result{j, -1, de.Index, nil}
						} else {
							out <- result{j, idx, -1, err}
						}
					}
				}
			}()
		}
	}
	wg.Wait()
	close(out)
	appended, refused := map[int][]int64{}, map[int][]int64{}
	for r := range out {
		if r.err != nil {
			t.Fatalf("body %d: %v", r.body, r.err)
		}
		if r.idx >= 0 {
			appended[r.body] = append(appended[r.body], r.idx)
		} else {
			refused[r.body] = append(refused[r.body], r.dup)
		}
	}
	for i := range n {
		if len(appended[i]) != 1 || len(refused[i]) != 3 {
			t.Errorf("body %d appended at %v, refused naming %v; want once, and three refusals", i, appended[i], refused[i])
			continue
		}
		for _, d := range refused[i] {
			if d != appended[i][0] {
				t.Errorf("body %d: a refusal names entry %d; it was appended at %d", i, d, appended[i][0])
			}
		}
	}
	if folded, _ := rowCounts(t, path, "lookup", "lookup_tail"); folded < n-lookupFoldAt {
		t.Errorf("lookup holds %d rows of %d entries; want the folds to have run", folded, n)
	}
	if _, err := ws[0].WaitCheckpoint(ctx, mustSize(t, ws[0])); err != nil {
		t.Fatal(err)
	}
	if rep, err := ws[1].Audit(ctx, nil); err != nil || !rep.OK {
		t.Fatalf("audit: %v, %+v", err, rep)
	}
}

// TestAuditFindsADuplicateInTheLog: a writer trusts the lookup keys, so
// with an entry's key row deleted it admits a duplicate of that entry;
// with the row put back, the key rows match the entries again, and the
// audit still finds the duplicate the log now holds (docs/ledger.md,
// "What trusts the table"; trial 12, finding 6).
func TestAuditFindsADuplicateInTheLog(t *testing.T) {
	ctx := context.Background()
	path, key := createTailFile(t)
	w := openTailLedger(t, path, key)
	first, err := w.Append(ctx, tailCommit("alice"))
	if err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite3", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var trigger string
	if err := db.QueryRow(`SELECT sql FROM sqlite_master WHERE name = 'lookup_tail_no_delete'`).Scan(&trigger); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`CREATE TEMP TABLE kept AS SELECT * FROM lookup_tail WHERE idx = ?;
		DROP TRIGGER lookup_tail_no_delete; DELETE FROM lookup_tail WHERE idx = ?; `+trigger, first, first); err != nil {
		t.Fatal(err)
	}
	second, err := w.Append(ctx, tailCommit("alice"))
	if err != nil {
		t.Fatalf("the duplicate, its first's key row gone: %v (the writer trusts the table, as documented)", err)
	}
	if _, err := db.Exec(`INSERT INTO lookup_tail SELECT * FROM temp.kept`); err != nil {
		t.Fatal(err)
	}
	if _, err := w.WaitCheckpoint(ctx, mustSize(t, w)); err != nil {
		t.Fatal(err)
	}
	rep, err := w.Audit(ctx, nil)
	want := fmt.Sprintf("entries %d and %d have the same duplicate key", first, second)
	if err != nil || rep.OK || rep.Problem.Table != "entries" || !strings.Contains(rep.Problem.What, want) {
		t.Fatalf("audit: %+v, %v; want an entries finding %q", rep, err, want)
	}
}
