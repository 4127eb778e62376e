package ledger

import (
	"encoding/base64"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	tdnote "github.com/transparency-dev/formats/note"

	"golang.org/x/mod/sumdb/note"
	"golang.org/x/mod/sumdb/tlog"
)

// Checkpoint is a signed tree head: the C2SP tlog-checkpoint body (origin,
// tree size, root hash) and the C2SP signed-note that carries it.
type Checkpoint struct {
	Origin string    `json:"origin"`
	Size   int64     `json:"size"` // number of entries covered, >= 0
	Root   tlog.Hash `json:"root"` // RFC 6962 root hash (base64 in JSON)
	// Note is the whole signed note: the checkpoint body, a blank line and
	// the Ed25519 signature line(s).
	Note string `json:"note"`
	// Time is when the ledger signed it (its clock); not covered by the
	// signature.
	Time time.Time `json:"time,omitzero"`
}

// FormatCheckpoint returns the C2SP tlog-checkpoint body (c2sp.org/tlog-checkpoint):
// the origin line, the tree size in decimal and the standard-base64 root
// hash, each followed by a newline, with no extension lines.
func FormatCheckpoint(origin string, size int64, root tlog.Hash) string {
	return fmt.Sprintf("%s\n%d\n%s\n", origin, size, base64.StdEncoding.EncodeToString(root[:]))
}

// ParseCheckpoint parses a C2SP tlog-checkpoint body (the text of a note,
// without signatures). The origin must be non-empty, the size a decimal
// without leading zeros in 0..MaxTreeSize (2^62-1), the root hash
// standard base64 of 32 bytes; extension lines, if any, must be non-empty
// and are ignored.
func ParseCheckpoint(text string) (origin string, size int64, root tlog.Hash, err error) {
	if !strings.HasSuffix(text, "\n") {
		return "", 0, root, fmt.Errorf("checkpoint: text does not end in a newline")
	}
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	if len(lines) < 3 {
		return "", 0, root, fmt.Errorf("checkpoint: expected origin, size and root hash lines, got %d lines", len(lines))
	}
	origin = lines[0]
	if origin == "" {
		return "", 0, root, fmt.Errorf("checkpoint: empty origin line")
	}
	s := lines[1]
	if s == "" || (len(s) > 1 && s[0] == '0') || strings.TrimLeft(s, "0123456789") != "" {
		return "", 0, root, fmt.Errorf("checkpoint: tree size %q is not a decimal number without leading zeros", s)
	}
	size, err = strconv.ParseInt(s, 10, 64)
	if err != nil || size > MaxTreeSize {
		return "", 0, root, fmt.Errorf("checkpoint: tree size %s is out of range; expected at most 2^62-1 (%d)", s, int64(MaxTreeSize))
	}
	raw, err := base64.StdEncoding.Strict().DecodeString(lines[2])
	if err != nil || len(raw) != tlog.HashSize {
		return "", 0, root, fmt.Errorf("checkpoint: root hash %q is not standard base64 of 32 bytes", lines[2])
	}
	copy(root[:], raw)
	for _, ext := range lines[3:] {
		if ext == "" {
			return "", 0, root, fmt.Errorf("checkpoint: empty extension line")
		}
	}
	return origin, size, root, nil
}

// OpenCheckpoint verifies a signed checkpoint note with the verifier key
// (note.NewVerifier format "<name>+<hash>+<key>") through note.Open, and
// parses its body. The origin must equal the key's name. Errors: a bad
// key, a signature that does not verify or is missing
// (*note.UnverifiedNoteError, *note.InvalidSignatureError), a malformed
// body.
func OpenCheckpoint(verifierKey string, signed []byte) (*Checkpoint, error) {
	v, err := note.NewVerifier(verifierKey)
	if err != nil {
		return nil, fmt.Errorf("verifier key: %w", err)
	}
	// The log's timestamped cosignature/v1 signature, when the note has
	// one, must verify too (note.Open rejects a line naming a known key
	// whose signature does not verify).
	tv, err := tdnote.NewVerifierForCosignatureV1(verifierKey)
	if err != nil {
		return nil, fmt.Errorf("verifier key: %w", err)
	}
	n, err := note.Open(signed, note.VerifierList(v, tv))
	if err != nil {
		return nil, fmt.Errorf("checkpoint signature: %w", err)
	}
	logSig := false
	for _, sig := range n.Sigs {
		logSig = logSig || sig.Hash == v.KeyHash()
	}
	if !logSig {
		return nil, fmt.Errorf("checkpoint signature: no signature by %s (only its timestamped one)", v.Name())
	}
	// note.Open accepts base64 with non-zero padding bits, so one signature
	// has several encodings; only the canonical one is accepted here, so a
	// checkpoint has exactly one valid text. A line under the log's name
	// with a key hash that is neither of the log's is refused: only the
	// log signs as the log.
	for _, sig := range append(n.Sigs, n.UnverifiedSigs...) {
		if _, err := base64.StdEncoding.Strict().DecodeString(sig.Base64); err != nil {
			return nil, fmt.Errorf("checkpoint signature by %s: not canonical base64", sig.Name)
		}
	}
	for _, sig := range n.UnverifiedSigs {
		if sig.Name == v.Name() {
			return nil, fmt.Errorf("checkpoint signature: a signature line names the log %s with key hash %08x, which is not the log's key", sig.Name, sig.Hash)
		}
	}
	// note.Open checks only the first line of a key and skips the others
	// (a copy, or a second line whose signature is garbage): the log's
	// keys sign once each, so a second line of one is refused.
	if err := CheckLinesOnce(signed, v.Name()); err != nil {
		return nil, fmt.Errorf("checkpoint signature: %w", err)
	}
	origin, size, root, err := ParseCheckpoint(n.Text)
	if err != nil {
		return nil, err
	}
	if origin != v.Name() {
		return nil, fmt.Errorf("checkpoint: origin %q is not the verifier key's name %q", origin, v.Name())
	}
	return &Checkpoint{Origin: origin, Size: size, Root: root, Note: string(signed)}, nil
}

