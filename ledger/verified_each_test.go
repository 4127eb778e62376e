package ledger_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/sealedhq/sealed/ledger"
)

// TestVerifiedSizeEach: the entries handed to fn are those checked anew,
// in index order, each exactly as Entry reads it; a later call hands only
// the entries a newer checkpoint added; an error from fn is returned and
// the entries stay unverified.
func TestVerifiedSizeEach(t *testing.T) {
	ctx := context.Background()
	l, _, _ := newTestLedger(t, ledger.Options{CheckpointInterval: time.Millisecond})
	appendN := func(from, n int) {
		for i := from; i < from+n; i++ {
			c := fmt.Sprintf("%064x", i+1)
			idx, err := l.AppendBody(ctx, &ledger.Body{Kind: ledger.KindCommit, Player: "p", ActionType: "bid", Channel: "#auctions", Commitment: c})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := l.WaitCheckpoint(ctx, idx+1); err != nil {
				t.Fatal(err)
			}
		}
	}
	collect := func() ([]ledger.Entry, int64, error) {
		var got []ledger.Entry
		n, err := l.VerifiedSizeEach(ctx, func(e *ledger.Entry) error { got = append(got, *e); return nil })
		return got, n, err
	}
	appendN(0, 5)
	// An error from fn stops the check: nothing is verified.
	stop := errors.New("stop")
	if _, err := l.VerifiedSizeEach(ctx, func(*ledger.Entry) error { return stop }); !errors.Is(err, stop) {
		t.Fatalf("fn's error: got %v", err)
	}
	got, n, err := collect()
	if err != nil || n != 5 || len(got) != 5 {
		t.Fatalf("first call: size %d, %d entries, %v; want 5, 5", n, len(got), err)
	}
	for i, e := range got {
		want, err := l.Entry(int64(i))
		if err != nil {
			t.Fatal(err)
		}
		if e.Index != int64(i) || e.LeafHash != want.LeafHash || string(e.Leaf) != string(want.Leaf) || !e.IntegratedAt.Equal(want.IntegratedAt) {
			t.Errorf("entry %d handed as %+v, Entry reads %+v", i, e, want)
		}
	}
	appendN(5, 3)
	got, n, err = collect()
	if err != nil || n != 8 || len(got) != 3 || got[0].Index != 5 || got[2].Index != 7 {
		t.Fatalf("second call: size %d, entries %v, %v; want 8 and entries 5..7", n, got, err)
	}
	if got, n, err = collect(); err != nil || n != 8 || len(got) != 0 {
		t.Fatalf("third call: size %d, %d entries, %v; want 8 and none", n, len(got), err)
	}
}
