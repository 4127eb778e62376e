package beacon

import (
	"encoding/hex"
	"testing"
)

// TestCheckRoundOnceBounded: a Chain remembers at most maxVerified
// signatures; the one after that empties the memory, so a key remembered
// before is verified again (here: a made-up key that a real verification
// refuses once it is forgotten).
func TestCheckRoundOnceBounded(t *testing.T) {
	c := &Chain{Name: Quicknet.Name, Hash: Quicknet.Hash, PublicKey: Quicknet.PublicKey,
		Genesis: Quicknet.Genesis, Period: Quicknet.Period, Scheme: Quicknet.Scheme}
	// Round 657413 of quicknet (testdata/quicknet-657413.json).
	real, _ := hex.DecodeString("b713718a38ae728dfd477991af2822e08d2f305e47718cef9f7848ce4050e7be41076862b98fad56e91a6b85b89cd97b")
	c.verified = map[verifiedKey]bool{}
	for i := range maxVerified {
		c.verified[verifiedKey{round: uint64(i + 1)}] = true // all-zero signatures, never valid
	}
	if err := c.CheckRoundOnce(1, make([]byte, SignatureSize)); err != nil {
		t.Fatalf("a remembered key was verified again: %v", err)
	}
	if err := c.CheckRoundOnce(657413, real); err != nil {
		t.Fatal(err)
	}
	if n := len(c.verified); n != 1 {
		t.Errorf("after the bound: %d signatures remembered, want 1", n)
	}
	if err := c.CheckRoundOnce(1, make([]byte, SignatureSize)); err == nil {
		t.Error("a forgotten key still passes")
	}
	if !c.verified[verifiedKey{round: 657413, sig: [SignatureSize]byte(real)}] {
		t.Error("round 657413 is not remembered")
	}
}
