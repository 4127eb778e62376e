package sqlitestore_test

import (
	"bytes"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/sealedhq/sealed/ledger"
	"github.com/sealedhq/sealed/ledger/sqlitestore"
)

// TestOpenForWritingLeavesOtherFiles: opening for writing a file that
// holds no ledger (empty, another program's SQLite database, not SQLite
// at all) is refused with ErrNotLedger, and the file is left byte for
// byte as it was, with no WAL beside it: no schema is written into it.
func TestOpenForWritingLeavesOtherFiles(t *testing.T) {
	dir := t.TempDir()
	other := filepath.Join(dir, "other.db")
	db, err := sql.Open("sqlite3", "file:"+other)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`CREATE TABLE t(x); INSERT INTO t VALUES (1)`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	files := map[string][]byte{"empty.db": nil, "junk.db": []byte("not an SQLite database, just text that is long enough to have a header")}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	otherBytes, err := os.ReadFile(other)
	if err != nil {
		t.Fatal(err)
	}
	files["other.db"] = otherBytes
	for name, want := range files {
		p := filepath.Join(dir, name)
		s, err := sqlitestore.Open(p, sqlitestore.Options{})
		if err == nil {
			s.Close()
		}
		if !errors.Is(err, ledger.ErrNotLedger) {
			t.Errorf("%s: Open for writing = %v; want ErrNotLedger", name, err)
		}
		got, rerr := os.ReadFile(p)
		if rerr != nil || !bytes.Equal(got, want) {
			t.Errorf("%s: %d bytes after the refused open (%v); want the %d it had", name, len(got), rerr, len(want))
		}
		if _, err := os.Stat(p + "-wal"); err == nil {
			t.Errorf("%s: a WAL file was made beside it", name)
		}
	}
}
