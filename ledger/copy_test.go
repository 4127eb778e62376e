package ledger_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/sealedhq/sealed/ledger"
	"github.com/sealedhq/sealed/ledger/memstore"
	"github.com/sealedhq/sealed/ledger/stores"
)

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
