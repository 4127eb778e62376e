//go:build linux

package sqlitestore_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"testing"

	"github.com/sealedhq/sealed/ledger"
	"github.com/sealedhq/sealed/ledger/sqlitestore"
)

// TestNoRoomLeft: appends that find no room for the ledger's files (here
// the process's file size limit, RLIMIT_FSIZE, set 64 KiB above the
// database file: its WAL soon reaches it) fail with an error wrapping
// ledger.ErrStoreFull that names the file and says why, not a bare
// "disk I/O error" the CLI called a refused entry; every append
// acknowledged before is kept, and appends work again once there is room.
func TestNoRoomLeft(t *testing.T) {
	if inChild(t) {
		return
	}
	ctx := context.Background()
	db, key := newLedgerFile(t, 3)
	st, err := os.Stat(db)
	if err != nil {
		t.Fatal(err)
	}
	var old syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_FSIZE, &old); err != nil {
		t.Fatal(err)
	}
	limit := old
	limit.Cur = uint64(st.Size()) + 64<<10
	if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &limit); err != nil {
		t.Skipf("cannot set RLIMIT_FSIZE: %v", err)
	}
	restored := false
	restore := func() {
		if !restored {
			restored = true
			if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &old); err != nil {
				t.Fatal(err)
			}
		}
	}
	defer restore()

	s, err := sqlitestore.Open(db, sqlitestore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	l, err := ledger.Open(ctx, s, ledger.Options{KeyFile: key})
	if err != nil {
		t.Fatal(err)
	}
	acked := 3
	var full error
	for i := range 2000 {
		body := fmt.Sprintf(`{"kind":"commit","player":"q%d","action_type":"bid","channel":"c","commitment":"%064x"}`, i, 1000+i)
		if _, err := l.Append(ctx, []byte(body)); err != nil {
			full = err
			break
		}
		acked++
	}
	if full == nil {
		t.Fatal("2000 appends fitted under the limit: the test proves nothing")
	}
	if !errors.Is(full, ledger.ErrStoreFull) {
		t.Errorf("append past the limit: %v; want an error wrapping ErrStoreFull", full)
	}
	restore()
	i, err := l.Append(ctx, []byte(fmt.Sprintf(`{"kind":"commit","player":"z","action_type":"bid","channel":"c","commitment":"%064x"}`, 7777)))
	if err != nil || i != int64(acked) {
		t.Fatalf("append once there is room = %d, %v; want index %d", i, err, acked)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	rs, err := sqlitestore.Open(db, sqlitestore.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	rl, err := ledger.Open(ctx, rs, ledger.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer rl.Close()
	rep, err := rl.Audit(ctx, nil)
	if err != nil || !rep.OK || rep.Size != int64(acked)+1 {
		t.Fatalf("audit = %+v, %v; want ok with %d entries", rep, err, acked+1)
	}
}

// TestNoRoomToCreate: a ledger made where there is no room (here the
// file size limit set to 8 KiB, below what the schema takes) fails with
// an error wrapping ledger.ErrStoreFull naming the file, as 'ledger
// copy' to a full disk did not ("copy stopped: committing schema
// migration 1: database or disk is full", with the hint that --to must
// be a new file).
func TestNoRoomToCreate(t *testing.T) {
	if inChild(t) {
		return
	}
	ctx := context.Background()
	dir := t.TempDir()
	db := dir + "/t.db"
	var old syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_FSIZE, &old); err != nil {
		t.Fatal(err)
	}
	limit := old
	limit.Cur = 8 << 10
	if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &limit); err != nil {
		t.Skipf("cannot set RLIMIT_FSIZE: %v", err)
	}
	defer func() {
		if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &old); err != nil {
			t.Fatal(err)
		}
	}()
	s, err := sqlitestore.Open(db, sqlitestore.Options{Create: true})
	if err == nil {
		_, err = ledger.Create(ctx, s, "example.com/full", dir+"/t.key")
		if cerr := s.Close(); err == nil {
			err = cerr
		}
	}
	if !errors.Is(err, ledger.ErrStoreFull) {
		t.Fatalf("creating a ledger with no room: %v; want an error wrapping ErrStoreFull", err)
	}
}

// childEnv names, in a child process of the test binary, the test it
// runs (inChild).
const childEnv = "SEALED_SQLITESTORE_CHILD_TEST"

// inChild runs the calling test alone in a child process of the test
// binary and reports its result there, returning true; in that child it
// returns false and the test runs. The tests above lower RLIMIT_FSIZE,
// which holds for the whole process: in the test binary itself, every
// file it wrote meanwhile was limited too, and the go command's test log
// (-test.testlogfile, written as the tests run) failed with "file too
// large", failing a package whose tests all passed (fresh-check,
// 2026-12-05). The child is given no test log, and nothing else runs in
// it.
func inChild(t *testing.T) bool {
	t.Helper()
	if os.Getenv(childEnv) == t.Name() {
		return false
	}
	cmd := exec.Command(os.Args[0], "-test.run", "^"+t.Name()+"$", "-test.v", "-test.count", "1")
	cmd.Env = append(os.Environ(), childEnv+"="+t.Name())
	out, err := cmd.CombinedOutput()
	switch {
	case err != nil:
		t.Fatalf("%s, in a child process: %v\n%s", t.Name(), err, out)
	case bytes.Contains(out, []byte("--- SKIP: "+t.Name())):
		t.Skipf("%s, in a child process, skipped:\n%s", t.Name(), out)
	case !bytes.Contains(out, []byte("--- PASS: "+t.Name())):
		t.Fatalf("%s, in a child process: no PASS line (did the test run?)\n%s", t.Name(), out)
	}
	return true
}
