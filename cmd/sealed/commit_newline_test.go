package main

import (
	"strings"
	"testing"
)

// TestCommitTrailingNewline: a declaration ending in a newline makes the
// same reveal text as the argument and on stdin: one trailing LF or CRLF
// is dropped from both. The commitment is
// printf 'I bid 40 on lot 2\nsalt: walnut-tiger-9z' | sha256sum.
func TestCommitTrailingNewline(t *testing.T) {
	const want = "625799b080061b34260c64dcb439fe610c73676180679eeaab74ab0e486e3b5d"
	for _, c := range []struct{ name, stdin, arg string }{
		{"argument", "", "I bid 40 on lot 2"},
		{"argument with LF", "", "I bid 40 on lot 2\n"},
		{"argument with CRLF", "", "I bid 40 on lot 2\r\n"},
		{"stdin", "I bid 40 on lot 2", "-"},
		{"stdin with LF", "I bid 40 on lot 2\n", "-"},
		{"stdin with CRLF", "I bid 40 on lot 2\r\n", "-"},
	} {
		out, _ := mustRun(t, 0, c.stdin, "commit", "--salt", "walnut-tiger-9z", c.arg)
		lines := strings.Split(strings.TrimSpace(out), "\n")
		if got := lines[len(lines)-1]; got != want {
			t.Errorf("%s: commitment %s, want %s\n%s", c.name, got, want, out)
		}
	}
	// Only one newline is dropped: a second is part of the declaration.
	// printf 'I bid 40 on lot 2\n\nsalt: walnut-tiger-9z' | sha256sum
	out, _ := mustRun(t, 0, "", "commit", "--salt", "walnut-tiger-9z", "I bid 40 on lot 2\n\n")
	if !strings.HasSuffix(strings.TrimSpace(out), "\n3f0a1e4881c19d16eba99e8d793d8efb36e18fe224e26e5783c3c29096eb64d0") {
		t.Errorf("two newlines: %s", out)
	}
}
