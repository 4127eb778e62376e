package ledger

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"slices"

	"golang.org/x/mod/sumdb/tlog"
)

// CopyReport says what Copy copied.
type CopyReport struct {
	Entries     int64 `json:"entries"`
	Checkpoints int   `json:"checkpoints"`
	Replays     int   `json:"replays"`
	// Cosignatures counts the witness cosignatures copied.
	Cosignatures int `json:"cosignatures"`
	// SourceAudit is the source's audit, run before anything is copied.
	SourceAudit *AuditReport `json:"source_audit"`
	// Audit is the copy's audit, run before its identity rows are
	// written; nil if the copy stopped before.
	Audit *AuditReport `json:"audit"`
}

// CopyStage is what Copy is doing, for its progress callback.
type CopyStage string

// The stages of Copy, in order.
const (
	CopyAuditingSource CopyStage = "auditing the source"
	CopyCopying        CopyStage = "copying"
	CopyAuditingCopy   CopyStage = "auditing the copy"
)

// ErrHoldsLedger is returned (wrapped) by Copy for a destination that
// already holds a ledger.
var ErrHoldsLedger = errors.New("already holds a ledger")

// ErrUnfinished is returned (wrapped) by Copy for a destination, and by
// Create for a store, that holds rows but no identity rows (log_meta):
// what a copy that did not complete leaves, since Copy writes the
// identity rows last. No ledger opens on it (Meta: ErrNotLedger).
var ErrUnfinished = errors.New("the store holds rows but no ledger identity: what a ledger copy that did not complete leaves")

// copyCheckError is an error of Copy for something that did not check
// out (the source fails its audit, a row differs from what the leaves
// and signatures give, the copy fails its audit): it wraps ErrTampered,
// without its message.
type copyCheckError struct{ msg string }

func (e *copyCheckError) Error() string { return e.msg }
func (e *copyCheckError) Unwrap() error { return ErrTampered }

// checkFailed returns a copyCheckError.
func checkFailed(format string, args ...any) error {
	return &copyCheckError{msg: fmt.Sprintf(format, args...)}
}

// copyChunk is how many entries Copy reads and writes at a time.
const copyChunk = 4096

