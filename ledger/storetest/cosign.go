package storetest

import (
	"context"
	"errors"
	"fmt"
	"math"
	"testing"

	"github.com/sealedhq/sealed/ledger"
)

// testCosignatures: cosignatures are stored with the checkpoint they
// cosign, once per witness, and read back earliest first, filtered by
// checkpoint and by size.
func testCosignatures(ctx context.Context, t *testing.T, s ledger.Store) {
	closeAtEnd(t, s)
	create(ctx, t, s)
	for _, c := range []ledger.StoredCheckpoint{
		{Size: 3, Root: hashOf(3), Note: []byte("three"), CreatedAt: 10},
		{Size: 8, Root: hashOf(8), Note: []byte("eight"), CreatedAt: 11},
	} {
		if err := s.PutCheckpoint(ctx, &c); err != nil {
			t.Fatal(err)
		}
	}
	cps, err := s.Checkpoints(ctx, math.MaxInt64)
	if err != nil || len(cps) != 3 {
		t.Fatalf("Checkpoints: %v, %v", cps, err)
	}
	three, eight := cps[1], cps[2]
	put := func(cp ledger.StoredCheckpoint, w string, tm int64) error {
		return s.PutCosignature(ctx, &ledger.StoredCosignature{CheckpointID: cp.ID, Size: cp.Size, Witness: w,
			Line: []byte("— " + w + " sig" + fmt.Sprint(tm) + "\n"), Time: tm})
	}
	for _, c := range []struct {
		cp   ledger.StoredCheckpoint
		w    string
		time int64
	}{{eight, "w2.example", 300}, {three, "w1.example", 100}, {eight, "w1.example", 200}, {three, "w2.example", 150}} {
		if err := put(c.cp, c.w, c.time); err != nil {
			t.Fatalf("PutCosignature(%d, %s): %v", c.cp.Size, c.w, err)
		}
	}
	// A second cosignature by the same witness on the same checkpoint is a no-op.
	if err := put(three, "w1.example", 50); err != nil {
		t.Fatalf("PutCosignature again: %v", err)
	}
	// A cosignature of a checkpoint that is not stored is refused.
	if err := s.PutCosignature(ctx, &ledger.StoredCosignature{CheckpointID: 99, Size: 3, Witness: "w1.example", Line: []byte("x\n"), Time: 1}); !errors.Is(err, ledger.ErrNotFound) {
		t.Errorf("cosignature of checkpoint 99: got %v, want ErrNotFound", err)
	}
	list := func(id, minSize int64, limit int) string {
		t.Helper()
		cs, err := s.Cosignatures(ctx, id, minSize, limit)
		if err != nil {
			t.Fatal(err)
		}
		out := ""
		for _, c := range cs {
			out += fmt.Sprintf("%d:%s:%d:%s ", c.Size, c.Witness, c.Time, c.Line)
		}
		return out
	}
	if got, want := list(0, 0, 0), "3:w1.example:100:— w1.example sig100\n 3:w2.example:150:— w2.example sig150\n 8:w1.example:200:— w1.example sig200\n 8:w2.example:300:— w2.example sig300\n "; got != want {
		t.Errorf("all cosignatures:\n%q\nwant\n%q", got, want)
	}
	if got, want := list(eight.ID, 0, 0), "8:w1.example:200:— w1.example sig200\n 8:w2.example:300:— w2.example sig300\n "; got != want {
		t.Errorf("cosignatures of the size-8 checkpoint: %q, want %q", got, want)
	}
	if got, want := list(0, 4, 1), "8:w1.example:200:— w1.example sig200\n "; got != want {
		t.Errorf("earliest cosignature covering 4 entries: %q, want %q", got, want)
	}
	if got := list(0, 9, 0); got != "" {
		t.Errorf("cosignatures of size >= 9: %q, want none", got)
	}
}
