// Package rng implements the seeded random stream that drives every private
// draw in sealed's games: Blind Auction values and tie-breaks, and
// Negotiation Games pools and valuations.
//
// The stream is specified in docs/rng.md (and docs/design.md, "RNG
// stream"). For a 32-byte seed and a label,
//
//	block(k) = HMAC-SHA256(key = seed, msg = label || 0x00 || uint64_be(k))
//
// for k = 0, 1, 2, ...; the stream is the blocks concatenated. Uint32 takes
// the next 4 bytes big-endian; Intn(n) rejects draws at or above
// 2^32 - (2^32 mod n) and returns the draw mod n; Range(lo, hi) is
// lo + Intn(hi-lo+1). The package does no I/O and never reads the clock: the
// same seed and label always give the same draws, in any language that
// implements the specification.
package rng
