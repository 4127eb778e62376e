package commit

import (
	"context"
	"crypto/sha256"
	"runtime"
	"strings"
	"testing"
	"time"
)

// reveal100 is a 100-byte canonical reveal text.
var reveal100 = []byte(strings.Repeat("I bid 40 on lot 2; ", 3) + "I bid 1\nsalt: mfrggzdfmztwq2lknnwg23tpoa")[:100]

// BenchmarkVerifyMatch100 verifies a matching 100-byte reveal; compare with
// BenchmarkSHA256Raw100 in the same run (goal: >= 50% of its throughput).
func BenchmarkVerifyMatch100(b *testing.B) {
	c := Sum(reveal100)
	b.SetBytes(int64(len(reveal100)))
	b.ReportAllocs()
	for b.Loop() {
		if !Verify(c, reveal100).Match {
			b.Fatal("mismatch")
		}
	}
}

// BenchmarkSHA256Raw100 is crypto/sha256 over the same 100 bytes.
func BenchmarkSHA256Raw100(b *testing.B) {
	b.SetBytes(int64(len(reveal100)))
	b.ReportAllocs()
	var sink [32]byte
	for b.Loop() {
		sink = sha256.Sum256(reveal100)
	}
	_ = sink
}

// BenchmarkAuditGuesses runs the active audit over the default space for b.N
// guesses against a hash it cannot find, on all cores, and reports guesses
// per second per core (goal: >= 2 M).
func BenchmarkAuditGuesses(b *testing.B) {
	o := DefaultActiveAuditOptions("I bid {n} on lot {lot}")
	o.MinSaltLen = 1 // guesses with a separator and a salt, the bulk of a search
	o.MaxGuesses = uint64(b.N)
	b.ReportAllocs()
	b.ResetTimer()
	start := time.Now()
	r, err := ActiveAudit(context.Background(), Sum([]byte("hello")), o)
	elapsed := time.Since(start)
	if err != nil || r.Found || r.Guesses != uint64(b.N) {
		b.Fatalf("got %+v, %v", r, err)
	}
	perSec := float64(r.Guesses) / elapsed.Seconds()
	b.ReportMetric(perSec, "guesses/s")
	b.ReportMetric(perSec/float64(runtime.GOMAXPROCS(0)), "guesses/s/core")
}
