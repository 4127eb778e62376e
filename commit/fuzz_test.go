package commit

import (
	"strings"
	"testing"
)

// FuzzParseCommitment: no panic on any input; an accepted hash prints back
// as 64 lowercase hex digits that parse to the same commitment, and the
// input held those digits (in some case).
func FuzzParseCommitment(f *testing.F) {
	for _, s := range []string{
		helloSHA256, "sha256:" + helloSHA256, "md5:5d41402abc4b2a76b9719d911017c592",
		"LPJNul+wow4m6DsqxbninhsWHlwfp0JecwQzYpOLmCQ=", " \t\n", "sha256:", ":", "{}", "\xff\xfe",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := ParseCommitment(s)
		if err != nil {
			if err.Error() == "" {
				t.Fatal("empty error")
			}
			return
		}
		if !strings.Contains(strings.ToLower(s), c.String()) {
			t.Fatalf("ParseCommitment(%q) = %s, which the input does not hold", s, c)
		}
		if c2, err := ParseCommitment(c.String()); err != nil || c2 != c {
			t.Fatalf("round trip of %s: %v, %v", c, c2, err)
		}
	})
}

// FuzzVerify: no panic on any input; a reveal matches its own SHA-256; every
// hint on a mismatch names a text that does hash to the commitment.
func FuzzVerify(f *testing.F) {
	f.Add([]byte("hazelnut, you fool!"), []byte("hazelnut, you fool!\n"))
	f.Add([]byte("test\n\ntest"), []byte("test\r\n\r\ntest"))
	f.Add([]byte("e\xcc\x81le\xcc\x81phant"), []byte("\xc3\xa9l\xc3\xa9phant"))
	f.Add([]byte("\xef\xbb\xbfI bid 7 coins."), []byte("I bid 7 coins."))
	f.Add([]byte("\xff\r\n"), []byte(""))
	f.Fuzz(func(t *testing.T, reveal, posted []byte) {
		if r := Verify(Sum(reveal), reveal); !r.Match || r.Hints != nil {
			t.Fatalf("Verify of its own hash: %+v", r)
		}
		c := Sum(posted)
		r := Verify(c, reveal)
		if r.Match != (string(reveal) == string(posted)) {
			t.Fatalf("Match = %v for %q vs %q", r.Match, reveal, posted)
		}
		for _, h := range r.Hints {
			if Sum(h.Text) != c {
				t.Fatalf("hint %q does not hash to the commitment", h.Name)
			}
		}
	})
}
