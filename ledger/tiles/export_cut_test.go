package tiles_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/sealedhq/sealed/ledger/tiles"
)

// TestExportRewritesCutFiles: an export interrupted by a crash after a
// rename but before the file's bytes reached the disk leaves an empty or
// cut file at a tile's path. The next export writes it again, whole,
// rather than keeping it (and the checkpoint over it) for good: a hash
// tile whose size is not 32 bytes a hash, a bundle shorter than the
// 2-byte lengths of its entries.
func TestExportRewritesCutFiles(t *testing.T) {
	ctx := context.Background()
	ro, out := exportedLedger(t, "example.com/cut", 300, true)
	cut := map[string]int64{
		"tile/0/000":            0,   // a full hash tile: 8,192 bytes
		"tile/0/001.p/44":       700, // a partial one: 44 hashes, 1,408 bytes
		"tile/entries/000":      0,   // a full bundle
		"tile/entries/001.p/44": 40,  // under 2 bytes an entry
	}
	want := map[string][]byte{}
	for f, size := range cut {
		p := filepath.Join(out, filepath.FromSlash(f))
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		want[f] = b
		if err := os.Truncate(p, size); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := tiles.Export(ctx, ro.Store(), out, nil); err != nil {
		t.Fatal(err)
	}
	for f, b := range want {
		got, err := os.ReadFile(filepath.Join(out, filepath.FromSlash(f)))
		if err != nil || !bytes.Equal(got, b) {
			t.Errorf("%s: %d bytes after the second export (%v); want the %d written first", f, len(got), err, len(b))
		}
	}
}
