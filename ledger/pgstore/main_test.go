package pgstore_test

import (
	"bufio"
	"context"
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/sealedhq/sealed/internal/pgtest"
	"github.com/sealedhq/sealed/ledger"
	"github.com/sealedhq/sealed/ledger/pgstore"
	"github.com/sealedhq/sealed/ledger/stores"
)

// The test binary doubles as the writer process of the multi-process
// tests: with writerEnv set, TestMain runs writerMain instead of the
// tests.
const (
	writerEnv    = "SEALED_PGSTORE_WRITER" // the ledger URL
	writerKey    = "SEALED_PGSTORE_KEY"    // the key file
	writerPrefix = "SEALED_PGSTORE_PREFIX" // makes the bodies of one writer distinct
	writerCount  = "SEALED_PGSTORE_COUNT"  // appends to make (0: until killed)
)

func TestMain(m *testing.M) {
	if url := os.Getenv(writerEnv); url != "" {
		if err := writerMain(url); err != nil {
			fmt.Fprintln(os.Stderr, "writer:", err)
			os.Exit(3)
		}
		os.Exit(0)
	}
	pgtest.Main(m)
}

// writerConcurrency is how many goroutines of a writer process append at
// once, each waiting for its index before the next append.
const writerConcurrency = 64

// writerMain opens the ledger at url and appends commit entries
// prefix-0, prefix-1, ... from writerConcurrency goroutines. After each
// Append returns it prints one line "INDEX BODY" to standard output, in
// one write (so a killed writer never leaves half a line).
func writerMain(url string) error {
	ctx := context.Background()
	prefix := os.Getenv(writerPrefix)
	count, err := strconv.ParseInt(os.Getenv(writerCount), 10, 64)
	if err != nil {
		return fmt.Errorf("%s: %v", writerCount, err)
	}
	l, err := openLedger(ctx, url, ledger.Options{KeyFile: os.Getenv(writerKey)})
	if err != nil {
		return err
	}
	var next atomic.Int64
	var mu sync.Mutex
	out := bufio.NewWriter(os.Stdout)
	var wg sync.WaitGroup
	errs := make(chan error, writerConcurrency)
	for range writerConcurrency {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := next.Add(1) - 1
				if count > 0 && i >= count {
					return
				}
				body := commitBody(prefix, i)
				idx, err := l.Append(ctx, body)
				if err != nil {
					errs <- fmt.Errorf("append %d: %w", i, err)
					return
				}
				mu.Lock()
				fmt.Fprintf(out, "%d %s\n", idx, body)
				err = out.Flush()
				mu.Unlock()
				if err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	if err := <-errs; err != nil {
		return err
	}
	return l.Close()
}

// commitBody is a commit entry body (docs/ledger.md) whose commitment is
// SHA-256 of "prefix-i": distinct bodies for distinct (prefix, i).
func commitBody(prefix string, i int64) []byte {
	c := sha256.Sum256(fmt.Appendf(nil, "%s-%d", prefix, i))
	return fmt.Appendf(nil, `{"kind":"commit","player":"p%d","action_type":"bid","channel":"web","commitment":"%x"}`, i%100, c)
}

// newLedger creates a ledger in a fresh database of the shared server
// (initLedger) and returns its URL and key file.
func newLedger(t testing.TB) (url, key string) {
	t.Helper()
	url = pgtest.Shared(t).NewDatabase(t)
	key = filepath.Join(t.TempDir(), "ledger.key")
	if err := initLedger(url, key); err != nil {
		t.Fatal(err)
	}
	return url, key
}

// initLedger creates a ledger at url with a new key in key, as the CLI
// does (stores.Init: the schema with pgstore.Options.Create, then
// ledger.Create).
func initLedger(url, key string) error {
	_, err := stores.Init(context.Background(), url, "test.example/pg", key)
	return err
}

// openLedger opens the ledger at url as the CLI does (stores.Open:
// ledger.Open over a pgstore.Store).
func openLedger(ctx context.Context, url string, opts ledger.Options) (*ledger.Ledger, error) {
	if !stores.IsURL(url) {
		return nil, fmt.Errorf("%s is not a postgres:// URL", url)
	}
	return stores.Open(ctx, url, opts)
}

// mustOpen is openLedger failing t on error; the ledger is closed when t
// ends.
func mustOpen(t testing.TB, url string, opts ledger.Options) *ledger.Ledger {
	t.Helper()
	l, err := openLedger(context.Background(), url, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return l
}

// openStore opens the store at url with opts and closes it when t ends.
func openStore(t testing.TB, url string, opts pgstore.Options) *pgstore.Store {
	t.Helper()
	s, err := pgstore.Open(context.Background(), url, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}
