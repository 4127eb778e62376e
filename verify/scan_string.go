package verify

import (
	"encoding/binary"
	"math/bits"
	"unicode/utf8"
	"unsafe"
)

// aliasStrings makes the strings s reads without escapes point into its
// input instead of being copied out of it (no allocation per string).
// They are valid only while the input is unchanged: the caller must copy
// any of them it keeps past the input's life or into what it returns
// (bargainCheck.diff copies every claim it reports), and use this only
// where no read string is kept otherwise.
func (s *scanner) aliasStrings() { s.alias = true }

// string reads a JSON string: its escapes decoded, its UTF-8 checked.
func (s *scanner) string() string {
	str, _ := s.text()
	return str
}

// text reads a JSON string as string does and also returns what the
// engine's text rules need to know of it (cleanText): 1 + its rune count
// when it was written without escapes and holds no DEL (0x7f), so no
// ASCII control character at all (RFC 8259 section 7 refuses them
// unescaped); 0 when it was escaped or holds a DEL.
//
// One pass: 8 bytes at a time while they are printable ASCII other than
// '"' and '\' (plainRun), four 2-byte UTF-8 sequences at a time while there
// are some, else one UTF-8 sequence, checked as utf8.DecodeRune checks it
// (RFC 3629: no overlong form, no surrogate, nothing above U+10FFFF).
func (s *scanner) text() (string, int) {
	d, i := s.data, s.i
	if i >= len(d) || d[i] != '"' {
		if s.peek() != '"' {
			s.fail()
			return "", 0
		}
		i = s.i
	}
	start := i + 1
	j, conts, del := start, 0, false
	for {
		if j = plainRun(d, j); j >= len(d) {
			s.fail()
			return "", 0
		}
		c := d[j]
		if c >= utf8.RuneSelf {
			for j+8 <= len(d) && twoByteRun(binary.LittleEndian.Uint64(d[j:j+8])) {
				j += 8
				conts += 4
			}
			if j < len(d) && d[j] >= utf8.RuneSelf {
				n := utf8Seq(d, j)
				if n == 0 {
					s.fail()
					return "", 0
				}
				j += n
				conts += n - 1
			}
			continue
		}
		switch c {
		case '"':
			s.i = j + 1
			str := s.substring(start, j)
			if del {
				return str, 0
			}
			return str, j - start - conts + 1
		case '\\':
			return s.escaped(start, j), 0
		case 0x7f:
			del = true
			j++
		default: // a control character
			s.fail()
			return "", 0
		}
	}
}

// plainRun returns the index of the first byte at or after j that is not
// printable ASCII other than '"' and '\\' (so a quote, a backslash, a
// control character, DEL or a non-ASCII byte), or len(d). It reads 8
// bytes at a time (SWAR): a byte below 0x20 sets the top bit of
// (x - 0x20..) &^ x, a byte equal to c is a zero byte of x ^ c.., a byte
// 0x7f sets the top bit of x + 0x01.., a non-ASCII byte has its top bit
// set; the lowest byte flagged is exact (a borrow or a carry only runs
// upwards, from a byte flagged itself).
func plainRun(d []byte, j int) int {
	rest := d[j:]
	for len(rest) >= 16 {
		if m := stops(binary.LittleEndian.Uint64(rest[:8])); m != 0 {
			return len(d) - len(rest) + bits.TrailingZeros64(m)>>3
		}
		if m := stops(binary.LittleEndian.Uint64(rest[8:16])); m != 0 {
			return len(d) - len(rest) + 8 + bits.TrailingZeros64(m)>>3
		}
		rest = rest[16:]
	}
	if len(rest) >= 8 {
		if m := stops(binary.LittleEndian.Uint64(rest[:8])); m != 0 {
			return len(d) - len(rest) + bits.TrailingZeros64(m)>>3
		}
		rest = rest[8:]
	}
	for k, c := range rest {
		if c < 0x20 || c >= 0x7f || c == '"' || c == '\\' {
			return len(d) - len(rest) + k
		}
	}
	return len(d)
}

// stops flags (0x80) the bytes of x that plainRun stops at; the lowest
// flagged byte is exact.
func stops(x uint64) uint64 {
	q, b := x^quotes, x^slashs
	return ((x-spaces)&^x | (q-ones)&^q | (b-ones)&^b | x | (x + ones)) & highs
}

// substring returns the input's bytes [i, j) as a string: pointing into
// the input (aliasStrings), or else a constant or a new string.
func (s *scanner) substring(i, j int) string {
	if s.alias {
		return unsafe.String(unsafe.SliceData(s.data[i:j]), j-i)
	}
	return intern(s.data[i:j])
}

// twoByteRun reports whether the 8 bytes of x (little-endian) are four
// 2-byte UTF-8 sequences: each a lead byte 0xc2..0xdf (110xxxxx, not the
// overlong 0xc0 and 0xc1) and a continuation byte 0x80..0xbf (10xxxxxx).
// A lead byte is at least 0xc2 when one of its bits 0x1e is set, which
// adding 0x7f to them carries into its top bit.
func twoByteRun(x uint64) bool {
	const (
		mask  = 0xc0e0c0e0c0e0c0e0
		want  = 0x80c080c080c080c0
		leads = 0x001e001e001e001e
		carry = 0x007f007f007f007f
		tops  = 0x0080008000800080
	)
	return x&mask == want && (x&leads+carry)&tops == tops
}

