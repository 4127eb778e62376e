package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// runSealed runs the whole command tree with buffers.
func runSealed(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = run(args, strings.NewReader(stdin), &out, &errOut)
	return code, out.String(), errOut.String()
}

// TestCommitOutMode checks that --out writes the exact reveal text with
// mode 0600, also when --force replaces a file that had a wider mode.
func TestCommitOutMode(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "bid.txt")
	code, stdout, stderr := runSealed(t, "", "commit", "--salt", "abc", "--out", path, "I bid 40 on lot 2")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	// printf 'I bid 40 on lot 2\nsalt: abc' | sha256sum
	if stdout != "ca28de1089a8c39e1e9c7cdaaefdbcd67bc4bc49a3bd340fad4e9af7f05c6280\n" {
		t.Fatalf("stdout %q", stdout)
	}
	checkFile(t, path, "I bid 40 on lot 2\nsalt: abc")

	if err := os.Chmod(path, 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := runSealed(t, "", "commit", "--force", "--out", path, "I bid 41 on lot 2"); code != 0 {
		t.Fatalf("--force: exit %d: %s", code, stderr)
	}
	fi, _ := os.Stat(path)
	if fi.Mode().Perm() != 0o600 {
		t.Fatalf("mode after --force %v, want 0600", fi.Mode().Perm())
	}
}

func checkFile(t *testing.T, path, want string) {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("%s mode %v, want 0600", path, fi.Mode().Perm())
	}
	b, _ := os.ReadFile(path)
	if string(b) != want {
		t.Errorf("%s holds %q, want %q", path, b, want)
	}
}

// TestCommitBadStdin feeds input a shell test cannot: bytes that are not
// UTF-8, and more than the 64 KiB a declaration may have.
func TestCommitBadStdin(t *testing.T) {
	for _, tc := range []struct{ stdin, want string }{
		{"I bid \xff\xfe 40", "sealed: declaration is not valid UTF-8 (bad byte at offset 6); expected UTF-8 text\n"},
		{strings.Repeat("I bid 40 on lot 2. ", 4000), "sealed: declaration on stdin is longer than 65536 bytes; expected a short text such as 'I bid 40 on lot 2'\n"},
	} {
		code, stdout, stderr := runSealed(t, tc.stdin, "commit", "-")
		if code != 2 || stdout != "" || stderr != tc.want {
			t.Errorf("exit %d, stdout %q, stderr %q; want 2 and %q", code, stdout, stderr, tc.want)
		}
	}
	code, _, stderr := runSealed(t, "", "commit", "--salt", "a\xff", "x")
	if code != 2 || !strings.HasPrefix(stderr, "sealed: --salt is not valid UTF-8") {
		t.Errorf("bad salt: exit %d, stderr %q", code, stderr)
	}
}

// TestCommitParse checks the flags reach the options, apart from running.
func TestCommitParse(t *testing.T) {
	var got *commitOptions
	a := &app{in: strings.NewReader(""), out: &bytes.Buffer{}, errOut: &bytes.Buffer{}}
	c := commitCmd(a, func(_ *app, o *commitOptions) error { got = o; return nil })
	c.SetArgs([]string{"--salt", "", "-o", "f.txt", "--force", "-"})
	if err := c.Execute(); err != nil {
		t.Fatal(err)
	}
	want := commitOptions{Declaration: "-", Salt: "", SaltSet: true, Out: "f.txt", Force: true}
	if *got != want {
		t.Fatalf("options %+v, want %+v", *got, want)
	}
}
