package stores_test

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/sealedhq/sealed/internal/pgtest"
	"github.com/sealedhq/sealed/ledger"
	"github.com/sealedhq/sealed/ledger/pgstore"
	"github.com/sealedhq/sealed/ledger/stores"
)

// copySourceSize is the size of the source ledger of the copy tests:
// more than one of Copy's chunks, so that a copy stopped after its first
// chunk has written entries.
const copySourceSize = 5000

var copySource struct {
	once sync.Once
	dir  string // removed by TestMain
	path string
	err  error
}

func TestMain(m *testing.M) {
	code := m.Run()
	if copySource.dir != "" {
		os.RemoveAll(copySource.dir)
	}
	os.Exit(code)
}

// copySourceLedger returns a SQLite ledger of copySourceSize commit
// entries, built once per test binary (in a directory TestMain removes).
func copySourceLedger(t *testing.T) string {
	t.Helper()
	copySource.once.Do(func() {
		ctx := context.Background()
		dir, err := os.MkdirTemp("", "sealed-copy-source-*")
		if err != nil {
			copySource.err = err
			return
		}
		copySource.dir = dir
		name := filepath.Join(dir, "src.db")
		if _, err := stores.Init(ctx, name, "copy.example/src", filepath.Join(dir, "src.key")); err != nil {
			copySource.err = err
			return
		}
		l, err := stores.Open(ctx, name, ledger.Options{KeyFile: filepath.Join(dir, "src.key")})
		if err != nil {
			copySource.err = err
			return
		}
		var wg sync.WaitGroup
		errs := make(chan error, 16)
		for w := range 16 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := w; i < copySourceSize; i += 16 {
					if _, err := l.Append(ctx, commitBody(fmt.Sprintf("copy-%d", i))); err != nil {
						errs <- err
						return
					}
				}
			}()
		}
		wg.Wait()
		close(errs)
		copySource.err = errors.Join(<-errs, l.Close())
		copySource.path = name
	})
	if copySource.err != nil {
		t.Fatal(copySource.err)
	}
	return copySource.path
}

// openCopySource opens the source ledger read-only.
func openCopySource(t *testing.T) ledger.Store {
	t.Helper()
	s, err := stores.OpenStore(context.Background(), copySourceLedger(t), true, false)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// stopAfterFirstChunk returns a context and a progress callback that
// cancels it once the copy has written its first chunk of entries (an
// interrupted copy, with rows written).
func stopAfterFirstChunk() (context.Context, func(ledger.CopyStage, int64, int64)) {
	ctx, cancel := context.WithCancel(context.Background())
	return ctx, func(s ledger.CopyStage, done, total int64) {
		if s == ledger.CopyCopying && done > 0 && done < total {
			cancel()
		}
	}
}

// dirNames lists the names in dir.
func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return names
}