// utf8Seq returns the length of the UTF-8 sequence at d[j] (a byte of
// 0x80 or above), or 0 when it is not one utf8.DecodeRune accepts: the
// well-formed sequences of RFC 3629 section 4 (Unicode table 3-7).
func utf8Seq(d []byte, j int) int {
	c := d[j]
	cont := func(k int) bool { return j+k < len(d) && d[j+k]&0xc0 == 0x80 }
	switch {
	case c < 0xc2:
		return 0
	case c < 0xe0:
		if cont(1) {
			return 2
		}
	case c < 0xf0:
		if !cont(1) || !cont(2) {
			return 0
		}
		switch c1 := d[j+1]; {
		case c == 0xe0 && c1 < 0xa0, // overlong
			c == 0xed && c1 > 0x9f: // a surrogate
			return 0
		}
		return 3
	case c < 0xf5:
		if !cont(1) || !cont(2) || !cont(3) {
			return 0
		}
		switch c1 := d[j+1]; {
		case c == 0xf0 && c1 < 0x90, // overlong
			c == 0xf4 && c1 > 0x8f: // above U+10FFFF
			return 0
		}
		return 4
	}
	return 0
}

// SWAR constants: a byte repeated in each of a uint64's 8 bytes.
const (
	ones   = 0x0101010101010101
	highs  = 0x8080808080808080
	quotes = '"' * ones
	slashs = '\\' * ones
	spaces = 0x20 * ones
	dels   = 0x7f * ones
)

// plainEnd returns the index of the first byte at or after j that a JSON
// string cannot hold as it is ('"', '\\' or a control character below
// 0x20), or len(d) when there is none, and whether a byte of 0x80 or above
// (non-ASCII) came before it. It reads 8 bytes at a time: for each, a
// byte below 0x20 sets the top bit of (x - 0x20..) &^ x, and a byte equal
// to c is a zero byte of x ^ c..; the lowest byte flagged is exact (a
// borrow only runs upwards, past the first flagged byte).
func plainEnd(d []byte, j int) (int, bool) {
	var hi uint64
	for ; j+8 <= len(d); j += 8 {
		x := binary.LittleEndian.Uint64(d[j : j+8])
		q, b := x^quotes, x^slashs
		m := ((x - spaces) &^ x) | ((q - ones) &^ q) | ((b - ones) &^ b)
		if m &= highs &^ x; m != 0 {
			k := bits.TrailingZeros64(m) >> 3
			hi |= x & (1<<(8*k) - 1)
			return j + k, hi&highs != 0
		}
		hi |= x
	}
	nonASCII := hi&highs != 0
	for ; j < len(d); j++ {
		c := d[j]
		if c < 0x20 || c == '"' || c == '\\' {
			break
		}
		if c >= utf8.RuneSelf {
			nonASCII = true
		}
	}
	return j, nonASCII
}

// escaped finishes a string from start whose first escape is at j; the
// bytes before j are already checked.
func (s *scanner) escaped(start, j int) string {
	var buf []byte
	if s.alias {
		// Built in s.esc, which lives as long as the input's strings do
		// (until release); a string made earlier keeps its old array
		// should this append move s.esc.
		buf = s.esc[len(s.esc):]
	} else {
		buf = make([]byte, 0, j-start+16)
	}
	buf = append(buf, s.data[start:j]...)
	for j < len(s.data) {
		b := s.data[j]
		switch {
		case b == '"':
			s.i = j + 1
			if !s.alias {
				return string(buf)
			}
			s.esc = append(s.esc, buf...) // buf is s.esc's spare room unless it grew
			str := s.esc[len(s.esc)-len(buf):]
			return unsafe.String(unsafe.SliceData(str), len(str))
		case b == '\\':
			if j+1 >= len(s.data) {
				s.fail()
				return ""
			}
			j += 2
			switch s.data[j-1] {
			case '"':
				buf = append(buf, '"')
			case '\\':
				buf = append(buf, '\\')
			case '/':
				buf = append(buf, '/')
			case 'b':
				buf = append(buf, '\b')
			case 'f':
				buf = append(buf, '\f')
			case 'n':
				buf = append(buf, '\n')
			case 'r':
				buf = append(buf, '\r')
			case 't':
				buf = append(buf, '\t')
			case 'u':
				r, ok := s.hex4(j)
				if !ok {
					return ""
				}
				j += 4
				if r >= 0xd800 && r < 0xe000 {
					// A surrogate: only a high one followed by an
					// escaped low one makes a character.
					if r >= 0xdc00 || j+1 >= len(s.data) || s.data[j] != '\\' || s.data[j+1] != 'u' {
						s.fail()
						return ""
					}
					lo, ok := s.hex4(j + 2)
					if !ok || lo < 0xdc00 || lo >= 0xe000 {
						s.fail()
						return ""
					}
					j += 6
					r = 0x10000 + (r-0xd800)<<10 + (lo - 0xdc00)
				}
				buf = utf8.AppendRune(buf, r)
			default:
				s.fail()
				return ""
			}
		case b < 0x20:
			s.fail()
			return ""
		case b < utf8.RuneSelf:
			buf = append(buf, b)
			j++
		default:
			n := utf8Seq(s.data, j)
			if n == 0 {
				s.fail()
				return ""
			}
			buf = append(buf, s.data[j:j+n]...)
			j += n
		}
	}
	s.fail()
	return ""
}

// hex4 reads the 4 hex digits of a \u escape at j.
func (s *scanner) hex4(j int) (rune, bool) {
	if j+4 > len(s.data) {
		s.fail()
		return 0, false
	}
	var r rune
	for _, c := range s.data[j : j+4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c -= 'a' - 10
		case c >= 'A' && c <= 'F':
			c -= 'A' - 10
		default:
			s.fail()
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}
