package sqlitestore_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sealedhq/sealed/ledger"
	"github.com/sealedhq/sealed/ledger/sqlitestore"
)

// TestDamagedFile: a ledger file cut short by half, or by one byte, or
// padded by one, is reported as damaged before any row is read: an error
// wrapping ledger.ErrTampered (the audit's check failed: the CLI exits
// 1), never rows that changed; and a writer refuses it, leaving the
// file's bytes as they were.
func TestDamagedFile(t *testing.T) {
	db, _, _ := copyFixture(t)
	good, err := os.ReadFile(db)
	if err != nil {
		t.Fatal(err)
	}
	damaged := func(err error) bool {
		return errors.Is(err, ledger.ErrTampered) && (strings.Contains(err.Error(), "malformed") || strings.Contains(err.Error(), "damaged"))
	}
	for name, data := range map[string][]byte{
		"cut by half":     good[:len(good)/2],
		"cut by one byte": good[:len(good)-1],
		"padded":          append(append([]byte{}, good...), 0),
		"garbage added":   append(append([]byte{}, good...), make([]byte, 5000)...),
	} {
		t.Run(name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "d.db")
			if err := os.WriteFile(p, data, 0o644); err != nil {
				t.Fatal(err)
			}
			if w, err := sqlitestore.Open(p, sqlitestore.Options{}); err == nil {
				w.Close()
				t.Error("a writer opened the damaged file")
			} else if !damaged(err) {
				t.Errorf("writer open: %v; want an error wrapping ErrTampered saying the file is damaged", err)
			}
			if after, err := os.ReadFile(p); err != nil || string(after) != string(data) {
				t.Errorf("the writer's refusal changed the file (%v)", err)
			}
			s, err := sqlitestore.Open(p, sqlitestore.Options{ReadOnly: true})
			if err != nil {
				if !damaged(err) {
					t.Fatalf("open: %v", err)
				}
				return // SQLite itself refuses it
			}
			l, err := ledger.Open(context.Background(), s, ledger.Options{ReadOnly: true})
			if err != nil {
				if damaged(err) {
					return
				}
				t.Fatalf("ledger open: %v", err)
			}
			defer l.Close()
			rep, err := l.Audit(context.Background(), nil)
			if !damaged(err) {
				t.Errorf("audit = %+v, %v; want an error wrapping ErrTampered saying the file is damaged", rep, err)
			}
		})
	}
}
