package ledger_test

import (
	"errors"
	"strconv"
	"testing"

	"github.com/sealedhq/sealed/ledger"
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
