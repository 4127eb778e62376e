package tiles_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	"io/fs"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sealedhq/sealed/ledger"
	"github.com/sealedhq/sealed/ledger/stores"
	"github.com/sealedhq/sealed/ledger/tiles"
)

// TestExportSQLite: the export of a SQLite ledger (read through the
// store's chunk fast path) is, file for file, what the handler serves
// (read row by row), and every file the latest checkpoint needs is there.
func TestExportSQLite(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db, key := filepath.Join(dir, "l.db"), filepath.Join(dir, "l.key")
	if _, err := stores.Init(ctx, db, "example.com/export", key); err != nil {
		t.Fatal(err)
	}
	l, err := stores.Open(ctx, db, ledger.Options{KeyFile: key, CheckpointInterval: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 700)
	for i := range 700 {
		go func() {
			_, err := l.Append(ctx, []byte(fmt.Sprintf(`{"kind":"commit","player":"p%d","action_type":"bid","channel":"#a","commitment":"%x"}`, i, sha256.Sum256([]byte(fmt.Sprint(i))))))
			done <- err
		}()
	}
	for range 700 {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
	l.Close()
	ro, err := stores.Open(ctx, db, ledger.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	out := filepath.Join(dir, "site")
	rep, err := tiles.Export(ctx, ro.Store(), out, nil)
	if err != nil || rep.Size != 700 {
		t.Fatalf("Export: %+v, %v", rep, err)
	}
	srv := httptest.NewServer(&tiles.Handler{Store: ro.Store()})
	defer srv.Close()
	var files []string
	filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(out, p)
			files = append(files, filepath.ToSlash(rel))
		}
		return err
	})
	want := "checkpoint tile/0/000 tile/0/001 tile/0/002.p/188 tile/1/000.p/2 tile/entries/000 tile/entries/001 tile/entries/002.p/188"
	if got := strings.Join(files, " "); got != want {
		t.Errorf("files: %s\nwant %s", got, want)
	}
	for _, f := range files {
		b, _ := os.ReadFile(filepath.Join(out, f))
		_, served := get(t, srv.URL+"/"+f)
		if !bytes.Equal(b, served) {
			t.Errorf("%s: exported %d bytes differ from the %d served", f, len(b), len(served))
		}
	}
}
