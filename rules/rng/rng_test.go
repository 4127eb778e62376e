package rng

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"testing"
)

// The vectors below were computed by an independent route, not by this
// package. The first block was checked with
//
//	printf 'auction-0.2/values\x00\x00\x00\x00\x00\x00\x00\x00\x00' |
//	  openssl dgst -sha256 -mac HMAC \
//	  -macopt hexkey:000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f
//	SHA2-256(stdin)= f0b52a476ff5c0448c34c3dd5b87b9373995cbe117f6c33214c6b2d15e492191
//
// and the draws with a dozen lines of Python (hmac, hashlib, struct) that
// implement docs/rng.md; the script is reproduced in docs/rng.md.
var vectorSeed = mustHex("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f")

func mustHex(s string) []byte {
	b, err := hex.DecodeString(s)
	if err != nil {
		panic(err)
	}
	return b
}

func TestBlockOpenSSL(t *testing.T) {
	s, err := New(vectorSeed, LabelAuctionValues)
	if err != nil {
		t.Fatal(err)
	}
	b := s.Block(0)
	if got, want := hex.EncodeToString(b[:]), "f0b52a476ff5c0448c34c3dd5b87b9373995cbe117f6c33214c6b2d15e492191"; got != want {
		t.Fatalf("block(0) = %s, want %s", got, want)
	}
}

func TestUint32Vectors(t *testing.T) {
	s, _ := New(vectorSeed, LabelAuctionValues)
	want := []uint32{4038404679, 1878376516, 2352268253, 1535621431, 966118369, 402047794, 348566225, 1581851025, 1249859912, 3658145320}
	for i, w := range want {
		if got := s.Uint32(); got != w {
			t.Fatalf("uint32 #%d = %d, want %d", i, got, w)
		}
	}
}

func TestIntnRejectionVectors(t *testing.T) {
	// n = 2^31+1: limit = 2^31+1, so about half the draws are rejected. The
	// first draw (4038404679) and the third (2352268253) are rejected.
	s, _ := New(vectorSeed, LabelAuctionValues)
	want := []uint64{1878376516, 1535621431, 966118369, 402047794, 348566225, 1581851025, 1249859912, 722799886}
	for i, w := range want {
		if got := s.Intn(1<<31 + 1); got != w {
			t.Fatalf("intn(2^31+1) #%d = %d, want %d", i, got, w)
		}
	}
}

func TestIntnAndRangeVectors(t *testing.T) {
	s, _ := New(vectorSeed, LabelBargainMatch(0))
	for i, w := range []uint64{1, 5, 2, 5, 5, 0, 1, 0, 3, 0, 3, 1} {
		if got := s.Intn(6); got != w {
			t.Fatalf("intn(6) #%d = %d, want %d", i, got, w)
		}
	}
	s, _ = New(vectorSeed, LabelAuctionValues)
	for i, w := range []int{20, 49, 18, 20, 46, 55, 54, 46, 5, 37, 51, 28} {
		if got := s.Range(5, 60); got != w {
			t.Fatalf("range(5,60) #%d = %d, want %d", i, got, w)
		}
	}
}

func TestLabel(t *testing.T) {
	if got := LabelBargainMatch(12); got != "bargaining/match/12" {
		t.Fatalf("label = %q", got)
	}
}

func TestNewRejectsBadSeed(t *testing.T) {
	for _, n := range []int{0, 16, 31, 33, 64} {
		if _, err := New(make([]byte, n), "x"); err != ErrSeedSize {
			t.Errorf("New(%d bytes) error = %v, want ErrSeedSize", n, err)
		}
	}
}

// chiSquare6 returns the chi-square statistic of counts against a uniform
// distribution over 6 outcomes.
func chiSquare6(counts [6]int, total int) float64 {
	exp := float64(total) / 6
	var x float64
	for _, c := range counts {
		d := float64(c) - exp
		x += d * d / exp
	}
	return x
}

// critical value of chi-square with 5 degrees of freedom at p = 0.001.
const chi5p001 = 20.515

