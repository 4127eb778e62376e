package ledger_test

import (
	"context"
	"errors"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/sealedhq/sealed/ledger"
	"github.com/sealedhq/sealed/ledger/memstore"
)

// TestEntryMissingIsTampered: a row deleted from the demo ledger, at the
// end of the signed tree or inside it, is not "past the end" (ErrNotFound,
// a 404 and exit 2) but altered data (ErrTampered, a 409 and exit 1): the
// stored checkpoint of the tree's size signed it. An index past every
// checkpoint and entry stays ErrNotFound.
func TestEntryMissingIsTampered(t *testing.T) {
	c := copyFile(t, demoLedger(t))
	l, err := openLedger(t, c, ledger.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	cp, err := l.LatestCheckpoint()
	if err != nil {
		t.Fatal(err)
	}
	l.Close()
	last, mid := cp.Size-1, cp.Size/2
	if err := attack(t, c, `DROP TRIGGER entries_no_delete`,
		`DELETE FROM entries WHERE idx IN (`+strconv.FormatInt(last, 10)+`, `+strconv.FormatInt(mid, 10)+`)`); err != nil {
		t.Fatal(err)
	}
	l, err = openLedger(t, c, ledger.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	for _, i := range []int64{mid, last} {
		if _, err := l.Entry(i); !errors.Is(err, ledger.ErrTampered) || errors.Is(err, ledger.ErrNotFound) {
			t.Errorf("Entry(%d) of a deleted signed row: %v, want ErrTampered", i, err)
		}
	}
	if _, err := l.Entry(mid - 1); err != nil {
		t.Errorf("Entry(%d), not deleted: %v", mid-1, err)
	}
	if _, err := l.Entry(cp.Size); !errors.Is(err, ledger.ErrNotFound) {
		t.Errorf("Entry(%d), past the end: %v, want ErrNotFound", cp.Size, err)
	}
}

// racedStore is a store whose next EntryRange reads its rows, then lets
// a writer append before it answers: what a reader sees when its read
// comes just before the writer's commit.
type racedStore struct {
	ledger.Store
	race func()
}

func (s *racedStore) EntryRange(ctx context.Context, from, to int64) ([]ledger.StoredEntry, error) {
	rows, err := s.Store.EntryRange(ctx, from, to)
	if r := s.race; r != nil {
		s.race = nil
		r()
	}
	return rows, err
}

// TestEntryRacingWriter: a reader asking for the next entry while a
// writer appends it and signs a checkpoint of it (a client following the
// log) gets the entry or ErrNotFound, never ErrTampered: no row was
// deleted (trial 8, finding 1).
func TestEntryRacingWriter(t *testing.T) {
	ctx := context.Background()
	st := memstore.New()
	key := filepath.Join(t.TempDir(), "m.key")
	if _, err := ledger.Create(ctx, st, testOrigin, key); err != nil {
		t.Fatal(err)
	}
	w, err := ledger.Open(ctx, st, ledger.Options{KeyFile: key})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	rs := &racedStore{Store: st}
	r, err := ledger.Open(ctx, rs, ledger.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	body := []byte(`{"kind":"commit","player":"ann","action_type":"bid","channel":"#a","commitment":"` + strings.Repeat("c3", 32) + `"}`)
	rs.race = func() {
		i, err := w.Append(ctx, body)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.WaitCheckpoint(ctx, i+1); err != nil {
			t.Fatal(err)
		}
	}
	e, err := r.Entry(0)
	if errors.Is(err, ledger.ErrTampered) {
		t.Fatalf("Entry(0) read while it was appended: %v, want the entry or ErrNotFound", err)
	}
	if err == nil && !strings.Contains(string(e.Leaf), `"player":"ann"`) {
		t.Errorf("Entry(0) read while it was appended: leaf %s, want ann's commit", e.Leaf)
	}
}