// Copy copies the ledger in src into dst, an empty store, checking
// everything. First the source is audited as Ledger.Audit audits it (what
// `sealed ledger audit` runs): a source that fails its own audit, for a
// row Copy would not copy (a players row, a log_meta row, a trigger or
// an index) as for any other, is not copied. Then, as it copies: each
// leaf hashes to its stored leaf hash, the stored hashes are recomputed
// from the leaves (tlog.StoredHashesForRecordHash) and must equal the
// source's, indexes have no gap, every checkpoint verifies with the
// source's verifier key and its root is the recomputed root at its size,
// and every replay a result entry names hashes to its digest. The copy
// holds the same leaves, stored hashes and checkpoint notes byte for
// byte, with the checkpoints in their original order, so it audits clean
// with the same roots. Replays that no result entry names are not
// copied. The players table of the copy is derived from its commit
// leaves (DerivePlayers). The witness cosignatures are copied last, each
// checked first (CheckCosignature). Then the copy is audited, and only
// if it passes are its identity rows (log_meta: origin and verifier key)
// written, the last write (Store.Create with no checkpoint).
//
// So until Copy returns nil, dst holds no ledger: its Meta reports
// ErrNotLedger, no writer opens it, whatever stopped the copy (an error,
// a killed process, a lost connection); its rows are what the caller
// removes (package stores does). A destination that already holds a
// ledger is refused (ErrHoldsLedger), as is one holding the rows of a
// copy that did not complete (ErrUnfinished); nothing is written to
// either. Something that does not check out stops the copy with an error
// wrapping ErrTampered, naming it; other errors are the stores' (reading
// the source: "source: ..."; writing the copy: "destination: ...").
// progress, if not nil, is called with the stage, entries done and the
// total.
func Copy(ctx context.Context, src, dst Store, progress func(stage CopyStage, done, total int64)) (*CopyReport, error) {
	m, err := src.Meta(ctx)
	if err != nil {
		return nil, fmt.Errorf("source: %w", err)
	}
	stage := func(s CopyStage) func(done, total int64) {
		if progress == nil {
			return nil
		}
		return func(done, total int64) { progress(s, done, total) }
	}
	// Nothing is written to a destination that is not empty, nor before
	// the source has passed its audit.
	if err := checkEmpty(ctx, dst); err != nil {
		return nil, err
	}
	rep := &CopyReport{}
	if rep.SourceAudit, err = auditSource(ctx, src, stage(CopyAuditingSource)); err != nil {
		return rep, err
	}
	cps, err := src.Checkpoints(ctx, math.MaxInt64)
	if err != nil {
		return rep, fmt.Errorf("source: %w", err)
	}
	n, err := src.Size(ctx)
	if err != nil {
		return rep, fmt.Errorf("source: %w", err)
	}
	slices.SortFunc(cps, func(a, b StoredCheckpoint) int { return cmpInt64(a.ID, b.ID) })
	if len(cps) == 0 {
		return rep, checkFailed("source: no checkpoint: a ledger made by Create always has the empty tree's")
	}
	// Every checkpoint verifies and covers entries the source has.
	roots := map[int64][]tlog.Hash{}
	for _, c := range cps {
		cp, err := OpenCheckpoint(m.VerifierKey, c.Note)
		if err != nil {
			return rep, checkFailed("source checkpoint %d (size %d): %v", c.ID, c.Size, err)
		}
		if cp.Size != c.Size || !bytes.Equal(cp.Root[:], c.Root) {
			return rep, checkFailed("source checkpoint %d: the signed size %d and root %s differ from the stored ones", c.ID, cp.Size, cp.Root)
		}
		if c.Size > n {
			return rep, checkFailed("source checkpoint %d covers %d entries, but the source has %d", c.ID, c.Size, n)
		}
		roots[c.Size] = append(roots[c.Size], cp.Root)
	}
	checkRoot := func(f *frontier) error {
		want, ok := roots[f.size]
		if !ok {
			return nil
		}
		root, err := f.root()
		if err != nil {
			return err
		}
		for _, r := range want {
			if r != root {
				return checkFailed("source: a checkpoint of size %d signs root %s, but the entries give %s", f.size, r, root)
			}
		}
		return nil
	}
	first := cps[0]
	if first.Size != 0 {
		return rep, checkFailed("source: the first checkpoint has size %d; expected the empty tree's", first.Size)
	}
	// The identity rows come last: the first checkpoint is stored alone.
	if err := dst.PutCheckpoint(ctx, &first); err != nil {
		return rep, fmt.Errorf("destination: %w", err)
	}
	rep.Checkpoints = 1
	players := map[string]StoredPlayer{} // the copy's players rows, derived from its commit leaves
	f := &frontier{}
	if err := checkRoot(f); err != nil {
		return rep, err
	}
	next := 1 // the next checkpoint (in storing order) to copy
	putCheckpoints := func() error {
		// A checkpoint is stored after the entries it covers.
		for ; next < len(cps) && cps[next].Size <= f.size; next++ {
			c := cps[next]
			if err := dst.PutCheckpoint(ctx, &c); err != nil {
				return fmt.Errorf("destination: %w", err)
			}
			rep.Checkpoints++
		}
		return nil
	}
	for from := int64(0); from < n; from += copyChunk {
		to := min(from+copyChunk, n)
		es, err := src.EntryRange(ctx, from, to)
		if err != nil {
			return rep, fmt.Errorf("source: %w", err)
		}
		if int64(len(es)) != to-from {
			return rep, checkFailed("source: entries %d..%d: %d of %d rows present", from, to-1, len(es), to-from)
		}
		hashes, err := src.HashRange(ctx, tlog.StoredHashIndex(0, from), tlog.StoredHashCount(to))
		if err != nil {
			return rep, fmt.Errorf("source: %w", err)
		}
		hi := 0
		for i := range es {
			e := &es[i]
			if e.Index != from+int64(i) {
				return rep, checkFailed("source: entry %d is missing", from+int64(i))
			}
			lh := tlog.RecordHash(e.Leaf)
			if !bytes.Equal(lh[:], e.LeafHash) {
				return rep, checkFailed("source: entry %d: the leaf hashes to %s, not to its stored leaf hash", e.Index, lh)
			}
			if problem := checkColumns(e); problem != "" {
				return rep, checkFailed("source: entry %d: %s", e.Index, problem)
			}
			// The seed_commits row is the leaf's, written by the
			// destination's Insert (the audit holds the source's rows
			// to the leaves).
			if sc, ok := SeedCommitOf(e.Kind, e.Leaf, e.Index); ok {
				e.SeedCommit = &sc
			}
			hs, err := tlog.StoredHashesForRecordHash(e.Index, lh, f)
			if err != nil {
				return rep, err
			}
			base := tlog.StoredHashIndex(0, e.Index)
			for k, h := range hs {
				if hi >= len(hashes) || hashes[hi].ID != base+int64(k) || !bytes.Equal(hashes[hi].Hash, h[:]) {
					return rep, checkFailed("source: stored hash %d (written by entry %d) is missing or differs from the one the entries give", base+int64(k), e.Index)
				}
				hi++
			}
			f.add(hs)
			if err := checkRoot(f); err != nil {
				return rep, err
			}
			if e.Kind == KindResult {
				if err := copyReplay(ctx, src, dst, e); err != nil {
					return rep, err
				}
				rep.Replays++
			}
		}
		if err := dst.Write(ctx, func(tx WriteTx) error {
			if err := tx.Insert(ctx, es, hashes); err != nil {
				return err
			}
			return tx.InsertPlayers(ctx, DerivePlayers(es, players))
		}); err != nil {
			return rep, fmt.Errorf("destination: %w", err)
		}
		rep.Entries = to
		if err := putCheckpoints(); err != nil {
			return rep, err
		}
		if progress != nil {
			progress(CopyCopying, to, n)
		}
	}
	if err := putCheckpoints(); err != nil {
		return rep, err
	}
	n2, err := copyCosignatures(ctx, src, dst, m.VerifierKey, cps)
	rep.Cosignatures = n2
	if err != nil {
		return rep, err
	}
	// The copy's audit, with the identity rows it is about to get.
	id := &Meta{Origin: m.Origin, VerifierKey: m.VerifierKey}
	l, err := openMeta(ctx, dst, id, Options{ReadOnly: true})
	if err != nil {
		return rep, fmt.Errorf("destination: %w", err)
	}
	l.identityPending = true
	if rep.Audit, err = l.Audit(ctx, stage(CopyAuditingCopy)); err != nil {
		if errors.Is(err, ErrTampered) {
			return rep, checkFailed("the audit of the copy failed: %v", err)
		}
		return rep, fmt.Errorf("destination: %w", err)
	}
	if !rep.Audit.OK {
		return rep, checkFailed("the audit of the copy failed: %s", rep.Audit.Problem)
	}
	if err := dst.Create(ctx, id, nil); err != nil {
		return rep, fmt.Errorf("destination: %w", err)
	}
	return rep, nil
}