func TestIntnChiSquare(t *testing.T) {
	if testing.Short() {
		t.Skip("6 M draws")
	}
	const draws = 6_000_000
	s, _ := New(vectorSeed, "chi-square")
	var counts [6]int
	for i := 0; i < draws; i++ {
		counts[s.Intn(6)]++
	}
	if x := chiSquare6(counts, draws); x > chi5p001 {
		t.Fatalf("intn(6) chi-square = %.2f > %.3f (counts %v)", x, chi5p001, counts)
	}
	// The same test must catch a biased draw: byte % 6 favours 0..3
	// (43 of 256 values each against 42), which the test detects.
	s, _ = New(vectorSeed, "chi-square")
	counts = [6]int{}
	for i := 0; i < draws; i++ {
		counts[s.Uint32()&0xff%6]++
	}
	if x := chiSquare6(counts, draws); x <= chi5p001 {
		t.Fatalf("byte %% 6 chi-square = %.2f, expected the test to reject it", x)
	}
}

func BenchmarkUint32(b *testing.B) {
	s, _ := New(vectorSeed, LabelAuctionValues)
	for b.Loop() {
		s.Uint32()
	}
}

// Streams made from one Source, read interleaved, give the same draws as
// streams made with New: they share the HMAC state but not their position.
func TestSourceStreamsInterleaved(t *testing.T) {
	src, err := NewSource(vectorSeed)
	if err != nil {
		t.Fatal(err)
	}
	a, b := src.Stream(LabelAuctionValues), src.Stream(LabelBargainMatch(0))
	wantA := []uint32{4038404679, 1878376516, 2352268253, 1535621431, 966118369, 402047794, 348566225, 1581851025, 1249859912, 3658145320}
	ref, _ := New(vectorSeed, LabelBargainMatch(0))
	for i, w := range wantA {
		if got := a.Uint32(); got != w {
			t.Fatalf("interleaved uint32 #%d = %d, want %d", i, got, w)
		}
		if got, want := b.Uint32(), ref.Uint32(); got != want {
			t.Fatalf("interleaved second stream #%d = %d, want %d", i, got, want)
		}
	}
	if _, err := NewSource(make([]byte, 31)); err != ErrSeedSize {
		t.Fatalf("NewSource(31 bytes) error = %v", err)
	}
}

func BenchmarkNewStream(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		s, _ := New(vectorSeed, LabelAuctionValues)
		s.Uint32()
	}
}

func BenchmarkSourceStream(b *testing.B) {
	b.ReportAllocs()
	src, _ := NewSource(vectorSeed)
	for b.Loop() {
		s := src.Stream(LabelAuctionValues)
		s.Uint32()
	}
}

// A Source re-keyed with Reset gives, for every seed, the blocks of
// crypto/hmac (a separate HMAC-SHA256) over label || 0x00 || uint64_be(k);
// a Reset with a bad seed changes nothing.
func TestSourceResetMatchesCryptoHMAC(t *testing.T) {
	src, err := NewSource(vectorSeed)
	if err != nil {
		t.Fatal(err)
	}
	s := src.Stream(LabelAuctionValues)
	seed := make([]byte, SeedSize)
	for n := range 50 {
		for i := range seed {
			seed[i] = byte(n*31 + i*7)
		}
		if err := src.Reset(seed); err != nil {
			t.Fatal(err)
		}
		if err := src.Reset(seed[:31]); err != ErrSeedSize {
			t.Fatalf("Reset(31 bytes) error = %v", err)
		}
		for k := range uint64(3) {
			mac := hmac.New(sha256.New, seed)
			mac.Write([]byte(LabelAuctionValues))
			mac.Write([]byte{0, 0, 0, 0, 0, 0, 0, 0, byte(k)})
			if got, want := s.Block(k), mac.Sum(nil); !bytes.Equal(got[:], want) {
				t.Fatalf("seed %d block %d = %x, crypto/hmac %x", n, k, got, want)
			}
		}
	}
}
