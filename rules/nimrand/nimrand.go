package nimrand

import (
	"math/bits"
	"sync"
)

// DefaultSeed replaces a seed of 0 in [New], as Nim's initRand does (an
// all-zero xoroshiro state would only ever give zeros).
const DefaultSeed = 2147483647

// jump holds the two constants of Nim's skipRandomNumbers (the
// xoroshiro128 jump, equivalent to 2^64 calls of Next).
var jump = [2]uint64{0xbeac0467eba5facb, 0xd86b048b86aa9922}

// Rand is the state of one Nim std/random stream. The zero value is not a
// seeded stream: use [New]. A Rand is not safe for concurrent use.
type Rand struct {
	a0, a1 uint64
}

// New returns the stream of Nim's initRand(seed) (see the package doc):
// seed 0 is replaced by [DefaultSeed], the state is set from the seed's
// high and low bits, jumped, and its first output discarded. Negative seeds
// are taken as their two's-complement bits, as Nim's conversion does.
func New(seed int64) *Rand {
	r := new(Rand)
	r.Seed(seed)
	return r
}

// Seed resets r to the stream of initRand(seed), as [New] does, without
// allocating. The jump is linear over GF(2) in the state's 128 bits, so it
// is applied as the XOR of the jumped basis states of the seed's set bits
// (jumpedBits), which equals running it (jumpState).
func (r *Rand) Seed(seed int64) {
	if seed == 0 {
		seed = DefaultSeed
	}
	a0, a1 := uint64(seed>>16), uint64(seed&0xffff)
	t := jumpedBits()
	var s0, s1 uint64
	for ; a0 != 0; a0 &= a0 - 1 {
		j := &t[bits.TrailingZeros64(a0)]
		s0, s1 = s0^j[0], s1^j[1]
	}
	for ; a1 != 0; a1 &= a1 - 1 {
		j := &t[64+bits.TrailingZeros64(a1)]
		s0, s1 = s0^j[0], s1^j[1]
	}
	r.a0, r.a1 = s0, s1
	r.Next()
}

// jumpState returns the state Nim's skipRandomNumbers makes of (a0, a1):
// for each bit of the jump constants, low bit first, the running XOR
// takes the state when the bit is set, and the state advances by Next.
func jumpState(a0, a1 uint64) (s0, s1 uint64) {
	r := Rand{a0, a1}
	for _, c := range jump {
		for b := 0; b < 64; b++ {
			if c&(1<<uint(b)) != 0 {
				s0 ^= r.a0
				s1 ^= r.a1
			}
			r.Next()
		}
	}
	return s0, s1
}

// jumpedBits returns jumpState of each basis state: entry k < 64 of the
// state with only bit k of a0 set, entry 64+k of only bit k of a1.
var jumpedBits = sync.OnceValue(func() *[128][2]uint64 {
	var t [128][2]uint64
	for k := range 64 {
		t[k][0], t[k][1] = jumpState(1<<k, 0)
		t[64+k][0], t[64+k][1] = jumpState(0, 1<<k)
	}
	return &t
})

// Next returns the next 64-bit output of xoroshiro128+ and advances the
// state.
func (r *Rand) Next() uint64 {
	s0, s1 := r.a0, r.a1
	result := s0 + s1
	s1 ^= s0
	r.a0 = bits.RotateLeft64(s0, 55) ^ s1 ^ (s1 << 14)
	r.a1 = bits.RotateLeft64(s1, 36)
	return result
}

// Rand returns Nim's rand(max): an integer in 0..max (both included). For
// max 0 it returns 0 and draws nothing; otherwise it draws until
// Next() <= 2^64-1 - ((2^64-1) mod max), consuming the rejected draws, and
// returns the draw mod (max+1).
func (r *Rand) Rand(max uint64) uint64 {
	if max == 0 {
		return 0
	}
	const randMax = ^uint64(0)
	for {
		x := r.Next()
		if x <= randMax-(randMax%max) {
			return x % (max + 1)
		}
	}
}

// Shuffle permutes n elements as Nim's shuffle does: for i from n-1 down to
// 1, j = Rand(i), then swap(i, j). It does nothing for n < 2.
func (r *Rand) Shuffle(n int, swap func(i, j int)) {
	for i := n - 1; i > 0; i-- {
		j := int(r.Rand(uint64(i)))
		swap(i, j)
	}
}
