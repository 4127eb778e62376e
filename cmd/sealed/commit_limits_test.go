package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sealedhq/sealed/commit"
	"github.com/sealedhq/sealed/ledger"
)

// TestCommitRevealMustFitLeaf: `sealed commit` refuses a declaration whose
// reveal could never be recorded (newcomer trial finding 6: 65,418 bytes
// of declaration made a 65,556-byte reveal leaf; 30,000 control
// characters a 180,154-byte one), and a declaration just within the bound
// is committed and its reveal recorded by the longest player name.
func TestCommitRevealMustFitLeaf(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "r.txt")
	for _, c := range []struct {
		name, decl string
	}{
		{"65400 x", "I bid 15 on lot 1 " + strings.Repeat("x", 65400)},
		{"30000 U+0001", strings.Repeat("\x01", 30000)},
	} {
		code, stdout, stderr := runSealed(t, "", "commit", "--out", out, c.decl)
		lines := strings.Split(strings.TrimSuffix(stderr, "\n"), "\n")
		if code != 2 || stdout != "" || len(lines) != 2 ||
			!strings.HasPrefix(lines[0], "sealed: the reveal text would need a ledger leaf of up to ") ||
			!strings.HasSuffix(lines[0], " bytes, more than the 65535 a leaf can hold (docs/ledger.md \"Tiles\"): its reveal could never be recorded") ||
			!strings.HasPrefix(lines[1], "hint: shorten the declaration so that its reveal takes ") {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want exit 2, the leaf error and a hint", c.name, code, stdout, stderr)
		}
		if _, err := os.Stat(out); err == nil {
			t.Fatalf("%s: %s written for a refused declaration", c.name, out)
		}
	}
	// From stdin too.
	if code, _, stderr := runSealed(t, strings.Repeat("\x01", 11000), "commit", "-"); code != 2 || !strings.Contains(stderr, "could never be recorded") {
		t.Errorf("stdin: exit %d, %q", code, stderr)
	}

	// The longest declaration of x's with a drawn salt (26 characters): its
	// reveal, posted by a player of 256 backslashes, is recorded.
	n := ledger.MaxLeafSize - ledger.RevealLeafSize(commit.RevealText("", strings.Repeat("a", 26)))
	decl := strings.Repeat("x", n)
	if code, _, stderr := runSealed(t, "", "commit", "--out", out, decl+"x"); code != 2 {
		t.Fatalf("one byte over: exit %d, %s", code, stderr)
	} else if !strings.Contains(stderr, "hint: shorten the declaration so that its reveal takes 1 byte fewer in the leaf,") {
		// Not "1 bytes fewer" (trial 10c).
		t.Errorf("one byte over: %s", stderr)
	}
	h, _ := mustRun(t, 0, "", "commit", "--out", out, decl)
	db, key := newCLILedger(t)
	player := strings.Repeat(`\`, 256)
	mustRun(t, 0, "", "action", "post", "--db", db, "--key", key, "--player", player, "--type", "bid", "--commitment", strings.TrimSpace(h), "--posted-at", "2026-03-24T10:00:00Z")
	if stdout, stderr := mustRun(t, 0, "", "action", "reveal", "--db", db, "--key", key, "--player", player, "--commit", "0", "--file", out, "--posted-at", "2026-03-26T10:00:00Z"); !strings.Contains(stdout, "reveal entry 1") {
		t.Fatalf("reveal: %s %s", stdout, stderr)
	}
}

// TestCommitSaltLine: a declaration with a line starting "salt:" in any
// ASCII letter case after any line break is refused, by the rule the /hash
// page applies (commit.FindSaltLine; newcomer trial finding 18: a CR
// before "salt:" was accepted, "SALT:" quoted as "salt:").
func TestCommitSaltLine(t *testing.T) {
	for _, c := range []struct{ decl, want string }{
		{"I bid 1 on lot 1\rsalt: x", `sealed: declaration line 2 (after the line break CR) starts with "salt:": a line starting with "salt:" in any letter case would make the reveal text ambiguous`},
		{"I bid 1 on lot 1\nSALT: x", `sealed: declaration line 2 (after the line break LF) starts with "SALT:": a line starting with "salt:" in any letter case would make the reveal text ambiguous`},
		{"I bid 1 on lot 1\r\nSalt:x", `sealed: declaration line 2 (after the line break CRLF) starts with "Salt:"`},
		{"I bid 1 on lot 1\u2028salt: x", `sealed: declaration line 2 (after the line break U+2028) starts with "salt:"`},
		{"salt: x\nI bid 1 on lot 1", `sealed: the declaration starts with "salt:": a line starting`},
	} {
		code, stdout, stderr := runSealed(t, "", "commit", c.decl)
		if code != 2 || stdout != "" || !strings.HasPrefix(stderr, c.want) ||
			!strings.Contains(stderr, "\nhint: give only the declaration: sealed commit adds the line \"salt: <salt>\" itself") {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want 2 and %q with a hint", c.decl, code, stdout, stderr, c.want)
		}
	}
	// Not at a line's start, or not "salt:": committed.
	for _, d := range []string{"I bid 1 on lot 1 salt: x", "I bid 1 on lot 1\n salt: x", "I bid 1\nsalt= x"} {
		if code, _, stderr := runSealed(t, "", "commit", d); code != 0 {
			t.Errorf("%q: exit %d, %s", d, code, stderr)
		}
	}
	// A salt with any line break is refused.
	for _, s := range []string{"a\rb", "a\u2028b", "a\u0085b", "a\vb"} {
		if code, _, stderr := runSealed(t, "", "commit", "--salt", s, "I bid 1 on lot 1"); code != 2 || !strings.HasPrefix(stderr, "sealed: --salt has a line break") {
			t.Errorf("salt %q: exit %d, %s", s, code, stderr)
		}
	}
}
