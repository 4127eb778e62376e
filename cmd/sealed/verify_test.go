package main

import (
	"bytes"
	"strings"
	"testing"
)

func TestVerifyParse(t *testing.T) {
	var got *verifyOptions
	a := &app{in: strings.NewReader(""), out: &bytes.Buffer{}, errOut: &bytes.Buffer{}}
	c := verifyCmd(a, func(_ *app, o *verifyOptions) error { got = o; return nil })
	c.SetArgs([]string{"--hash", "H", "-t", ""})
	if err := c.Execute(); err != nil {
		t.Fatal(err)
	}
	if want := (verifyOptions{Hash: "H", TextSet: true}); *got != want {
		t.Fatalf("options %+v, want %+v", *got, want)
	}
}

// TestParseSumLine checks the line forms GNU sha256sum writes: "HEX  PATH",
// "HEX *PATH" (binary), "SHA256 (PATH) = HEX" (--tag), and a leading
// backslash for a name with a newline or backslash (`touch 'a\b'; sha256sum
// 'a\b'` prints "\e3b0...b855  a\\b").
func TestParseSumLine(t *testing.T) {
	h := strings.Repeat("ab", 32)
	for _, tc := range []struct {
		line, hash, path string
		ok               bool
	}{
		{h + "  hello.txt", h, "hello.txt", true},
		{h + " *hello.txt", h, "hello.txt", true},
		{h + "  two  spaces.txt\r", h, "two  spaces.txt", true},
		{"SHA256 (a (1).txt) = " + h, h, "a (1).txt", true},
		{`\` + h + `  a\\b\nc`, h, "a\\b\nc", true},
		{h + " hello.txt", "", "", false},
		{h + "  ", "", "", false},
		{"", "", "", false},
	} {
		hash, path, ok := parseSumLine(tc.line)
		if hash != tc.hash || path != tc.path || ok != tc.ok {
			t.Errorf("parseSumLine(%q) = %q, %q, %v; want %q, %q, %v", tc.line, hash, path, ok, tc.hash, tc.path, tc.ok)
		}
	}
}

// TestVerifyLargeReveal checks a reveal over the 1 MiB hint limit is still
// verified exactly, and a mismatch says no near misses were searched.
// 2 MiB of 'a':
//
//	head -c 2097152 /dev/zero | tr '\0' a | sha256sum
//	5256ec18f11624025905d057d6befb03d77b243511ac5f77ed5e0221ce6d84b5  -
func TestVerifyLargeReveal(t *testing.T) {
	big := strings.Repeat("a", 2<<20)
	code, stdout, _ := runSealed(t, big, "verify", "--hash", "5256ec18f11624025905d057d6befb03d77b243511ac5f77ed5e0221ce6d84b5")
	if code != 0 || !strings.HasPrefix(stdout, "match: ") {
		t.Fatalf("exit %d, stdout %q", code, stdout)
	}
	code, stdout, _ = runSealed(t, big+"\n", "verify", "--hash", "5256ec18f11624025905d057d6befb03d77b243511ac5f77ed5e0221ce6d84b5")
	if code != 1 || !strings.Contains(stdout, "near misses not searched") {
		t.Fatalf("exit %d, stdout %q", code, stdout)
	}
}
