package web

// Scanning eight bytes at a time for the bytes the JSON and HTML writers
// must escape: most of what they write (the judge's explanations, names,
// times) needs none, and a run of eight plain bytes is passed over with
// eight table lookups and one branch (twice as fast, measured, as a byte
// loop or as testing the eight bytes as one word with bit tricks).

// jsonPlainPrefix is the length of the longest prefix of s[i:], rounded
// down to whole runs of eight bytes, that encoding/json writes as it is
// (jsonPlain): no control character, quote, backslash, <, > or & and
// nothing outside ASCII.
func jsonPlainPrefix(s string, i int) int {
	for i+8 <= len(s) {
		if !(jsonPlain[s[i]] && jsonPlain[s[i+1]] && jsonPlain[s[i+2]] && jsonPlain[s[i+3]] &&
			jsonPlain[s[i+4]] && jsonPlain[s[i+5]] && jsonPlain[s[i+6]] && jsonPlain[s[i+7]]) {
			break
		}
		i += 8
	}
	return i
}

// htmlPlain marks the bytes html/template writes as they are in text and
// quoted attributes (pageWriter.esc): all but NUL, the quote, the
// apostrophe, &, +, < and >.
var htmlPlain = func() (t [256]bool) {
	for c := range t {
		switch c {
		case 0, '"', '\'', '&', '+', '<', '>':
		default:
			t[c] = true
		}
	}
	return t
}()

// htmlPlainPrefix is jsonPlainPrefix for html/template's escaping
// (htmlPlain).
func htmlPlainPrefix(s string, i int) int {
	for i+8 <= len(s) {
		if !(htmlPlain[s[i]] && htmlPlain[s[i+1]] && htmlPlain[s[i+2]] && htmlPlain[s[i+3]] &&
			htmlPlain[s[i+4]] && htmlPlain[s[i+5]] && htmlPlain[s[i+6]] && htmlPlain[s[i+7]]) {
			break
		}
		i += 8
	}
	return i
}
