package verify

import "encoding/binary"

// keySet is the member names one kind of object may have, each known by
// its index (the order of names), with what the scanner needs to read
// them fast: each name's pattern as a writer puts it, `"name":`, and for
// each name the names that writers put next. The formats' writers (the
// engine's src/negotiation/server.nim, auction.Replay.Encode) write their
// members in a fixed order, so the next name is nearly always one of a
// few, checked with a mask and a comparison of two 8-byte words each.
type keySet struct {
	names []string
	pats  []keyPat
	// after[k+1] lists the names tried first after name k (after[0]:
	// before the first member), most frequent first.
	after [][]keyPat
}

// keyPat is name k's pattern `"name":` as two little-endian 8-byte words
// and their masks (bytes past the pattern masked out); n is its length.
// A pattern longer than 16 bytes never matches (its w0 has a bit its m0
// lacks), so such a name is always read the general way.
type keyPat struct {
	w0, w1, m0, m1 uint64
	n, k           int
}

// newKeySet makes the keySet of names (at most 32, each at most 127 by
// index) from the member orders that writers use, most frequent first:
// each name in an order is tried after the one before it (or first, for
// the first), in the order the orders give, up to 4 candidates.
func newKeySet(names []string, orders ...[]string) *keySet {
	ks := &keySet{names: names, pats: make([]keyPat, len(names)), after: make([][]keyPat, len(names)+1)}
	index := func(name string) int8 {
		for k, n := range names {
			if n == name {
				return int8(k)
			}
		}
		panic("verify: key " + name + " not in its set")
	}
	for k, name := range names {
		pat := `"` + name + `":`
		p := &ks.pats[k]
		p.k = k
		if len(pat) > 16 {
			p.w0 = 1
			continue
		}
		var b [16]byte
		copy(b[:], pat)
		var m [16]byte
		for i := range pat {
			m[i] = 0xff
		}
		p.w0, p.w1 = binary.LittleEndian.Uint64(b[:8]), binary.LittleEndian.Uint64(b[8:])
		p.m0, p.m1 = binary.LittleEndian.Uint64(m[:8]), binary.LittleEndian.Uint64(m[8:])
		p.n = len(pat)
	}
	add := func(prev int, k int8) {
		for _, c := range ks.after[prev+1] {
			if c.k == int(k) {
				return
			}
		}
		if len(ks.after[prev+1]) < 4 {
			ks.after[prev+1] = append(ks.after[prev+1], ks.pats[k])
		}
	}
	for _, order := range orders {
		prev := -1
		for _, name := range order {
			k := index(name)
			add(prev, k)
			prev = int(k)
		}
	}
	return ks
}

// key reads what comes before the next member of an object begun with
// begin('{'): the comma (unless prev < 0, the first member), the member's
// name and its colon, and returns the name's index in ks. It returns -1
// at the closing brace (consumed) and on failure (s.failed set; a name
// not in ks, or written with an escape, is a failure). prev is what key
// returned for the previous member, -1 before the first.
func (s *scanner) key(ks *keySet, prev int) int {
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
	if i+16 <= len(d) {
		b := d[i : i+16]
		x0, x1 := binary.LittleEndian.Uint64(b), binary.LittleEndian.Uint64(b[8:])
		cs := ks.after[prev+1]
		for j := range cs {
			if p := &cs[j]; x0&p.m0 == p.w0 && x1&p.m1 == p.w1 {
				s.i = i + p.n
				return p.k
			}
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
