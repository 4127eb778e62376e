package ledger

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	tdnote "github.com/transparency-dev/formats/note"
	"golang.org/x/mod/sumdb/note"
)

// CheckCosignature checks a stored cosignature row against the stored
// checkpoint it names, as far as that can be done without the witness's
// key (the witness policy is not stored; `ledger check-proof` and
// `ledger audit --url` with a policy verify the signatures): the row's
// size is the checkpoint's; its line is one signed-note signature line
// ("— name base64\n", canonical base64) that, appended to the
// checkpoint's note, makes a note that opens with the log's verifierKey
// (note.Open), by a key other than the log's; the line's name is the
// row's witness; its signature has the cosignature/v1 shape (C2SP
// tlog-cosignature: key hash, 8-byte timestamp, Ed25519 signature) and
// its timestamp is the row's time. The error says what differs.
func CheckCosignature(verifierKey string, cp *StoredCheckpoint, c *StoredCosignature) error {
	if c.Size != cp.Size {
		return fmt.Errorf("size %d, but checkpoint id %d has size %d", c.Size, cp.ID, cp.Size)
	}
	line := string(c.Line)
	if !strings.HasPrefix(line, "— ") || !strings.HasSuffix(line, "\n") || strings.Count(line, "\n") != 1 {
		return fmt.Errorf("the line %q is not one signed-note signature line (\"— name base64\\n\")", line)
	}
	signed := append(slices.Clone(cp.Note), c.Line...)
	if _, err := OpenCheckpoint(verifierKey, signed); err != nil {
		return fmt.Errorf("the checkpoint's note with the line appended does not open: %v", err)
	}
	v, err := note.NewVerifier(verifierKey)
	if err != nil {
		return fmt.Errorf("verifier key: %w", err)
	}
	tv, err := tdnote.NewVerifierForCosignatureV1(verifierKey)
	if err != nil {
		return fmt.Errorf("verifier key: %w", err)
	}
	n, err := note.Open(signed, note.VerifierList(v, tv))
	if err != nil {
		return fmt.Errorf("the checkpoint's note with the line appended does not open: %v", err)
	}
	var sig *note.Signature
	for i, s := range n.UnverifiedSigs {
		if "— "+s.Name+" "+s.Base64+"\n" == line {
			sig = &n.UnverifiedSigs[i]
		}
	}
	switch {
	case sig == nil:
		return fmt.Errorf("the line %q is a signature by the log's own key, not a witness's cosignature", strings.TrimSuffix(line, "\n"))
	case sig.Name != c.Witness:
		return fmt.Errorf("the line is signed by %q, but the row's witness is %q", sig.Name, c.Witness)
	}
	t, err := tdnote.CoSigV1Timestamp(*sig)
	if err != nil {
		return fmt.Errorf("the line is not a cosignature/v1 signature (key hash, timestamp, Ed25519 signature): %v", err)
	}
	if t.Unix() != c.Time {
		return fmt.Errorf("time %d, but the line's cosignature/v1 timestamp is %d", c.Time, t.Unix())
	}
	return nil
}

// auditCosignatures checks every cosignatures row: it names a stored
// checkpoint, and CheckCosignature holds. census is the store's (a file
// opened read-only may predate the table: it then counts none).
func (l *Ledger) auditCosignatures(ctx context.Context, census *Census) (*AuditProblem, error) {
	if census.Cosignatures == 0 {
		return nil, nil
	}
	problem := func(size int64, format string, args ...any) *AuditProblem {
		return &AuditProblem{Index: -1, Checkpoint: size, Table: "cosignatures", What: fmt.Sprintf(format, args...)}
	}
	cs, err := l.store.Cosignatures(ctx, 0, math.MinInt64, 0)
	if errors.Is(err, ErrTampered) {
		return problem(-1, "%s", strings.TrimPrefix(err.Error(), "cosignatures: ")), nil
	}
	if err != nil {
		return nil, err
	}
	if len(cs) == 0 {
		return nil, nil
	}
	cps, err := l.store.Checkpoints(ctx, math.MaxInt64)
	if err != nil {
		return nil, err
	}
	byID := make(map[int64]*StoredCheckpoint, len(cps))
	for i := range cps {
		byID[cps[i].ID] = &cps[i]
	}
	for i := range cs {
		c := &cs[i]
		cp, ok := byID[c.CheckpointID]
		if !ok {
			return problem(-1, "the row of checkpoint_id %d, witness %q: no checkpoint has that id", c.CheckpointID, c.Witness), nil
		}
		if err := CheckCosignature(l.vkey, cp, c); err != nil {
			return problem(cp.Size, "the row of checkpoint_id %d, witness %q: %v", c.CheckpointID, c.Witness, err), nil
		}
	}
	return nil, nil
}

// VerifyCosignatures checks the signature of every stored cosignature by
// one of the given witnesses (cosignature/v1 verifiers, as
// ledger/witness makes them; keyed by name) against its checkpoint: the
// line, appended to the checkpoint's note, must verify with the
// witness's key (note.Open). Rows by other witnesses are left alone; the
// audit (CheckCosignature) checks every row's shape, size and time. It
// returns the first row that does not verify, as a finding naming the
// table and the row, and how many rows it verified.
func (l *Ledger) VerifyCosignatures(ctx context.Context, witnesses []note.Verifier) (*AuditProblem, int, error) {
	byName := map[string]note.Verifier{}
	for _, w := range witnesses {
		byName[w.Name()] = w
	}
	cs, err := l.store.Cosignatures(ctx, 0, math.MinInt64, 0)
	if err != nil {
		return nil, 0, err
	}
	cps, err := l.store.Checkpoints(ctx, math.MaxInt64)
	if err != nil {
		return nil, 0, err
	}
	byID := make(map[int64]*StoredCheckpoint, len(cps))
	for i := range cps {
		byID[cps[i].ID] = &cps[i]
	}
	logV, err := note.NewVerifier(l.vkey)
	if err != nil {
		return nil, 0, fmt.Errorf("verifier key: %w", err)
	}
	n := 0
	for _, c := range cs {
		w, ok := byName[c.Witness]
		cp := byID[c.CheckpointID]
		if !ok || cp == nil {
			continue
		}
		fail := func(format string, args ...any) (*AuditProblem, int, error) {
			return &AuditProblem{Index: -1, Checkpoint: cp.Size, Table: "cosignatures",
				What: fmt.Sprintf("the row of checkpoint_id %d, witness %q: ", c.CheckpointID, c.Witness) + fmt.Sprintf(format, args...)}, n, nil
		}
		signed := append(slices.Clone(cp.Note), c.Line...)
		opened, err := note.Open(signed, note.VerifierList(logV, w))
		if err != nil {
			return fail("the cosignature does not verify with the witness's key %08x: %v", w.KeyHash(), err)
		}
		found := false
		for _, s := range opened.Sigs {
			found = found || ("— "+s.Name+" "+s.Base64+"\n" == string(c.Line) && s.Hash == w.KeyHash())
		}
		if !found {
			return fail("the line is not a signature by the witness's key %08x", w.KeyHash())
		}
		n++
	}
	return nil, n, nil
}
