package sqlitestore_test

import (
	"bufio"
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/sealedhq/sealed/ledger/sqlitestore"
	"github.com/sealedhq/sealed/ledger/stores"
)

// posixLocked reports whether this process holds a POSIX (fcntl) lock on
// the file at path, as /proc/locks lists them (Linux).
func posixLocked(t *testing.T, path string) bool {
	t.Helper()
	var st syscall.Stat_t
	if err := syscall.Stat(path, &st); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open("/proc/locks")
	if err != nil {
		t.Skipf("no /proc/locks: %v", err)
	}
	defer f.Close()
	pid, ino := fmt.Sprint(os.Getpid()), fmt.Sprintf(":%d", st.Ino)
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		// "1: POSIX  ADVISORY  READ 32516 fe:00:10020106 1073741826 1073742335"
		fs := strings.Fields(sc.Text())
		if len(fs) >= 6 && fs[1] == "POSIX" && fs[4] == pid && strings.HasSuffix(fs[5], ino) {
			return true
		}
	}
	return false
}

// TestLocksKeptWhileOpen: opening a writer store on a file this process
// already reads (as `sealed serve --token-file` does: its pages read
// while the writer opens) keeps the SQLite lock the reads hold on the
// file. A check that opened and closed the database file with os.Open
// released every POSIX lock the process held on it; another process
// then took the ledger for unused, deleted the writer's WAL, and
// acknowledged appends were lost (the second newcomer trial, 2026-12-03).
func TestLocksKeptWhileOpen(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	path, key := filepath.Join(dir, "l.db"), filepath.Join(dir, "l.key")
	if _, err := stores.Init(ctx, path, "example.com/locks", key); err != nil {
		t.Fatal(err)
	}
	reader, err := sql.Open("sqlite3", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer reader.Close()
	rtx, err := reader.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer rtx.Rollback()
	var n int
	if err := rtx.QueryRow(`SELECT count(*) FROM entries`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if !posixLocked(t, path) {
		t.Skip("this SQLite holds no POSIX lock on the file during a read; nothing to check")
	}
	w, err := sqlitestore.Open(path, sqlitestore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if !posixLocked(t, path) {
		t.Fatal("opening the writer released this process's lock on the file")
	}
	if err := w.CheckIntegrity(ctx); err != nil {
		t.Fatal(err)
	}
	if !posixLocked(t, path) {
		t.Fatal("the integrity check released this process's lock on the file")
	}
}
