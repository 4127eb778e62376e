package commit

import (
	"strings"
	"testing"
)

// helloSHA256 is `printf hello | sha256sum`.
const helloSHA256 = "2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824"

func TestSumHello(t *testing.T) {
	if got := Sum([]byte("hello")).String(); got != helloSHA256 {
		t.Fatalf("Sum(hello) = %s, want %s", got, helloSHA256)
	}
}

func TestParseCommitmentAccepts(t *testing.T) {
	for _, s := range []string{
		helloSHA256,
		strings.ToUpper(helloSHA256),
		"sha256:" + helloSHA256,
		"SHA256:" + strings.ToUpper(helloSHA256),
		"  \t" + helloSHA256 + "\r\n",
		"sha256: " + helloSHA256,
	} {
		c, err := ParseCommitment(s)
		if err != nil {
			t.Errorf("ParseCommitment(%q): %v", s, err)
			continue
		}
		if c.String() != helloSHA256 {
			t.Errorf("ParseCommitment(%q) = %s", s, c)
		}
	}
}

// TestParseCommitmentRejects checks each kind of bad hash gets an error that
// says what it saw. The digests were made with `printf hello | md5sum`,
// `sha1sum`, `sha512sum`, and `printf hello | sha256sum | xxd -r -p | base64`.
func TestParseCommitmentRejects(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", "empty hash"},
		{"   ", "empty hash"},
		{"md5:5d41402abc4b2a76b9719d911017c592", `prefix "md5:"`},
		{"sha1:aaf4c61ddcc5e8a2dabede0f3b482cd9aea9434d", `prefix "sha1:"`},
		{"aaf4c61ddcc5e8a2dabede0f3b482cd9aea9434d", "40 hex digits, the length of SHA-1"},
		{"9b71d224bd62f3785d96d46ad3ea3d73319bfbc2890caadae2dff72519673ca72323c3d99ba5c11d7c7acc6e14b8c5da0c4663475c2e5c3adef46f73bcdec043", "128 hex digits, the length of SHA-512"},
		{"LPJNul+wow4m6DsqxbninhsWHlwfp0JecwQzYpOLmCQ=", "looks like base64"},
		// Newcomer trial finding 13: a 0x prefix was "base64"; sha-256:
		// was "only SHA-256 commitments are accepted".
		{"0x2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824", `hash starts with "0x", a programming-language prefix, before 64 hex digits; expected 64 hex digits of SHA-256 without it`},
		{"0X2CF24DBA", `starts with "0X"`},
		{"sha-256:2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824", `hash has prefix "sha-256:", another spelling of SHA-256; expected 64 hex digits, optionally prefixed "sha256:" (write "sha-256:" as "sha256:" or drop it)`},
		{"SHA_256:2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824", `"SHA_256:", another spelling of SHA-256`},
		{"sha2-256:2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824", `"sha2-256:", another spelling of SHA-256`},
		{"sha-512:2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824", `prefix "sha-512:": only SHA-256 commitments are accepted`},
		{"2cf24dba5fb0a30e26e83b2ac5b9e29e 1b161e5c1fa7425e73043362938b9824", "whitespace inside at character 33"},
		// printf %s hello | sha256sum: its whole line, pasted (trial 5a).
		{"2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824  -", `hash is followed by "-", as a line of sha256sum's output is`},
		{"2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824 *bid.txt", `followed by "*bid.txt"`},
		{"2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b982", "63 hex digits"},
		{"zz", "'z' at character 1"},
		{"2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b982g", "'g' at character 64"},
	} {
		_, err := ParseCommitment(tc.in)
		if err == nil {
			t.Errorf("ParseCommitment(%q) accepted it", tc.in)
			continue
		}
		if !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "expected") {
			t.Errorf("ParseCommitment(%q) error %q, want it to contain %q and say what is expected", tc.in, err, tc.want)
		}
	}
}

func TestCommitmentJSONText(t *testing.T) {
	var c Commitment
	if err := c.UnmarshalText([]byte("sha256:" + helloSHA256)); err != nil {
		t.Fatal(err)
	}
	b, _ := c.MarshalText()
	if string(b) != helloSHA256 {
		t.Fatalf("MarshalText = %s", b)
	}
}
