package commit

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/sealedhq/sealed/internal/testvector"
)

// vector is one file of testdata/verify: "key: value" header lines (lines
// starting with "#" are comments holding the sha256sum command that made
// the commitment), a blank line, then the exact bytes of the reveal.
type vector struct {
	name       string
	commitment string
	expect     string   // "match", "mismatch" or "input error"
	hints      []string // hint names, in order
	body       []byte
}

func readVectors(t *testing.T, dir string) []vector {
	t.Helper()
	files, err := testvector.Glob(filepath.Join(dir, "*.txt"))
	if err != nil {
		t.Fatal(err)
	}
	var vs []vector
	for _, f := range files {
		v := vector{name: filepath.Base(f.Path), body: f.Body,
			commitment: f.Get("commitment"), expect: f.Get("expect"), hints: f.All("hint")}
		for k := range f.Header {
			if k != "commitment" && k != "expect" && k != "hint" {
				t.Fatalf("%s: unknown header %q", f.Path, k)
			}
		}
		vs = append(vs, v)
	}
	return vs
}

// TestVerifyVectors checks every vector of testdata/verify: the verdict and
// the exact list of hint names.
func TestVerifyVectors(t *testing.T) {
	for _, v := range readVectors(t, "testdata/verify") {
		t.Run(v.name, func(t *testing.T) {
			c, err := ParseCommitment(v.commitment)
			if v.expect == "input error" {
				if err == nil {
					t.Fatalf("ParseCommitment(%q) accepted it, want an input error", v.commitment)
				}
				return
			}
			if err != nil {
				t.Fatalf("ParseCommitment(%q): %v", v.commitment, err)
			}
			r := Verify(c, v.body)
			if got := map[bool]string{true: "match", false: "mismatch"}[r.Match]; got != v.expect {
				t.Fatalf("verdict %s, want %s", got, v.expect)
			}
			var names []string
			for _, h := range r.Hints {
				names = append(names, h.Name)
				if Sum(h.Text) != c {
					t.Errorf("hint %q: its text does not hash to the commitment", h.Name)
				}
			}
			if strings.Join(names, "|") != strings.Join(v.hints, "|") {
				t.Errorf("hints %q, want %q", names, v.hints)
			}
			if r.Match && r.Hints != nil {
				t.Errorf("hints on a match: %v", r.Hints)
			}
		})
	}
}
