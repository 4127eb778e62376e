package cputime

import (
	"crypto/sha256"
	"runtime"
	"testing"
)

// A fixed amount of work must show up as CPU time used (no bound on how
// much: the test asserts only that the clock moves).
func TestUsedGrows(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "plan9" {
		t.Skip("no getrusage")
	}
	start := Used()
	var sum [32]byte
	for i := 0; i < 500_000; i++ {
		sum = sha256.Sum256(sum[:])
	}
	if Used() <= start {
		t.Fatalf("500,000 SHA-256 blocks used no CPU time (%x)", sum[:4])
	}
}
