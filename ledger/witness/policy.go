package witness

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	neturl "net/url"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/sealedhq/sealed/ledger"
	tdnote "github.com/transparency-dev/formats/note"
	"golang.org/x/mod/sumdb/note"
)

// Witness is one witness: its verifier key (C2SP signed-note vkey of
// type 0x04, cosignature/v1 Ed25519, as litewitness prints it; a plain
// Ed25519 vkey of type 0x01 is taken as the same key), its name (the
// key's name) and the URL prefix add-checkpoint is posted under ("" for
// a witness whose cosignatures are only checked).
type Witness struct {
	Name        string
	VerifierKey string
	URL         string

	v note.Verifier
}

// Verifier returns the note verifier of w's cosignatures.
func (w *Witness) Verifier() note.Verifier { return w.v }

// NewWitness checks the verifier key and returns the witness.
func NewWitness(vkey, url string) (*Witness, error) {
	v, err := tdnote.NewVerifierForCosignatureV1(vkey)
	if err != nil {
		shown := vkey
		if len(shown) > 80 {
			shown = shown[:80] + "..."
		}
		if keyType(vkey) == 0x06 {
			return nil, fmt.Errorf("witness key %q: an ML-DSA-44 cosigner key (type 0x06, C2SP tlog-cosignature), which sealed does not support yet; expected an Ed25519 cosignature/v1 key (type 0x04), as litewitness prints it", shown)
		}
		return nil, fmt.Errorf("witness key %q: %v (expected name+hash+base64 key, as litewitness prints it)", shown, err)
	}
	return &Witness{Name: v.Name(), VerifierKey: vkey, URL: strings.TrimSuffix(url, "/"), v: v}, nil
}

// keyBytes returns the key of a vkey (name+hash+base64): its signature
// type byte and the public key, decoded; nil when it has none.
func keyBytes(vkey string) []byte {
	f := strings.SplitN(vkey, "+", 3) // the key's base64 may hold a +
	if len(f) != 3 {
		return nil
	}
	b, err := base64.StdEncoding.DecodeString(f[2])
	if err != nil {
		return nil
	}
	return b
}

// keyType returns the signature type byte of a vkey, or -1 when it has
// none.
func keyType(vkey string) int {
	if b := keyBytes(vkey); len(b) > 0 {
		return int(b[0])
	}
	return -1
}

// ed25519Key returns the Ed25519 public key of a vkey whose type is 0x01
// or 0x04 (32 bytes), or nil.
func ed25519Key(vkey string) []byte {
	b := keyBytes(vkey)
	if len(b) != 33 || (b[0] != 0x01 && b[0] != 0x04) {
		return nil
	}
	return b[1:]
}

// CheckNotLog returns an error naming the first witness of p whose
// Ed25519 key is the one of logVKey, the log's note verifier key. The log
// signs a cosignature/v1 line of its own beside its signature (with its
// key, as type 0x04; docs/ledger.md, "Checkpoints"), so such a witness
// would be met by the log alone, where a witness is there to be
// independent of it (c2sp.org/tlog-witness). A nil p, or a logVKey that
// is not an Ed25519 key, gives nil.
func (p *Policy) CheckNotLog(logVKey string) error {
	lk := ed25519Key(logVKey)
	if p == nil || lk == nil {
		return nil
	}
	for _, w := range p.Witnesses {
		if bytes.Equal(ed25519Key(w.VerifierKey), lk) {
			return fmt.Errorf("witness %s has the log's own key (%s): the log cosigns its own checkpoints with it, so it would witness itself; expected the keys of witnesses independent of the log", w.Name, logVKey)
		}
	}
	return nil
}

// Policy is a set of witnesses and how many of them must cosign a
// checkpoint (1 <= Quorum <= len(Witnesses), or 0 for none).
type Policy struct {
	Witnesses []*Witness
	Quorum    int
}

// ParsePolicy reads a policy file (see the package doc). Errors name the
// line and what was expected.
func ParsePolicy(data []byte) (*Policy, error) {
	p := &Policy{Quorum: -1}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		f := strings.Fields(sc.Text())
		if len(f) == 0 || strings.HasPrefix(f[0], "#") {
			continue
		}
		switch {
		case f[0] == "witness" && (len(f) == 2 || len(f) == 3):
			url := ""
			if len(f) == 3 {
				url = f[2]
				if !strings.HasPrefix(url, "http://") && !strings.HasPrefix(url, "https://") {
					return nil, fmt.Errorf("witness policy line %d: URL %q: expected http:// or https://", n, url)
				}
				// add-checkpoint is posted to URL/add-checkpoint: the
				// URL needs a host, and a query or fragment would
				// swallow the path.
				u, err := neturl.Parse(url)
				switch {
				case err != nil:
					return nil, fmt.Errorf("witness policy line %d: URL %q: %v", n, url, errors.Unwrap(err))
				case u.Hostname() == "":
					return nil, fmt.Errorf("witness policy line %d: URL %q: no host; expected e.g. https://witness.example/prefix", n, url)
				case u.RawQuery != "" || u.ForceQuery || u.Fragment != "" || strings.Contains(url, "#"):
					return nil, fmt.Errorf("witness policy line %d: URL %q: a query or fragment; expected a URL prefix add-checkpoint is appended to", n, url)
				}
			}
			w, err := NewWitness(f[1], url)
			if err != nil {
				return nil, fmt.Errorf("witness policy line %d: %v", n, err)
			}
			for _, o := range p.Witnesses {
				if o.Name == w.Name {
					return nil, fmt.Errorf("witness policy line %d: witness %s named twice", n, w.Name)
				}
			}
			p.Witnesses = append(p.Witnesses, w)
		case f[0] == "quorum" && len(f) == 2 && p.Quorum < 0:
			q, err := strconv.Atoi(f[1])
			if err != nil || q < 0 {
				return nil, fmt.Errorf("witness policy line %d: quorum %q: expected a number >= 0", n, f[1])
			}
			p.Quorum = q
		default:
			return nil, fmt.Errorf("witness policy line %d: expected \"witness <vkey> [<url>]\" or one \"quorum <n>\", got %q", n, sc.Text())
		}
	}
	if p.Quorum < 0 {
		p.Quorum = len(p.Witnesses)
	}
	if err := p.SetQuorum(p.Quorum); err != nil {
		return nil, fmt.Errorf("witness policy: %v", err)
	}
	return p, nil
}