// auditSource audits the ledger in src as Ledger.Audit does; a source
// that does not pass is an error wrapping ErrTampered naming the problem.
// The read-only Ledger is not closed: closing it would close src.
func auditSource(ctx context.Context, src Store, progress func(done, total int64)) (*AuditReport, error) {
	l, err := Open(ctx, src, Options{ReadOnly: true})
	if errors.Is(err, ErrTampered) {
		return nil, checkFailed("source: audit failed: %v", err)
	}
	if err != nil {
		return nil, fmt.Errorf("source: %w", err)
	}
	rep, err := l.Audit(ctx, progress)
	if errors.Is(err, ErrTampered) {
		return nil, checkFailed("source: audit failed: %v", err)
	}
	if err != nil {
		return nil, fmt.Errorf("source: %w", err)
	}
	if !rep.OK {
		return rep, checkFailed("source: audit failed: %s", rep.Problem)
	}
	return rep, nil
}

// checkEmpty refuses a destination that holds a ledger (ErrHoldsLedger)
// or any row (ErrUnfinished).
func checkEmpty(ctx context.Context, dst Store) error {
	c, err := dst.Census(ctx)
	if err != nil {
		return fmt.Errorf("destination: %w", err)
	}
	if len(c.MetaKeys) > 0 {
		if m, err := dst.Meta(ctx); err == nil {
			return fmt.Errorf("destination: %w (origin %s)", ErrHoldsLedger, m.Origin)
		}
		return fmt.Errorf("destination: %w", ErrHoldsLedger)
	}
	if rowCount(c) > 0 {
		return fmt.Errorf("destination: %w", ErrUnfinished)
	}
	return nil
}

