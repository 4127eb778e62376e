package ledger

import (
	"context"
	"fmt"
	"sync"

	"golang.org/x/mod/sumdb/tlog"
)

// verifiedLeaves is what a reading process has checked of the log: the
// leaf hashes of entries [0, len(hashes)), each recomputed from its leaf,
// whose tree has the root of a checkpoint that verifies under the log's
// key. Entries read later are held to these hashes (entryOf's caller),
// so a leaf rewritten after the check is caught at the read.
type verifiedLeaves struct {
	mu     sync.Mutex
	hashes []tlog.Hash
	f      frontier // the tree of hashes, for the next root
}

// VerifiedSize checks, incrementally, the entries up to the latest
// checkpoint against it: every leaf is read, hashed (RFC 6962) and the
// tree of those hashes must have the checkpoint's signed root. It returns
// the size checked: every entry below it, as served by this Ledger from
// then on, is backed by a signed checkpoint (a read of such an entry whose
// leaf no longer hashes to the checked hash is an error wrapping
// ErrTampered). Entries at or past it are not covered by a checkpoint
// yet: verdicts should not rest on them. The first call reads the whole
// log (about as fast as the audit's leaf pass); later calls read only the
// entries the newest checkpoint added. Memory: 32 bytes per entry.
// Errors: a checkpoint note that does not verify, a root that differs
// from the leaves, a checkpoint smaller than one verified before (all
// wrapping ErrTampered), and storage errors.
func (l *Ledger) VerifiedSize(ctx context.Context) (int64, error) {
	return l.VerifiedSizeEach(ctx, nil)
}

// VerifiedSizeEach is VerifiedSize, also handing fn each entry it checks
// anew (those from the size verified before up to the new size, in index
// order) as it reads them, so a reader can build on them without reading
// them again. fn sees an entry before the checkpoint's root is compared:
// the entries are backed by the signed checkpoint only if
// VerifiedSizeEach returns no error, so fn should keep them aside until
// then. An error from fn stops the check and is returned. fn must not
// call the Ledger's VerifiedSize methods.
func (l *Ledger) VerifiedSizeEach(ctx context.Context, fn func(*Entry) error) (int64, error) {
	v := &l.verified
	v.mu.Lock()
	defer v.mu.Unlock()
	cp, err := l.LatestCheckpoint()
	if err != nil {
		return int64(len(v.hashes)), err
	}
	done := int64(len(v.hashes))
	if cp.Size < done {
		return done, fmt.Errorf("the latest checkpoint has size %d, but a checkpoint of size %d was verified before (the log was cut or rolled back): %w", cp.Size, done, ErrTampered)
	}
	f := v.f // extend a copy: the cache changes only once the root checks out
	var added []tlog.Hash
	for from := done; from < cp.Size; from += MaxEntries {
		to := min(from+MaxEntries, cp.Size)
		rows, err := l.store.EntryRange(ctx, from, to)
		if err != nil {
			return done, err
		}
		for i := range rows {
			if rows[i].Index != from+int64(i) {
				return done, fmt.Errorf("entry %d is missing below the checkpoint size %d: %w", from+int64(i), cp.Size, ErrTampered)
			}
			e, err := entryOf(&rows[i])
			if err != nil {
				return done, err
			}
			if fn != nil {
				if err := fn(&e); err != nil {
					return done, err
				}
			}
			hs, err := tlog.StoredHashesForRecordHash(e.Index, e.LeafHash, &f)
			if err != nil {
				return done, err
			}
			f.add(hs)
			added = append(added, e.LeafHash)
		}
		if int64(len(rows)) != to-from {
			return done, fmt.Errorf("entries %d..%d: %d of %d present below the checkpoint size %d: %w", from, to-1, len(rows), to-from, cp.Size, ErrTampered)
		}
	}
	if cp.Size > done || done == 0 {
		root, err := f.root()
		if err != nil {
			return done, err
		}
		if root != cp.Root {
			return done, fmt.Errorf("the checkpoint of size %d signs root %s, but the entries give %s: %w", cp.Size, cp.Root, root, ErrTampered)
		}
	}
	v.hashes = append(v.hashes, added...)
	v.f = f
	return cp.Size, nil
}

// checkVerified holds an entry read from the store to the leaf hash
// VerifiedSize checked, if it did.
func (l *Ledger) checkVerified(e *Entry) error {
	v := &l.verified
	v.mu.Lock()
	defer v.mu.Unlock()
	if e.Index < int64(len(v.hashes)) && v.hashes[e.Index] != e.LeafHash {
		return fmt.Errorf("entry %d: its leaf hash %s differs from %s, checked against a signed checkpoint before: %w", e.Index, e.LeafHash, v.hashes[e.Index], ErrTampered)
	}
	return nil
}
