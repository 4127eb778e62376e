package commit

import (
	"context"
	"crypto/sha256"
	"fmt"
	"math/bits"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"unicode/utf8"
)

// Range is an inclusive range Lo..Hi of integer values for one template
// placeholder; Lo <= Hi.
type Range struct{ Lo, Hi int64 }

// DefaultRange returns the range a placeholder takes when none is given:
// 1..100 for "lot", 0..10000 for any other name ("n", the bid).
func DefaultRange(name string) Range {
	if name == "lot" {
		return Range{1, 100}
	}
	return Range{0, 10000}
}

// DefaultAlphabet is the salt alphabet of the active audit: the 95
// printable ASCII characters, space (0x20) to '~' (0x7e).
const DefaultAlphabet = " !\"#$%&'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~"

// DefaultSeparators are the separators tried between the declaration and a
// non-empty short salt, in this order: none, space, LF, CRLF, tab, '-',
// " | ", and the canonical "\nsalt: ".
var DefaultSeparators = []string{"", " ", "\n", "\r\n", "\t", "-", " | ", "\n" + SaltPrefix}

// DefaultMaxGuesses bounds the active audit when the caller keeps the
// default: 2^32 guesses, which covers the default template with no salt and
// every one-character salt, and part of the two-character salts.
const DefaultMaxGuesses = 1 << 32

// ActiveAuditOptions configures ActiveAudit. Start from
// DefaultActiveAuditOptions: ActiveAudit takes every field literally.
type ActiveAuditOptions struct {
	// Template is the declaration template (see Template).
	Template string
	// Ranges gives the values of placeholders by name; a placeholder not
	// in the map takes DefaultRange. A name that is not in the template is
	// an error.
	Ranges map[string]Range
	// Alphabet is the set of salt characters (Unicode code points,
	// duplicates ignored); it must not be empty when MaxSaltLen > 0.
	Alphabet string
	// MinSaltLen..MaxSaltLen is the salt length in characters, 0 <= Min <=
	// Max. Length 0 means the rendered template is the whole reveal text.
	MinSaltLen, MaxSaltLen int
	// Separators are tried between the declaration and a non-empty salt;
	// nil or empty means the salt follows the declaration directly.
	Separators []string
	// MaxGuesses bounds the number of guesses; 0 means the whole space.
	MaxGuesses uint64
	// Workers is the number of goroutines; 0 means runtime.GOMAXPROCS(0).
	Workers int
	// Progress, when not nil, is called after each batch of guesses with
	// the guesses done so far and the guesses planned (the space, or
	// MaxGuesses if smaller), and once more when the search ends. Calls
	// are serialized and done never decreases; it is called from the
	// worker goroutines, so it must be quick.
	Progress func(done, total uint64)
}

// DefaultActiveAuditOptions returns the documented defaults (docs/commitments.md,
// "Active audit")
// for template: default ranges, DefaultAlphabet, salts of 0..2 characters,
// DefaultSeparators, DefaultMaxGuesses, all cores.
func DefaultActiveAuditOptions(template string) ActiveAuditOptions {
	return ActiveAuditOptions{
		Template:   template,
		Alphabet:   DefaultAlphabet,
		MinSaltLen: 0,
		MaxSaltLen: 2,
		Separators: append([]string(nil), DefaultSeparators...),
		MaxGuesses: DefaultMaxGuesses,
	}
}

// ActiveAuditResult is the outcome of ActiveAudit.
type ActiveAuditResult struct {
	// Found is true when a reveal text hashing to the commitment was found;
	// Reveal is that text, Values the placeholder values, Separator and
	// Salt its parts after the declaration.
	Found     bool             `json:"found"`
	Reveal    string           `json:"reveal,omitempty"`
	Values    map[string]int64 `json:"values,omitempty"`
	Separator string           `json:"separator"`
	Salt      string           `json:"salt"`
	// Guesses is the number of texts hashed; Space the size of the whole
	// search space; Complete is true when the whole space was searched
	// without finding the text.
	Guesses  uint64 `json:"guesses"`
	Space    uint64 `json:"space"`
	Complete bool   `json:"complete"`
}

// ActiveAudit searches for the reveal text behind commitment c: every text
// "<template with values><separator><salt>" over the placeholder ranges, the
// separators and the salts of MinSaltLen..MaxSaltLen characters from the
// alphabet (docs/commitments.md, "Active audit"). Shorter salts come first;
// within a salt length the placeholders vary in template order, the first
// slowest, and for each declaration every separator and salt is tried. The
// search stops at the first match, after MaxGuesses guesses, or when ctx is
// done (then the error is ctx.Err() and the result holds the guesses made).
// Bad options (template, ranges, alphabet, salt lengths, a space of 2^64
// guesses or more) are errors before any guess.
func ActiveAudit(ctx context.Context, c Commitment, o ActiveAuditOptions) (ActiveAuditResult, error) {
	p, err := newSearchPlan(o)
	if err != nil {
		return ActiveAuditResult{}, err
	}
	return p.run(ctx, c, o)
}