// rowCount is the number of rows c counts, the identity rows aside.
func rowCount(c *Census) int64 {
	return c.Entries.Rows + c.Hashes.Rows + c.Checkpoints.Rows + c.Cosignatures + c.Replays + c.Players
}

// copyCosignatures copies the source's witness cosignatures, each checked
// first (CheckCosignature against its source checkpoint), to the copy of
// the checkpoint it cosigns (the copy's ids are its own: the checkpoint
// with the same note). It returns how many it copied.
func copyCosignatures(ctx context.Context, src, dst Store, vkey string, cps []StoredCheckpoint) (int, error) {
	// A source opened read-only may predate the cosignatures table.
	if c, err := src.Census(ctx); err != nil {
		return 0, fmt.Errorf("source: %w", err)
	} else if c.Cosignatures == 0 {
		return 0, nil
	}
	cs, err := src.Cosignatures(ctx, 0, math.MinInt64, 0)
	if err != nil {
		return 0, fmt.Errorf("source: %w", err)
	}
	byID := map[int64]*StoredCheckpoint{}
	for i := range cps {
		byID[cps[i].ID] = &cps[i]
	}
	copied, err := dst.Checkpoints(ctx, math.MaxInt64)
	if err != nil {
		return 0, fmt.Errorf("destination: %w", err)
	}
	dstID := map[[32]byte]int64{}
	for _, c := range copied {
		if _, ok := dstID[sha256.Sum256(c.Note)]; !ok {
			dstID[sha256.Sum256(c.Note)] = c.ID
		}
	}
	n := 0
	for i := range cs {
		c := cs[i]
		cp, ok := byID[c.CheckpointID]
		if !ok {
			return n, checkFailed("source: the cosignature by %s names checkpoint id %d, which is not stored", c.Witness, c.CheckpointID)
		}
		if err := CheckCosignature(vkey, cp, &c); err != nil {
			return n, checkFailed("source: the cosignature by %s of checkpoint id %d (size %d): %v", c.Witness, c.CheckpointID, cp.Size, err)
		}
		id, ok := dstID[sha256.Sum256(cp.Note)]
		if !ok {
			return n, fmt.Errorf("destination: checkpoint id %d (size %d) was not copied", c.CheckpointID, cp.Size)
		}
		c.CheckpointID = id
		if err := dst.PutCosignature(ctx, &c); err != nil {
			return n, fmt.Errorf("destination: %w", err)
		}
		n++
	}
	return n, nil
}

// copyReplay copies the replay a result entry names, checked against its
// digest.
func copyReplay(ctx context.Context, src, dst Store, e *StoredEntry) error {
	b, err := (&Entry{Index: e.Index, Leaf: e.Leaf}).Body()
	if err != nil {
		return fmt.Errorf("source: %w", err)
	}
	data, err := src.Replay(ctx, b.ReplaySHA256)
	if err != nil {
		return fmt.Errorf("source: the replay %s of result entry %d: %w", b.ReplaySHA256, e.Index, err)
	}
	if sum := sha256.Sum256(data); hex.EncodeToString(sum[:]) != b.ReplaySHA256 {
		return checkFailed("source: the replay %s of result entry %d does not hash to its digest", b.ReplaySHA256, e.Index)
	}
	if err := dst.PutReplay(ctx, b.ReplaySHA256, data); err != nil {
		return fmt.Errorf("destination: %w", err)
	}
	return nil
}

func cmpInt64(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
