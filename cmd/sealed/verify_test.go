package main

import (
	"bytes"
	"os"
	"reflect"
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
	if want := (verifyOptions{Hash: "H", TextSet: true}); !reflect.DeepEqual(*got, want) {
		t.Fatalf("options %+v, want %+v", *got, want)
	}
}

// TestVerifyCheckSwitch: -c is a switch, as sha256sum's, so its options
// may follow it (newcomer trial finding 12: "-c --strict SUMS" took
// --strict for the list); the lists are the arguments, stdin when none.
func TestVerifyCheckSwitch(t *testing.T) {
	for _, tc := range []struct {
		args  []string
		lists []string
	}{
		{[]string{"-c", "--strict", "SUMS"}, []string{"SUMS"}},
		{[]string{"-c", "SUMS", "--strict"}, []string{"SUMS"}},
		{[]string{"--strict", "--check", "A", "B"}, []string{"A", "B"}},
		{[]string{"-c", "--strict"}, []string{"-"}},
		{[]string{"-c", "-", "--strict"}, []string{"-"}},
	} {
		var got *verifyOptions
		a := &app{in: strings.NewReader(""), out: &bytes.Buffer{}, errOut: &bytes.Buffer{}}
		c := verifyCmd(a, func(_ *app, o *verifyOptions) error { got = o; return nil })
		c.SetArgs(tc.args)
		if err := c.Execute(); err != nil {
			t.Fatalf("%q: %v", tc.args, err)
		}
		if !got.Check || !got.Strict || !reflect.DeepEqual(got.Lists, tc.lists) {
			t.Errorf("%q: options %+v, want -c --strict with lists %q", tc.args, *got, tc.lists)
		}
	}
	code, _, stderr := runSealed(t, "", "verify", "--check=SUMS")
	if code != 2 || !strings.HasPrefix(stderr, `sealed: --check: "SUMS" is not true or false: -c is a switch, as in sha256sum, and the lists are arguments (sealed verify -c SUMS)`+"\nhint: ") {
		t.Errorf("--check=SUMS: exit %d, %q", code, stderr)
	}
	code, _, stderr = runSealed(t, "", "verify", "SUMS")
	if code != 2 || !strings.HasPrefix(stderr, `sealed: verify takes no arguments (got "SUMS")`) {
		t.Errorf("verify SUMS without -c: exit %d, %q", code, stderr)
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
		// Tagged lines as GNU coreutils 9.1 reads them (trial 21, each
		// run through sha256sum -c): no space before "(", none or any
		// around "=", the path up to the last ")"; a blank after the hash
		// is part of the hash, so the line is improperly formatted.
		{"SHA256 (x)= " + h, h, "x", true},
		{"SHA256(x) = " + h, h, "x", true},
		{"SHA256 (x)=" + h, h, "x", true},
		{"SHA256 (x)\t=\t" + h, h, "x", true},
		{"SHA256 (a) = b) = " + h, h, "a) = b", true},
		{"SHA256 (x) = " + h + " ", "", "", false},
		{"SHA256 (x) " + h, "", "", false},
		{"SHA256  (x) = " + h, "", "", false},
		{`\` + h + `  a\\b\nc`, h, "a\\b\nc", true},
		// One blank between hash and name, and leading blanks: GNU
		// coreutils 9.1 accepts them (printf '%s a.txt\n' "$h" |
		// sha256sum -c - prints "a.txt: OK"; so does a tab, and so do
		// leading spaces before the hash or its backslash).
		{h + " hello.txt", h, "hello.txt", true},
		{h + "\thello.txt", h, "hello.txt", true},
		{"   " + h + "  hello.txt", h, "hello.txt", true},
		// "HEX  " and "HEX *": GNU reads the one character left as the
		// name (sha256sum -c says "' ': No such file or directory").
		{h + "  ", h, " ", true},
		{h + " *", h, "*", true},
		{h + " ", h, "", false},
		{h + "hello.txt", "", "", false},
		{"", "", "", false},
	} {
		var p sumListParser
		hash, path, ok := p.parse(tc.line)
		if hash != tc.hash || path != tc.path || ok != tc.ok {
			t.Errorf("parse(%q) = %q, %q, %v; want %q, %q, %v", tc.line, hash, path, ok, tc.hash, tc.path, tc.ok)
		}
	}
}

// TestParseSumListForm checks the first line fixes the list's form, as
// GNU coreutils 9.1 does:
//
//	printf '%s a.txt\n%s  a.txt\n' $h $h | sha256sum -c -
//	    a.txt: OK /  a.txt: FAILED (the second line names " a.txt")
//	printf '%s  a.txt\n%s a.txt\n' $h $h | sha256sum -c -
//	    a.txt: OK, and "1 line is improperly formatted"
//	printf '%s a.txt\n%s *a.txt\n' $h $h | sha256sum -c -
//	    a.txt: OK, '*a.txt': No such file or directory
func TestParseSumListForm(t *testing.T) {
	h := strings.Repeat("ab", 32)
	for _, tc := range []struct {
		lines []string
		want  []string // the names; "!" for an improper line
	}{
		{[]string{h + " a.txt", h + "  a.txt"}, []string{"a.txt", " a.txt"}},
		{[]string{h + "  a.txt", h + " a.txt"}, []string{"a.txt", "!"}},
		{[]string{h + " a.txt", h + " *a.txt"}, []string{"a.txt", "*a.txt"}},
		{[]string{h + " *a.txt", h + "\ta.txt"}, []string{"a.txt", "!"}},
	} {
		var p sumListParser
		for i, line := range tc.lines {
			_, path, ok := p.parse(line)
			if !ok {
				path = "!"
			}
			if path != tc.want[i] {
				t.Errorf("%q: line %d names %q; want %q", tc.lines, i+1, path, tc.want[i])
			}
		}
	}
}

// TestCheckedName checks the names printed on -c result lines against
// GNU coreutils 9.1 (sha256sum NAME | sha256sum -c): only a name with a
// newline is escaped, then its backslashes too, and the line gets a
// leading backslash; a carriage return alone is printed as is.
func TestCheckedName(t *testing.T) {
	for _, tc := range []struct{ name, want string }{
		{"a.txt", "a.txt"},
		{`b\c`, `b\c`},          // b\c: OK
		{"r\rx", "r\rx"},        // r^Mx: OK (cat -A)
		{"n\nb\\s", `\n\nb\\s`}, // \n\nb\\s: OK
		{"q\n\rz", "\\q\\n\rz"}, // \q\n^Mz: OK (cat -A)
	} {
		if got := checkedName(tc.name); got != tc.want {
			t.Errorf("checkedName(%q) = %q; want %q", tc.name, got, tc.want)
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

// TestVerifyListEscapesNames checks a -c result line for a file whose
// name holds a newline is one escaped line, not a forged "OK" line, as GNU
// coreutils 9.1 prints it:
//
//	printf x > "$(printf 'report.pdf: OK\nother')"
//	printf '\\%064d  report.pdf: OK\\nother\n' 0 | sha256sum -c -
//	\report.pdf: OK\nother: FAILED
func TestVerifyListEscapesNames(t *testing.T) {
	t.Chdir(t.TempDir())
	if err := os.WriteFile("report.pdf: OK\nother", []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	list := `\` + strings.Repeat("0", 64) + `  report.pdf: OK\nother` + "\n"
	code, stdout, stderr := runSealed(t, list, "verify", "-c", "-")
	if code != 1 || stdout != `\report.pdf: OK\nother: FAILED`+"\n" {
		t.Errorf("exit %d, stdout %q, stderr %q; want exit 1 and GNU's line", code, stdout, stderr)
	}
	// A missing file with such a name: one line on stdout and on stderr.
	list = `\` + strings.Repeat("0", 64) + `  gone: OK\nx` + "\n"
	code, stdout, stderr = runSealed(t, list, "verify", "-c", "-")
	if code != 1 || stdout != `\gone: OK\nx: FAILED open or read`+"\n" || !strings.HasPrefix(stderr, `sealed: \gone: OK\nx: no such file or directory`+"\n") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}

// TestVerifyListLongLine: a -c list with a line over the 1 MiB a
// checksum line is read into is bad input (exit 2) naming the line, never
// the scanner's "token too long".
func TestVerifyListLongLine(t *testing.T) {
	list := strings.Repeat("0", 64) + "  ok.txt\n" + strings.Repeat("a", 2<<20) + "\n"
	code, _, stderr := runSealed(t, list, "verify", "-c", "-")
	if code != 2 || !strings.Contains(stderr, "line 2 is longer than 1 MiB") || strings.Contains(stderr, "token") {
		t.Errorf("exit %d, stderr %q; want exit 2 naming line 2", code, stderr)
	}
}