// searchPlan is the validated search space. A guess is a mixed-radix number
// whose digits, most significant first, are the placeholder values, the
// separator and the salt characters; levels concatenate the salt lengths.
type searchPlan struct {
	tmpl    *Template
	ranges  []Range  // per placeholder slot
	sizes   []uint64 // per slot: Hi-Lo+1
	symbols []string // salt characters
	seps    []string
	levels  []searchLevel
	space   uint64
	total   uint64 // guesses planned: min(space, MaxGuesses)
}

// searchLevel is one salt length: global indexes start..start+size-1.
type searchLevel struct {
	saltLen     int
	start, size uint64
	radix       []uint64 // per digit: slots, separator, salt characters
}

func newSearchPlan(o ActiveAuditOptions) (*searchPlan, error) {
	t, err := ParseTemplate(o.Template)
	if err != nil {
		return nil, err
	}
	p := &searchPlan{tmpl: t}
	for name := range o.Ranges {
		if t.slotOf(name) < 0 {
			return nil, fmt.Errorf("range given for {%s}, but the template has no {%s}", name, name)
		}
	}
	declarations := uint64(1)
	for _, name := range t.names {
		r, ok := o.Ranges[name]
		if !ok {
			r = DefaultRange(name)
		}
		if r.Lo > r.Hi {
			return nil, fmt.Errorf("range of {%s} is %d..%d; expected lo <= hi", name, r.Lo, r.Hi)
		}
		size := uint64(r.Hi) - uint64(r.Lo) + 1
		if size == 0 {
			return nil, fmt.Errorf("range of {%s} is too large", name)
		}
		p.ranges = append(p.ranges, r)
		p.sizes = append(p.sizes, size)
		var ok2 bool
		if declarations, ok2 = mul(declarations, size); !ok2 {
			return nil, fmt.Errorf("search space is 2^64 guesses or more; narrow the ranges")
		}
	}
	if o.MinSaltLen < 0 || o.MaxSaltLen < o.MinSaltLen {
		return nil, fmt.Errorf("salt length %d..%d; expected 0 <= min <= max", o.MinSaltLen, o.MaxSaltLen)
	}
	if !utf8.ValidString(o.Alphabet) {
		return nil, fmt.Errorf("salt alphabet is not valid UTF-8")
	}
	seen := map[rune]bool{}
	for _, r := range o.Alphabet {
		if !seen[r] {
			seen[r] = true
			p.symbols = append(p.symbols, string(r))
		}
	}
	if o.MaxSaltLen > 0 && len(p.symbols) == 0 {
		return nil, fmt.Errorf("empty salt alphabet with a maximum salt length of %d; give an alphabet or a salt length of 0", o.MaxSaltLen)
	}
	p.seps = o.Separators
	if len(p.seps) == 0 {
		p.seps = []string{""}
	}
	for l := o.MinSaltLen; l <= o.MaxSaltLen; l++ {
		lv := searchLevel{saltLen: l, start: p.space}
		lv.radix = append(lv.radix, p.sizes...)
		nsep := uint64(1)
		if l > 0 {
			nsep = uint64(len(p.seps))
		}
		lv.radix = append(lv.radix, nsep)
		size, ok := mul(declarations, nsep)
		for i := 0; i < l && ok; i++ {
			lv.radix = append(lv.radix, uint64(len(p.symbols)))
			size, ok = mul(size, uint64(len(p.symbols)))
		}
		if !ok || p.space+size < p.space {
			return nil, fmt.Errorf("search space is 2^64 guesses or more; narrow the ranges or the salt length")
		}
		lv.size = size
		p.space += size
		p.levels = append(p.levels, lv)
	}
	p.total = p.space
	if o.MaxGuesses > 0 && o.MaxGuesses < p.total {
		p.total = o.MaxGuesses
	}
	return p, nil
}

// slotOf returns the slot of name, or -1.
func (t *Template) slotOf(name string) int {
	for i, n := range t.names {
		if n == name {
			return i
		}
	}
	return -1
}

func mul(a, b uint64) (uint64, bool) {
	hi, lo := bits.Mul64(a, b)
	return lo, hi == 0
}

// searchChunk is the number of guesses a worker takes at a time.
const searchChunk = 1 << 14

// searchState is what the workers share.
type searchState struct {
	next, done atomic.Uint64
	stop       atomic.Bool
	mu         sync.Mutex // guards found and the Progress calls
	found      bool
	foundLevel int
	foundIndex uint64 // within the level
}

