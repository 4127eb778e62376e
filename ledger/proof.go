package ledger

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"
	"golang.org/x/mod/sumdb/tlog"
)

// InclusionProof shows that the entry at Index is in the tree of Size
// entries signed by Checkpoint (RFC 6962 §2.1.1 audit path). JSON field
// names are as tagged; hashes are standard base64.
type InclusionProof struct {
	Index      int64       `json:"index"`      // 0 <= Index < Size
	Size       int64       `json:"size"`       // tree size, equal to the checkpoint's
	Leaf       string      `json:"leaf"`       // the leaf data (canonical JSON) of the entry
	LeafHash   tlog.Hash   `json:"leaf_hash"`  // tlog.RecordHash(Leaf)
	Proof      []tlog.Hash `json:"proof"`      // the audit path, leaf to root
	Checkpoint string      `json:"checkpoint"` // signed note of the tree of Size entries
}

// ConsistencyProof shows that the tree of Size2 entries extends the tree
// of Size1 entries (RFC 6962 §2.1.2), between two signed checkpoints.
type ConsistencyProof struct {
	Size1       int64       `json:"size1"` // 1 <= Size1 <= Size2
	Size2       int64       `json:"size2"`
	Proof       []tlog.Hash `json:"proof"`
	Checkpoint1 string      `json:"checkpoint1"` // signed note of the tree of Size1 entries
	Checkpoint2 string      `json:"checkpoint2"` // signed note of the tree of Size2 entries
}

// ProveInclusion returns the inclusion proof of entry index in the tree of
// a stored checkpoint of size entries; size 0 means the latest checkpoint.
// Errors: no checkpoint of that size, or none yet covering index (checkpoints
// come every CheckpointInterval); index out of range; stored hashes that
// give a proof the signed root refutes (wrapping ErrTampered).
func (l *Ledger) ProveInclusion(index, size int64) (*InclusionProof, error) {
	cp, err := l.checkpointFor(size)
	if err != nil {
		return nil, err
	}
	switch {
	case index < 0:
		return nil, fmt.Errorf("entry %d: expected a ledger index >= 0", index)
	case index >= cp.Size && size != 0:
		// That checkpoint is fixed: retrying never helps.
		return nil, fmt.Errorf("entry %d was appended after the checkpoint of size %d; prove it against a later size (or omit the size for the latest)", index, cp.Size)
	case index >= cp.Size:
		return nil, fmt.Errorf("entry %d is not in the tree of checkpoint size %d (try again after the next checkpoint)", index, cp.Size)
	}
	e, err := l.Entry(index)
	if err != nil {
		return nil, err
	}
	p, err := tlog.ProveRecord(cp.Size, index, hashReader{context.Background(), l.store})
	if err != nil {
		return nil, fmt.Errorf("proving entry %d in size %d: %w", index, cp.Size, err)
	}
	// Only a proof that verifies leaves: stored hashes changed in the
	// database would give one that does not.
	if err := tlog.CheckRecord(p, cp.Size, cp.Root, index, e.LeafHash); err != nil {
		return nil, fmt.Errorf("the stored hashes give no valid inclusion proof of entry %d in the signed tree of size %d: %w", index, cp.Size, ErrTampered)
	}
	return &InclusionProof{Index: index, Size: cp.Size, Leaf: string(e.Leaf), LeafHash: e.LeafHash, Proof: nonNil(p), Checkpoint: cp.Note}, nil
}

// ProveConsistency returns the consistency proof between the stored
// checkpoints of size1 and size2 entries; size2 0 means the latest.
// Errors: sizes without a checkpoint, size1 < 1 or size1 > size2; stored
// hashes that give a proof the signed roots refute (wrapping ErrTampered).
func (l *Ledger) ProveConsistency(size1, size2 int64) (*ConsistencyProof, error) {
	cp2, err := l.checkpointFor(size2)
	if err != nil {
		return nil, err
	}
	if size1 < 1 || size1 > cp2.Size {
		return nil, fmt.Errorf("size1 %d: expected 1 <= size1 <= size2 (%d)", size1, cp2.Size)
	}
	cp1, err := l.CheckpointAt(size1)
	if err != nil {
		return nil, fmt.Errorf("no checkpoint of size %d: %w", size1, err)
	}
	p, err := tlog.ProveTree(cp2.Size, size1, hashReader{context.Background(), l.store})
	if err != nil {
		return nil, fmt.Errorf("proving size %d consistent with %d: %w", size1, cp2.Size, err)
	}
	if err := tlog.CheckTree(p, cp2.Size, cp2.Root, size1, cp1.Root); err != nil {
		return nil, fmt.Errorf("the stored hashes give no valid consistency proof of size %d with the signed tree of size %d: %w", size1, cp2.Size, ErrTampered)
	}
	return &ConsistencyProof{Size1: size1, Size2: cp2.Size, Proof: nonNil(p), Checkpoint1: cp1.Note, Checkpoint2: cp2.Note}, nil
}

