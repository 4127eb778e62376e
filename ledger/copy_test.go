package ledger_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/sealedhq/sealed/ledger"
	"github.com/sealedhq/sealed/ledger/memstore"
	"github.com/sealedhq/sealed/ledger/stores"
)

// watchedStore is a Copy destination that checks, before each write, that
// what it holds so far is no ledger (Meta: ErrNotLedger), so that a copy
// that stops there (an error, a killed process) leaves none; and fails
// the write numbered failAt (1, 2, ...; 0: none).
type watchedStore struct {
	ledger.Store
	t      *testing.T
	writes int
	failAt int
}

var errInjected = errors.New("injected failure")

func (w *watchedStore) before(what string) error {
	w.t.Helper()
	w.writes++
	if _, err := w.Store.Meta(context.Background()); !errors.Is(err, ledger.ErrNotLedger) {
		w.t.Errorf("before write %d (%s) the destination is a ledger: Meta gives %v, want ErrNotLedger", w.writes, what, err)
	}
	if w.writes == w.failAt {
		return errInjected
	}
	return nil
}

func (w *watchedStore) PutCheckpoint(ctx context.Context, cp *ledger.StoredCheckpoint) error {
	if err := w.before("checkpoint"); err != nil {
		return err
	}
	return w.Store.PutCheckpoint(ctx, cp)
}

func (w *watchedStore) PutReplay(ctx context.Context, digest string, b []byte) error {
	if err := w.before("replay"); err != nil {
		return err
	}
	return w.Store.PutReplay(ctx, digest, b)
}

func (w *watchedStore) PutCosignature(ctx context.Context, c *ledger.StoredCosignature) error {
	if err := w.before("cosignature"); err != nil {
		return err
	}
	return w.Store.PutCosignature(ctx, c)
}

func (w *watchedStore) Write(ctx context.Context, fn func(ledger.WriteTx) error) error {
	if err := w.before("entries"); err != nil {
		return err
	}
	return w.Store.Write(ctx, fn)
}

// openSource opens the SQLite ledger at path read-only as a Copy source.
func openSource(t *testing.T, path string) ledger.Store {
	t.Helper()
	s, err := stores.OpenStore(context.Background(), path, true, false)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// TestCopyIdentityLast: until Copy has written everything and audited
// the copy, the destination holds no ledger: every write Copy makes finds
// none there (so a copy killed at any moment leaves none a writer could
// extend), the identity rows being the last write. A copy that fails at
// any write leaves a store no ledger opens, which Create and a second
// Copy refuse (ErrUnfinished).
func TestCopyIdentityLast(t *testing.T) {
	ctx := context.Background()
	src := openSource(t, demoLedger(t))
	w := &watchedStore{Store: memstore.New(), t: t}
	rep, err := ledger.Copy(ctx, src, w, nil)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Audit == nil || !rep.Audit.OK || rep.SourceAudit == nil || !rep.SourceAudit.OK {
		t.Errorf("the audits in the report: source %+v, copy %+v", rep.SourceAudit, rep.Audit)
	}
	l, err := ledger.Open(ctx, w.Store, ledger.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	if a, err := l.Audit(ctx, nil); err != nil || !a.OK {
		t.Fatalf("audit of the copy: %+v, %v", a, err)
	}
	writes := w.writes
	if writes < 5 {
		t.Fatalf("only %d writes watched", writes)
	}
	for k := 1; k <= writes; k++ {
		t.Run(fmt.Sprintf("fail at write %d", k), func(t *testing.T) {
			w := &watchedStore{Store: memstore.New(), t: t, failAt: k}
			if _, err := ledger.Copy(ctx, src, w, nil); !errors.Is(err, errInjected) {
				t.Fatalf("Copy: %v, want the injected failure", err)
			}
			if _, err := w.Store.Meta(ctx); !errors.Is(err, ledger.ErrNotLedger) {
				t.Errorf("after the failure Meta gives %v, want ErrNotLedger", err)
			}
			if _, err := ledger.Open(ctx, w.Store, ledger.Options{ReadOnly: true}); !errors.Is(err, ledger.ErrNotLedger) {
				t.Errorf("Open after the failure: %v, want ErrNotLedger", err)
			}
			if k == 1 {
				return // nothing was written
			}
			if _, err := ledger.Copy(ctx, src, w.Store, nil); !errors.Is(err, ledger.ErrUnfinished) {
				t.Errorf("a second Copy into what the first left: %v, want ErrUnfinished", err)
			}
			if _, err := ledger.Create(ctx, w.Store, "other.example/log", t.TempDir()+"/k"); !errors.Is(err, ledger.ErrUnfinished) {
				t.Errorf("Create over what the copy left: %v, want ErrUnfinished", err)
			}
		})
	}
}

// TestCopyRefusesFailedSourceAudit: a source that fails its own audit
// for rows Copy does not copy (an extra log_meta row, a players row
// changed, a dropped trigger or index) is not copied: Copy fails with an
// error wrapping ErrTampered that names the problem, and writes nothing.
func TestCopyRefusesFailedSourceAudit(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name, stmt, want string
	}{
		{"extra log_meta row", `INSERT INTO log_meta(key, value) VALUES('extra', 'x')`, `log_meta: keys ["extra" "origin" "verifier_key"]`},
		{"players_tail row changed", `DROP TRIGGER IF EXISTS players_tail_no_update; UPDATE players_tail SET player = 'zed' WHERE rowid = (SELECT min(rowid) FROM players_tail)`, `players`},
		{"trigger dropped", `DROP TRIGGER entries_no_update`, `trigger entries_no_update is missing`},
		{"index dropped", `DROP INDEX entries_ref`, `index entries_ref is missing`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := copyFile(t, demoLedger(t))
			if err := attack(t, path, tc.stmt); err != nil {
				t.Fatal(err)
			}
			dst := memstore.New()
			_, err := ledger.Copy(ctx, openSource(t, path), dst, nil)
			if !errors.Is(err, ledger.ErrTampered) || !strings.Contains(err.Error(), "source: audit failed: ") || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Copy: %v; want a failed source audit naming %q", err, tc.want)
			}
			if _, err := dst.Meta(ctx); !errors.Is(err, ledger.ErrNotLedger) {
				t.Errorf("Meta of the destination: %v, want ErrNotLedger", err)
			}
			if c, err := dst.Census(ctx); err != nil || c.Entries.Rows+c.Checkpoints.Rows+c.Hashes.Rows != 0 {
				t.Errorf("the destination holds rows: %+v, %v", c, err)
			}
		})
	}
}

// TestCopyRefusesNonEmptyDestination: a destination that holds a ledger
// is refused (ErrHoldsLedger) before the source is even audited.
func TestCopyRefusesNonEmptyDestination(t *testing.T) {
	ctx := context.Background()
	src := openSource(t, demoLedger(t))
	dst := memstore.New()
	if _, err := ledger.Create(ctx, dst, "other.example/log", t.TempDir()+"/k"); err != nil {
		t.Fatal(err)
	}
	w := &watchedStore{Store: dst, t: t}
	rep, err := ledger.Copy(ctx, src, w, nil)
	if !errors.Is(err, ledger.ErrHoldsLedger) || rep != nil {
		t.Fatalf("Copy into a ledger: %+v, %v; want ErrHoldsLedger and no report", rep, err)
	}
}
