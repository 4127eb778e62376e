package sqlitestore_test

import (
	"context"
	"errors"
	"os"
	"testing"

	"github.com/sealedhq/sealed/ledger"
	"github.com/sealedhq/sealed/ledger/sqlitestore"
)

// TestCutShortStaleWAL: a file cut short inside its last page is damaged
// even when a WAL beside it is not empty. journal_size_limit leaves a
// running writer's WAL at walFloor bytes after each checkpoint; a WAL
// that does not hold the cut page in a committed frame cannot supply it.
// The cut file was accepted, audit ok, whenever the WAL merely had a
// size (trial 10e, finding 1).
func TestCutShortStaleWAL(t *testing.T) {
	ctx := context.Background()
	db, _ := newLedgerFile(t, 3)
	b, err := os.ReadFile(db)
	if err != nil {
		t.Fatal(err)
	}
	for _, cut := range []int{1, 100, 2048} {
		cp := db + "-cut"
		if err := os.WriteFile(cp, b[:len(b)-cut], 0o644); err != nil {
			t.Fatal(err)
		}
		// A WAL of no valid frame, as a reset or stale one reads.
		if err := os.WriteFile(cp+"-wal", make([]byte, 4096), 0o644); err != nil {
			t.Fatal(err)
		}
		os.Remove(cp + "-shm")
		s, err := sqlitestore.Open(cp, sqlitestore.Options{ReadOnly: true})
		if err != nil {
			if errors.Is(err, ledger.ErrTampered) {
				continue
			}
			t.Fatalf("cut %d: open: %v", cut, err)
		}
		err = s.CheckIntegrity(ctx)
		s.Close()
		if !errors.Is(err, ledger.ErrTampered) {
			t.Errorf("cut by %d bytes with a stale WAL: CheckIntegrity = %v; want ErrTampered", cut, err)
		}
	}
}