func (p *searchPlan) run(ctx context.Context, c Commitment, o ActiveAuditOptions) (ActiveAuditResult, error) {
	workers := o.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	st := &searchState{}
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p.worker(ctx, [32]byte(c), st, o.Progress)
		}()
	}
	wg.Wait()
	res := ActiveAuditResult{Guesses: st.done.Load(), Space: p.space}
	if o.Progress != nil {
		o.Progress(res.Guesses, p.total)
	}
	if st.found {
		res.Found = true
		lv := p.levels[st.foundLevel]
		digits := make([]uint64, len(lv.radix))
		decode(lv.radix, st.foundIndex, digits)
		res.Values = map[string]int64{}
		for i, name := range p.tmpl.names {
			res.Values[name] = p.ranges[i].Lo + int64(digits[i])
		}
		text := p.render(nil, digits)
		k := len(p.tmpl.names)
		if lv.saltLen > 0 {
			res.Separator = p.seps[digits[k]]
			for _, d := range digits[k+1:] {
				res.Salt += p.symbols[d]
			}
			text = append(append(text, res.Separator...), res.Salt...)
		}
		res.Reveal = string(text)
		return res, nil
	}
	if err := ctx.Err(); err != nil {
		return res, err
	}
	res.Complete = res.Guesses == p.space
	return res, nil
}

// worker takes chunks of the global index space until it is used up, the
// text is found, or ctx is done.
func (p *searchPlan) worker(ctx context.Context, target [32]byte, st *searchState, progress func(done, total uint64)) {
	buf := make([]byte, 0, 256)
	var digits []uint64
	for !st.stop.Load() {
		if ctx.Err() != nil {
			st.stop.Store(true)
			return
		}
		start := st.next.Add(searchChunk) - searchChunk
		if start >= p.total {
			return
		}
		end := min(start+searchChunk, p.total)
		for pos := start; pos < end; {
			li := p.levelOf(pos)
			lv := &p.levels[li]
			e := min(end, lv.start+lv.size)
			if cap(digits) < len(lv.radix) {
				digits = make([]uint64, len(lv.radix))
			}
			digits = digits[:len(lv.radix)]
			idx, ok := p.scan(lv, pos-lv.start, e-lv.start, target, digits, &buf)
			if ok {
				st.mu.Lock()
				if !st.found {
					st.found, st.foundLevel, st.foundIndex = true, li, idx
				}
				st.mu.Unlock()
				st.stop.Store(true)
				st.done.Add(idx - (pos - lv.start) + 1)
				return
			}
			st.done.Add(e - pos)
			pos = e
		}
		if progress != nil {
			st.mu.Lock()
			progress(st.done.Load(), p.total)
			st.mu.Unlock()
		}
	}
}

// levelOf returns the level holding global index pos.
func (p *searchPlan) levelOf(pos uint64) int {
	for i := range p.levels {
		if pos < p.levels[i].start+p.levels[i].size {
			return i
		}
	}
	return len(p.levels) - 1
}

// scan hashes the guesses from..to-1 of level lv and returns the index of
// the one that hashes to target. It does not allocate once buf is large
// enough.
func (p *searchPlan) scan(lv *searchLevel, from, to uint64, target [32]byte, digits []uint64, bufp *[]byte) (uint64, bool) {
	decode(lv.radix, from, digits)
	k := len(p.tmpl.names)
	buf := p.render((*bufp)[:0], digits)
	declLen := len(buf)
	salt := digits[k+1:]
	for i := from; i < to; i++ {
		b := buf[:declLen]
		if lv.saltLen > 0 {
			b = append(b, p.seps[digits[k]]...)
			for _, d := range salt {
				b = append(b, p.symbols[d]...)
			}
		}
		if sha256.Sum256(b) == target {
			*bufp = b
			return i, true
		}
		buf = b
		// Increment the mixed-radix digits, least significant last.
		d := len(digits) - 1
		for ; d >= 0; d-- {
			digits[d]++
			if digits[d] < lv.radix[d] {
				break
			}
			digits[d] = 0
		}
		if d < k && i+1 < to {
			buf = p.render(buf[:0], digits)
			declLen = len(buf)
		}
	}
	*bufp = buf
	return 0, false
}

// render appends the template with the placeholder values of digits.
func (p *searchPlan) render(b []byte, digits []uint64) []byte {
	for _, part := range p.tmpl.parts {
		if part.slot < 0 {
			b = append(b, part.literal...)
		} else {
			b = strconv.AppendInt(b, p.ranges[part.slot].Lo+int64(digits[part.slot]), 10)
		}
	}
	return b
}

// decode writes index as mixed-radix digits, least significant last.
func decode(radix []uint64, index uint64, digits []uint64) {
	for d := len(radix) - 1; d >= 0; d-- {
		digits[d] = index % radix[d]
		index /= radix[d]
	}
}
