package commit

import (
	"encoding/base32"
	"regexp"
	"strings"
	"testing"
)

// TestRevealText checks the canonical form against
// `printf 'I bid 40 on lot 2\nsalt: abc' | sha256sum`.
func TestRevealText(t *testing.T) {
	r := RevealText("I bid 40 on lot 2", "abc")
	if string(r) != "I bid 40 on lot 2\nsalt: abc" {
		t.Fatalf("RevealText = %q", r)
	}
	if got, want := Sum(r).String(), "ca28de1089a8c39e1e9c7cdaaefdbcd67bc4bc49a3bd340fad4e9af7f05c6280"; got != want {
		t.Fatalf("Sum = %s, want %s", got, want)
	}
}

// TestNewSalt checks the shape (26 characters of the lowercase RFC 4648
// base32 alphabet) and that it decodes, with the standard library's
// uppercase padded decoder, to 16 bytes.
func TestNewSalt(t *testing.T) {
	shape := regexp.MustCompile(`^[a-z2-7]{26}$`)
	seen := map[string]bool{}
	for i := 0; i < 64; i++ {
		s, err := NewSalt()
		if err != nil {
			t.Fatal(err)
		}
		if !shape.MatchString(s) {
			t.Fatalf("salt %q is not 26 lowercase base32 characters", s)
		}
		b, err := base32.StdEncoding.DecodeString(strings.ToUpper(s) + "======")
		if err != nil || len(b) != 16 {
			t.Fatalf("salt %q decodes to %d bytes (%v), want 16", s, len(b), err)
		}
		if seen[s] {
			t.Fatalf("salt %q drawn twice", s)
		}
		seen[s] = true
	}
}

// TestSplitSalt checks the rules of SplitSalt, worked by hand.
func TestSplitSalt(t *testing.T) {
	for _, tc := range []struct {
		in, decl, salt string
		ok             bool
	}{
		{"I bid 40 on lot 2\nsalt: abc", "I bid 40 on lot 2", "abc", true},
		{"I bid 40 on lot 2\r\nSalt:abc", "I bid 40 on lot 2", "abc", true},
		{"I bid 40 on lot 2\nsalt: abc\r\n\n", "I bid 40 on lot 2", "abc", true},
		{"line one\nline two\nsalt: x y", "line one\nline two", "x y", true},
		{"I bid 40 on lot 2\nwalnut tiger", "I bid 40 on lot 2", "walnut tiger", true},
		{"I bid 40 on lot 2 | salt=walnut-tiger", "I bid 40 on lot 2", "walnut-tiger", true},
		{"I bid 7 coins. xq", "I bid 7 coins.", "xq", true},
		{"I bid 17 on lot 3", "I bid 17 on lot 3", "", false},
		{"I bid 17 on lot 3\n", "I bid 17 on lot 3", "", false},
		{"", "", "", false},
	} {
		d, s, ok := SplitSalt([]byte(tc.in))
		if string(d) != tc.decl || string(s) != tc.salt || ok != tc.ok {
			t.Errorf("SplitSalt(%q) = %q, %q, %v; want %q, %q, %v", tc.in, d, s, ok, tc.decl, tc.salt, tc.ok)
		}
	}
}
