package commit

import (
	"bytes"

	"golang.org/x/text/unicode/norm"
)

// Hint names one transformation of a reveal text whose result hashes to the
// posted commitment (docs/commitments.md, "Near-miss hints"). A hint never
// turns a mismatch into a match: the rule is the exact bytes.
type Hint struct {
	// Name says what was done to the revealed bytes, for example "trailing
	// LF added" or "CRLF->LF + trailing LF removed" (steps applied left to
	// right). The names are listed in docs/commitments.md.
	Name string `json:"name"`
	// Text is the transformed reveal, the bytes that do hash to the
	// commitment.
	Text []byte `json:"-"`
}

// Result is the outcome of Verify.
type Result struct {
	// Match is true when SHA-256 of the exact revealed bytes equals the
	// commitment.
	Match bool `json:"match"`
	// Commitment is the posted commitment; Got is SHA-256 of the revealed
	// bytes.
	Commitment Commitment `json:"commitment"`
	Got        Commitment `json:"got"`
	// Hints lists, on a mismatch only, every named transformation of the
	// reveal that would have matched, in the order of docs/commitments.md;
	// empty when none does.
	Hints []Hint `json:"hints"`
}

// Verify checks reveal against the commitment c over its exact bytes (the
// "Secret Information" rule, docs/rules/004_1fc38c7a40af5155.txt: "verify that the
// unhashed text correctly matches up to the hashed text"). On a mismatch,
// and only then, it tries the transformations of NearMisses and lists
// each that matches as a hint. It allocates nothing on a match.
func Verify(c Commitment, reveal []byte) Result {
	r := Result{Commitment: c, Got: Sum(reveal)}
	if r.Got == c {
		r.Match = true
		return r
	}
	r.Hints = NearMisses(c, reveal)
	return r
}

// NearMisses returns the hints for reveal against c: every transformation
// (single, or one of the others followed by a trailing-newline change) that
// changes the bytes and whose result hashes to c.
func NearMisses(c Commitment, reveal []byte) []Hint {
	var hints []Hint
	try := func(name string, text []byte) {
		if Sum(text) == c {
			hints = append(hints, Hint{Name: name, Text: text})
		}
	}
	for _, nl := range newlineSteps {
		if t, ok := nl.apply(reveal); ok {
			try(nl.name, t)
		}
	}
	for _, st := range otherSteps {
		t, ok := st.apply(reveal)
		if !ok {
			continue
		}
		try(st.name, t)
		for _, nl := range newlineSteps {
			if t2, ok := nl.apply(t); ok {
				try(st.name+" + "+nl.name, t2)
			}
		}
	}
	return hints
}

// step is one named transformation; apply returns ok false when the step
// does not apply (it would leave the bytes unchanged).
type step struct {
	name  string
	apply func([]byte) ([]byte, bool)
}

var (
	lf   = []byte("\n")
	cr   = []byte("\r")
	crlf = []byte("\r\n")
	bom  = []byte("\xef\xbb\xbf")
)

// newlineSteps change the trailing line break only.
var newlineSteps = []step{
	{"trailing LF added", func(b []byte) ([]byte, bool) { return concat(b, lf), true }},
	{"trailing LF removed", func(b []byte) ([]byte, bool) {
		if !bytes.HasSuffix(b, lf) {
			return nil, false
		}
		return b[:len(b)-1], true
	}},
	{"trailing CRLF added", func(b []byte) ([]byte, bool) { return concat(b, crlf), true }},
	{"trailing CRLF removed", func(b []byte) ([]byte, bool) {
		if !bytes.HasSuffix(b, crlf) {
			return nil, false
		}
		return b[:len(b)-2], true
	}},
	// A lone CR at the end: what is left of a final CRLF when a tool
	// (a shell's $(...), a form) drops only the LF.
	{"trailing CR removed", func(b []byte) ([]byte, bool) {
		if !bytes.HasSuffix(b, cr) || bytes.HasSuffix(b, crlf) {
			return nil, false
		}
		return b[:len(b)-1], true
	}},
}

// otherSteps are the transformations that are combined with each newline
// step.
var otherSteps = []step{
	{"CRLF->LF", func(b []byte) ([]byte, bool) {
		if !bytes.Contains(b, crlf) {
			return nil, false
		}
		return bytes.ReplaceAll(b, crlf, lf), true
	}},
	{"LF->CRLF", func(b []byte) ([]byte, bool) {
		t := lfToCRLF(b)
		return t, !bytes.Equal(t, b)
	}},
	{"outer whitespace trimmed", func(b []byte) ([]byte, bool) {
		t := bytes.TrimSpace(b)
		return t, len(t) != len(b)
	}},
	{"Unicode NFC", func(b []byte) ([]byte, bool) {
		if norm.NFC.IsNormal(b) {
			return nil, false
		}
		return norm.NFC.Bytes(b), true
	}},
	{"Unicode NFD", func(b []byte) ([]byte, bool) {
		if norm.NFD.IsNormal(b) {
			return nil, false
		}
		return norm.NFD.Bytes(b), true
	}},
	{"UTF-8 BOM removed", func(b []byte) ([]byte, bool) {
		if !bytes.HasPrefix(b, bom) {
			return nil, false
		}
		return b[len(bom):], true
	}},
	{"UTF-8 BOM added", func(b []byte) ([]byte, bool) { return concat(bom, b), true }},
	{"invisible characters removed", removeInvisible},
}

// concat returns a new slice holding a then b.
func concat(a, b []byte) []byte {
	t := make([]byte, 0, len(a)+len(b))
	return append(append(t, a...), b...)
}

// lfToCRLF turns every LF not already preceded by CR into CRLF.
func lfToCRLF(b []byte) []byte {
	t := make([]byte, 0, len(b)+bytes.Count(b, lf))
	for i, c := range b {
		if c == '\n' && (i == 0 || b[i-1] != '\r') {
			t = append(t, '\r')
		}
		t = append(t, c)
	}
	return t
}
