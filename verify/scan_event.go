package verify

import (
	"encoding/binary"
	"math/bits"
)

// The bargaining events as the engine writes them (src/negotiation/
// server.nim): no whitespace, "kind" first, then a fixed member order for
// each kind (bargainEventFast lists them), then for an offer or an accept
// an optional "text" and an optional "notes". bargainEventFast reads an
// event written exactly so in one function, with each member's name
// compared as a pattern and its value read in place; any other event
// (another order, whitespace, a negative or long integer, an escape in a
// name, within 18 bytes of the input's end) is read again from its '{' by
// the general member loop, which accepts a superset, so both give the
// same value. engineMatchFast does the same for config.schedule's entries.

// Indices of bargainEventKeys.
const (
	evKind = iota
	evMatch
	evMatchKind
	evSeats
	evOpener
	evPool
	evValues
	evMaxTurns
	evTurn
	evSeat
	evOther
	evTake
	evWorth
	evPayoff
	evOutcome
	evScripted
	evText
	evNotes
	evFields
)

// memberPats[k] is the pattern `,"name":` of bargainEventKeys name k.
var memberPats = func() (p [evFields]keyPat) {
	for k, name := range bargainEventKeys.names {
		p[k] = newKeyPat(`,"`+name+`":`, k)
	}
	return p
}()

// eventFastInts is the most integers bargainEventFast reads in one event.
const eventFastInts = 32

// intBuf is room in the ints slab for the integers of one event: a[:n]
// are used (intRoom, keep).
type intBuf struct {
	a *[eventFastInts]int
	n int
}

// intRoom returns room for eventFastInts integers at the end of s.ints.
func (s *scanner) intRoom() intBuf {
	s.ints.room(eventFastInts)
	n := len(s.ints.buf)
	return intBuf{a: (*[eventFastInts]int)(s.ints.buf[n : n+eventFastInts])}
}

// keep takes the integers b used from s.ints.
func (s *scanner) keep(b intBuf) { s.ints.buf = s.ints.buf[:len(s.ints.buf)+b.n] }

// put stores v in b and returns its address, or nil when b is full.
func (b *intBuf) put(v int) *int {
	if b.n >= len(b.a) {
		return nil
	}
	p := &b.a[b.n]
	*p = v
	b.n++
	return p
}

// at reports whether the input at i holds p's pattern (and 16 bytes).
func (p *keyPat) at(d []byte, i int) bool {
	if i+16 > len(d) {
		return false
	}
	w := (*[16]byte)(d[i : i+16])
	return binary.LittleEndian.Uint64(w[:8])&p.m0 == p.w0 && binary.LittleEndian.Uint64(w[8:])&p.m1 == p.w1
}

// bargainEventFast reads the event at s.i into ev and t if it is written
// in the engine's layout, and reports whether it was; when it was not, s
// is as it was and ev and t may hold part of the event. The members after
// "kind", in the engine's order: an offer's match, turn, seat, other,
// take, worth and scripted, then optionally text and notes; an accept's
// the same with payoff for worth; a match's match, matchKind, seats,
// opener, pool, values and maxTurns; a matchEnd's match, outcome, payoff
// and turn; an end's match and text; nothing for start.
func (s *scanner) bargainEventFast(ev *bargainEvent, t *textInfo) bool {
	d, i := s.data, s.i
	if i+18 > len(d) || string(d[i:i+9]) != `{"kind":"` {
		return false
	}
	i += 9
	// The kind and its closing quote, compared as one 8-byte word (and
	// one byte more for "matchEnd").
	const (
		offer = iota
		accept
		match
		matchEnd
		end
		start
	)
	var kind, n int
	switch x := binary.LittleEndian.Uint64(d[i : i+8]); {
	case x&(1<<48-1) == 0x22726566666f: // offer"
		kind, n = offer, 5
	case x&(1<<56-1) == 0x22747065636361: // accept"
		kind, n = accept, 6
	case x&(1<<48-1) == 0x22686374616d: // match"
		kind, n = match, 5
	case x == 0x646e45686374616d && d[i+8] == '"': // matchEnd
		kind, n = matchEnd, 8
	case x&(1<<32-1) == 0x22646e65: // end"
		kind, n = end, 3
	case x&(1<<48-1) == 0x227472617473: // start"
		kind, n = start, 5
	default:
		return false
	}
	a := i
	i += n
	ev.Kind = s.substring(a, i)
	i++
	b := s.intRoom()
	var v int
	switch kind {
	case offer, accept:
		// Four one-member integers: match, turn, seat, other.
		if i = memberAt(d, i, evMatch); i < 0 {
			return false
		}
		if v = digitAt(d, i); v >= 0 {
			i++
		} else if v, i = uintAt(d, i); i < 0 {
			return false
		}
		if ev.Match = b.put(v); ev.Match == nil {
			return false
		}
		if i = memberAt(d, i, evTurn); i < 0 {
			return false
		}
		if v = digitAt(d, i); v >= 0 {
			i++
		} else if v, i = uintAt(d, i); i < 0 {
			return false
		}
		if ev.Turn = b.put(v); ev.Turn == nil {
			return false
		}
		if i = memberAt(d, i, evSeat); i < 0 {
			return false
		}
		if v = digitAt(d, i); v >= 0 {
			i++
		} else if v, i = uintAt(d, i); i < 0 {
			return false
		}
		if ev.Seat = b.put(v); ev.Seat == nil {
			return false
		}
		if i = memberAt(d, i, evOther); i < 0 {
			return false
		}
		if v = digitAt(d, i); v >= 0 {
			i++
		} else if v, i = uintAt(d, i); i < 0 {
			return false
		}
		if ev.Other = b.put(v); ev.Other == nil {
			return false
		}
		if i = memberAt(d, i, evTake); i < 0 {
			return false
		}
		if ev.Take, i = listAt(d, i, &b); i < 0 {
			return false
		}
		if kind == offer {
			if i = memberAt(d, i, evWorth); i < 0 {
				return false
			}
			if ev.Worth, i = listAt(d, i, &b); i < 0 {
				return false
			}
		} else {
			if i = memberAt(d, i, evPayoff); i < 0 {
				return false
			}
			if ev.Payoff, i = listAt(d, i, &b); i < 0 {
				return false
			}
		}
		if i = memberAt(d, i, evScripted); i < 0 {
			return false
		}
		switch {
		case i+5 <= len(d) && string(d[i:i+4]) == "true" && (d[i+4] == ',' || d[i+4] == '}'):
			i += 4
			ev.Scripted = s.bools.one(true)
		case i+6 <= len(d) && string(d[i:i+5]) == "false" && (d[i+5] == ',' || d[i+5] == '}'):
			i += 5
			ev.Scripted = s.bools.one(false)
		default:
			return false
		}
		if j := memberAt(d, i, evText); j >= 0 {
			if ev.Text, t.text, i = s.textAt(j); i < 0 {
				return false
			}
		}
		if j := memberAt(d, i, evNotes); j >= 0 {
			if ev.Notes, t.notes, i = s.textAt(j); i < 0 {
				return false
			}
		}
	case match:
		if i = memberAt(d, i, evMatch); i < 0 {
			return false
		}
		if v = digitAt(d, i); v >= 0 {
			i++
		} else if v, i = uintAt(d, i); i < 0 {
			return false
		}
		if ev.Match = b.put(v); ev.Match == nil {
			return false
		}
		if i = memberAt(d, i, evMatchKind); i < 0 {
			return false
		}
		var str string
		if str, _, i = s.textAt(i); i < 0 {
			return false
		}
		ev.MatchKind = s.strs.one(str)
		if i = memberAt(d, i, evSeats); i < 0 {
			return false
		}
		if ev.Seats, i = listAt(d, i, &b); i < 0 {
			return false
		}
		if i = memberAt(d, i, evOpener); i < 0 {
			return false
		}
		if v = digitAt(d, i); v >= 0 {
			i++
		} else if v, i = uintAt(d, i); i < 0 {
			return false
		}
		if ev.Opener = b.put(v); ev.Opener == nil {
			return false
		}
		if i = memberAt(d, i, evPool); i < 0 {
			return false
		}
		if ev.Pool, i = listAt(d, i, &b); i < 0 {
			return false
		}
		if i = memberAt(d, i, evValues); i < 0 {
			return false
		}
		if ev.Values, i = s.matrixAt(d, i, &b); i < 0 {
			return false
		}
		if i = memberAt(d, i, evMaxTurns); i < 0 {
			return false
		}
		if v = digitAt(d, i); v >= 0 {
			i++
		} else if v, i = uintAt(d, i); i < 0 {
			return false
		}
		if ev.MaxTurns = b.put(v); ev.MaxTurns == nil {
			return false
		}
	case matchEnd:
		if i = memberAt(d, i, evMatch); i < 0 {
			return false
		}
		if v = digitAt(d, i); v >= 0 {
			i++
		} else if v, i = uintAt(d, i); i < 0 {
			return false
		}
		if ev.Match = b.put(v); ev.Match == nil {
			return false
		}
		if i = memberAt(d, i, evOutcome); i < 0 {
			return false
		}
		var str string
		if str, _, i = s.textAt(i); i < 0 {
			return false
		}
		ev.Outcome = s.strs.one(str)
		if i = memberAt(d, i, evPayoff); i < 0 {
			return false
		}
		if ev.Payoff, i = listAt(d, i, &b); i < 0 {
			return false
		}
		if i = memberAt(d, i, evTurn); i < 0 {
			return false
		}
		if v = digitAt(d, i); v >= 0 {
			i++
		} else if v, i = uintAt(d, i); i < 0 {
			return false
		}
		if ev.Turn = b.put(v); ev.Turn == nil {
			return false
		}
	case end:
		if i = memberAt(d, i, evMatch); i < 0 {
			return false
		}
		if v = digitAt(d, i); v >= 0 {
			i++
		} else if v, i = uintAt(d, i); i < 0 {
			return false
		}
		if ev.Match = b.put(v); ev.Match == nil {
			return false
		}
		if i = memberAt(d, i, evText); i < 0 {
			return false
		}
		if ev.Text, t.text, i = s.textAt(i); i < 0 {
			return false
		}
	}
	if i >= len(d) || d[i] != '}' {
		return false
	}
	s.i = i + 1
	s.keep(b)
	return true
}

// engineMatchFast reads the config.schedule entry at s.i into m if it is
// written as the engine writes it, `{"kind":` then seats, opener, pool and
// values with no whitespace, and reports whether it was (as
// bargainEventFast).
func (s *scanner) engineMatchFast(m *engineMatchWire) bool {
	d, i := s.data, s.i
	if i+16 > len(d) || string(d[i:i+8]) != `{"kind":` {
		return false
	}
	str, _, i := s.textAt(i + 8)
	if i < 0 {
		return false
	}
	m.Kind = s.strs.one(str)
	b := s.intRoom()
	if i = memberAt(d, i, evSeats); i < 0 {
		return false
	}
	if m.Seats, i = listAt(d, i, &b); i < 0 {
		return false
	}
	if i = memberAt(d, i, evOpener); i < 0 {
		return false
	}
	var v int
	if v = digitAt(d, i); v >= 0 {
		i++
	} else if v, i = uintAt(d, i); i < 0 {
		return false
	}
	if m.Opener = b.put(v); m.Opener == nil {
		return false
	}
	if i = memberAt(d, i, evPool); i < 0 {
		return false
	}
	if m.Pool, i = listAt(d, i, &b); i < 0 {
		return false
	}
	if i = memberAt(d, i, evValues); i < 0 {
		return false
	}
	if m.Values, i = s.matrixAt(d, i, &b); i < 0 || i >= len(d) || d[i] != '}' {
		return false
	}
	s.i = i + 1
	s.keep(b)
	return true
}

// matrixAt reads at d[i] an array of at most 4 arrays of integers, each as
// listAt reads it into b, with no whitespace, and returns it and the index
// after it, or -1 for the index.
func (s *scanner) matrixAt(d []byte, i int, b *intBuf) ([][]int, int) {
	if i >= len(d) || d[i] != '[' {
		return nil, -1
	}
	i++
	var tmp [4][]int
	rows := tmp[:0]
	for i < len(d) && d[i] != ']' {
		if len(rows) > 0 {
			if d[i] != ',' {
				return nil, -1
			}
			i++
		}
		if len(rows) == len(tmp) {
			return nil, -1
		}
		var row []int
		if row, i = listAt(d, i, b); i < 0 {
			return nil, -1
		}
		rows = append(rows, row)
	}
	if i >= len(d) {
		return nil, -1
	}
	return s.lists.many(rows), i + 1
}

// memberAt returns the index after member k's pattern `,"name":` at d[i]
// (and 16 bytes of input), or -1 when it is not there.
func memberAt(d []byte, i, k int) int {
	if p := &memberPats[k]; p.at(d, i) {
		return i + p.n
	}
	return -1
}

