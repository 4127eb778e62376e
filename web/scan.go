package web

// Scanning eight bytes at a time for the bytes the JSON and HTML writers
// must escape: most of what they write (judge's explanations, names,
// times) needs none, and a word of eight plain bytes is copied as it is.

const (
	lsb8 = 0x0101010101010101
	msb8 = 0x8080808080808080
)

// word8 is s[i:i+8] as a little-endian word; i+8 <= len(s).
func word8(s string, i int) uint64 {
	_ = s[i+7]
	return uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
		uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
}

// hasByte is non-zero when a byte of x is b.
func hasByte(x uint64, b byte) uint64 {
	y := x ^ (lsb8 * uint64(b))
	return (y - lsb8) & ^y & msb8
}

// jsonPlainPrefix is the length of the longest prefix of s[i:], rounded
// down to whole words of eight bytes, that encoding/json writes as it is
// (jsonPlain): no control character, quote, backslash, <, > or & and
// nothing outside ASCII.
func jsonPlainPrefix(s string, i int) int {
	for i+8 <= len(s) {
		x := word8(s, i)
		if ((x-lsb8*0x20)&^x|x)&msb8|hasByte(x, '"')|hasByte(x, '\\')|hasByte(x, '<')|hasByte(x, '>')|hasByte(x, '&') != 0 {
			break
		}
		i += 8
	}
	return i
}

// htmlPlainPrefix is the same for html/template's escaping
// (pageWriter.esc): no NUL, quote, apostrophe, &, +, < or >.
func htmlPlainPrefix(s string, i int) int {
	for i+8 <= len(s) {
		x := word8(s, i)
		if (x-lsb8)&^x&msb8|hasByte(x, '"')|hasByte(x, '\'')|hasByte(x, '&')|hasByte(x, '+')|hasByte(x, '<')|hasByte(x, '>') != 0 {
			break
		}
		i += 8
	}
	return i
}
