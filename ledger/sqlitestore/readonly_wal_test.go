package sqlitestore_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/sealedhq/sealed/ledger"
	"github.com/sealedhq/sealed/ledger/sqlitestore"
)

// envReadOnlyWALChild names the ledger, and the number of entries it
// holds, that a child test process reads.
const envReadOnlyWALChild = "SEALED_SQLITESTORE_RO_WAL_CHILD"

// TestReadOnlyDirectoryWAL: a ledger whose WAL holds acknowledged
// commits (its writer was killed before copying them into the file) and
// whose -shm file is gone, in a directory the reader may not write:
// SQLite cannot read the WAL there, and the file read alone (the
// immutable flag) is an older ledger. Opening it read-only is refused
// with an error wrapping sqlitestore.ErrWALUnreadable, never the older
// ledger audited clean. As root the reading runs as nobody.
func TestReadOnlyDirectoryWAL(t *testing.T) {
	if v := os.Getenv(envReadOnlyWALChild); v != "" {
		db, n, _ := strings.Cut(v, ",")
		want, _ := strconv.Atoi(n)
		readOnlyWALChild(t, db, want)
		return
	}
	src, key := newLedgerFile(t, 3)
	// A reader's snapshot keeps the appends in the WAL.
	const more = 5
	tx := holdSnapshot(t, src, 3)
	l := appendWhileHeld(t, src, key, more)
	dir, err := os.MkdirTemp("", "sealed-ro-wal-*")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(dir, 0o755); os.RemoveAll(dir) })
	db := filepath.Join(dir, "t.db")
	for _, suffix := range []string{"", "-wal"} { // the -shm is gone
		b, err := os.ReadFile(src + suffix)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(db+suffix, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tx.Rollback()
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o555); err != nil {
		t.Fatal(err)
	}
	env := fmt.Sprintf("%s=%s,%d", envReadOnlyWALChild, db, 3+more)
	if os.Getuid() != 0 {
		readOnlyWALChild(t, db, 3+more)
		return
	}
	bin := filepath.Join(t.TempDir(), "child.test")
	copyFile(t, os.Args[0], bin)
	for d := filepath.Dir(bin); d != "/" && d != os.TempDir(); d = filepath.Dir(d) {
		os.Chmod(d, 0o755)
	}
	cmd := exec.Command(bin, "-test.run", "^TestReadOnlyDirectoryWAL$", "-test.v")
	cmd.Env = append(os.Environ(), env)
	cmd.Dir = "/"
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "read-only wal ok") {
		t.Fatalf("reading as nobody: %v\n%s", err, out)
	}
}

// readOnlyWALChild opens the ledger at db read-only: it must be refused
// with ErrWALUnreadable, or read whole (want entries), never shorter.
func readOnlyWALChild(t *testing.T, db string, want int) {
	ctx := context.Background()
	if f, err := os.CreateTemp(filepath.Dir(db), "probe"); err == nil {
		f.Close()
		os.Remove(f.Name())
		t.Fatalf("the directory of %s is writable by this process: the test proves nothing", db)
	}
	s, err := sqlitestore.Open(db, sqlitestore.Options{ReadOnly: true})
	if errors.Is(err, sqlitestore.ErrWALUnreadable) && strings.Contains(err.Error(), "t.db-wal") {
		fmt.Println("read-only wal ok: refused")
		return
	}
	if err != nil {
		t.Fatalf("open read-only: %v; want ErrWALUnreadable naming the WAL", err)
	}
	l, err := ledger.Open(ctx, s, ledger.Options{ReadOnly: true})
	if err != nil {
		t.Fatalf("ledger read-only: %v", err)
	}
	defer l.Close()
	rep, err := l.Audit(ctx, nil)
	if err != nil || rep.Size != int64(want) {
		t.Fatalf("audit = %+v, %v: the ledger read is not the one of %d entries its WAL holds", rep, err, want)
	}
	fmt.Println("read-only wal ok: read whole")
}
