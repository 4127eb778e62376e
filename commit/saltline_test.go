package commit

import "testing"

func TestFindSaltLine(t *testing.T) {
	for _, c := range []struct {
		decl string
		want SaltLine
		ok   bool
	}{
		{"I bid 40 on lot 2", SaltLine{}, false},
		{"I bid 40 on lot 2 salt: x", SaltLine{}, false}, // not at a line start
		{"I bid 40 on lot 2\n salt: x", SaltLine{}, false},
		{"I bid 40 on lot 2\nsalt x", SaltLine{}, false},
		{"I bid 40 on lot 2\nsalt= x", SaltLine{}, false},
		{"I bid 40 on lot 2\nſalt: x", SaltLine{}, false}, // U+017F is not an ASCII s
		{"salt: x", SaltLine{1, "salt:", ""}, true},
		{"I bid 40 on lot 2\nsalt: x", SaltLine{2, "salt:", "LF"}, true},
		{"I bid 40 on lot 2\nSALT: x", SaltLine{2, "SALT:", "LF"}, true},
		{"I bid 1 on lot 1\rsalt: x", SaltLine{2, "salt:", "CR"}, true},
		{"I bid 1 on lot 1\r\nSalt:x", SaltLine{2, "Salt:", "CRLF"}, true},
		{"a\r\rsalt:", SaltLine{3, "salt:", "CR"}, true},
		{"a\vsalt:", SaltLine{2, "salt:", "VT"}, true},
		{"a\fsalt:", SaltLine{2, "salt:", "FF"}, true},
		{"a\u0085sAlT:", SaltLine{2, "sAlT:", "U+0085"}, true},
		{"a\u2028salt:", SaltLine{2, "salt:", "U+2028"}, true},
		{"a\u2029b\nsalt:", SaltLine{3, "salt:", "LF"}, true},
	} {
		got, ok := FindSaltLine(c.decl)
		if got != c.want || ok != c.ok {
			t.Errorf("FindSaltLine(%q) = %+v, %v; want %+v, %v", c.decl, got, ok, c.want, c.ok)
		}
	}
}
