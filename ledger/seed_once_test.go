package ledger_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/sealedhq/sealed/ledger"
	"github.com/sealedhq/sealed/ledger/memstore"
)

// seedCommitBody is a seed-commit of auction match id committing to
// commitment (64 hex characters).
func seedCommitBody(id, commitment string) []byte {
	return []byte(`{"kind":"seed-commit","game":"auction","match_id":"` + id + `","rules_version":"auction-0.2","config":{"players":3},"commitment":"` + commitment + `"}`)
}

// TestAppendSeedOnce: a seed is committed once (docs/ledger.md
// "Duplicates"). A seed-commit whose commitment an earlier seed-commit
// holds, for another match or in another spelling of the digest, is
// refused with a *DuplicateError naming the earlier index and kind
// seed-commit; 16 concurrent seed-commits of one commitment (one batch or
// several) append exactly one, and the others name it; a writer opened
// afterwards (one-shot, the CLI's) refuses it from the store's rows; a
// commit entry holding the same digest is no seed-commit; and the audit
// is clean. On SQLite and in memory.
func TestAppendSeedOnce(t *testing.T) {
	ctx := context.Background()
	for _, store := range []string{"sqlite", "memory"} {
		t.Run(store, func(t *testing.T) {
			var open func() *ledger.Ledger
			switch store {
			case "sqlite":
				dir := t.TempDir()
				db, key := filepath.Join(dir, "s.db"), filepath.Join(dir, "s.key")
				if _, err := initLedger(db, testOrigin, key); err != nil {
					t.Fatal(err)
				}
				open = func() *ledger.Ledger {
					l, err := openLedger(t, db, ledger.Options{KeyFile: key})
					if err != nil {
						t.Fatal(err)
					}
					return l
				}
			default:
				st := memstore.New()
				key := filepath.Join(t.TempDir(), "m.key")
				if _, err := ledger.Create(ctx, st, testOrigin, key); err != nil {
					t.Fatal(err)
				}
				open = func() *ledger.Ledger {
					l, err := ledger.Open(ctx, st, ledger.Options{KeyFile: key})
					if err != nil {
						t.Fatal(err)
					}
					return l
				}
			}
			a, b := strings.Repeat("a1", 32), strings.Repeat("b2", 32)
			l := open()
			first, err := l.Append(ctx, seedCommitBody("m1", a))
			if err != nil {
				t.Fatal(err)
			}
			// A commit entry holding b's digest: not a seed-commit.
			if _, err := l.Append(ctx, []byte(`{"kind":"commit","player":"ann","action_type":"bid","channel":"#a","commitment":"`+b+`"}`)); err != nil {
				t.Fatal(err)
			}
			wantDup := func(what string, err error, index int64) {
				t.Helper()
				var de *ledger.DuplicateError
				if !errors.As(err, &de) || de.Index != index || de.Kind != ledger.KindSeedCommit {
					t.Errorf("%s: %v; want a *DuplicateError naming seed-commit entry %d", what, err, index)
				}
			}
			_, err = l.Append(ctx, seedCommitBody("m2", a))
			wantDup("seed a for another match", err, first)
			_, err = l.Append(ctx, seedCommitBody("m3", "SHA256:"+strings.ToUpper(a)))
			wantDup("seed a in capitals with a prefix", err, first)

			// 16 at once, one commitment.
			var wg sync.WaitGroup
			idx := make([]int64, 16)
			errs := make([]error, 16)
			for i := range 16 {
				wg.Go(func() { idx[i], errs[i] = l.Append(ctx, seedCommitBody(fmt.Sprintf("c%d", i), b)) })
			}
			wg.Wait()
			winner := int64(-1)
			for i := range 16 {
				if errs[i] == nil {
					if winner >= 0 {
						t.Fatalf("two seed-commits of one commitment appended: %d and %d", winner, idx[i])
					}
					winner = idx[i]
				}
			}
			if winner < 0 {
				t.Fatalf("none of the 16 appended: %v", errs[0])
			}
			for i := range 16 {
				if errs[i] != nil {
					wantDup(fmt.Sprintf("concurrent seed-commit %d", i), errs[i], winner)
				}
			}
			if err := l.Close(); err != nil {
				t.Fatal(err)
			}

			// A one-shot writer: the store's rows decide.
			l = open()
			defer l.Close()
			_, err = l.Append(ctx, seedCommitBody("m4", b))
			wantDup("seed b after reopening", err, winner)
			if _, err := l.Append(ctx, seedCommitBody("m5", strings.Repeat("c3", 32))); err != nil {
				t.Errorf("a new seed: %v", err)
			}
			rep, err := l.Audit(ctx, nil)
			if err != nil || !rep.OK {
				t.Errorf("audit: %+v, %v", rep, err)
			}
			if n, _ := l.Size(); n != 4 {
				t.Errorf("ledger size %d; want 4 (two seed-commits of a and b, a commit, one new seed)", n)
			}
		})
	}
}
