package ledger

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"golang.org/x/mod/sumdb/tlog"
)

// Entry is one entry of the log as stored.
type Entry struct {
	Index int64 `json:"index"` // 0-based position in the log
	Kind  Kind  `json:"kind"`
	// Leaf is the leaf data: the RFC 8785 canonical JSON of the body with
	// integrated_at. LeafHash = tlog.RecordHash(Leaf) (RFC 6962 §2.1).
	Leaf         json.RawMessage `json:"leaf"`
	LeafHash     tlog.Hash       `json:"leaf_hash"`
	IntegratedAt time.Time       `json:"integrated_at"`
	PostedAt     time.Time       `json:"posted_at,omitzero"` // zero if the body has no posted_at
}

// Body decodes the entry's leaf.
func (e *Entry) Body() (*Body, error) {
	var b Body
	if err := json.Unmarshal(e.Leaf, &b); err != nil {
		return nil, fmt.Errorf("entry %d: %w", e.Index, err)
	}
	return &b, nil
}

// entryOf converts a stored row to an Entry, checking it on the way: the
// leaf must hash to the stored leaf hash, and the lookup columns
// (including the integration and posted times, which rulings read) must
// equal the leaf's top-level members. A row that fails is an error
// wrapping ErrTampered that names the entry and what differs: readers
// never act on a column the signed leaf does not back.
func entryOf(s *StoredEntry) (Entry, error) {
	e, err := leafOf(s)
	if err != nil {
		return e, err
	}
	e.Kind = s.Kind
	if problem := checkColumns(s); problem != "" {
		return e, fmt.Errorf("entry %d: %s: %w", s.Index, problem, ErrTampered)
	}
	if s.HasPostedAt {
		e.PostedAt = time.Unix(0, s.PostedAt).UTC()
	}
	return e, nil
}

// leafOf is the Entry of a stored row without its kind and posted_at,
// after the checks every reading makes: the leaf must hash to the stored
// leaf hash (32 bytes) and hold the stored integration time; otherwise an
// error wrapping ErrTampered that names the entry.
func leafOf(s *StoredEntry) (Entry, error) {
	e := Entry{Index: s.Index, Leaf: json.RawMessage(s.Leaf), IntegratedAt: time.Unix(0, s.IntegratedAt).UTC()}
	if len(s.LeafHash) != tlog.HashSize {
		return e, fmt.Errorf("entry %d: stored leaf hash has %d bytes: %w", s.Index, len(s.LeafHash), ErrTampered)
	}
	e.LeafHash = tlog.Hash(s.LeafHash)
	if h := tlog.RecordHash(s.Leaf); h != e.LeafHash {
		return e, fmt.Errorf("entry %d: the leaf hashes to %s, not to its stored leaf hash %s: %w", s.Index, h, e.LeafHash, ErrTampered)
	}
	if !leafHasTime(s.Leaf, s.IntegratedAt, &timeNeedle{}) {
		return e, fmt.Errorf("entry %d: the stored integration time %s differs from the leaf's integrated_at: %w",
			s.Index, e.IntegratedAt.Format(TimeLayout), ErrTampered)
	}
	return e, nil
}

// leafEntryOf converts a stored row to an Entry as VerifiedSizeEach hands
// it, checking what the signed tree covers and what reads select rows
// by: the leaf must hash to the stored leaf hash and hold the stored
// integration time, and the ref column must be the leaf's commit or
// seed_commit (leafRef). The kind and posted_at are the leaf's own
// members; the other lookup columns and the duplicate key are not read
// (entryOf, which every other read uses, checks them, and so does the
// audit). A row that fails, or a leaf without a kind or with a posted_at
// that is not a TimeLayout time, is an error wrapping ErrTampered that
// names the entry.
func leafEntryOf(s *StoredEntry) (Entry, error) {
	e, err := leafOf(s)
	if err != nil {
		return e, err
	}
	var m leafMembers
	scanMembers(s.Leaf, &m)
	kind, ok := m.str(s.Leaf, mKind)
	if !ok || kind == "" {
		return e, fmt.Errorf("entry %d: the leaf has no kind: %w", s.Index, ErrTampered)
	}
	// The ref column is what EntriesReferencing selects rows by: a row
	// whose ref was moved would be missing from it, not refused.
	if ref := leafRef(s.Leaf, &m); s.Ref != ref {
		show := func(v int64) string {
			if v < 0 {
				return "none"
			}
			return strconv.FormatInt(v, 10)
		}
		return e, fmt.Errorf("entry %d: the stored columns disagree with the leaf: ref %s (leaf %s): %w", s.Index, show(s.Ref), show(ref), ErrTampered)
	}
	e.Kind = kindOf([]byte(kind))
	if m[mPostedAt] >= 0 {
		posted, _ := m.str(s.Leaf, mPostedAt)
		t, err := time.Parse(TimeLayout, posted)
		if err != nil {
			return e, fmt.Errorf("entry %d: the leaf's posted_at %q is not a time like %s: %w", s.Index, posted, TimeLayout, ErrTampered)
		}
		e.PostedAt = time.Unix(0, t.UnixNano()).UTC()
	}
	return e, nil
}

