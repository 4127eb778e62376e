package sqlitestore_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sealedhq/sealed/ledger"
	"github.com/sealedhq/sealed/ledger/sqlitestore"
)

// TestDamagedFile: a ledger file cut short by half, or by one byte, or
// padded by one, is reported as damaged before any row is read (an error,
// which the CLI reports as unreadable input), never as rows that changed.
func TestDamagedFile(t *testing.T) {
	db, _, _ := copyFixture(t)
	good, err := os.ReadFile(db)
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string][]byte{
		"cut by half":     good[:len(good)/2],
		"cut by one byte": good[:len(good)-1],
		"padded":          append(append([]byte{}, good...), 0),
	} {
		t.Run(name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "d.db")
			if err := os.WriteFile(p, data, 0o644); err != nil {
				t.Fatal(err)
			}
			s, err := sqlitestore.Open(p, sqlitestore.Options{ReadOnly: true})
			if err != nil {
				if !strings.Contains(err.Error(), "malformed") {
					t.Fatalf("open: %v", err)
				}
				return // SQLite itself refuses it
			}
			l, err := ledger.Open(context.Background(), s, ledger.Options{ReadOnly: true})
			if err != nil {
				if strings.Contains(err.Error(), "malformed") || strings.Contains(err.Error(), "damaged") {
					return
				}
				t.Fatalf("ledger open: %v", err)
			}
			defer l.Close()
			rep, err := l.Audit(context.Background(), nil)
			if err == nil || !strings.Contains(err.Error(), "damaged") {
				t.Errorf("audit = %+v, %v; want an error saying the file is damaged", rep, err)
			}
		})
	}
}
