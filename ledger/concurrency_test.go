package ledger_test

import (
	"context"
	"fmt"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/sealedhq/sealed/ledger"
)

// TestConcurrentAppends: 8 goroutines x 10,000 appends get indexes
// 0..79,999 with no gap and no duplicate, and the audit is clean.
func TestConcurrentAppends(t *testing.T) {
	if testing.Short() {
		t.Skip("80,000 appends skipped in -short mode")
	}
	const G, N = 8, 10000
	l, _, _ := newTestLedger(t, ledger.Options{CheckpointInterval: 50 * time.Millisecond})
	ctx := context.Background()
	got := make([][]int64, G)
	var wg sync.WaitGroup
	errs := make(chan error, G)
	for g := range G {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range N {
				idx, err := l.Append(ctx, []byte(commitBody(fmt.Sprintf("g%d-%d", g, i), hashA)))
				if err != nil {
					errs <- err
					return
				}
				got[g] = append(got[g], idx)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	var all []int64
	for _, g := range got {
		all = append(all, g...)
	}
	sort.Slice(all, func(i, j int) bool { return all[i] < all[j] })
	if len(all) != G*N {
		t.Fatalf("%d indexes, want %d", len(all), G*N)
	}
	for i, x := range all {
		if x != int64(i) {
			t.Fatalf("sorted index %d is %d: a gap or a duplicate", i, x)
		}
	}
	if n, _ := l.Size(); n != G*N {
		t.Fatalf("size %d", n)
	}
	rep, err := l.Audit(ctx, nil)
	if err != nil || !rep.OK {
		t.Fatalf("audit: %+v %v", rep.Problem, err)
	}
	t.Logf("audit: %d entries, %d checkpoints", rep.Size, rep.Checkpoints)
}
