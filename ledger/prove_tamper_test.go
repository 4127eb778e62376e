package ledger_test

import (
	"context"
	"errors"
	"testing"

	"github.com/sealedhq/sealed/ledger"
)

// TestProveRefusesAlteredHashes: with one stored hash of the demo ledger
// changed, every inclusion and consistency proof the ledger still gives
// verifies against the signed checkpoints (ledger.CheckInclusion,
// CheckConsistency), and those the changed hash would spoil are refused
// with ErrTampered, never handed out.
func TestProveRefusesAlteredHashes(t *testing.T) {
	c := copyFile(t, demoLedger(t))
	if err := attack(t, c, `DROP TRIGGER IF EXISTS hashes_no_update`,
		`UPDATE hashes SET hash = zeroblob(32) WHERE id = 1`); err != nil {
		t.Fatal(err)
	}
	l, err := openLedger(t, c, ledger.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	cp, err := l.LatestCheckpoint()
	if err != nil {
		t.Fatal(err)
	}
	vkey := l.VerifierKey()
	refused := 0
	for i := range cp.Size {
		p, err := l.ProveInclusion(i, 0)
		if errors.Is(err, ledger.ErrTampered) {
			refused++
			continue
		}
		if err != nil {
			t.Fatalf("ProveInclusion(%d): %v", i, err)
		}
		if _, err := ledger.CheckInclusion(vkey, []byte(p.Checkpoint), p); err != nil {
			t.Errorf("ProveInclusion(%d) gave a proof that does not verify: %v", i, err)
		}
	}
	if refused == 0 {
		t.Error("no inclusion proof was refused, though a stored hash they use was changed")
	}
	cps, err := l.Store().Checkpoints(context.Background(), cp.Size)
	if err != nil {
		t.Fatal(err)
	}
	refused = 0
	for _, c1 := range cps {
		if c1.Size < 1 {
			continue
		}
		p, err := l.ProveConsistency(c1.Size, 0)
		if errors.Is(err, ledger.ErrTampered) {
			refused++
			continue
		}
		if err != nil {
			t.Fatalf("ProveConsistency(%d): %v", c1.Size, err)
		}
		if err := ledger.CheckConsistency(vkey, []byte(p.Checkpoint1), []byte(p.Checkpoint2), p); err != nil {
			t.Errorf("ProveConsistency(%d) gave a proof that does not verify: %v", c1.Size, err)
		}
	}
	if refused == 0 {
		t.Error("no consistency proof was refused, though a stored hash they use was changed")
	}
}
