package ledger_test

import (
	"crypto/rand"
	"testing"
	"time"

	"github.com/sealedhq/sealed/ledger"
	"golang.org/x/mod/sumdb/note"
	"golang.org/x/mod/sumdb/tlog"
)

// returnsWithin runs f and fails the test if it has not returned after d
// (the goroutine is left running: it spins until the test binary exits).
func returnsWithin(t *testing.T, what string, d time.Duration, f func() error) {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- f() }()
	select {
	case err := <-done:
		if err == nil {
			t.Errorf("%s: accepted", what)
		}
	case <-time.After(d):
		t.Errorf("%s: still running after %v (a tree size above 2^62 makes golang.org/x/mod/sumdb/tlog's maxpow2 loop forever); want an error", what, d)
	}
}

// TestHugeTreeSizeReturns (trial 18): a checkpoint signed by the log's key
// (a malicious operator's) with a tree size above 2^62, or raw sizes given
// to VerifyInclusion/VerifyConsistency, make CheckInclusion, CheckReceipt,
// CheckConsistency and the raw verifiers spin forever at 100% CPU inside
// tlog.CheckRecord/CheckTree (maxpow2 shifts 1<<63 and 1<<64, which never
// exceed n). The size is legal in a checkpoint (0..2^63-1), so the
// verifier must say no, not hang: `sealed ledger check-proof` never exits.
func TestHugeTreeSizeReturns(t *testing.T) {
	const origin = "example.com/huge"
	skey, vkey, err := note.GenerateKey(rand.Reader, origin)
	if err != nil {
		t.Fatal(err)
	}
	signer, err := note.NewSigner(skey)
	if err != nil {
		t.Fatal(err)
	}
	leaf := []byte(`{"kind":"commit"}`)
	lh := tlog.RecordHash(leaf)
	for _, size := range []int64{1 << 62, 1<<62 + 1, 1<<63 - 1} {
		msg, err := note.Sign(&note.Note{Text: ledger.FormatCheckpoint(origin, size, lh)}, signer)
		if err != nil {
			t.Fatal(err)
		}
		p := &ledger.InclusionProof{Index: 0, Size: size, Leaf: string(leaf), LeafHash: lh, Proof: []tlog.Hash{lh}, Checkpoint: string(msg)}
		returnsWithin(t, "CheckInclusion", 2*time.Second, func() error {
			_, err := ledger.CheckInclusion(vkey, nil, p)
			return err
		})
		returnsWithin(t, "CheckReceipt", 2*time.Second, func() error {
			_, err := ledger.CheckReceipt(vkey, p.Receipt(), nil)
			return err
		})
		small, err := note.Sign(&note.Note{Text: ledger.FormatCheckpoint(origin, 1, lh)}, signer)
		if err != nil {
			t.Fatal(err)
		}
		cp := &ledger.ConsistencyProof{Size1: 1, Size2: size, Proof: []tlog.Hash{lh}, Checkpoint1: string(small), Checkpoint2: string(msg)}
		returnsWithin(t, "CheckConsistency", 2*time.Second, func() error {
			return ledger.CheckConsistency(vkey, nil, nil, cp)
		})
		returnsWithin(t, "VerifyInclusion", 2*time.Second, func() error {
			return ledger.VerifyInclusion(0, uint64(size), lh[:], lh[:], [][]byte{lh[:]})
		})
		returnsWithin(t, "VerifyConsistency", 2*time.Second, func() error {
			return ledger.VerifyConsistency(1, uint64(size), lh[:], lh[:], [][]byte{lh[:]})
		})
	}
}
