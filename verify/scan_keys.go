package verify

import "encoding/binary"

// keySet is the member names one kind of object may have, each known by
// its index (the order of names), with what the scanner needs to read
// them fast: for each name, the names that writers put next, as the
// patterns they write, `,"name":` (or `"name":` for the first member).
// The formats' writers (the engine's src/negotiation/server.nim,
// auction.Replay.Encode) write their members in a fixed order, so the
// next name is nearly always one of a few, checked with a mask and a
// comparison of two 8-byte words each.
type keySet struct {
	names []string
	// after[k+1] lists the names tried first after name k (after[0]:
	// before the first member), most frequent first.
	after []keyCands
}

// keyCands are up to 4 names tried, in order, at one place.
type keyCands struct {
	pats [4]keyPat
	n    int
}

// keyPat is name k's pattern, `,"name":` or `"name":`, as two
// little-endian 8-byte words and their masks (bytes past the pattern
// masked out); n is its length. A pattern longer than 16 bytes is never
// a candidate, so such a name is always read the general way.
type keyPat struct {
	w0, w1, m0, m1 uint64
	n, k           int
}

// newKeySet makes the keySet of names (at most 32) from the member orders
// that writers use, most frequent first: each name in an order is tried
// after the one before it (or first, for the first), in the order the
// orders give, up to 4 candidates.
func newKeySet(names []string, orders ...[]string) *keySet {
	ks := &keySet{names: names, after: make([]keyCands, len(names)+1)}
	index := func(name string) int {
		for k, n := range names {
			if n == name {
				return k
			}
		}
		panic("verify: key " + name + " not in its set")
	}
	add := func(prev, k int) {
		pat := `"` + names[k] + `":`
		if prev >= 0 {
			pat = "," + pat
		}
		cs := &ks.after[prev+1]
		for _, c := range cs.pats[:cs.n] {
			if c.k == k {
				return
			}
		}
		if cs.n == len(cs.pats) || len(pat) > 16 {
			return
		}
		cs.pats[cs.n] = newKeyPat(pat, k)
		cs.n++
	}
	for _, order := range orders {
		prev := -1
		for _, name := range order {
			k := index(name)
			add(prev, k)
			prev = k
		}
	}
	return ks
}

// newKeyPat is the keyPat of pat (at most 16 bytes) for name k.
func newKeyPat(pat string, k int) keyPat {
	var b, m [16]byte
	copy(b[:], pat)
	for i := range pat {
		m[i] = 0xff
	}
	return keyPat{
		w0: binary.LittleEndian.Uint64(b[:8]), w1: binary.LittleEndian.Uint64(b[8:]),
		m0: binary.LittleEndian.Uint64(m[:8]), m1: binary.LittleEndian.Uint64(m[8:]),
		n: len(pat), k: k,
	}
}

// key reads what comes before the next member of an object begun with
// begin('{'): the comma (unless prev < 0, the first member), the member's
// name and its colon, and returns the name's index in ks. It returns -1
// at the closing brace (consumed) and on failure (s.failed set; a name
// not in ks, or written with an escape, is a failure). prev is what key
// returned for the previous member, -1 before the first. The predicted
// names are tried here; anything else (whitespace, the closing brace, an
// unexpected name) is keySlow's.
func (s *scanner) key(ks *keySet, prev int) int {
	d, i := s.data, s.i
	if i+16 <= len(d) {
		x0, x1 := binary.LittleEndian.Uint64(d[i:i+8]), binary.LittleEndian.Uint64(d[i+8:i+16])
		cs := &ks.after[prev+1]
		for j := 0; j < cs.n; j++ {
			if p := &cs.pats[j]; x0&p.m0 == p.w0 && x1&p.m1 == p.w1 {
				s.i = i + p.n
				return p.k
			}
		}
		if byte(x0) == '}' {
			s.i = i + 1
			return -1
		}
	}
	return s.keyAny(ks, prev)
}

// keyAny is key for any input.
func (s *scanner) keyAny(ks *keySet, prev int) int {
	d, i := s.data, s.i
	if i >= len(d) || d[i] <= ' ' {
		s.ws()
		if i = s.i; i >= len(d) {
			s.fail()
			return -1
		}
	}
	switch d[i] {
	case '}':
		s.i = i + 1
		return -1
	case ',':
		if prev < 0 {
			s.fail()
			return -1
		}
		i++
		if i >= len(d) || d[i] <= ' ' {
			s.i = i
			s.ws()
			i = s.i
		}
	default:
		if prev >= 0 {
			s.fail()
			return -1
		}
	}
	return s.keySlow(ks, i)
}

// keySlow reads a member's name starting at d[i] (its opening quote) and
// its colon, and returns the name's index in ks, or -1 on failure.
func (s *scanner) keySlow(ks *keySet, i int) int {
	d := s.data
	if i >= len(d) || d[i] != '"' {
		s.fail()
		return -1
	}
	j, nonASCII := plainEnd(d, i+1)
	if nonASCII || j == len(d) || d[j] != '"' {
		// An escaped or non-ASCII name is no name the formats define,
		// or one decodeStrict reads after unescaping.
		s.fail()
		return -1
	}
	name := d[i+1 : j]
	for k, n := range ks.names {
		if n == string(name) {
			s.i = j + 1
			if s.peek() != ':' {
				s.fail()
				return -1
			}
			s.i++
			return k
		}
	}
	s.fail()
	return -1
}

// ordered is the keySet of names written in that order.
func ordered(names ...string) *keySet { return newKeySet(names, names) }
