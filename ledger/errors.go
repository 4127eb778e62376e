package ledger

import (
	"errors"
	"fmt"
	"slices"
)

// DuplicateError is returned by Append when the entry duplicates one
// already in the log: a commit with the same player, action type and
// commitment; a seed-commit whose commitment an earlier seed-commit holds
// (a seed is committed once, whatever the match: docs/ledger.md
// "Duplicates"); or any other entry whose body (without integrated_at) is
// identical. Index is the existing entry's index, Kind its kind. The web
// site answers 409.
type DuplicateError struct {
	Index int64
	Kind  Kind
}

// Error names the existing index.
func (e *DuplicateError) Error() string {
	switch e.Kind {
	case KindCommit:
		return fmt.Sprintf("duplicate commit: the same player, action type and commitment are already at index %d", e.Index)
	case KindSeedCommit:
		// In the words of the write admission's refusal (verify.Admit),
		// which also names the match and the seed-reveal.
		return fmt.Sprintf("commitment: seed-commit entry %d already committed to this seed; a seed is committed once: expected the commitment of a new seed", e.Index)
	}
	return fmt.Sprintf("duplicate %s entry: an identical entry is already at index %d", e.Kind, e.Index)
}

// ErrNotFound is returned (wrapped) when an index, checkpoint or replay
// does not exist.
var ErrNotFound = errors.New("not found")

// ErrReadOnly is returned by Append and PutReplay on a ledger opened
// read-only.
var ErrReadOnly = errors.New("ledger opened read-only")

// ErrClosed is returned by Append after Close.
var ErrClosed = errors.New("ledger closed")

// ErrTampered is returned (wrapped) when what a store holds does not
// check out against the signed data: a leaf that does not hash to its
// stored leaf hash, a lookup column that differs from the leaf, a replay
// whose bytes do not hash to their digest, a checkpoint note that does
// not verify or differs from its row. The message names what differs;
// the web site answers 409 and the CLI exits 1. Its text already says
// "(the database was altered)": an error wrapping it names what differs
// and leaves that to it, so the phrase is said once.
var ErrTampered = errors.New("the stored data does not match what was signed (the database was altered)")

// ErrStoreFull is returned (wrapped) when the store has no room left for
// a write: the file system holding a SQLite ledger is full (or the
// process's file size limit is reached). Nothing of the failed write is
// stored; what was acknowledged before stays. The write can be made again
// once room is freed; the web site answers 503 with Retry-After.
var ErrStoreFull = errors.New("no room left to store it")

// ErrUnsigned is returned (wrapped) by Close when the entries it appended
// are stored but the checkpoint signing them could not be stored: they
// are covered by the next checkpoint a writer signs.
var ErrUnsigned = errors.New("stored, but not covered by a signed checkpoint yet")

// MissingIdentity is the error of a store whose log_meta table holds
// rows (keys, sorted or not) but not both identity rows, origin and
// verifier_key: a ledger whose identity rows were altered, not a
// database without a ledger. It wraps ErrTampered and starts with
// "log_meta: "; the CLI's audit reports it as a finding (exit 1).
func MissingIdentity(keys []string) error {
	k := slices.Clone(keys)
	slices.Sort(k)
	return fmt.Errorf("log_meta: keys %q; expected origin and verifier_key (the ledger's identity rows were altered): %w", k, ErrTampered)
}

// NoIdentity is the error of a store named name that holds rows but no
// identity rows (an empty log_meta): what a ledger copy that did not
// complete leaves ([Copy] writes them last), or a ledger whose identity
// rows were all deleted. It wraps [ErrNotLedger] (no ledger opens on it,
// no writer extends it) and [ErrUnfinished].
func NoIdentity(name string) error {
	return fmt.Errorf("%s: %w: %w (or a ledger whose identity rows were all deleted)", name, ErrNotLedger, ErrUnfinished)
}
