package ledger

import (
	"bytes"
	"fmt"
)

// Test hooks for the black-box tests in package ledger_test.

// DedupKey returns the duplicate key an append computes for b.
func DedupKey(b *Body) ([32]byte, error) {
	p, err := prepare(b)
	if err != nil {
		return [32]byte{}, err
	}
	return p.dedup, nil
}

// CheckPrepareSame checks, for a body ParseBody accepts, that the leaf,
// placeholder offset and duplicate key prepareCanonical builds from the
// canonical input equal prepare's (jcs.Transform of the marshalled body).
// It returns accepted false for a body ParseBody refuses.
func CheckPrepareSame(body string) (accepted bool, err error) {
	b, canon, err := parseBody([]byte(body))
	if err != nil {
		return false, nil
	}
	want, err := prepare(b)
	if err != nil {
		return true, fmt.Errorf("prepare: %v", err)
	}
	got, err := prepareCanonical(b, canon)
	if err != nil {
		return true, fmt.Errorf("prepareCanonical: %v", err)
	}
	if !bytes.Equal(got.leaf, want.leaf) || got.tsOff != want.tsOff || got.dedup != want.dedup || got.postedAt != want.postedAt {
		return true, fmt.Errorf("leaf %s (offset %d)\nwant %s (offset %d)", got.leaf, got.tsOff, want.leaf, want.tsOff)
	}
	return true, nil
}

// The audit's and VerifiedSizeEach's chunk sizes, for tests that place a
// tamper at a chunk's edge or span several chunks.
const (
	AuditEntryChunk  = auditEntryChunk
	AuditHashChunk   = auditHashChunk
	VerifyEntryChunk = verifyEntryChunk
)

// SignCheckpoint is signCheckpoint.
var SignCheckpoint = signCheckpoint

// SetAuditSlowPath sets the hook the audit tells each time it leaves a
// check to its slow path ("players", "columns"); nil clears it.
func SetAuditSlowPath(f func(check string)) { auditSlowPath = f }