func (l *Ledger) checkpointFor(size int64) (*Checkpoint, error) {
	if size == 0 {
		return l.LatestCheckpoint()
	}
	cp, err := l.CheckpointAt(size)
	if errors.Is(err, ErrNotFound) {
		latest, lerr := l.LatestCheckpoint()
		if lerr == nil {
			return nil, fmt.Errorf("no checkpoint of size %d (the latest has size %d): %w", size, latest.Size, ErrNotFound)
		}
	}
	return cp, err
}

func nonNil(p []tlog.Hash) []tlog.Hash {
	if p == nil {
		return []tlog.Hash{}
	}
	return p
}

// CheckInclusion checks an inclusion proof offline: checkpoint (a signed
// note; nil means p.Checkpoint) must verify with verifierKey, have p.Size
// entries, and the audit path must lead from p.LeafHash at p.Index to its
// root (tlog.CheckRecord); p.LeafHash must be tlog.RecordHash(p.Leaf). It
// returns the verified checkpoint, or an error saying what failed.
func CheckInclusion(verifierKey string, checkpoint []byte, p *InclusionProof) (*Checkpoint, error) {
	if checkpoint == nil {
		checkpoint = []byte(p.Checkpoint)
	}
	cp, err := OpenCheckpoint(verifierKey, checkpoint)
	if err != nil {
		return nil, err
	}
	if p.Size != cp.Size {
		return nil, fmt.Errorf("the proof is for tree size %d but the checkpoint has size %d", p.Size, cp.Size)
	}
	if tlog.RecordHash([]byte(p.Leaf)) != p.LeafHash {
		return nil, fmt.Errorf("leaf_hash is not the RFC 6962 hash of leaf")
	}
	if p.Index < 0 || p.Index >= p.Size {
		return nil, fmt.Errorf("index %d is not in a tree of size %d", p.Index, p.Size)
	}
	if err := tlog.CheckRecord(p.Proof, cp.Size, cp.Root, p.Index, p.LeafHash); err != nil {
		return nil, fmt.Errorf("inclusion proof of entry %d in size %d does not verify: %w", p.Index, p.Size, err)
	}
	return cp, nil
}

// CheckConsistency checks a consistency proof offline: both checkpoints
// (nil means the proof's own) must verify with verifierKey and have the
// proof's sizes, and the proof must show the second tree extends the first
// (tlog.CheckTree). It returns an error saying what failed.
func CheckConsistency(verifierKey string, checkpoint1, checkpoint2 []byte, p *ConsistencyProof) error {
	if checkpoint1 == nil {
		checkpoint1 = []byte(p.Checkpoint1)
	}
	if checkpoint2 == nil {
		checkpoint2 = []byte(p.Checkpoint2)
	}
	cp1, err := OpenCheckpoint(verifierKey, checkpoint1)
	if err != nil {
		return fmt.Errorf("checkpoint1: %w", err)
	}
	cp2, err := OpenCheckpoint(verifierKey, checkpoint2)
	if err != nil {
		return fmt.Errorf("checkpoint2: %w", err)
	}
	if cp1.Size != p.Size1 || cp2.Size != p.Size2 {
		return fmt.Errorf("the proof is for sizes %d and %d but the checkpoints have sizes %d and %d", p.Size1, p.Size2, cp1.Size, cp2.Size)
	}
	if p.Size1 < 1 || p.Size1 > p.Size2 {
		return fmt.Errorf("sizes %d and %d: expected 1 <= size1 <= size2", p.Size1, p.Size2)
	}
	if err := tlog.CheckTree(p.Proof, cp2.Size, cp2.Root, cp1.Size, cp1.Root); err != nil {
		return fmt.Errorf("consistency proof from size %d to %d does not verify: %w", p.Size1, p.Size2, err)
	}
	return nil
}