// TestCopySQLiteAtomic: a copy to SQLite leaves the finished file at its
// name and nothing else; one that stops after writing entries leaves
// nothing at all; a file at the destination is never replaced.
func TestCopySQLiteAtomic(t *testing.T) {
	src := openCopySource(t)
	dir := t.TempDir()
	to := filepath.Join(dir, "copy.db")

	ctx, progress := stopAfterFirstChunk()
	if _, err := stores.Copy(ctx, src, to, progress); !errors.Is(err, context.Canceled) {
		t.Fatalf("interrupted copy: %v", err)
	}
	if names := dirNames(t, dir); len(names) != 0 {
		t.Fatalf("an interrupted copy left %q", names)
	}

	rep, err := stores.Copy(context.Background(), src, to, nil)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Entries != copySourceSize || !rep.Audit.OK {
		t.Errorf("copy: %+v", rep)
	}
	if names := dirNames(t, dir); !slices.Equal(names, []string{"copy.db"}) {
		t.Errorf("after the copy the directory holds %q", names)
	}
	l, err := stores.Open(context.Background(), to, ledger.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	a, err := l.Audit(context.Background(), nil)
	l.Close()
	if err != nil || !a.OK || a.Size != copySourceSize {
		t.Fatalf("audit of the copy: %+v, %v", a, err)
	}

	before, _ := os.ReadFile(to)
	names := dirNames(t, dir) // the audit's reader added -wal and -shm
	if _, err := stores.Copy(context.Background(), src, to, nil); !errors.Is(err, fs.ErrExist) {
		t.Errorf("a copy to an existing file: %v, want fs.ErrExist", err)
	}
	if after, _ := os.ReadFile(to); string(after) != string(before) {
		t.Error("the existing file was changed")
	}
	if after := dirNames(t, dir); !slices.Equal(after, names) {
		t.Errorf("a refused copy changed the directory from %q to %q", names, after)
	}
}

// TestPublishNoClobber: the rename into place never replaces a file that
// appeared at the destination meanwhile.
func TestPublishNoClobber(t *testing.T) {
	dir := t.TempDir()
	tmp, to := filepath.Join(dir, "c.db.copying-1"), filepath.Join(dir, "c.db")
	if err := os.WriteFile(tmp, []byte("copy"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, []byte("theirs"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := stores.Publish(tmp, to); !errors.Is(err, fs.ErrExist) {
		t.Errorf("publish over a file: %v, want fs.ErrExist", err)
	}
	if b, _ := os.ReadFile(to); string(b) != "theirs" {
		t.Errorf("the file at the destination is now %q", b)
	}
}

// failingStore fails the write numbered failAt: a copy killed there.
type failingStore struct {
	ledger.Store
	writes, failAt int
}

func (f *failingStore) Write(ctx context.Context, fn func(ledger.WriteTx) error) error {
	if f.writes++; f.writes == f.failAt {
		return errors.New("killed")
	}
	return f.Store.Write(ctx, fn)
}

// TestCopyPostgresAtomic: a copy into PostgreSQL that stops after writing
// entries drops all it made; the rows a killed copy left (no identity
// rows: no ledger) are refused by the next copy, never dropped (a ledger
// whose identity rows were deleted looks the same), and once dropped by
// hand the copy completes; a copy
// is refused while another holds the copy lock, and into a database that
// holds a ledger, which stays as it was.
func TestCopyPostgresAtomic(t *testing.T) {
	srv := pgtest.Start(t, pgtest.Options{})
	src := openCopySource(t)
	url := srv.NewDatabase(t)

	ctx, progress := stopAfterFirstChunk()
	if _, err := stores.Copy(ctx, src, url, progress); !errors.Is(err, context.Canceled) {
		t.Fatalf("interrupted copy: %v", err)
	}
	if n := pgtest.CountTables(t, url); n != 0 {
		t.Fatalf("an interrupted copy left %d tables", n)
	}

	// A copy killed after its first chunk of entries (ledger.Copy alone:
	// nothing cleans up after it).
	dst, err := pgstore.Open(context.Background(), url, pgstore.Options{Create: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ledger.Copy(context.Background(), src, &failingStore{Store: dst, failAt: 2}, nil); err == nil {
		t.Fatal("the killed copy succeeded")
	}
	dst.Close()
	if _, err := stores.Open(context.Background(), url, ledger.Options{ReadOnly: true}); !errors.Is(err, ledger.ErrNotLedger) {
		t.Fatalf("what a killed copy left opens: %v", err)
	}
	if _, err := stores.Init(context.Background(), url, "other.example/x", filepath.Join(t.TempDir(), "k")); !errors.Is(err, ledger.ErrUnfinished) {
		t.Errorf("init over what a killed copy left: %v, want ErrUnfinished", err)
	}

	lock, err := pgstore.LockCopy(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := stores.Copy(context.Background(), src, url, nil); err == nil || !strings.Contains(err.Error(), "another copy into this database is running") {
		t.Errorf("a copy while another holds the lock: %v", err)
	}
	lock.Release()

	// What a killed copy left is refused, never dropped (a ledger whose
	// identity rows were deleted looks the same); dropped by hand, the
	// database takes the copy.
	if _, err := stores.Copy(context.Background(), src, url, nil); !errors.Is(err, ledger.ErrUnfinished) {
		t.Fatalf("a copy over what a killed copy left: %v, want ErrUnfinished", err)
	}
	if n := pgtest.CountTables(t, url); n == 0 {
		t.Fatal("a copy dropped the rows a killed copy left")
	}
	dropAll(t, url)
	rep, err := stores.Copy(context.Background(), src, url, nil)
	if err != nil {
		t.Fatalf("a copy once those rows are dropped: %v", err)
	}
	if rep.Entries != copySourceSize || !rep.Audit.OK {
		t.Errorf("copy: %+v", rep)
	}

	if _, err := stores.Copy(context.Background(), src, url, nil); !errors.Is(err, ledger.ErrHoldsLedger) {
		t.Errorf("a copy into a database holding a ledger: %v, want ErrHoldsLedger", err)
	}
	l, err := stores.Open(context.Background(), url, ledger.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if a, err := l.Audit(context.Background(), nil); err != nil || !a.OK || a.Size != copySourceSize {
		t.Errorf("audit of the copy after a refused copy: %+v, %v", a, err)
	}
}

// dropAll drops every table and function of the database at url's
// public schema, as an operator removing a stopped copy's rows would.
func dropAll(t *testing.T, url string) {
	t.Helper()
	if err := pgtest.Exec(t, url, `DROP SCHEMA public CASCADE; CREATE SCHEMA public`); err != nil {
		t.Fatal(err)
	}
}
