package commit

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
	files, err := filepath.Glob(filepath.Join(dir, "*.txt"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no vectors in %s: %v", dir, err)
	}
	var vs []vector
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		head, body, ok := bytes.Cut(raw, []byte("\n\n"))
		if !ok {
			t.Fatalf("%s: no blank line after the headers", f)
		}
		v := vector{name: filepath.Base(f), body: body}
		for _, line := range strings.Split(string(head), "\n") {
			if strings.HasPrefix(line, "#") {
				continue
			}
			k, val, ok := strings.Cut(line, ": ")
			if !ok {
				t.Fatalf("%s: bad header line %q", f, line)
			}
			switch k {
			case "commitment":
				v.commitment = val
			case "expect":
				v.expect = val
			case "hint":
				v.hints = append(v.hints, val)
			default:
				t.Fatalf("%s: unknown header %q", f, k)
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
