package sidebyside

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sealedhq/sealed/ledger"
	"github.com/sealedhq/sealed/ledger/sqlitestore"
	"github.com/sealedhq/sealed/ledger/stores"
)

// cachedLedger returns the database path of a ledger of entries 0..n-1
// of NewEntry(k, players), kept in cacheDir/name-n between runs. It is
// built (64 concurrent writers, then closed, which signs the checkpoint
// of the whole tree) when missing, incomplete, made by another entry
// generator or by a sealed of another SQLite schema version (the audit
// opens it read-only, which would not migrate it), or when the working
// tree's sealed cannot open it.
func cachedLedger(ctx context.Context, cacheDir, name string, n, players int, out io.Writer) (string, error) {
	dir := filepath.Join(cacheDir, fmt.Sprintf("%s-%d", name, n))
	db, marker := filepath.Join(dir, "ledger.db"), filepath.Join(dir, "complete")
	want := fmt.Sprintf("%s players=%d n=%d schema=%d\n", entryFormat, players, n, sqlitestore.SchemaVersion())
	if b, err := os.ReadFile(marker); err == nil && string(b) == want {
		l, err := stores.Open(ctx, db, ledger.Options{ReadOnly: true})
		if err == nil {
			size, err := l.Size()
			l.Close()
			if err == nil && size == int64(n) {
				return db, nil
			}
		}
	}
	if err := os.RemoveAll(dir); err != nil {
		return "", err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	fmt.Fprintf(out, "   building the %d-entry ledger in %s (once; kept for later runs)\n", n, dir)
	t0 := time.Now()
	l, err := newSealedLedger(ctx, dir, ledger.Options{})
	if err != nil {
		return "", err
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for range 64 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				k := next.Add(1) - 1
				if k >= int64(n) {
					return
				}
				e := NewEntry(int(k), players)
				if _, err := l.Append(ctx, e.Body); err != nil {
					errs <- fmt.Errorf("building the %d-entry ledger: entry %d: %w", n, k, err)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	if err := <-errs; err != nil {
		l.Close()
		return "", err
	}
	if err := l.Close(); err != nil {
		return "", err
	}
	if err := os.WriteFile(marker, []byte(want), 0o600); err != nil {
		return "", err
	}
	fmt.Fprintf(out, "   built in %.1fs\n", time.Since(t0).Seconds())
	return db, nil
}
