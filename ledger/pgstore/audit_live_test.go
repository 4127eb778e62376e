package pgstore_test

import (
	"context"
	"testing"

	"github.com/sealedhq/sealed/ledger"
)

// TestAuditDuringAppends: an audit of a ledger another writer is
// appending to finds nothing: the census counts the entries, the stored
// hashes and the checkpoints in one snapshot (counted one after the
// other, the hashes of entries appended between two counts were once a
// finding, "a row at id N, outside the stored hash ids").
func TestAuditDuringAppends(t *testing.T) {
	ctx := context.Background()
	url, key := newLedger(t)
	w := mustOpen(t, url, ledger.Options{KeyFile: key})
	defer w.Close()
	for i := range int64(50) {
		if _, err := w.Append(ctx, commitBody("before", i)); err != nil {
			t.Fatal(err)
		}
	}
	stop, done := make(chan struct{}), make(chan error, 1)
	go func() {
		for i := int64(0); ; i++ {
			select {
			case <-stop:
				done <- nil
				return
			default:
			}
			if _, err := w.Append(ctx, commitBody("during", i)); err != nil {
				done <- err
				return
			}
		}
	}()
	r := mustOpen(t, url, ledger.Options{ReadOnly: true})
	defer r.Close()
	sizes := map[int64]bool{}
	for range 20 {
		rep, err := r.Audit(ctx, nil)
		if err != nil || !rep.OK {
			t.Errorf("audit during appends: %+v, %v", rep, err)
			break
		}
		sizes[rep.Size] = true
	}
	close(stop)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if len(sizes) < 5 {
		t.Errorf("the audits saw %d sizes of the log; want the appends to run alongside them", len(sizes))
	}
}
