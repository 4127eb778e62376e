package main

import (
	"database/sql"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
)

// tamperDB runs the SQL statements on the SQLite file at path, as
// someone holding the file would.
func tamperDB(t *testing.T, path string, stmts string) {
	t.Helper()
	db, err := sql.Open("sqlite3", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(stmts); err != nil {
		t.Fatal(err)
	}
}

// names lists the names in dir, sorted.
func names(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range es {
		out = append(out, e.Name())
	}
	return out
}

// TestCopyFailureLeavesNothing: a copy that stops (a source whose entry 3
// body was altered) exits 1 naming the entry and leaves nothing at --to,
// nor beside it: no empty ledger with the source's identity that an
// audit would pass and an append extend. The same copy from the intact
// ledger then succeeds.
func TestCopyFailureLeavesNothing(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "demo.db")
	mustRun(t, 0, "", "demo", "--db", src)
	bad := copyDB(t, src)
	tamperDB(t, bad, `DROP TRIGGER entries_no_update; UPDATE entries SET body = CAST(replace(CAST(body AS TEXT), 'seat one', 'seat onf') AS BLOB) WHERE idx = 3`)
	out := t.TempDir()
	to := filepath.Join(out, "tb.db")
	code, _, stderr := runSealed(t, "", "ledger", "copy", "--from", bad, "--to", to)
	if code != 1 || !strings.Contains(stderr, "entries, entry 3: ") || !strings.Contains(stderr, "\nhint: ") {
		t.Errorf("copy of an altered source: exit %d, %s", code, stderr)
	}
	if left := names(t, out); len(left) != 0 {
		t.Fatalf("the failed copy left %q", left)
	}
	if code, _, stderr := runSealed(t, "", "ledger", "audit", "--db", to); code != 2 || !strings.Contains(stderr, "no ledger at") {
		t.Errorf("audit of what the failed copy left: exit %d, %s", code, stderr)
	}
	mustRun(t, 0, "", "ledger", "copy", "--from", src, "--to", to)
	if left := names(t, out); !slices.Equal(left, []string{"tb.db"}) {
		t.Errorf("after the copy: %q", left)
	}
}

// TestCopySourceAudit: a source that fails its own audit is not copied,
// also for rows the copy would not carry over (a players_tail row
// changed, an extra log_meta row, a trigger or an index dropped): exit 1
// naming the problem, as 'sealed ledger audit' names it, and nothing is
// made at --to.
func TestCopySourceAudit(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "demo.db")
	mustRun(t, 0, "", "demo", "--db", src)
	for _, tc := range []struct{ name, stmts, want string }{
		{"players_tail row", `DROP TRIGGER IF EXISTS players_tail_no_update; UPDATE players_tail SET player = 'zed' WHERE rowid = (SELECT min(rowid) FROM players_tail)`, `players: the row of skeleton "alice" (player "zed"`},
		{"log_meta row", `INSERT INTO log_meta(key, value) VALUES('extra', 'x')`, `log_meta: keys ["extra" "origin" "verifier_key"]`},
		{"trigger", `DROP TRIGGER entries_no_update`, `the trigger entries_no_update is missing`},
		{"index", `DROP INDEX entries_ref`, `the index entries_ref is missing`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bad := copyDB(t, src)
			tamperDB(t, bad, tc.stmts)
			auditOut := mustRunCode(t, 1, "ledger", "audit", "--db", bad)
			if !strings.Contains(auditOut, tc.want) {
				t.Fatalf("ledger audit: %s", auditOut)
			}
			out := t.TempDir()
			code, stdout, stderr := runSealed(t, "", "ledger", "copy", "--from", bad, "--to", filepath.Join(out, "c.db"))
			if code != 1 || !strings.Contains(stderr, "copy stopped: source: audit failed: ") || !strings.Contains(stderr, tc.want) || strings.Contains(stdout, "ok") {
				t.Errorf("copy: exit %d, stdout %q, stderr %s", code, stdout, stderr)
			}
			if left := names(t, out); len(left) != 0 {
				t.Errorf("the refused copy left %q", left)
			}
		})
	}
}

// mustRunCode runs sealed, wants exit code want, and returns stdout and
// stderr together.
func mustRunCode(t *testing.T, want int, args ...string) string {
	t.Helper()
	code, stdout, stderr := runSealed(t, "", args...)
	if code != want {
		t.Fatalf("sealed %s: exit %d, want %d\n%s%s", strings.Join(args, " "), code, want, stdout, stderr)
	}
	return stdout + stderr
}

// envCopyROChild holds "FROM\nTO" for the child process of
// TestCopyReadOnlyDirectory.
const envCopyROChild = "SEALED_COPY_RO_CHILD"

// TestCopyReadOnlyDirectory: a --to in a directory the user may not
// write says so (cannot create ...: permission denied) with a hint about
// the directory, not "unable to open database file: no such file or
// directory" with a hint about new files. As root, where directory modes
// do not bind, the copy runs in a child process as nobody.
func TestCopyReadOnlyDirectory(t *testing.T) {
	if v := os.Getenv(envCopyROChild); v != "" {
		from, to, _ := strings.Cut(v, "\n")
		code, _, stderr := runSealed(t, "", "ledger", "copy", "--from", from, "--to", to)
		fmt.Printf("exit %d\n%s", code, stderr)
		return
	}
	dir, err := os.MkdirTemp("", "sealed-copy-ro-*")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(filepath.Join(dir, "ro"), 0o755); os.RemoveAll(dir) })
	src := filepath.Join(dir, "demo.db")
	mustRun(t, 0, "", "demo", "--db", src)
	ro := filepath.Join(dir, "ro")
	if err := os.Mkdir(ro, 0o555); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{dir, src} {
		if err := os.Chmod(p, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	to := filepath.Join(ro, "out.db")
	var out string
	if os.Getuid() != 0 {
		code, _, stderr := runSealed(t, "", "ledger", "copy", "--from", src, "--to", to)
		out = fmt.Sprintf("exit %d\n%s", code, stderr)
	} else {
		bin := filepath.Join(dir, "child.test")
		b, err := os.ReadFile(os.Args[0])
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(bin, b, 0o755); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(bin, "-test.run", "^TestCopyReadOnlyDirectory$")
		cmd.Env = append(os.Environ(), envCopyROChild+"="+src+"\n"+to)
		cmd.Dir = "/"
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
		b, err = cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("the child as nobody: %v\n%s", err, b)
		}
		out = string(b)
	}
	want := fmt.Sprintf("exit 2\nsealed: cannot create %s: permission denied\nhint: the copy is made in the directory of --to, which must let you create files: choose another directory\n", to)
	if !strings.HasPrefix(out, want) {
		t.Errorf("copy into a read-only directory:\n%s\nwant:\n%s", out, want)
	}
	if left := names(t, ro); len(left) != 0 {
		t.Errorf("left in the read-only directory: %q", left)
	}
}
