package ledger

import (
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
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

const entryColumns = `idx, kind, body, leaf_hash, integrated_at, posted_at`

// scanEntry reads one row of entryColumns.
func scanEntry(s interface{ Scan(...any) error }) (Entry, error) {
	var e Entry
	var kind string
	var lh []byte
	var integrated int64
	var posted sql.NullInt64
	if err := s.Scan(&e.Index, &kind, (*[]byte)(&e.Leaf), &lh, &integrated, &posted); err != nil {
		return e, err
	}
	e.Kind = Kind(kind)
	if len(lh) != tlog.HashSize {
		return e, fmt.Errorf("entry %d: stored leaf hash has %d bytes", e.Index, len(lh))
	}
	e.LeafHash = tlog.Hash(lh)
	e.IntegratedAt = time.Unix(0, integrated).UTC()
	if posted.Valid {
		e.PostedAt = time.Unix(0, posted.Int64).UTC()
	}
	return e, nil
}

// Size is the number of entries in the log (its tree size).
func (l *Ledger) Size() (int64, error) { return treeSize(l.r) }

// Entry returns the entry at index; an error wrapping ErrNotFound if there
// is none.
func (l *Ledger) Entry(index int64) (*Entry, error) {
	e, err := scanEntry(l.r.QueryRow(`SELECT `+entryColumns+` FROM entries WHERE idx = ?`, index))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("entry %d: %w", index, ErrNotFound)
	}
	if err != nil {
		return nil, err
	}
	return &e, nil
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
	return l.queryEntries(`SELECT `+entryColumns+` FROM entries WHERE idx >= ? ORDER BY idx LIMIT ?`, from, n)
}

// CommitsByCommitment returns the commit entries carrying commitment (any
// form NormaliseDigest accepts), in index order. More than one, from
// different players, is a copied commitment for the secret-action rules.
// The first call on a large ledger reads every commit's commitment once
// (an in-memory index, about 50 bytes per commit); later calls read only
// the new entries.
func (l *Ledger) CommitsByCommitment(commitment string) ([]Entry, error) {
	c, err := NormaliseDigest(commitment)
	if err != nil {
		return nil, fmt.Errorf("commitment: %w", err)
	}
	idxs, err := l.commitments.lookup(l.r, c)
	if err != nil {
		return nil, err
	}
	var out []Entry
	for _, i := range idxs {
		e, err := l.Entry(i)
		if err != nil {
			return nil, err
		}
		b, err := e.Body()
		if err != nil {
			return nil, err
		}
		if b.Commitment == c {
			out = append(out, *e)
		}
	}
	return out, nil
}

// EntriesReferencing returns the entries that name index: the reveals and
// edits of a commit entry, the seed-reveals of a seed-commit entry, in
// index order.
func (l *Ledger) EntriesReferencing(index int64) ([]Entry, error) {
	return l.queryEntries(`SELECT `+entryColumns+` FROM entries WHERE ref = ? ORDER BY idx`, index)
}

func (l *Ledger) queryEntries(q string, args ...any) ([]Entry, error) {
	rows, err := l.r.Query(q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Entry
	for rows.Next() {
		e, err := scanEntry(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, rows.Err()
}

// LatestCheckpoint returns the stored checkpoint of the largest tree size
// (the first signed, if several have that size).
func (l *Ledger) LatestCheckpoint() (*Checkpoint, error) {
	return l.checkpointWhere(`ORDER BY size DESC, id ASC LIMIT 1`)
}

// CheckpointAt returns the first stored checkpoint of tree size size; an
// error wrapping ErrNotFound if none has that size.
func (l *Ledger) CheckpointAt(size int64) (*Checkpoint, error) {
	return l.checkpointWhere(`WHERE size = ? ORDER BY id LIMIT 1`, size)
}

func (l *Ledger) checkpointWhere(where string, args ...any) (*Checkpoint, error) {
	var size, created int64
	var root, signed []byte
	err := l.r.QueryRow(`SELECT size, root, note, created_at FROM checkpoints `+where, args...).Scan(&size, &root, &signed, &created)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("checkpoint: %w", ErrNotFound)
	}
	if err != nil {
		return nil, err
	}
	if len(root) != tlog.HashSize {
		return nil, fmt.Errorf("checkpoint of size %d: stored root has %d bytes", size, len(root))
	}
	return &Checkpoint{Origin: l.origin, Size: size, Root: tlog.Hash(root), Note: string(signed), Time: time.Unix(0, created).UTC()}, nil
}
