package ledger_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/sealedhq/sealed/ledger"
)

// A clock that steps back does not make integration times go back: the
// entry takes the newest entry's time, and the audit stays clean.
func TestClockStepsBack(t *testing.T) {
	times := []time.Time{
		time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC),
		time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC), // an hour back
	}
	var mu sync.Mutex
	clock := func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		if len(times) > 1 {
			t := times[0]
			times = times[1:]
			return t
		}
		return times[0]
	}
	l, _, _ := newTestLedger(t, ledger.Options{Clock: clock})
	ctx := context.Background()
	for i := 0; i < 2; i++ {
		if _, err := l.Append(ctx, []byte(commitBody("ann", fmt.Sprintf("%064x", i)))); err != nil {
			t.Fatal(err)
		}
	}
	e0, _ := l.Entry(0)
	e1, _ := l.Entry(1)
	if !e1.IntegratedAt.Equal(e0.IntegratedAt) || !e0.IntegratedAt.Equal(time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)) {
		t.Fatalf("integration times %v then %v, want 10:00 twice", e0.IntegratedAt, e1.IntegratedAt)
	}
	auditClean(t, l)
}

// Two writers on one database file (as two processes would be: each has
// its own sequencer), the second with a clock an hour behind, appending at
// the same time: every append succeeds, indexes are distinct, and
// integration times never decrease (the audit checks it).
func TestTwoWritersOneFile(t *testing.T) {
	ahead := fixedClock(t, "2026-03-02T10:00:00Z")
	a, db, _ := newTestLedger(t, ledger.Options{Clock: ahead})
	b, err := openLedger(t, db, ledger.Options{KeyFile: filepath.Join(filepath.Dir(db), "sealed.key"), Clock: fixedClock(t, "2026-03-02T09:00:00Z")})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	ctx := context.Background()
	// First one after the other: b's entry follows a's and must not take
	// b's earlier clock.
	for i, l := range []*ledger.Ledger{a, b} {
		if _, err := l.Append(ctx, []byte(commitBody("first", fmt.Sprintf("%064x", 1000+i)))); err != nil {
			t.Fatal(err)
		}
	}
	if e, err := b.Entry(1); err != nil || !e.IntegratedAt.Equal(ahead()) {
		t.Fatalf("b's entry after a's integrated at %v (%v), want a's time %v", e.IntegratedAt, err, ahead())
	}
	var wg sync.WaitGroup
	seen := make(chan int64, 400)
	for w, l := range []*ledger.Ledger{a, b, a, b} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 100; i++ {
				idx, err := l.Append(ctx, []byte(commitBody(fmt.Sprintf("writer%d", w), fmt.Sprintf("%064x", i))))
				if err != nil {
					t.Error(err)
					return
				}
				seen <- idx
			}
		}()
	}
	wg.Wait()
	close(seen)
	got := map[int64]bool{}
	for idx := range seen {
		if got[idx] {
			t.Fatalf("index %d given twice", idx)
		}
		got[idx] = true
	}
	if len(got) != 400 || got[0] || got[1] {
		t.Fatalf("%d distinct indexes, want 400 after the first two", len(got))
	}
	auditClean(t, a)
}

// A Body built in Go with bytes that are not UTF-8 is refused, naming the
// field, instead of being stored with U+FFFD.
func TestAppendBodyRefusesInvalidUTF8(t *testing.T) {
	l, _, _ := newTestLedger(t, ledger.Options{Clock: fixedClock(t, "2026-03-02T10:00:00Z")})
	bad := "a\xffb"
	for _, b := range []*ledger.Body{
		{Kind: ledger.KindCommit, Player: bad, ActionType: "bid", Channel: "#auctions", Commitment: fmt.Sprintf("%064x", 1)},
		{Kind: ledger.KindCommit, Player: "ann", ActionType: "bid", Channel: bad, Commitment: fmt.Sprintf("%064x", 2)},
	} {
		_, err := l.AppendBody(context.Background(), b)
		var be *ledger.BodyError
		if !errors.As(err, &be) {
			t.Fatalf("AppendBody(%+v) error = %v, want a *BodyError", b, err)
		}
	}
	if n, err := l.Size(); err != nil || n != 0 {
		t.Fatalf("size %d (%v) after refused appends", n, err)
	}
}

// auditClean fails the test unless the audit of l is clean.
func auditClean(t *testing.T, l *ledger.Ledger) {
	t.Helper()
	rep, err := l.Audit(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if !rep.OK {
		t.Fatalf("audit: %+v", rep.Problem)
	}
}
