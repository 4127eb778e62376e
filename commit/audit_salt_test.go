package commit

import (
	"math"
	"testing"
)

// TestAuditSalt checks estimates worked by hand (docs/commitments.md, "Salt
// audit"): a digit run of d digits counts 10^(d+1) declarations; a salt of
// n characters from an alphabet of A counts n*log2(A) bits.
func TestAuditSalt(t *testing.T) {
	log10 := math.Log2(10)
	for _, tc := range []struct {
		reveal          string
		alphabet        int
		saltBits, total float64
		weak            bool
	}{
		// "17" and "3": 10^3 * 10^2 declarations; one symbol: log2(33*1).
		{"I bid 17 on lot 3\nsalt: #", 33, math.Log2(33), 5*log10 + math.Log2(33), true},
		// No salt at all.
		{"I bid 17 on lot 3", 0, 0, 5 * log10, true},
		// NewSalt's form: 128 bits.
		{"I bid 17 on lot 3\nsalt: mfrggzdfmztwq2lknnwg23tpoa", 32, 128, 5*log10 + 128, false},
		// Hex: 11 characters of 16, 44 bits: 60.6 bits in all, weak.
		{"I bid 17 on lot 3\nsalt: 0a1b2c3d4e5", 16, 44, 5*log10 + 44, true},
		// Lowercase, uppercase and digits: 62; 10 characters.
		{"I bid 5\nsalt: aB3dE5gH7j", 62, 10 * math.Log2(62), 2*log10 + 10*math.Log2(62), false},
		// Words and "-": lowercase (26) plus the symbol class (33) = 59.
		{"I bid 40 on lot 2 | salt=walnut-tiger", 59, 12 * math.Log2(59), 5*log10 + 12*math.Log2(59), false},
	} {
		a := AuditSalt([]byte(tc.reveal))
		if a.Alphabet != tc.alphabet || !near(a.SaltBits, tc.saltBits) || !near(a.GuessesLog2, tc.total) || a.Weak != tc.weak {
			t.Errorf("AuditSalt(%q) = alphabet %d, salt %.3f bits, total %.3f, weak %v; want %d, %.3f, %.3f, %v",
				tc.reveal, a.Alphabet, a.SaltBits, a.GuessesLog2, a.Weak, tc.alphabet, tc.saltBits, tc.total, tc.weak)
		}
	}
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }
