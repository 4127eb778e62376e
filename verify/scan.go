package verify

import (
	"math"
	"sync"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/sealedhq/sealed/rules/auction"
	"github.com/sealedhq/sealed/rules/bargain"
)

// scanner is the fast path of strict replay reading: a single pass over a
// replay's bytes that fills the wire structs directly, with no reflection.
// It accepts only a subset of what decodeStrict accepts, and never more:
// RFC 8259 JSON with UTF-8 strings (utf8.DecodeRune's notion of valid, as
// jsontext's), keys the format defines each given once per object,
// written without escapes, and values of the types the format gives (no
// null, integers without fraction or exponent that fit a Go int). On
// anything else it stops (failed is set) and the caller reads the replay
// again with decodeStrict, which accepts it or explains what is wrong; so
// error messages are decodeStrict's, and FuzzStrictDecoders holds the two
// to the same values.
type scanner struct {
	data   []byte
	i      int // next byte to read
	failed bool
	// alias makes strings point into data (aliasStrings), and escaped
	// strings into esc.
	alias  bool
	esc    []byte
	ints   slab[int]
	strs   slab[string]
	bools  slab[bool]
	lists  slab[[]int]
	values slab[jsontext.Value]
	bids   slab[auction.SeatBid]
	// players holds profit_update and auction_end states.
	players slab[auction.PlayerState]
	// bargainEvents and auctionEvents keep their capacity between
	// replays.
	bargainEvents []bargainEvent
	auctionEvents []auction.Event
	// texts is the textInfo of each of bargainEvents.
	texts []textInfo
	// engine is the memory of an engine replay's check (CheckEngineReplay).
	engine engineMemory
}

// engineMemory is what the check of one engine replay reuses from the
// last: the wire structs that are not events, and the episode.
type engineMemory struct {
	seed     int64
	check    bargainCheck
	wire     engineWire
	config   engineConfigWire
	results  engineResultsWire
	schedule []engineMatchWire
	episode  bargain.Episode
}

// slab hands out elements and short slices of chunks of memory, so that
// the many small pointers and slices of a replay cost few allocations.
// Chunks are never grown in place, so what it handed out stays valid until
// reset, which keeps the chunks for the next replay.
type slab[T any] struct {
	buf    []T   // the chunk being filled
	chunks [][]T // every chunk made; chunks[:next] are in use
	next   int
}

const slabChunk = 512

// room makes sure the current chunk has room for n more elements
// (n <= slabChunk).
func (s *slab[T]) room(n int) {
	if cap(s.buf)-len(s.buf) >= n {
		return
	}
	if s.next == len(s.chunks) {
		s.chunks = append(s.chunks, make([]T, 0, slabChunk))
	}
	s.buf = s.chunks[s.next][:0]
	s.next++
}

// one returns a pointer to a new element holding v.
func (s *slab[T]) one(v T) *T {
	s.room(1)
	s.buf = append(s.buf, v)
	return &s.buf[len(s.buf)-1]
}

// many returns a copy of vs with its capacity cut to its length (never nil).
func (s *slab[T]) many(vs []T) []T {
	if len(vs) == 0 {
		return []T{}
	}
	if len(vs) > slabChunk/8 {
		return append([]T(nil), vs...)
	}
	s.room(len(vs))
	n := len(s.buf)
	s.buf = append(s.buf, vs...)
	return s.buf[n : n+len(vs) : n+len(vs)]
}

// free returns room for n elements (n <= slabChunk) at the end of the
// current chunk, as an empty slice of capacity n: what is appended to it
// (within its capacity) is handed out by take.
func (s *slab[T]) free(n int) []T {
	s.room(n)
	k := len(s.buf)
	return s.buf[k : k : k+n]
}

// take hands out vs, a slice of free's that nothing was handed out after,
// with its capacity cut to its length (never nil).
func (s *slab[T]) take(vs []T) []T {
	s.buf = s.buf[:len(s.buf)+len(vs)]
	return vs[:len(vs):len(vs)]
}

// reset makes the chunks free for reuse.
func (s *slab[T]) reset() { s.buf, s.next = nil, 0 }

// scanners holds scanners, with their slabs, between replays.
var scanners = sync.Pool{New: func() any { return new(scanner) }}

// getScanner returns a scanner over data; release returns it.
func getScanner(data []byte) *scanner {
	s := scanners.Get().(*scanner)
	s.data, s.i, s.failed, s.alias = data, 0, false, false
	return s
}

// release returns s to scanners. Nothing it handed out (slices, pointers,
// event lists) may be used afterwards; strings may, unless aliasStrings
// was called (they are never taken from its memory otherwise). What it
// handed out is overwritten when it is reused, not zeroed here: sync.Pool
// lets the collector have an idle scanner, so it holds at most one
// replay's strings.
func (s *scanner) release() {
	s.ints.reset()
	s.strs.reset()
	s.bools.reset()
	s.lists.reset()
	s.values.reset()
	s.bids.reset()
	s.players.reset()
	s.bargainEvents, s.texts = s.bargainEvents[:0], s.texts[:0]
	s.engine.schedule = s.engine.schedule[:0]
	s.esc = s.esc[:0]
	s.auctionEvents = s.auctionEvents[:0]
	s.data = nil
	scanners.Put(s)
}

// intern returns b as a string: a constant for a word the formats use
// often (event kinds, outcomes, format names), a new string otherwise.
func intern(b []byte) string {
	switch string(b) {
	case "start":
		return "start"
	case "match":
		return "match"
	case "offer":
		return "offer"
	case "accept":
		return "accept"
	case "matchEnd":
		return "matchEnd"
	case "end":
		return "end"
	case "bargaining":
		return "bargaining"
	case "deal":
		return "deal"
	case "no_deal":
		return "no_deal"
	case "complete":
		return "complete"
	case "deadline":
		return "deadline"
	case "books":
		return "books"
	case "hats":
		return "hats"
	case "balls":
		return "balls"
	case bargain.EngineProtocol:
		return bargain.EngineProtocol
	case auction.ReplayFormat:
		return auction.ReplayFormat
	case auction.RulesVersion:
		return auction.RulesVersion
	case "first":
		return "first"
	case "second":
		return "second"
	case auction.EventItemUp:
		return auction.EventItemUp
	case auction.EventValuePrivate:
		return auction.EventValuePrivate
	case auction.EventAction:
		return auction.EventAction
	case auction.EventTimeout:
		return auction.EventTimeout
	case auction.EventBiddingOpen:
		return auction.EventBiddingOpen
	case auction.EventBidPlaced:
		return auction.EventBidPlaced
	case auction.EventBidsRevealed:
		return auction.EventBidsRevealed
	case auction.EventItemResult:
		return auction.EventItemResult
	case auction.EventProfitUpdate:
		return auction.EventProfitUpdate
	case auction.EventAuctionEnd:
		return auction.EventAuctionEnd
	case "talk":
		return "talk"
	case "bid":
		return "bid"
	case "say":
		return "say"
	case "pass":
		return "pass"
	}
	return string(b)
}

// fail stops the scan: every later read fails at once.
func (s *scanner) fail() {
	s.failed = true
	s.i = len(s.data)
}

// ws skips JSON whitespace (RFC 8259 section 2).
func (s *scanner) ws() {
	for s.i < len(s.data) {
		switch s.data[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

// peek returns the next byte after whitespace, or 0 at the end.
func (s *scanner) peek() byte {
	if s.i < len(s.data) && s.data[s.i] > ' ' {
		return s.data[s.i]
	}
	s.ws()
	if s.i < len(s.data) {
		return s.data[s.i]
	}
	return 0
}

// begin consumes the opening delimiter c ('{' or '[').
func (s *scanner) begin(c byte) bool {
	if s.peek() != c {
		s.fail()
		return false
	}
	s.i++
	return true
}

// end reports whether the top-level value was the whole input (whitespace
// around it aside) and nothing failed.
func (s *scanner) end() bool {
	s.ws()
	return !s.failed && s.i == len(s.data)
}

// all gives up unless seen, the members read of an object whose members
// keys names, holds every one of them (requireAuctionMembers then says
// which is missing).
func (s *scanner) all(seen uint32, keys *keySet) {
	if seen != 1<<len(keys.names)-1 {
		s.fail()
	}
}

// once marks the field bit as read in seen, failing if it already was:
// a key given twice in one object.
func (s *scanner) once(seen *uint32, bit uint32) bool {
	if *seen&bit != 0 {
		s.fail()
		return false
	}
	*seen |= bit
	return true
}

// elem reports whether an array begun with begin('[') has another element,
// consuming the comma before it; n counts the elements. It returns false
// at the closing bracket or on failure.
func (s *scanner) elem(n *int) bool {
	c := s.peek()
	if c == ']' && !s.failed {
		s.i++
		return false
	}
	if *n > 0 {
		if c != ',' {
			s.fail()
			return false
		}
		s.i++
	}
	if s.failed {
		return false
	}
	*n++
	return true
}

// int64 reads a JSON number that is an integer in int64's range, written
// without fraction or exponent (decodeStrict refuses those for integers).
func (s *scanner) int64() int64 {
	d, j := s.data, s.i
	if j >= len(d) || d[j] <= ' ' {
		s.ws()
		j = s.i
	}
	if j+1 < len(d) {
		// One digit followed by a delimiter: most integers in a replay.
		if c, next := d[j]-'0', d[j+1]; c <= 9 && next-'0' > 9 && next != '.' && next|0x20 != 'e' {
			s.i = j + 1
			return int64(c)
		}
	}
	neg := j < len(d) && d[j] == '-'
	if neg {
		j++
	}
	start := j
	var n uint64
	for ; j < len(d); j++ {
		c := d[j] - '0'
		if c > 9 {
			break
		}
		n = n*10 + uint64(c) // wraps past 19 digits, refused below
	}
	switch k := j - start; {
	case k == 0, // no digits
		k > 19,                   // more digits than any int64 has
		k > 1 && d[start] == '0', // a leading zero
		j < len(d) && (d[j] == '.' || d[j]|0x20 == 'e'),
		neg && n > 1<<63, !neg && n > math.MaxInt64:
		s.fail()
		return 0
	}
	s.i = j
	if neg {
		return -int64(n)
	}
	return int64(n)
}

// int reads an integer in int's range (see int64). A one-digit integer
// followed by a delimiter (most integers in a replay) is read here.
func (s *scanner) int() int {
	d, j := s.data, s.i
	if j+1 < len(d) {
		if c := d[j] - '0'; c <= 9 {
			if next := d[j+1]; next == ',' || next == '}' || next == ']' {
				s.i = j + 1
				return int(c)
			}
		}
	}
	return s.intSlow()
}

// intSlow is int for any other input.
func (s *scanner) intSlow() int {
	n := s.int64()
	if n < math.MinInt || n > math.MaxInt {
		s.fail()
		return 0
	}
	return int(n)
}

// bool reads true or false.
func (s *scanner) bool() bool {
	s.ws()
	switch {
	case len(s.data)-s.i >= 4 && string(s.data[s.i:s.i+4]) == "true":
		s.i += 4
		return true
	case len(s.data)-s.i >= 5 && string(s.data[s.i:s.i+5]) == "false":
		s.i += 5
		return false
	}
	s.fail()
	return false
}

// number reads any JSON number (RFC 8259 section 6) and returns its text.
func (s *scanner) number() []byte {
	s.ws()
	d, j := s.data, s.i
	digits := func() bool {
		k := j
		for j < len(d) && d[j] >= '0' && d[j] <= '9' {
			j++
		}
		return j > k
	}
	if j < len(d) && d[j] == '-' {
		j++
	}
	switch {
	case j < len(d) && d[j] == '0':
		j++
	case !digits():
		s.fail()
		return nil
	}
	if j < len(d) && d[j] == '.' {
		j++
		if !digits() {
			s.fail()
			return nil
		}
	}
	if j < len(d) && (d[j] == 'e' || d[j] == 'E') {
		j++
		if j < len(d) && (d[j] == '+' || d[j] == '-') {
			j++
		}
		if !digits() {
			s.fail()
			return nil
		}
	}
	v := d[s.i:j]
	s.i = j
	return v
}

// intList reads an array of integers. An array of at most intListFast
// non-negative integers of at most 18 digits, with no whitespace, is read
// by the loop here straight into the slab (the replays' pools, values,
// takes and payoffs); anything else by intListSlow from the '['.
func (s *scanner) intList() []int {
	d, j := s.data, s.i
	if j+1 >= len(d) || d[j] != '[' {
		return s.intListSlow()
	}
	j++
	if d[j] == ']' {
		s.i = j + 1
		return []int{}
	}
	sl := &s.ints
	sl.room(intListFast)
	buf := sl.buf
	n0 := len(buf)
	for len(buf)-n0 < intListFast && j < len(d) {
		c := d[j] - '0'
		if c > 9 {
			break
		}
		v := int(c)
		j++
		for k := j; j < len(d); j++ {
			c := d[j] - '0'
			if c > 9 {
				break
			}
			if v == 0 || j-k == 17 { // a leading zero, or 19 digits
				return s.intListSlow()
			}
			v = v*10 + int(c)
		}
		buf = append(buf, v)
		if j >= len(d) {
			break
		}
		if d[j] == ',' {
			j++
			continue
		}
		if d[j] == ']' {
			sl.buf = buf
			s.i = j + 1
			return buf[n0:len(buf):len(buf)]
		}
		break
	}
	return s.intListSlow()
}

// intListFast is the most integers intList's fast loop reads.
const intListFast = 16

// intListSlow is intList for any array.
func (s *scanner) intListSlow() []int {
	if !s.begin('[') {
		return nil
	}
	var tmp [16]int
	vs := tmp[:0]
	for n := 0; s.elem(&n); {
		vs = append(vs, s.int())
	}
	return s.ints.many(vs)
}

// intMatrix reads an array of arrays of integers.
func (s *scanner) intMatrix() [][]int {
	if !s.begin('[') {
		return nil
	}
	var tmp [4][]int
	vs := tmp[:0]
	for n := 0; s.elem(&n); {
		vs = append(vs, s.intList())
	}
	return s.lists.many(vs)
}

// stringList reads an array of strings.
func (s *scanner) stringList() []string {
	if !s.begin('[') {
		return nil
	}
	var tmp [16]string
	vs := tmp[:0]
	for n := 0; s.elem(&n); {
		vs = append(vs, s.string())
	}
	return s.strs.many(vs)
}

// intPtr reads an integer into a new *int.
func (s *scanner) intPtr() *int { return s.ints.one(s.int()) }

// boolPtr reads true or false into a new *bool.
func (s *scanner) boolPtr() *bool { return s.bools.one(s.bool()) }

// stringPtr reads a string into a new *string.
func (s *scanner) stringPtr() *string { return s.strs.one(s.string()) }
