package commit

import (
	"bytes"
	"crypto/rand"
	"encoding/base32"
	"strings"
)

// SaltPrefix starts the salt line of a canonical reveal text.
const SaltPrefix = "salt: "

// saltEncoding is RFC 4648 base32 in lowercase without padding.
var saltEncoding = base32.NewEncoding("abcdefghijklmnopqrstuvwxyz234567").WithPadding(base32.NoPadding)

// NewSalt returns a fresh salt: 16 bytes (128 bits) from crypto/rand written
// as 26 lowercase RFC 4648 base32 characters without padding
// (docs/commitments.md, "Salt"). The error is crypto/rand's, which on
// supported platforms does not happen.
func NewSalt() (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	return saltEncoding.EncodeToString(b[:]), nil
}

// RevealText returns the canonical reveal text "<declaration>\nsalt: <salt>"
// with no trailing newline (docs/commitments.md, "Reveal text"). It does not
// validate; the CLI refuses an empty declaration or salt and a salt with a
// line break.
func RevealText(declaration, salt string) []byte {
	b := make([]byte, 0, len(declaration)+1+len(SaltPrefix)+len(salt))
	b = append(b, declaration...)
	b = append(b, '\n')
	b = append(b, SaltPrefix...)
	return append(b, salt...)
}

// SplitSalt finds the salt of a reveal text (docs/commitments.md, "Finding
// the salt"), in this order:
//
//  1. the canonical form: the last line starts with "salt:" (any case); the
//     salt is the rest of that line after one optional space, the
//     declaration everything before the line break;
//  2. several lines: the declaration is the first line, the salt every line
//     after it (what follows the declaration);
//  3. one line with a salt marker "salt:" or "salt=" (any case): the salt
//     follows the marker, the declaration precedes it, trimmed of spaces and
//     of the separators "|", ",", ";", "-";
//  4. one line with a sentence end (". ", "! ", "? "): the salt is what
//     follows the last sentence end.
//
// Trailing line breaks are dropped first: they belong to neither part.
// Otherwise ok is false: no salt can be told apart, and declaration is the
// whole text. The returned slices alias reveal.
func SplitSalt(reveal []byte) (declaration, salt []byte, ok bool) {
	reveal = bytes.TrimRight(reveal, "\r\n")
	if i := bytes.LastIndexByte(reveal, '\n'); i >= 0 {
		last := reveal[i+1:]
		if len(last) >= 5 && strings.EqualFold(string(last[:5]), "salt:") {
			s := last[5:]
			if len(s) > 0 && s[0] == ' ' {
				s = s[1:]
			}
			return bytes.TrimSuffix(reveal[:i], []byte("\r")), s, true
		}
		j := bytes.IndexByte(reveal, '\n')
		decl := bytes.TrimSuffix(reveal[:j], []byte("\r"))
		rest := reveal[j+1:]
		return decl, rest, true
	}
	lower := bytes.ToLower(reveal)
	for _, marker := range []string{"salt:", "salt="} {
		if i := bytes.LastIndex(lower, []byte(marker)); i >= 0 {
			s := bytes.TrimLeft(reveal[i+len(marker):], " ")
			d := bytes.TrimRight(reveal[:i], " |,;-")
			return d, s, len(s) > 0
		}
	}
	for i := len(reveal) - 2; i > 0; i-- {
		if reveal[i+1] == ' ' && (reveal[i] == '.' || reveal[i] == '!' || reveal[i] == '?') {
			if s := bytes.TrimLeft(reveal[i+1:], " "); len(s) > 0 {
				return reveal[:i+1], s, true
			}
			break
		}
	}
	return reveal, nil, false
}
