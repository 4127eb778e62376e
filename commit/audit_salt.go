package commit

import (
	"math"
	"unicode"
	"unicode/utf8"
)

// WeakBits is the brute-force threshold of the salt audit: a commitment
// whose estimated guess count (plausible declarations x salt space) is under
// 2^WeakBits is called weak (docs/commitments.md, "Salt audit").
const WeakBits = 64

// SaltAudit is the passive salt-strength estimate of a reveal text
// (docs/commitments.md, "Salt audit"). The estimate is an optimistic upper
// bound: it assumes each salt character was drawn uniformly from the
// alphabet its characters suggest, so a salt made of words scores higher
// than it deserves, never lower.
type SaltAudit struct {
	// Declaration and Salt are the parts SplitSalt found; SaltFound is its ok.
	Declaration string `json:"declaration"`
	Salt        string `json:"salt"`
	SaltFound   bool   `json:"salt_found"`
	// Alphabet is the size of the alphabet the salt's characters suggest
	// (10 digits, 16 hex, 32 base32, 26 per letter case, 33 ASCII symbols
	// and space, 128 for non-ASCII); 0 when no salt was found.
	Alphabet int `json:"alphabet"`
	// SaltBits is log2 of the salt space: characters x log2(Alphabet), or
	// log2(Alphabet x characters) when every character is the same. A salt
	// of 26 lowercase base32 characters (NewSalt's form) counts as 128 bits.
	SaltBits float64 `json:"salt_bits"`
	// DeclarationBits is log2 of the plausible declarations: for each run
	// of decimal digits in the declaration, 10^(digits+1) values (a number
	// of that many digits or one more); 2^10 wordings when it has no digits.
	DeclarationBits float64 `json:"declaration_bits"`
	// GuessesLog2 is DeclarationBits + SaltBits: log2 of the estimated
	// number of guesses a brute force needs to try the whole space.
	GuessesLog2 float64 `json:"guesses_log2"`
	// Weak is true when GuessesLog2 < WeakBits.
	Weak bool `json:"weak"`
}

// Guesses returns 2^GuessesLog2, the estimated number of guesses, rounded.
func (a SaltAudit) Guesses() float64 { return math.Round(math.Exp2(a.GuessesLog2)) }

// AuditSalt estimates how hard it is to recover reveal's declaration from
// its commitment by brute force, and calls the commitment weak below
// 2^WeakBits guesses. A reveal with no salt SplitSalt can find is scored
// with a salt of 0 bits.
func AuditSalt(reveal []byte) SaltAudit {
	decl, salt, ok := SplitSalt(reveal)
	a := SaltAudit{Declaration: string(decl), Salt: string(salt), SaltFound: ok}
	if ok {
		a.Alphabet, a.SaltBits = saltBits(string(salt))
	}
	a.DeclarationBits = declarationBits(decl)
	a.GuessesLog2 = a.DeclarationBits + a.SaltBits
	a.Weak = a.GuessesLog2 < WeakBits
	return a
}

// saltBits returns the alphabet size and the bits of a salt (see SaltAudit).
func saltBits(s string) (alphabet int, bits float64) {
	n := utf8.RuneCountInString(s)
	if n == 0 {
		return 0, 0
	}
	var lower, upper, digit, symbol, other, hexOnly, base32Only bool
	hexOnly, base32Only = true, true
	distinct := map[rune]bool{}
	for _, r := range s {
		distinct[r] = true
		switch {
		case r >= 'a' && r <= 'z':
			lower = true
		case r >= 'A' && r <= 'Z':
			upper = true
		case r >= '0' && r <= '9':
			digit = true
		case r < utf8.RuneSelf && unicode.IsPrint(r):
			symbol = true
		default:
			other = true
		}
		if !(r >= '0' && r <= '9' || r >= 'a' && r <= 'f') {
			hexOnly = false
		}
		if !(r >= 'a' && r <= 'z' || r >= '2' && r <= '7') {
			base32Only = false
		}
	}
	switch {
	case hexOnly && digit && lower:
		alphabet = 16
	case base32Only && digit && lower:
		alphabet = 32
	default:
		for _, c := range []struct {
			in   bool
			size int
		}{{lower, 26}, {upper, 26}, {digit, 10}, {symbol, 33}, {other, 128}} {
			if c.in {
				alphabet += c.size
			}
		}
	}
	if len(distinct) == 1 {
		return alphabet, math.Log2(float64(alphabet) * float64(n))
	}
	if base32Only && n == 26 {
		return 32, 128 // NewSalt's form: 16 random bytes in base32
	}
	return alphabet, float64(n) * math.Log2(float64(alphabet))
}

// declarationBits estimates log2 of the plausible declarations like decl
// (see SaltAudit).
func declarationBits(decl []byte) float64 {
	bits, runs := 0.0, 0
	for i := 0; i < len(decl); {
		if decl[i] < '0' || decl[i] > '9' {
			i++
			continue
		}
		j := i
		for j < len(decl) && decl[j] >= '0' && decl[j] <= '9' {
			j++
		}
		bits += float64(j-i+1) * math.Log2(10)
		runs++
		i = j
	}
	if runs == 0 {
		return 10
	}
	return bits
}