// digitAt returns the one-digit integer at d[i] if a ',' or '}' follows
// it, or -1 (then uintAt reads what is there).
func digitAt(d []byte, i int) int {
	if i+1 < len(d) && d[i]-'0' <= 9 && (d[i+1] == ',' || d[i+1] == '}') {
		return int(d[i] - '0')
	}
	return -1
}

// textAt reads the string at d[i] with s.text, if there is one, and
// returns it, its textInfo and the index after it, or -1 for the index.
func (s *scanner) textAt(i int) (string, int, int) {
	if i >= len(s.data) || s.data[i] != '"' {
		return "", 0, -1
	}
	s.i = i
	str, runes := s.text()
	if s.failed {
		return "", 0, -1
	}
	return str, runes, s.i
}

// listAt reads at d[i] an array of integers into b as uintListAt does,
// and returns it and the index after it, or -1 for the index.
//
// An array of 1 to 3 one-digit integers, "[d]", "[d,d]" or "[d,d,d]", is
// read from the 8 bytes x at d[i] (little-endian): it ends at the first
// ']' (the lowest zero byte of x ^ ']'.., which is exact), which must be
// byte p = 2, 4 or 6; below it y = x ^ "[0,0,0" must be zero but in the
// digits' low nibbles (bytes 1, 3 and 5), and those must be at most 9
// (adding 6 does not reach 0x10).
func listAt(d []byte, i int, b *intBuf) ([]int, int) {
	a, n0 := b.a, b.n
	if i+8 <= len(d) && n0 <= len(a)-3 {
		const (
			tmpl   = '[' | '0'<<8 | ','<<16 | '0'<<24 | ','<<32 | '0'<<40
			digits = 0x0000_0100_0100_0100 // 0x01 in bytes 1, 3 and 5
		)
		x := binary.LittleEndian.Uint64(d[i : i+8])
		z := x ^ (']' * ones)
		if p := uint(bits.TrailingZeros64((z-ones)&^z&highs)) >> 3; p&1 == 0 && p-2 <= 4 {
			m := uint64(1)<<(8*(p&7)) - 1
			y := (x ^ tmpl) & m
			if dm := digits & m; y&^(dm*0x0f) == 0 && (y+dm*6)&(dm*0x10) == 0 {
				w := a[n0 : n0+3 : n0+3]
				w[0], w[1], w[2] = int(y>>8&0xf), int(y>>24&0xf), int(y>>40&0xf)
				n := int(p) / 2
				b.n = n0 + n
				return w[:n:n], i + int(p) + 1
			}
		}
	}
	return uintListAt(d, i, b)
}

// uintAt reads at d[i] a non-negative integer of 1 to 18 digits without a
// leading zero, followed by ',', ']' or '}', and returns it and the index
// after it, or -1 for the index.
func uintAt(d []byte, i int) (v, j int) {
	for j = i; j < len(d); j++ {
		c := d[j] - '0'
		if c > 9 {
			break
		}
		v = v*10 + int(c)
	}
	if n := j - i; n == 0 || n > 18 || n > 1 && d[i] == '0' || j >= len(d) || d[j] != ',' && d[j] != ']' && d[j] != '}' {
		return 0, -1
	}
	return v, j
}

// uintListAt reads at d[i] an array of integers as uintAt reads them,
// with no whitespace, into b (within its room), and returns it and the
// index after the ']', or -1 for the index.
func uintListAt(d []byte, i int, b *intBuf) ([]int, int) {
	if i >= len(d) || d[i] != '[' {
		return nil, -1
	}
	n0 := b.n
	j := i + 1
	for j < len(d) && d[j] != ']' {
		if b.n > n0 {
			if d[j] != ',' {
				return nil, -1
			}
			j++
		}
		// As uintAt, inline.
		k, v := j, 0
		for ; j < len(d); j++ {
			c := d[j] - '0'
			if c > 9 {
				break
			}
			v = v*10 + int(c)
		}
		if n := j - k; n == 0 || n > 18 || n > 1 && d[k] == '0' || j >= len(d) || d[j] != ',' && d[j] != ']' || b.n == len(b.a) {
			return nil, -1
		}
		b.a[b.n] = v
		b.n++
	}
	if j >= len(d) {
		return nil, -1
	}
	return b.a[n0:b.n:b.n], j + 1
}
