package ledger_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sealedhq/sealed/ledger"
)

// TestCheckReplica: a copy of the ledger that lags behind is its replica;
// another ledger (another origin, or the same origin under another key),
// a copy ahead of it and a fork are not.
func TestCheckReplica(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db, key := filepath.Join(dir, "a.db"), filepath.Join(dir, "a.key")
	if _, err := initLedger(db, testOrigin, key); err != nil {
		t.Fatal(err)
	}
	appendN := func(path, player string, n int) {
		t.Helper()
		l, err := openLedger(t, path, ledger.Options{KeyFile: key})
		if err != nil {
			t.Fatal(err)
		}
		for i := range n {
			if _, err := l.Append(ctx, []byte(commitBody(fmt.Sprintf("%s%d", player, i), strings.Repeat(fmt.Sprintf("%02x", i), 32)))); err != nil {
				t.Fatal(err)
			}
		}
		if err := l.Close(); err != nil { // signs the last checkpoint
			t.Fatal(err)
		}
	}
	copyFile := func(from, to string) {
		t.Helper()
		b, err := os.ReadFile(from)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(to, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	appendN(db, "ann", 3)
	behind := filepath.Join(dir, "behind.db")
	copyFile(db, behind)
	fork := filepath.Join(dir, "fork.db")
	copyFile(db, fork)
	appendN(db, "bob", 2)
	appendN(fork, "zed", 1)
	other := filepath.Join(dir, "other.db")
	if _, err := initLedger(other, "sealed.test/other", filepath.Join(dir, "other.key")); err != nil {
		t.Fatal(err)
	}
	otherKey := filepath.Join(dir, "otherkey.db")
	if _, err := initLedger(otherKey, testOrigin, filepath.Join(dir, "otherkey.key")); err != nil {
		t.Fatal(err)
	}

	open := func(path string) *ledger.Ledger {
		t.Helper()
		l, err := openLedger(t, path, ledger.Options{ReadOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { l.Close() })
		return l
	}
	for _, c := range []struct {
		primary, replica string
		want             string // "" for a replica
	}{
		{db, db, ""},
		{db, behind, ""},
		{db, other, `its origin is "sealed.test/other"`},
		{db, otherKey, "its verifier key is"},
		{behind, db, "covers 5 entries, the ledger's 3"},
		{db, fork, "its signed tree of 4 entries is not a prefix of the ledger's signed tree of 5"},
	} {
		err := ledger.CheckReplica(ctx, open(c.primary), open(c.replica))
		switch {
		case c.want == "" && err != nil:
			t.Errorf("CheckReplica(%s, %s): %v", filepath.Base(c.primary), filepath.Base(c.replica), err)
		case c.want != "" && (!errors.Is(err, ledger.ErrNotReplica) || !strings.Contains(err.Error(), c.want)):
			t.Errorf("CheckReplica(%s, %s): %v; want an error wrapping ErrNotReplica saying %q", filepath.Base(c.primary), filepath.Base(c.replica), err, c.want)
		}
	}
}
