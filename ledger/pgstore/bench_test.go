package pgstore_test

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sealedhq/sealed/ledger"
)

// BenchmarkAppendPostgres64: 64 goroutines append distinct commit entries
// to one ledger in a fresh database of the shared test server (fsync on),
// each waiting for its index before the next append; b.N appends in
// all. Reports appends/s.
func BenchmarkAppendPostgres64(b *testing.B) {
	const appenders = 64
	url, key := newLedger(b)
	l := mustOpen(b, url, ledger.Options{KeyFile: key})
	ctx := context.Background()
	prefix := fmt.Sprint("bench-", time.Now().UnixNano())
	var next atomic.Int64
	var wg sync.WaitGroup
	errs := make(chan error, appenders)
	b.ResetTimer()
	start := time.Now()
	for range appenders {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := next.Add(1) - 1
				if i >= int64(b.N) {
					return
				}
				if _, err := l.Append(ctx, commitBody(prefix, i)); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	b.StopTimer()
	close(errs)
	if err := <-errs; err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(b.N)/elapsed.Seconds(), "appends/s")
}
