package sqlitestore_test

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/sealedhq/sealed/ledger"
	"github.com/sealedhq/sealed/ledger/sqlitestore"
)

// envReadOnlyChild names the ledger a child test process reads.
const envReadOnlyChild = "SEALED_SQLITESTORE_RO_CHILD"

// TestReadOnlyDirectory: an auditor who may not write the directory (mode
// 555, another user's) still reads the ledger: open read-only, list and
// audit, with nothing written next to the file. As root, where directory
// modes do not bind, the reading runs in a child process as nobody.
func TestReadOnlyDirectory(t *testing.T) {
	if db := os.Getenv(envReadOnlyChild); db != "" {
		readOnlyChild(t, db)
		return
	}
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "sealed-ro-*")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(dir, 0o755); os.RemoveAll(dir) })
	db := filepath.Join(dir, "t.db")
	s, err := sqlitestore.Open(db, sqlitestore.Options{Create: true})
	if err != nil {
		t.Fatal(err)
	}
	key := filepath.Join(t.TempDir(), "t.key")
	if _, err := ledger.Create(ctx, s, "example.com/ro", key); err != nil {
		t.Fatal(err)
	}
	l, err := ledger.Open(ctx, s, ledger.Options{KeyFile: key})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		body := fmt.Sprintf(`{"kind":"commit","player":"p%d","action_type":"bid","channel":"c","commitment":"%064x"}`, i, i+1)
		if _, err := l.Append(ctx, []byte(body)); err != nil {
			t.Fatal(err)
		}
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(db, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o555); err != nil {
		t.Fatal(err)
	}
	if os.Getuid() != 0 {
		readOnlyChild(t, db)
	} else {
		// The test binary, copied where nobody may run it.
		bin := filepath.Join(t.TempDir(), "child.test")
		copyFile(t, os.Args[0], bin)
		for d := filepath.Dir(bin); d != "/" && d != os.TempDir(); d = filepath.Dir(d) {
			os.Chmod(d, 0o755)
		}
		cmd := exec.Command(bin, "-test.run", "^TestReadOnlyDirectory$", "-test.v")
		cmd.Env = append(os.Environ(), envReadOnlyChild+"="+db)
		cmd.Dir = "/"
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(out), "read-only ok: 3 entries") {
			t.Fatalf("reading as nobody: %v\n%s", err, out)
		}
	}
	for _, suffix := range []string{"-wal", "-shm", "-journal"} {
		if _, err := os.Stat(db + suffix); err == nil {
			t.Errorf("reading made %s%s", filepath.Base(db), suffix)
		}
	}
}

// readOnlyChild reads the ledger at db read-only and audits it.
func readOnlyChild(t *testing.T, db string) {
	ctx := context.Background()
	if f, err := os.CreateTemp(filepath.Dir(db), "probe"); err == nil {
		f.Close()
		os.Remove(f.Name())
		t.Fatalf("the directory of %s is writable by this process: the test proves nothing", db)
	}
	s, err := sqlitestore.Open(db, sqlitestore.Options{ReadOnly: true})
	if err != nil {
		t.Fatalf("open read-only: %v", err)
	}
	l, err := ledger.Open(ctx, s, ledger.Options{ReadOnly: true})
	if err != nil {
		t.Fatalf("ledger read-only: %v", err)
	}
	defer l.Close()
	es, err := l.Entries(0, 10)
	if err != nil || len(es) != 3 {
		t.Fatalf("entries: %d, %v", len(es), err)
	}
	rep, err := l.Audit(ctx, nil)
	if err != nil || !rep.OK {
		t.Fatalf("audit: %+v, %v", rep, err)
	}
	fmt.Printf("read-only ok: %d entries\n", rep.Size)
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	in, err := os.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}
