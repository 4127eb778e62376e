package ledger_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/sealedhq/sealed/ledger"
)

// farFuture is 2200-01-01T00:00:00Z in Unix nanoseconds (date -u -d
// 2200-01-01 +%s gives 7258118400).
const farFuture = int64(7258118400) * int64(time.Second)

// TestAppendRefusesForgedNewestTime: the integrated_at column of the
// newest entry set far in the future (its leaf intact, the triggers put
// back) must not become the time of the next entries, which never go
// back: the append is refused with ErrTampered and nothing is appended,
// whether the writer opens after the change or had the file open while
// another writer appended the entry changed. An intact ledger appends,
// at a time no earlier than its newest leaf's.
func TestAppendRefusesForgedNewestTime(t *testing.T) {
	ctx := context.Background()
	t.Run("intact", func(t *testing.T) {
		db, key := edgeLedger(t, 4)
		l, err := openLedger(t, db, ledger.Options{KeyFile: key})
		if err != nil {
			t.Fatal(err)
		}
		defer l.Close()
		prev, err := l.Entry(3)
		if err != nil {
			t.Fatal(err)
		}
		idx, err := l.Append(ctx, []byte(commitBody("next", fmt.Sprintf("%064x", 900))))
		if err != nil {
			t.Fatal(err)
		}
		e, err := l.Entry(idx)
		if err != nil {
			t.Fatal(err)
		}
		if e.IntegratedAt.Before(prev.IntegratedAt) {
			t.Fatalf("entry %d integrated at %v, before entry 3's %v", idx, e.IntegratedAt, prev.IntegratedAt)
		}
	})
	t.Run("at open", func(t *testing.T) {
		db, key := edgeLedger(t, 4)
		if err := attackRestoring(t, db, fmt.Sprintf(`UPDATE entries SET integrated_at = %d WHERE idx = 3`, farFuture)); err != nil {
			t.Fatal(err)
		}
		err := appendOne(t, db, key, "fut")
		if !errors.Is(err, ledger.ErrTampered) {
			t.Fatalf("append after the newest entry's time column was set to 2200: %v, want ErrTampered", err)
		}
		checkSize(t, db, 4)
	})
	t.Run("while open", func(t *testing.T) {
		db, key := edgeLedger(t, 4)
		a, err := openLedger(t, db, ledger.Options{KeyFile: key})
		if err != nil {
			t.Fatal(err)
		}
		defer a.Close()
		idx, err := a.Append(ctx, []byte(commitBody("a0", fmt.Sprintf("%064x", 903))))
		if err != nil {
			t.Fatal(err)
		}
		if err := attackRestoring(t, db, fmt.Sprintf(`UPDATE entries SET integrated_at = %d WHERE idx = %d`, farFuture, idx)); err != nil {
			t.Fatal(err)
		}
		if _, err := a.Append(ctx, []byte(commitBody("a1", fmt.Sprintf("%064x", 904)))); !errors.Is(err, ledger.ErrTampered) {
			t.Fatalf("append after the writer's own newest entry had its time column set to 2200: %v, want ErrTampered", err)
		}
		a.Close()
		checkSize(t, db, idx+1)
	})
	t.Run("another writer's entry", func(t *testing.T) {
		db, key := edgeLedger(t, 4)
		a, err := openLedger(t, db, ledger.Options{KeyFile: key})
		if err != nil {
			t.Fatal(err)
		}
		defer a.Close()
		b, err := openLedger(t, db, ledger.Options{KeyFile: key})
		if err != nil {
			t.Fatal(err)
		}
		idx, err := b.Append(ctx, []byte(commitBody("b1", fmt.Sprintf("%064x", 901))))
		if err != nil {
			t.Fatal(err)
		}
		if err := b.Close(); err != nil {
			t.Fatal(err)
		}
		if err := attackRestoring(t, db, fmt.Sprintf(`UPDATE entries SET integrated_at = %d WHERE idx = %d`, farFuture, idx)); err != nil {
			t.Fatal(err)
		}
		if _, err := a.Append(ctx, []byte(commitBody("a1", fmt.Sprintf("%064x", 902)))); !errors.Is(err, ledger.ErrTampered) {
			t.Fatalf("append after another writer's newest entry had its time column set to 2200: %v, want ErrTampered", err)
		}
		a.Close()
		checkSize(t, db, idx+1)
	})
}

// checkSize fails t unless the ledger file db holds n entries.
func checkSize(t *testing.T, db string, n int64) {
	t.Helper()
	ro, err := openLedger(t, db, ledger.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	if got, err := ro.Size(); err != nil || got != n {
		t.Fatalf("size %d (%v), want %d", got, err, n)
	}
}
