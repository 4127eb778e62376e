package ledger_test

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sealedhq/sealed/internal/tamper"
	"github.com/sealedhq/sealed/ledger"
)

// TestCheckSeedCommits: CheckSeedCommits holds the seed_commits rows to
// the seed-commit leaves. On a SQLite ledger of a commit and three
// seed-commits it passes, and again after more appends (read
// incrementally); then each alteration of the table, made with the
// triggers dropped on a copy of the file (a row deleted, a row moved to
// another index, a row's match_id changed, a row added for the commit
// entry), is an error wrapping ErrTampered naming the entry. A writer
// refuses a seed-commit whose commitment
// a row added for a non-seed-commit entry holds with ErrTampered, naming
// the table, never a DuplicateError naming that entry.
func TestCheckSeedCommits(t *testing.T) {
	ctx := context.Background()
	l, db, _ := newTestLedger(t, ledger.Options{})
	a, b, c := strings.Repeat("a1", 32), strings.Repeat("b2", 32), strings.Repeat("c3", 32)
	for _, body := range [][]byte{
		[]byte(`{"kind":"commit","player":"ann","action_type":"bid","channel":"#a","commitment":"` + c + `"}`), // 0
		seedCommitBody("m1", a), // 1
		seedCommitBody("m2", b), // 2
	} {
		if _, err := l.Append(ctx, body); err != nil {
			t.Fatal(err)
		}
	}
	if err := l.CheckSeedCommits(ctx); err != nil {
		t.Fatalf("a clean table: %v", err)
	}
	if _, err := l.Append(ctx, seedCommitBody("m3", strings.Repeat("d4", 32))); err != nil { // 3
		t.Fatal(err)
	}
	if err := l.CheckSeedCommits(ctx); err != nil {
		t.Fatalf("after one more seed-commit: %v", err)
	}
	key := filepath.Join(filepath.Dir(db), "sealed.key")
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, sql, want string
	}{
		{"row deleted", `DELETE FROM seed_commits WHERE idx = 1`, "seed-commit entry 1"},
		{"row moved", `UPDATE seed_commits SET idx = 0 WHERE idx = 2`, "entry 0"},
		{"match_id changed", `UPDATE seed_commits SET match_id = 'mX' WHERE idx = 3`, "entry 3"},
		{"row added", `INSERT INTO seed_commits(commitment, idx, game, match_id) VALUES('` + c + `', 0, 'auction', 'm0')`, "entry 0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := copyFile(t, db)
			if err := tamper.Restoring(path, tc.sql); err != nil {
				t.Fatal(err)
			}
			l, err := openLedger(t, path, ledger.Options{ReadOnly: true})
			if err != nil {
				t.Fatal(err)
			}
			defer l.Close()
			err = l.CheckSeedCommits(ctx)
			if !errors.Is(err, ledger.ErrTampered) || !strings.HasPrefix(err.Error(), "seed_commits: ") || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("CheckSeedCommits: %v; want ErrTampered naming seed_commits and %q", err, tc.want)
			}
			if tc.name != "row added" {
				return
			}
			w, err := openLedger(t, path, ledger.Options{KeyFile: key})
			if err != nil {
				t.Fatal(err)
			}
			defer w.Close()
			_, err = w.Append(ctx, seedCommitBody("m4", c))
			var de *ledger.DuplicateError
			if errors.As(err, &de) || !errors.Is(err, ledger.ErrTampered) || !strings.Contains(err.Error(), "seed_commits: the row of commitment "+c+" names entry 0, which is a commit entry") {
				t.Errorf("a seed whose commitment only an added row holds: %v; want ErrTampered naming the row", err)
			}
		})
	}
}
