package commit

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"strings"
	"unicode"
)

// Commitment is a posted commitment: the 32-byte SHA-256 (FIPS 180-4) of the
// exact bytes of a reveal text (docs/commitments.md, "Commitment").
type Commitment [32]byte

// Sum returns the commitment to reveal: SHA-256 over its exact bytes, with
// nothing normalised first.
func Sum(reveal []byte) Commitment { return Commitment(sha256.Sum256(reveal)) }

// String returns the commitment as 64 lowercase hex digits, the form
// `sha256sum` prints.
func (c Commitment) String() string { return hex.EncodeToString(c[:]) }

// MarshalText encodes the commitment as 64 lowercase hex digits (so JSON
// shows it as a string).
func (c Commitment) MarshalText() ([]byte, error) { return []byte(c.String()), nil }

// UnmarshalText parses text as ParseCommitment does.
func (c *Commitment) UnmarshalText(text []byte) error {
	p, err := ParseCommitment(string(text))
	if err != nil {
		return err
	}
	*c = p
	return nil
}

// otherAlgorithms names hash algorithms by the length of their hex digest, to
// tell a user who pasted one what they pasted.
var otherAlgorithms = map[int]string{
	32:  "MD5",
	40:  "SHA-1",
	56:  "SHA-224",
	96:  "SHA-384",
	128: "SHA-512",
}

// ParseCommitment parses a posted hash: 64 hex digits in any case, with
// surrounding whitespace trimmed and an optional "sha256:" prefix (matched
// in any case). Anything else is an error saying what it saw and what is
// expected: an empty string, another algorithm's prefix ("md5:", "sha1:",
// ...), a hex digest of another length (40 digits is SHA-1, 128 SHA-512,
// ...), base64 text, whitespace inside the digits (a line of sha256sum's
// output, "<hash>  -", is named as such), or a character that is not a
// hex digit (docs/commitments.md, "Parsing a posted hash").
func ParseCommitment(s string) (Commitment, error) {
	var c Commitment
	s = strings.TrimSpace(s)
	if s == "" {
		return c, fmt.Errorf("empty hash; expected 64 hex digits of SHA-256")
	}
	if i := strings.IndexByte(s, ':'); i > 0 && isAlgorithmName(s[:i]) {
		algo := s[:i]
		if !strings.EqualFold(algo, "sha256") {
			if namesSHA256(algo) {
				return c, fmt.Errorf("hash has prefix %q, another spelling of SHA-256; expected 64 hex digits, optionally prefixed \"sha256:\" (write %q as \"sha256:\" or drop it)", algo+":", algo+":")
			}
			return c, fmt.Errorf("hash has prefix %q: only SHA-256 commitments are accepted; expected 64 hex digits, optionally prefixed \"sha256:\"", algo+":")
		}
		s = strings.TrimSpace(s[i+1:])
	}
	if i := strings.IndexFunc(s, unicode.IsSpace); i == 64 && firstNonHex(s[:i]) < 0 {
		return c, fmt.Errorf("hash is followed by %q, as a line of sha256sum's output is; expected the 64 hex digits alone, the part before the spaces", strings.TrimSpace(s[i:]))
	} else if i >= 0 {
		return c, fmt.Errorf("hash has whitespace inside at character %d; expected 64 hex digits with no spaces", len([]rune(s[:i]))+1)
	}
	if bad := firstNonHex(s); bad < 0 {
		if len(s) != 64 {
			if algo, ok := otherAlgorithms[len(s)]; ok {
				return c, fmt.Errorf("hash has %d hex digits, the length of %s; expected 64 hex digits of SHA-256", len(s), algo)
			}
			return c, fmt.Errorf("hash has %d hex digits; expected 64 hex digits of SHA-256", len(s))
		}
		hex.Decode(c[:], []byte(s)) // cannot fail: 64 hex digits
		return c, nil
	}
	if len(s) > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') && firstNonHex(s[2:]) < 0 {
		return c, fmt.Errorf("hash starts with %q, a programming-language prefix, before %d hex digits; expected 64 hex digits of SHA-256 without it", s[:2], len(s)-2)
	}
	if n, ok := base64Length(s); ok {
		if n == 32 {
			return c, fmt.Errorf("hash looks like base64 (of 32 bytes, a SHA-256 digest); expected 64 hex digits of SHA-256")
		}
		return c, fmt.Errorf("hash looks like base64; expected 64 hex digits of SHA-256")
	}
	bad := firstNonHex(s)
	r := []rune(s[bad:])[0]
	return c, fmt.Errorf("hash has %q at character %d, which is not a hex digit; expected 64 hex digits of SHA-256", r, len([]rune(s[:bad]))+1)
}

// namesSHA256 reports whether an algorithm prefix other than "sha256" is
// still a spelling of SHA-256: "sha-256", "SHA_256", "sha2-256" (as
// multihash names it).
func namesSHA256(algo string) bool {
	n := strings.ToLower(strings.NewReplacer("-", "", "_", "").Replace(algo))
	return n == "sha256" || n == "sha2256"
}

// isAlgorithmName reports whether s could name a hash algorithm in a
// "name:" prefix (letters, digits and '-', starting with a letter).
func isAlgorithmName(s string) bool {
	if len(s) > 16 || !isLetter(s[0]) {
		return false
	}
	for i := 0; i < len(s); i++ {
		b := s[i]
		if !isLetter(b) && !(b >= '0' && b <= '9') && b != '-' && b != '_' {
			return false
		}
	}
	return true
}

func isLetter(b byte) bool { return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' }

// firstNonHex returns the byte offset of the first byte of s that is not a
// hex digit, or -1.
func firstNonHex(s string) int {
	for i := 0; i < len(s); i++ {
		b := s[i]
		if !(b >= '0' && b <= '9' || b >= 'a' && b <= 'f' || b >= 'A' && b <= 'F') {
			return i
		}
	}
	return -1
}

// base64Length reports whether s decodes as standard or URL-safe base64
// (padded or not) to 16..64 bytes, the size of a digest, and to how many.
// A string of 64 characters is taken for hex with a typo, not base64.
func base64Length(s string) (int, bool) {
	if len(s) == 64 {
		return 0, false
	}
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		if b, err := enc.DecodeString(s); err == nil && len(b) >= 16 && len(b) <= 64 {
			return len(b), true
		}
	}
	return 0, false
}
