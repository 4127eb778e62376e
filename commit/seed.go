package commit

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"strings"
)

// Seed is a game server's 32-byte RNG seed (docs/design.md "Seed commitment",
// docs/commitments.md "Seeds"). Its text form is 64 lowercase hex digits;
// rules/rng keys its stream with the 32 bytes.
type Seed [32]byte

// NewSeed returns 32 fresh bytes from crypto/rand. The error is
// crypto/rand's, which on supported platforms does not happen.
func NewSeed() (Seed, error) {
	var s Seed
	_, err := rand.Read(s[:])
	return s, err
}

// ParseSeed parses a revealed seed: exactly 64 hex digits (any case), with
// surrounding whitespace trimmed. Anything else is an error saying what it
// saw; a seed is not a commitment, so no "sha256:" prefix is accepted.
func ParseSeed(s string) (Seed, error) {
	var seed Seed
	s = strings.TrimSpace(s)
	if s == "" {
		return seed, fmt.Errorf("empty seed; expected 64 hex digits (32 bytes)")
	}
	if bad := firstNonHex(s); bad >= 0 {
		r := []rune(s[bad:])[0]
		return seed, fmt.Errorf("seed has %q at character %d, which is not a hex digit; expected 64 hex digits (32 bytes)", r, len([]rune(s[:bad]))+1)
	}
	if len(s) != 64 {
		return seed, fmt.Errorf("seed has %d hex digits; expected 64 hex digits (32 bytes)", len(s))
	}
	hex.Decode(seed[:], []byte(s)) // cannot fail: 64 hex digits
	return seed, nil
}

// String returns the seed as 64 lowercase hex digits.
func (s Seed) String() string { return hex.EncodeToString(s[:]) }

// MarshalText encodes the seed as 64 lowercase hex digits.
func (s Seed) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// Commitment returns the seed commitment: SHA-256 over the 64 lowercase hex
// ASCII characters of the seed (not over the 32 raw bytes), so
// `printf %s SEED | sha256sum` checks it.
func (s Seed) Commitment() Commitment {
	var h [2 * len(Seed{})]byte
	hex.Encode(h[:], s[:])
	return Sum(h[:])
}

// CheckSeed reports whether s is the seed committed to by c.
func CheckSeed(s Seed, c Commitment) bool { return s.Commitment() == c }

// SeedHints returns, when CheckSeed fails, the usual mistakes in making a
// seed commitment that would have matched, named for what was hashed: "32
// raw bytes", "uppercase hex", "hex with a trailing LF" (as
// `echo SEED | sha256sum` does), and "uppercase hex with a trailing LF". It
// is empty when none matches.
func SeedHints(s Seed, c Commitment) []Hint {
	lower := s.String()
	upper := strings.ToUpper(lower)
	var hints []Hint
	for _, v := range []struct{ name, text string }{
		{"32 raw bytes", string(s[:])},
		{"uppercase hex", upper},
		{"hex with a trailing LF", lower + "\n"},
		{"uppercase hex with a trailing LF", upper + "\n"},
	} {
		if Sum([]byte(v.text)) == c {
			hints = append(hints, Hint{Name: v.name, Text: []byte(v.text)})
		}
	}
	return hints
}