// decodeStrict decodes one JSON value into v: duplicate member names (at
// any depth, RFC 8259 §4 leaves them undefined and encoding/json keeps the
// last), unknown fields, trailing data and missing required fields (names
// listed) are errors.
func decodeStrict(data []byte, v any, required ...string) error {
	// jsontext refuses duplicate names and invalid UTF-8, which
	// encoding/json would silently accept.
	if _, err := jsontext.NewDecoder(bytes.NewReader(data)).ReadValue(); err != nil {
		return err
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(data, &fields); err != nil {
		return err
	}
	for _, f := range required {
		if _, ok := fields[f]; !ok {
			return fmt.Errorf("missing field %q", f)
		}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return plainTypeError(err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("data after the JSON object")
	}
	return nil
}

// plainTypeError words encoding/json's *json.UnmarshalTypeError (a value
// of the wrong JSON kind, or a number out of range of its field) in the
// proof's terms; other errors are returned as they are.
func plainTypeError(err error) error {
	var te *json.UnmarshalTypeError
	if !errors.As(err, &te) {
		return err
	}
	field := te.Field
	if field == "" {
		field = "the value"
	}
	if num, ok := strings.CutPrefix(te.Value, "number "); ok {
		switch te.Type.Kind() {
		case reflect.Int, reflect.Int64, reflect.Uint64:
			return fmt.Errorf("%s: %s is out of range; expected a whole number from 0 to %d", field, num, int64(math.MaxInt64))
		}
	}
	return fmt.Errorf("%s is a JSON %s; expected %s", field, te.Value, jsonKindOf(te.Type))
}

// jsonKindOf says which JSON value a Go type decodes from.
func jsonKindOf(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.String:
		return "a string"
	case reflect.Slice:
		return "an array"
	case reflect.Bool:
		return "true or false"
	case reflect.Array:
		// tlog.Hash: standard base64 of 32 bytes.
		return "a string (base64)"
	}
	return "an object"
}

// ParseInclusionProof decodes an InclusionProof from JSON, refusing
// unknown or missing fields, trailing data, numbers out of range (an
// index that is negative or not below the size, a size below 1) and a
// checkpoint that is not a signed note (CheckNoteForm): such a file is
// malformed, not a proof that fails.
func ParseInclusionProof(data []byte) (*InclusionProof, error) {
	var p InclusionProof
	if err := decodeStrict(data, &p, "index", "size", "leaf", "leaf_hash", "proof", "checkpoint"); err != nil {
		return nil, fmt.Errorf("inclusion proof: %w", err)
	}
	switch {
	case p.Size < 1:
		return nil, fmt.Errorf("inclusion proof: size %d: expected a tree size >= 1", p.Size)
	case p.Index < 0:
		return nil, fmt.Errorf("inclusion proof: index %d: expected a ledger index >= 0", p.Index)
	case p.Index >= p.Size:
		return nil, fmt.Errorf("inclusion proof: index %d is not in a tree of size %d; expected an index below the size", p.Index, p.Size)
	}
	if err := CheckNoteForm(p.Checkpoint); err != nil {
		return nil, fmt.Errorf("inclusion proof: checkpoint: %w", err)
	}
	return &p, nil
}

// ParseConsistencyProof decodes a ConsistencyProof from JSON, refusing
// unknown or missing fields, trailing data, sizes out of range (not
// 1 <= size1 <= size2) and checkpoints that are not signed notes
// (CheckNoteForm).
func ParseConsistencyProof(data []byte) (*ConsistencyProof, error) {
	var p ConsistencyProof
	if err := decodeStrict(data, &p, "size1", "size2", "proof", "checkpoint1", "checkpoint2"); err != nil {
		return nil, fmt.Errorf("consistency proof: %w", err)
	}
	if p.Size1 < 1 || p.Size1 > p.Size2 {
		return nil, fmt.Errorf("consistency proof: sizes %d and %d: expected 1 <= size1 <= size2", p.Size1, p.Size2)
	}
	if err := CheckNoteForm(p.Checkpoint1); err != nil {
		return nil, fmt.Errorf("consistency proof: checkpoint1: %w", err)
	}
	if err := CheckNoteForm(p.Checkpoint2); err != nil {
		return nil, fmt.Errorf("consistency proof: checkpoint2: %w", err)
	}
	return &p, nil
}

// errNotNote is CheckNoteForm's error for text without a note's parts.
var errNotNote = errors.New("not a signed note (expected origin, size, root, a blank line, signature lines)")

// maxNoteSignatures is the most signature lines a note may have
// (golang.org/x/mod/sumdb/note refuses more).
const maxNoteSignatures = 100

// CheckNoteForm checks that text has the form of a signed checkpoint (C2SP
// signed-note carrying a tlog-checkpoint): UTF-8 text with no control
// characters but newline, a checkpoint body that ParseCheckpoint reads, a
// blank line, and one to 100 signature lines "— <key name> <signature>"
// (U+2014, a space; the key name non-empty, without white space or +),
// all ending in a newline. It checks no signature, not even that it is
// base64 (OpenCheckpoint does): text of another form is malformed input,
// not a checkpoint that fails to verify.
func CheckNoteForm(text string) error {
	body, sigs, ok := strings.Cut(text, "\n\n")
	if !ok || sigs == "" || !strings.HasSuffix(sigs, "\n") {
		if strings.Contains(text, "\r\n") {
			return fmt.Errorf("%w; its lines end in CRLF, a note's in LF", errNotNote)
		}
		return errNotNote
	}
	if !utf8.ValidString(text) {
		return fmt.Errorf("%w: not UTF-8 text", errNotNote)
	}
	if i := strings.IndexFunc(text, func(r rune) bool { return r < 0x20 && r != '\n' }); i >= 0 {
		return fmt.Errorf("%w: control character %q at byte %d; a note holds none but newline", errNotNote, text[i], i)
	}
	lines := strings.Split(strings.TrimSuffix(sigs, "\n"), "\n")
	if len(lines) > maxNoteSignatures {
		return fmt.Errorf("%w: %d signature lines, at most %d", errNotNote, len(lines), maxNoteSignatures)
	}
	for _, l := range lines {
		rest, ok := strings.CutPrefix(l, "— ")
		if !ok {
			return fmt.Errorf("%w: signature line %q does not start with \"— \"", errNotNote, l)
		}
		name, sig, _ := strings.Cut(rest, " ")
		if name == "" || sig == "" || strings.IndexFunc(name, unicode.IsSpace) >= 0 || strings.Contains(name, "+") {
			return fmt.Errorf("%w: signature line %q; expected \"— <key name> <signature>\", the name without white space or +", errNotNote, l)
		}
	}
	if _, _, _, err := ParseCheckpoint(body + "\n"); err != nil {
		return fmt.Errorf("%w: %s", errNotNote, strings.TrimPrefix(err.Error(), "checkpoint: "))
	}
	return nil
}

// hashesOf converts raw byte strings to hashes; any not 32 bytes is an
// error.
func hashesOf(what string, raw ...[]byte) ([]tlog.Hash, error) {
	out := make([]tlog.Hash, len(raw))
	for i, b := range raw {
		if len(b) != tlog.HashSize {
			return nil, fmt.Errorf("%s %d has %d bytes, want %d", what, i, len(b), tlog.HashSize)
		}
		out[i] = tlog.Hash(b)
	}
	return out, nil
}

// VerifyInclusion checks an RFC 6962 §2.1.1 inclusion proof given as raw
// values, as test vectors and other logs carry them: a leaf index and tree
// size up to 2^64-1, hashes of any length. Sizes above MaxTreeSize
// (2^62-1), an index not below the size and hashes that are not 32 bytes
// are errors, as is a proof that does not lead to root (tlog.CheckRecord).
func VerifyInclusion(index, size uint64, leafHash, root []byte, proof [][]byte) error {
	if size > MaxTreeSize {
		return fmt.Errorf("tree size %d is out of range; expected at most 2^62-1 (%d)", size, int64(MaxTreeSize))
	}
	if index >= size {
		return fmt.Errorf("index %d is not in a tree of size %d", index, size)
	}
	hs, err := hashesOf("hash", leafHash, root)
	if err != nil {
		return err
	}
	p, err := hashesOf("proof hash", proof...)
	if err != nil {
		return err
	}
	return tlog.CheckRecord(p, int64(size), hs[1], int64(index), hs[0])
}

// VerifyConsistency checks an RFC 6962 §2.1.2 consistency proof given as
// raw values, with sizes up to MaxTreeSize (2^62-1). Following RFC 9162
// §2.1.4.2, equal sizes need an empty proof and equal roots (compared as
// bytes); size1 = 0 is refused (nothing to prove); otherwise hashes must
// be 32 bytes and the proof must verify (tlog.CheckTree).
func VerifyConsistency(size1, size2 uint64, root1, root2 []byte, proof [][]byte) error {
	switch {
	case size1 > size2 || size2 > MaxTreeSize:
		return fmt.Errorf("sizes %d and %d: expected size1 <= size2 <= 2^62-1", size1, size2)
	case size1 == 0:
		return fmt.Errorf("a consistency proof from the empty tree proves nothing")
	case size1 == size2:
		if len(proof) != 0 {
			return fmt.Errorf("equal sizes need an empty proof, got %d hashes", len(proof))
		}
		if !bytes.Equal(root1, root2) {
			return fmt.Errorf("equal sizes but different roots")
		}
		return nil
	}
	hs, err := hashesOf("root", root1, root2)
	if err != nil {
		return err
	}
	p, err := hashesOf("proof hash", proof...)
	if err != nil {
		return err
	}
	return tlog.CheckTree(p, int64(size2), hs[1], int64(size1), hs[0])
}
