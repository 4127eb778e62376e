// Package nimrand is Nim's std/random generator, xoroshiro128+ as Nim
// 1.6 and 2.x implement it, so that sealed can re-derive the draws of the
// public Negotiation Games engine (github.com/Metta-AI/cogame-negotiation-games),
// which seeds one stream per episode with initRand(seed * 7919 + 17).
//
// # The generator
//
// The state is two uint64 words (a0, a1). [Rand.Next] is xoroshiro128+
// (Blackman and Vigna, https://prng.di.unimi.it/xoroshiro128plus.c, the
// 2016 constants 55, 14, 36 that Nim uses): result = a0 + a1; s1 = a1 ^ a0;
// a0 = rotl(a0, 55) ^ s1 ^ (s1 << 14); a1 = rotl(s1, 36).
//
// [New] is Nim's initRand(seed): seed 0 is replaced by 2147483647,
// a0 = seed >> 16, a1 = seed & 0xffff, then the jump (skipRandomNumbers,
// constants 0xbeac0467eba5facb and 0xd86b048b86aa9922: for each bit of each
// constant, low bit first, XOR the state into an accumulator when the bit
// is set, and call Next after every bit; the state becomes the
// accumulator), then one Next is discarded.
//
// [Rand.Rand](max) is Nim's rand(max) for an integer max >= 0: 0 for max 0;
// otherwise draw x = Next() until x <= 2^64-1 - ((2^64-1) mod max) and
// return x mod (max+1). The test uses mod max and the result mod (max+1),
// exactly as Nim does, so this is not a uniform draw in general; it is the
// draw the engine makes. [Rand.Shuffle] is Nim's shuffle: for i from n-1
// down to 1, j = Rand(i), swap elements i and j.
//
// The vectors in testdata/nim-random-vectors.json were printed by Nim
// 1.6.10's std/random (testdata/README.md).
package nimrand
