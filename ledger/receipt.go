package ledger

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"strconv"
	"strings"

	"golang.org/x/mod/sumdb/tlog"
)

// ReceiptHeader is the first line of a C2SP tlog-proof.
const ReceiptHeader = "c2sp.org/tlog-proof@v1"

// Receipt is an offline proof that an entry is in the log (C2SP
// tlog-proof, https://c2sp.org/tlog-proof): the index, the RFC 6962
// inclusion proof and the signed checkpoint, with whatever witness
// cosignatures it carries. sealed writes the entry's leaf in the extra
// line (the spec's "data necessary to reconstruct the record hash"), so a
// receipt checks alone; the leaf is authenticated by the proof, not by
// being there.
type Receipt struct {
	Extra      []byte      // the leaf (nil: no extra line)
	Index      int64       // 0 <= Index < the checkpoint's size
	Proof      []tlog.Hash // leaf's sibling first, up to the root's child
	Checkpoint string      // the signed note, verbatim
}

// Receipt returns p as a tlog-proof, with the leaf as the extra data.
func (p *InclusionProof) Receipt() *Receipt {
	return &Receipt{Extra: []byte(p.Leaf), Index: p.Index, Proof: p.Proof, Checkpoint: p.Checkpoint}
}

// Format returns the tlog-proof text: the header line, the extra line if
// any, the index line, one base64 hash per line, a blank line and the
// checkpoint.
func (r *Receipt) Format() []byte {
	var b bytes.Buffer
	b.WriteString(ReceiptHeader + "\n")
	if r.Extra != nil {
		b.WriteString("extra " + base64.StdEncoding.EncodeToString(r.Extra) + "\n")
	}
	fmt.Fprintf(&b, "index %d\n", r.Index)
	for _, h := range r.Proof {
		b.WriteString(base64.StdEncoding.EncodeToString(h[:]) + "\n")
	}
	b.WriteString("\n")
	b.WriteString(r.Checkpoint)
	return b.Bytes()
}

// ParseReceipt parses a C2SP tlog-proof strictly: the header line, an
// optional extra line of standard base64, "index N" (decimal, no leading
// zeros), at most 63 proof lines of standard base64 of 32 bytes, a blank
// line and a checkpoint of a signed note's form (CheckNoteForm). Errors
// say which line is wrong.
func ParseReceipt(data []byte) (*Receipt, error) {
	if bytes.HasPrefix(data, []byte(ReceiptHeader+"\r\n")) {
		return nil, fmt.Errorf("tlog-proof: its lines end in CRLF; a tlog-proof's lines end in LF alone")
	}
	head, cp, ok := strings.Cut(string(data), "\n\n")
	if !ok || cp == "" {
		return nil, fmt.Errorf("tlog-proof: expected a blank line followed by the checkpoint")
	}
	if err := CheckNoteForm(cp); err != nil {
		return nil, fmt.Errorf("tlog-proof: checkpoint: %w", err)
	}
	lines := strings.Split(head, "\n")
	if lines[0] != ReceiptHeader {
		return nil, fmt.Errorf("tlog-proof: first line %q, expected %q", lines[0], ReceiptHeader)
	}
	r := &Receipt{Checkpoint: cp}
	i := 1
	if i < len(lines) && strings.HasPrefix(lines[i], "extra ") {
		x, err := base64.StdEncoding.Strict().DecodeString(lines[i][len("extra "):])
		if err != nil {
			return nil, fmt.Errorf("tlog-proof: extra line: not standard base64: %v", err)
		}
		r.Extra = x
		i++
	}
	if i >= len(lines) || !strings.HasPrefix(lines[i], "index ") {
		return nil, fmt.Errorf("tlog-proof: expected an \"index N\" line")
	}
	s := lines[i][len("index "):]
	if s == "" || (len(s) > 1 && s[0] == '0') || strings.TrimLeft(s, "0123456789") != "" {
		return nil, fmt.Errorf("tlog-proof: index %q is not a decimal number without leading zeros", s)
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return nil, fmt.Errorf("tlog-proof: index %q out of range", s)
	}
	r.Index = n
	for _, l := range lines[i+1:] {
		raw, err := base64.StdEncoding.Strict().DecodeString(l)
		if err != nil || len(raw) != tlog.HashSize {
			return nil, fmt.Errorf("tlog-proof: proof line %q is not standard base64 of 32 bytes", l)
		}
		r.Proof = append(r.Proof, tlog.Hash(raw))
	}
	if len(r.Proof) > 63 {
		return nil, fmt.Errorf("tlog-proof: %d proof lines, at most 63", len(r.Proof))
	}
	return r, nil
}

// CheckReceipt checks a receipt offline: leaf (nil: the receipt's extra
// data) hashes to the record hash (RFC 6962), the checkpoint opens with
// verifierKey (OpenCheckpoint), and the proof leads from the record hash
// at Index to the checkpoint's root (tlog.CheckRecord). Witness
// cosignatures are checked by the caller's policy. It returns the
// checkpoint.
func CheckReceipt(verifierKey string, r *Receipt, leaf []byte) (*Checkpoint, error) {
	if leaf == nil {
		leaf = r.Extra
	}
	if leaf == nil {
		return nil, fmt.Errorf("tlog-proof: no leaf: the receipt has no extra line and none was given")
	}
	cp, err := OpenCheckpoint(verifierKey, []byte(r.Checkpoint))
	if err != nil {
		return nil, err
	}
	if r.Index < 0 || r.Index >= cp.Size {
		return cp, fmt.Errorf("tlog-proof: index %d is not in the checkpoint's tree of %d entries", r.Index, cp.Size)
	}
	if err := tlog.CheckRecord(r.Proof, cp.Size, cp.Root, r.Index, tlog.RecordHash(leaf)); err != nil {
		return cp, fmt.Errorf("tlog-proof: entry %d: %w", r.Index, err)
	}
	return cp, nil
}
