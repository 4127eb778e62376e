package rng

import (
	"crypto/sha256"
	"encoding"
	"encoding/binary"
	"errors"
	"fmt"
	"hash"
)

// SeedSize is the size of a seed in bytes (256 bits).
const SeedSize = 32

// Labels of the streams the games draw from (docs/design.md, "RNG stream").
const (
	// LabelAuctionValues is the stream of Blind Auction private values
	// (seed 000, auction-0.2).
	LabelAuctionValues = "auction-0.2/values"
	// LabelAuctionTiebreak is the stream of Blind Auction tie-breaks.
	LabelAuctionTiebreak = "auction-0.2/tiebreak"
)

// LabelBargainMatch returns the label of match m's stream in the Negotiation
// Games, "bargaining/match/<m>" with m in decimal, 0-based.
func LabelBargainMatch(m int) string { return fmt.Sprintf("bargaining/match/%d", m) }

// ErrSeedSize is returned by New when the seed is not SeedSize bytes.
var ErrSeedSize = errors.New("rng: seed must be 32 bytes")

// Source holds a seed's HMAC key and makes the streams of any label. Making
// streams from one Source costs one HMAC key setup for all of them, where
// New pays it for each. Streams from one Source share its HMAC state, so a
// Source and its streams are not safe for concurrent use.
//
// The HMAC (RFC 2104, with SHA-256) is computed from the SHA-256 states
// after the key's inner and outer padded blocks, kept marshaled (as
// crypto/hmac keeps them after its first Reset): each block of a stream
// costs two SHA-256 compressions and no allocation, and Reset re-keys the
// Source in place (two compressions), so a caller checking many seeds
// reuses one Source's memory.
type Source struct {
	h  hash.Hash // a SHA-256 state, reused for every computation
	un encoding.BinaryUnmarshaler
	// inner and outer are h's marshaled states after (seed ^ ipad) and
	// (seed ^ opad), n bytes each.
	inner, outer [128]byte
	n            int
	sum          [32]byte // the inner hash of the block being computed
	pad          [sha256.BlockSize]byte
}

// NewSource returns the source for seed (exactly 32 bytes). It returns
// ErrSeedSize for a seed of any other length.
func NewSource(seed []byte) (*Source, error) {
	src := new(Source)
	if err := src.Reset(seed); err != nil {
		return nil, err
	}
	return src, nil
}

// Reset makes src the source of seed (exactly 32 bytes), as NewSource(seed)
// would, reusing its memory. Streams made from src before draw from the new
// key afterwards. It returns ErrSeedSize for a seed of any other length,
// and then leaves src unchanged.
func (src *Source) Reset(seed []byte) error {
	if len(seed) != SeedSize {
		return ErrSeedSize
	}
	if src.h == nil {
		src.h = sha256.New()
		src.un = src.h.(encoding.BinaryUnmarshaler)
	}
	ap := src.h.(encoding.BinaryAppender)
	pad := &src.pad
	for _, p := range [2]struct {
		b     byte
		state *[128]byte
	}{{0x36, &src.inner}, {0x5c, &src.outer}} {
		for i := range pad {
			pad[i] = p.b
		}
		for i, c := range seed {
			pad[i] ^= c
		}
		src.h.Reset()
		src.h.Write(pad[:])
		st, err := ap.AppendBinary(p.state[:0])
		if err != nil || len(st) > len(p.state) || &st[0] != &p.state[0] {
			panic("rng: SHA-256 state does not fit") // never: a sha256 state is 108 bytes
		}
		src.n = len(st)
	}
	return nil
}

// mac writes HMAC-SHA256(seed, msg) to out.
func (src *Source) mac(msg []byte, out *[32]byte) {
	h := src.h
	if err := src.un.UnmarshalBinary(src.inner[:src.n]); err != nil {
		panic("rng: SHA-256 state: " + err.Error()) // never: the state is h's own
	}
	h.Write(msg)
	h.Sum(src.sum[:0])
	if err := src.un.UnmarshalBinary(src.outer[:src.n]); err != nil {
		panic("rng: SHA-256 state: " + err.Error())
	}
	h.Write(src.sum[:])
	h.Sum(out[:0])
}

// Stream returns the stream of label, positioned at its first byte.
func (src *Source) Stream(label string) *Stream {
	s := &Stream{src: src, pos: 32}
	s.msg = append(s.buf[:0], label...)
	s.msg = append(s.msg, 0, 0, 0, 0, 0, 0, 0, 0, 0)
	return s
}

// Stream is a deterministic stream of bytes derived from a seed and a label.
// It is not safe for concurrent use. The zero value is not usable: call New
// or Source.Stream.
type Stream struct {
	src   *Source
	msg   []byte   // label || 0x00 || uint64_be(k)
	buf   [64]byte // backing array of msg for labels up to 55 bytes
	block [32]byte // the current block
	pos   int      // next unread byte of block; 32 when exhausted
	k     uint64   // index of the next block to compute
}

// New returns the stream for seed (exactly 32 bytes) and label. It returns
// ErrSeedSize for a seed of any other length.
func New(seed []byte, label string) (*Stream, error) {
	src, err := NewSource(seed)
	if err != nil {
		return nil, err
	}
	return src.Stream(label), nil
}

// Block returns block(k) of the stream, independent of the read position.
func (s *Stream) Block(k uint64) [32]byte {
	s.fill(k)
	return s.block
}

// fill computes block(k) into s.block without allocating.
func (s *Stream) fill(k uint64) {
	binary.BigEndian.PutUint64(s.msg[len(s.msg)-8:], k)
	s.src.mac(s.msg, &s.block)
}

// Uint32 returns the next 4 bytes of the stream as a big-endian uint32.
// Blocks are 32 bytes, so a draw never straddles two blocks.
func (s *Stream) Uint32() uint32 {
	if s.pos >= 32 {
		s.fill(s.k)
		s.k++
		s.pos = 0
	}
	v := binary.BigEndian.Uint32(s.block[s.pos:])
	s.pos += 4
	return v
}

// Intn returns a uniform integer in [0, n) by rejection sampling: with
// limit = 2^32 - (2^32 mod n), it draws Uint32 until the draw is below limit
// and returns the draw mod n. n must be in 1..2^32; Intn panics otherwise,
// which is a programming error in the caller (game configs are validated
// before drawing).
func (s *Stream) Intn(n uint64) uint64 {
	if n == 0 || n > 1<<32 {
		panic("rng: Intn argument out of range")
	}
	limit := uint64(1<<32) - (uint64(1<<32) % n)
	for {
		x := uint64(s.Uint32())
		if x < limit {
			return x % n
		}
	}
}

// Range returns a uniform integer in [lo, hi], that is lo + Intn(hi-lo+1).
// It requires lo <= hi and hi-lo < 2^32; it panics otherwise (a programming
// error: configs are validated first).
func (s *Stream) Range(lo, hi int) int {
	if hi < lo {
		panic("rng: Range with hi < lo")
	}
	return lo + int(s.Intn(uint64(hi-lo)+1))
}
