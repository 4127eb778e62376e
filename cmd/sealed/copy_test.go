package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

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