// entriesOf converts the rows a read returned (entryOf) and holds each
// to a signed checkpoint: to the leaf hash VerifiedSize checked, if it
// did, else by proving it in the latest checkpoint's tree from its own
// leaf hash (proveIncluded). A row that is not in the signed tree is an
// error wrapping ErrTampered, as a row whose leaf does not hash to its
// stored leaf hash is: a reader never serves it or builds a verdict on
// it. Entries appended after the latest checkpoint are not covered by a
// signed tree yet and are returned as read.
func (l *Ledger) entriesOf(rows []StoredEntry, err error) ([]Entry, error) {
	if err != nil {
		return nil, err
	}
	out := make([]Entry, 0, len(rows))
	for i := range rows {
		e, err := entryOf(&rows[i])
		if err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	var prove []*Entry
	v := &l.verified
	v.mu.Lock()
	for i := range out {
		e := &out[i]
		if e.Index >= int64(len(v.hashes)) {
			prove = append(prove, e)
		} else if v.hashes[e.Index] != e.LeafHash {
			v.mu.Unlock()
			return nil, fmt.Errorf("entry %d: its leaf hash %s differs from %s, checked against a signed checkpoint before: %w", e.Index, e.LeafHash, v.hashes[e.Index], ErrTampered)
		}
	}
	v.mu.Unlock()
	if len(prove) > 0 {
		if err := l.proveIncluded(context.Background(), prove); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// hashReader is a tlog.HashReader over a store or a write transaction.
type hashReader struct {
	ctx context.Context
	r   interface {
		ReadHashes(context.Context, []int64) ([]tlog.Hash, error)
	}
}

// ReadHashes implements tlog.HashReader.
func (h hashReader) ReadHashes(indexes []int64) ([]tlog.Hash, error) {
	return h.r.ReadHashes(h.ctx, indexes)
}

// Size is the number of entries in the log (its tree size).
func (l *Ledger) Size() (int64, error) { return l.store.Size(context.Background()) }

// Entry returns the entry at index; an error wrapping ErrNotFound if there
// is none, at or past the end of the log. An index the log should hold
// but whose row is missing (below the size of the latest stored
// checkpoint, which signed it, or below the store's size, which a later
// entry gives) is an error wrapping ErrTampered: the row was deleted.
func (l *Ledger) Entry(index int64) (*Entry, error) {
	if index < 0 {
		return nil, fmt.Errorf("entry %d: %w", index, ErrNotFound)
	}
	e, err := l.entryAt(index)
	if e != nil || err != nil {
		return e, err
	}
	return l.missingEntry(index)
}

// entryAt reads the entry at index: nil, nil if the store has no row.
func (l *Ledger) entryAt(index int64) (*Entry, error) {
	es, err := l.entriesOf(l.store.EntryRange(context.Background(), index, index+1))
	if err != nil || len(es) != 1 || es[0].Index != index {
		return nil, err
	}
	return &es[0], nil
}

// missingEntry is the answer of Entry for an index whose row the store
// did not hold: ErrTampered when the latest checkpoint (its note
// verified) or a later entry says the log holds it, or when that
// checkpoint does not verify; ErrNotFound otherwise (past the end).
// Before calling a row deleted it reads the row again: the first read may
// have come just before a writer committed the entry and signed a
// checkpoint of it, which this one, begun after that checkpoint was read,
// sees.
func (l *Ledger) missingEntry(index int64) (*Entry, error) {
	var why error
	c, err := l.LatestCheckpoint()
	if errors.Is(err, ErrTampered) {
		return nil, fmt.Errorf("entry %d is missing: %w", index, err)
	}
	if err == nil && index < c.Size {
		why = fmt.Errorf("entry %d is missing, but the checkpoint of size %d signed it: %w", index, c.Size, ErrTampered)
	} else if n, err := l.store.Size(context.Background()); err == nil && index < n {
		why = fmt.Errorf("entry %d is missing, but the log holds entries after it (size %d): %w", index, n, ErrTampered)
	}
	if why == nil {
		return nil, fmt.Errorf("entry %d: %w", index, ErrNotFound)
	}
	if e, err := l.entryAt(index); e != nil || err != nil {
		return e, err
	}
	return nil, why
}

// MaxEntries is the most entries one Entries call returns.
const MaxEntries = 10000

// Entries returns up to n entries (at most MaxEntries) from index from on,
// in index order; fewer at the end of the log.
func (l *Ledger) Entries(from int64, n int) ([]Entry, error) {
	if from < 0 || n < 0 {
		return nil, fmt.Errorf("entries: from %d and n %d must be >= 0", from, n)
	}
	n = min(n, MaxEntries)
	if n == 0 {
		return nil, nil
	}
	return l.entriesOf(l.store.EntryRange(context.Background(), from, from+int64(n)))
}

// CommitsByCommitment returns the commit entries carrying commitment (any
// form NormaliseDigest accepts), in index order. More than one, from
// different players, is a copied commitment for the secret-action rules.
// The store looks the commitment up in an index (O(log n)).
func (l *Ledger) CommitsByCommitment(commitment string) ([]Entry, error) {
	c, err := NormaliseDigest(commitment)
	if err != nil {
		return nil, fmt.Errorf("commitment: %w", err)
	}
	es, err := l.entriesOf(l.store.EntriesByCommitment(context.Background(), c))
	if err != nil {
		return nil, err
	}
	// The column is a copy: keep only the entries whose leaf says so.
	out := es[:0]
	for _, e := range es {
		b, err := e.Body()
		if err != nil {
			return nil, err
		}
		if b.Kind == KindCommit && b.Commitment == c {
			out = append(out, e)
		}
	}
	return out, nil
}

// EntriesReferencing returns the entries that name index: the reveals and
// edits of a commit entry, the seed-reveals of a seed-commit entry, in
// index order.
func (l *Ledger) EntriesReferencing(index int64) ([]Entry, error) {
	return l.entriesOf(l.store.EntriesByRef(context.Background(), index))
}

// LatestCheckpoint returns the stored checkpoint of the largest tree size
// (the first signed, if several have that size). A log only grows, so a
// latest checkpoint smaller than one this Ledger read before (by a read
// that ended before this one began) means checkpoints were deleted from
// the store, the log cut or rolled back: an error wrapping
// [ErrTampered].
func (l *Ledger) LatestCheckpoint() (*Checkpoint, error) {
	seen := l.latestSeen.Load() // before the read: a read begun later sees at least this
	cp, err := l.checkpointOf(l.store.LatestCheckpoint(context.Background()))
	if err != nil {
		return nil, err
	}
	if cp.Size < seen {
		return nil, fmt.Errorf("the latest checkpoint has size %d, but a checkpoint of size %d was read before (the log was cut or rolled back): %w", cp.Size, seen, ErrTampered)
	}
	for seen < cp.Size && !l.latestSeen.CompareAndSwap(seen, cp.Size) {
		seen = l.latestSeen.Load()
	}
	return cp, nil
}

// CheckpointAt returns the first stored checkpoint of tree size size; an
// error wrapping ErrNotFound if none has that size.
func (l *Ledger) CheckpointAt(size int64) (*Checkpoint, error) {
	return l.checkpointOf(l.store.CheckpointAt(context.Background(), size))
}

// VerifyCheckpoint checks a checkpoint row read from the ledger's store
// (for instance by a [Store] reader such as the tlog-tiles handler) as
// [Ledger.LatestCheckpoint] does: its note must verify under the log's
// key, sign the row's origin, size and root, and carry the row's
// creation time. It returns the checkpoint, or an error wrapping
// [ErrTampered] naming what does not match. Notes that verified once are
// remembered by their bytes, so a repeated call costs a hash. It does not
// know when the row was read, so whether the log went back is for the
// caller to check.
func (l *Ledger) VerifyCheckpoint(c *StoredCheckpoint) (*Checkpoint, error) {
	return l.checkpointOf(c, nil)
}

func (l *Ledger) checkpointOf(c *StoredCheckpoint, err error) (*Checkpoint, error) {
	if err != nil {
		return nil, fmt.Errorf("checkpoint: %w", err)
	}
	if len(c.Root) != tlog.HashSize {
		return nil, fmt.Errorf("checkpoint %d (size %d): stored root has %d bytes: %w", c.ID, c.Size, len(c.Root), ErrTampered)
	}
	// The note is what readers are shown: it must verify under the log's
	// key and say what its row says. A verified note is remembered by
	// its bytes, so a checkpoint served again costs no signature check.
	key := sha256.Sum256(c.Note)
	if _, ok := l.verifiedNotes.Load(key); !ok {
		cp, err := OpenCheckpoint(l.vkey, c.Note)
		if err != nil {
			return nil, fmt.Errorf("checkpoint %d (size %d): the stored note: %v: %w", c.ID, c.Size, err, ErrTampered)
		}
		if cp.Origin != l.origin || cp.Size != c.Size || cp.Root != tlog.Hash(c.Root) {
			return nil, fmt.Errorf("checkpoint %d: the note signs origin %q, size %d, root %s; the row says %q, %d, %s: %w",
				c.ID, cp.Origin, cp.Size, cp.Root, l.origin, c.Size, tlog.Hash(c.Root), ErrTampered)
		}
		if t, timed, err := CheckpointTime(l.vkey, c.Note); err != nil || (timed && t.UnixNano() != c.CreatedAt) {
			return nil, fmt.Errorf("checkpoint %d: its created_at %s is not the time the log signed it: %w",
				c.ID, time.Unix(0, c.CreatedAt).UTC().Format(time.RFC3339Nano), ErrTampered)
		}
		l.verifiedNotes.Store(key, struct{}{})
	}
	return &Checkpoint{Origin: l.origin, Size: c.Size, Root: tlog.Hash(c.Root), Note: string(c.Note), Time: time.Unix(0, c.CreatedAt).UTC()}, nil
}