// SetQuorum sets how many of the policy's witnesses must cosign: q must
// be 0 to the number of witnesses, else an error says what was expected.
func (p *Policy) SetQuorum(q int) error {
	if q < 0 || q > len(p.Witnesses) {
		return fmt.Errorf("quorum %d: expected a number from 0 to %d, the number of witnesses", q, len(p.Witnesses))
	}
	p.Quorum = q
	return nil
}

// Cosignature is a verified cosignature: the witness and its timestamp.
type Cosignature struct {
	Witness string
	Time    time.Time // the cosignature's timestamp (whole seconds, UTC)
	Line    string    // the signature line, "— name base64\n"
}

// QuorumError is returned by Policy.Check when fewer valid cosignatures
// than the quorum cover the checkpoint.
type QuorumError struct {
	Valid  []string // names of the witnesses whose cosignature verified
	Quorum int
}

// Error says how many valid cosignatures there are, by whom, against
// the quorum.
func (e *QuorumError) Error() string {
	if len(e.Valid) == 0 {
		return fmt.Sprintf("checkpoint has no valid witness cosignature, fewer than the quorum of %d", e.Quorum)
	}
	return fmt.Sprintf("checkpoint has %d valid witness cosignature(s) (%s), fewer than the quorum of %d",
		len(e.Valid), strings.Join(e.Valid, ", "), e.Quorum)
}

// Check verifies the cosignatures of the signed checkpoint note by the
// policy's witnesses (other signature lines are ignored; the log's own
// signature is checked elsewhere, ledger.OpenCheckpoint) and returns the
// valid ones, earliest first. A line that names a policy witness and its
// key hash but does not verify is an error (*note.InvalidSignatureError,
// C2SP signed-note); fewer valid ones than p.Quorum is a *QuorumError.
func (p *Policy) Check(signed []byte) ([]Cosignature, error) {
	if len(p.Witnesses) == 0 {
		return nil, nil
	}
	vs := make([]note.Verifier, len(p.Witnesses))
	for i, w := range p.Witnesses {
		vs[i] = w.v
		if err := ledger.CheckLinesOnce(signed, w.Name); err != nil {
			return nil, fmt.Errorf("witness cosignature: %w", err)
		}
	}
	n, err := note.Open(signed, note.VerifierList(vs...))
	var unverified *note.UnverifiedNoteError
	var sigs []note.Signature
	switch {
	case errors.As(err, &unverified):
		// No policy witness cosigned it.
	case err != nil:
		return nil, fmt.Errorf("witness cosignature: %w", err)
	default:
		sigs = n.Sigs
	}
	var out []Cosignature
	var names []string
	for _, s := range sigs {
		// note.Open accepts base64 with stray padding bits; only the
		// canonical encoding counts, so a cosignature has one text.
		raw, err := base64.StdEncoding.Strict().DecodeString(s.Base64)
		if err != nil {
			return nil, fmt.Errorf("witness cosignature by %s: not canonical base64", s.Name)
		}
		t, err := tdnote.CoSigV1Timestamp(s)
		if err != nil {
			return nil, fmt.Errorf("witness cosignature by %s: %v", s.Name, err)
		}
		// The timestamp as signed: 8 big-endian bytes after the key hash
		// (c2sp.org/tlog-cosignature), which CoSigV1Timestamp reads as
		// an int64 (2^64-1 as 1969).
		switch ts := binary.BigEndian.Uint64(raw[4:12]); {
		case ts == 0:
			return nil, fmt.Errorf("witness cosignature by %s: timestamp 0, which a witness never signs (c2sp.org/tlog-witness: it MUST NOT be zero), so it is no evidence of when the checkpoint was seen", s.Name)
		case ts > math.MaxInt64:
			return nil, fmt.Errorf("witness cosignature by %s: timestamp %d, past 2^63-1 (c2sp.org/tlog-cosignature: it MUST NOT exceed 2^63-1)", s.Name, ts)
		}
		out = append(out, Cosignature{Witness: s.Name, Time: t.UTC(), Line: "— " + s.Name + " " + s.Base64 + "\n"})
		names = append(names, s.Name)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Time.Before(out[j].Time) })
	if len(out) < p.Quorum {
		return out, &QuorumError{Valid: names, Quorum: p.Quorum}
	}
	return out, nil
}