// CheckLinesOnce returns an error if the signature block of the signed
// note holds two lines under name with one key hash (c2sp.org/signed-note:
// "— <name> <base64(key hash || signature)>"). golang.org/x/mod/sumdb/note
// verifies the first line of a key and skips any later one unread, so a
// copy, or a line of garbage, would pass beside it and the note would
// have several valid texts; a signer signs a note once with each key.
// Lines it cannot read are note.Open's to refuse. OpenCheckpoint checks
// the log's name, witness.Policy.Check each witness's.
func CheckLinesOnce(signed []byte, name string) error {
	_, block, ok := strings.Cut(string(signed), "\n\n")
	if !ok {
		return nil
	}
	seen := map[string]bool{}
	for _, line := range strings.Split(block, "\n") {
		rest, ok := strings.CutPrefix(line, "\u2014 "+name+" ")
		if !ok {
			continue
		}
		raw, err := base64.StdEncoding.DecodeString(rest)
		if err != nil || len(raw) < 4 {
			continue
		}
		if seen[string(raw[:4])] {
			return fmt.Errorf("two signature lines of %s with key hash %x; a note is signed once with each key", name, raw[:4])
		}
		seen[string(raw[:4])] = true
	}
	return nil
}

// CheckVerifierKey reports whether verifierKey is a well-formed note
// verifier key ("<name>+<hash>+<base64 key>", Ed25519) whose name is a
// valid origin; the error says what is wrong.
func CheckVerifierKey(verifierKey string) error {
	v, err := note.NewVerifier(verifierKey)
	if err != nil {
		return fmt.Errorf("verifier key %q: %w (expected name+hash+key, as 'sealed ledger init' prints)", verifierKey, err)
	}
	return checkOrigin(v.Name())
}

// signCheckpoint signs the checkpoint body of (size, root) with the
// signers: the log's Ed25519 signer and, when the log signs, its
// timestamped cosignature/v1 signer (logSigner).
func signCheckpoint(s note.Signer, origin string, size int64, root tlog.Hash, more ...note.Signer) (string, error) {
	msg, err := note.Sign(&note.Note{Text: FormatCheckpoint(origin, size, root)}, append([]note.Signer{s}, more...)...)
	if err != nil {
		return "", fmt.Errorf("signing checkpoint: %w", err)
	}
	return string(msg), nil
}

// logSigner signs the log's checkpoints twice with its one Ed25519 key:
// the checkpoint signature every verifier checks (note, algorithm 0x01),
// and a timestamped C2SP tlog-cosignature "cosignature/v1" signature
// (algorithm 0x04, through github.com/transparency-dev/formats/note),
// whose time is when the log signed. That time is what a stored
// checkpoint's created_at must be (to the second), so the audit can
// check the column against signed data ([CheckpointTime]).
type logSigner struct {
	note.Signer
	timed *tdnote.Signer
}

// newLogSigner makes the log's signers from its private key (the note
// signer key format).
func newLogSigner(skey string) (*logSigner, error) {
	s, err := note.NewSigner(skey)
	if err != nil {
		return nil, err
	}
	t, err := tdnote.NewSignerForCosignatureV1(skey)
	if err != nil {
		return nil, err
	}
	return &logSigner{Signer: s, timed: t}, nil
}

// sign signs the checkpoint of (size, root) and returns the note and the
// time its cosignature/v1 signature carries.
func (ls *logSigner) sign(origin string, size int64, root tlog.Hash) (string, time.Time, error) {
	signed, err := signCheckpoint(ls.Signer, origin, size, root, ls.timed)
	if err != nil {
		return "", time.Time{}, err
	}
	t, ok, err := checkpointTime(ls.timed.Verifier(), []byte(signed))
	if err != nil || !ok {
		return "", time.Time{}, fmt.Errorf("signing checkpoint: no timestamped signature made (%v)", err)
	}
	return signed, t, nil
}

// CheckpointTime returns the time the log itself signed a checkpoint: the
// timestamp of the log key's cosignature/v1 signature on the note (C2SP
// tlog-cosignature), verified. ok is false for a note without one (signed
// by a sealed from before such signatures); an error says the signature
// does not verify.
func CheckpointTime(verifierKey string, signed []byte) (t time.Time, ok bool, err error) {
	v, err := tdnote.NewVerifierForCosignatureV1(verifierKey)
	if err != nil {
		return time.Time{}, false, fmt.Errorf("verifier key: %w", err)
	}
	return checkpointTime(v, signed)
}

func checkpointTime(v note.Verifier, signed []byte) (time.Time, bool, error) {
	n, err := note.Open(signed, note.VerifierList(v))
	var unverified *note.UnverifiedNoteError
	if errors.As(err, &unverified) {
		return time.Time{}, false, nil
	}
	if err != nil {
		return time.Time{}, false, fmt.Errorf("the log's timestamped signature: %w", err)
	}
	for _, sig := range n.Sigs {
		if sig.Hash == v.KeyHash() && sig.Name == v.Name() {
			t, err := tdnote.CoSigV1Timestamp(sig)
			if err != nil {
				return time.Time{}, false, fmt.Errorf("the log's timestamped signature: %w", err)
			}
			return t.UTC(), true, nil
		}
	}
	return time.Time{}, false, nil
}
