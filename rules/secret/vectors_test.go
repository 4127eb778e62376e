package secret

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/sealedhq/sealed/internal/testvector"
)

// readVector reads an age-style vector file: "key: value" header lines, a
// blank line, then the raw bytes.
func readVector(t *testing.T, path string) (map[string]string, []byte) {
	t.Helper()
	f, err := testvector.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	return f.Map(), f.Body
}

func TestDeclarationVectors(t *testing.T) {
	files, err := filepath.Glob("testdata/declarations/*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("no declaration vectors: %v", err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			h, text := readVector(t, f)
			d, err := ParseDeclaration(h["action"], text)
			if h["want"] == "ambiguous" {
				if err == nil {
					t.Fatalf("parsed as %+v, want an ambiguous declaration", d)
				}
				if !strings.HasPrefix(err.Error(), "ambiguous declaration: ") {
					t.Fatalf("error %q does not start with the reason \"ambiguous declaration\"", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, b := range d.Bids {
				got = append(got, b.Amount+"@"+b.Lot)
			}
			for _, c := range d.Hand {
				got = append(got, c.String())
			}
			if strings.Join(got, " ") != h["want"] {
				t.Fatalf("got %q, want %q", strings.Join(got, " "), h["want"])
			}
		})
	}
}

func TestParseDeclarationUnknownType(t *testing.T) {
	if _, err := ParseDeclaration("spy", []byte("bid 1 on lot 1")); err == nil {
		t.Fatal("a declaration of an action type with no grammar was accepted")
	}
}
