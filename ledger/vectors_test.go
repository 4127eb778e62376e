package ledger_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sealedhq/sealed/ledger"
)

// The RFC 6962 proof vectors of transparency-dev/merkle (Apache-2.0,
// testdata/merkle/README.md): every happy path must verify and every
// other vector must be rejected with an error, never a panic.

type inclusionVector struct {
	LeafIdx  uint64   `json:"leafIdx"`
	TreeSize uint64   `json:"treeSize"`
	Root     []byte   `json:"root"`
	LeafHash []byte   `json:"leafHash"`
	Proof    [][]byte `json:"proof"`
	Desc     string   `json:"desc"`
	WantErr  bool     `json:"wantErr"`
}

type consistencyVector struct {
	Size1   uint64   `json:"size1"`
	Size2   uint64   `json:"size2"`
	Root1   []byte   `json:"root1"`
	Root2   []byte   `json:"root2"`
	Proof   [][]byte `json:"proof"`
	Desc    string   `json:"desc"`
	WantErr bool     `json:"wantErr"`
}

func vectorFiles(t *testing.T, dir string) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(filepath.Join("testdata", "merkle", "testdata", dir), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".json") {
			files = append(files, p)
		}
		return err
	})
	if err != nil || len(files) == 0 {
		t.Fatalf("no vectors in %s: %v", dir, err)
	}
	return files
}

// vectorCase is what the two vector kinds share.
type vectorCase struct {
	Desc    string `json:"desc"`
	WantErr bool   `json:"wantErr"`
}

// checkVectors decodes every vector file of dir into a V and runs verify
// on it: a vector that wants an error must get one, every other must
// verify; at least five must be happy paths.
func checkVectors[V any](t *testing.T, dir string, verify func(*V) error, meta func(*V) vectorCase) {
	t.Helper()
	happy := 0
	for _, file := range vectorFiles(t, dir) {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var v V
		if err := json.Unmarshal(data, &v); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		err, m := verify(&v), meta(&v)
		switch {
		case m.WantErr && err == nil:
			t.Errorf("%s (%s): accepted, want an error", file, m.Desc)
		case !m.WantErr:
			happy++
			if err != nil {
				t.Errorf("%s (%s): %v", file, m.Desc, err)
			}
		}
	}
	if happy < 5 {
		t.Errorf("only %d happy paths in %s", happy, dir)
	}
}

func TestInclusionVectors(t *testing.T) {
	checkVectors(t, "inclusion",
		func(v *inclusionVector) error {
			return ledger.VerifyInclusion(v.LeafIdx, v.TreeSize, v.LeafHash, v.Root, v.Proof)
		},
		func(v *inclusionVector) vectorCase { return vectorCase{v.Desc, v.WantErr} })
}

func TestConsistencyVectors(t *testing.T) {
	checkVectors(t, "consistency",
		func(v *consistencyVector) error {
			return ledger.VerifyConsistency(v.Size1, v.Size2, v.Root1, v.Root2, v.Proof)
		},
		func(v *consistencyVector) vectorCase { return vectorCase{v.Desc, v.WantErr} })
}
