package ledger

import (
	"context"
	"fmt"
	"math"
	"slices"
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
// tree of those hashes must have the checkpoint's signed root; each leaf
// must also hash to its stored leaf hash and hold its stored integration
// time, and its ref column must be its leaf's commit or seed_commit (the
// column EntriesReferencing selects rows by, so a row whose ref was moved
// would be missing there, not refused). It reads nothing else: the other
// lookup columns and the duplicate keys, which the signed tree does not
// cover and no read selects rows by alone, are checked by every other read
// of an entry (Entry, Entries, CommitsByCommitment, EntriesReferencing),
// which refuses a row whose columns disagree with its leaf, and by the
// audit. It returns the size checked: every entry below it, as served by
// this Ledger from then on, is backed by a signed checkpoint (a read of
// such an entry whose leaf no longer hashes to the checked hash is an
// error wrapping ErrTampered). Entries at or past it are not covered by a
// checkpoint yet: verdicts should not rest on them. The first call reads
// the whole log (about as fast as the audit's leaf pass); later calls read
// only the entries the newest checkpoint added. Memory: 32 bytes per
// entry. Errors: a checkpoint note that does not verify, a root that
// differs from the leaves, a checkpoint smaller than one verified before
// (all wrapping ErrTampered), and storage errors.
func (l *Ledger) VerifiedSize(ctx context.Context) (int64, error) {
	return l.VerifiedSizeEach(ctx, nil)
}

// VerifiedSizeEach is VerifiedSize, also handing fn each entry it checks
// anew (those from the size verified before up to the new size, in index
// order) as it reads them, so a reader can build on them without reading
// them again. fn sees an entry before the checkpoint's root is compared:
// the entries are backed by the signed checkpoint only if VerifiedSizeEach
// returns no error, so fn should keep them aside until then. An error from
// fn stops the check and is returned. fn must not call the Ledger's
// VerifiedSize methods; it may keep the entry's Leaf, but not the *Entry
// itself, which may be reused once fn returns. The entries handed to fn
// are taken from their leaves alone: the kind and posted_at are the leaf's
// members, never a lookup column (an entry whose kind, posted_at or
// commitment column disagrees with its leaf is handed as its leaf says,
// while Entry refuses its row). A store with chunked reads (ChunkReader)
// is read as the audit reads it, a chunk of aggregates at a time (two
// chunks read and checked at once, the leaves and the ref column only:
// EntryChunk.Leaves), and a chunk that does not check out is read again
// row by row, which decides: fn sees the same entries, and the same errors
// are returned.
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
	// The leaf hashes checked anew, in a slice sized for them (growing it
	// one by one would copy it at every growth).
	added := make([]tlog.Hash, 0, max(cp.Size-done, 0))
	each := func(e *Entry) error {
		if fn != nil {
			if err := fn(e); err != nil {
				return err
			}
		}
		if e.Index != f.size {
			return fmt.Errorf("ledger: internal error: entry %d handed to a tree of size %d", e.Index, f.size)
		}
		f.addLeaf(e.LeafHash)
		added = append(added, e.LeafHash)
		return nil
	}
	if cr, ok := l.store.(ChunkReader); ok && cp.Size > done {
		if err := l.verifyChunks(ctx, cr, done, cp.Size, each); err != nil {
			return done, err
		}
	} else if err := l.verifyRows(ctx, done, cp.Size, cp.Size, each); err != nil {
		return done, err
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
	if len(v.hashes) == 0 {
		v.hashes = added
	} else {
		v.hashes = append(v.hashes, added...)
	}
	v.f = f
	return cp.Size, nil
}

// verifyRows reads entries [from, to) row by row, checks each
// (leafEntryOf) and hands it to each, in index order; size is the
// checkpoint's, for the errors.
func (l *Ledger) verifyRows(ctx context.Context, from, to, size int64, each func(*Entry) error) error {
	for ; from < to; from += MaxEntries {
		end := min(from+MaxEntries, to)
		rows, err := l.store.EntryRange(ctx, from, end)
		if err != nil {
			return err
		}
		for i := range rows {
			if rows[i].Index != from+int64(i) {
				return fmt.Errorf("entry %d is missing below the checkpoint size %d: %w", from+int64(i), size, ErrTampered)
			}
			e, err := leafEntryOf(&rows[i])
			if err != nil {
				return err
			}
			if err := each(&e); err != nil {
				return err
			}
		}
		if int64(len(rows)) != end-from {
			return fmt.Errorf("entries %d..%d: %d of %d present below the checkpoint size %d: %w", from, end-1, len(rows), end-from, size, ErrTampered)
		}
	}
	return nil
}

// verifyChunks is verifyRows through the store's chunk reads (the audit's
// fast path, ChunkReader): each chunk of entries is read as a few
// aggregates (leaves, leaf hashes, integration times and the ref column:
// EntryChunk.Leaves) and checked as the audit checks them, in Go
// (checkBlobs); a chunk that does not check out in every respect is read
// again row by row (verifyRows), which decides, so the fast path can only
// accept what leafEntryOf accepts. Two goroutines (and connections) read
// and check chunks, taking turns; the entries are handed to each in index
// order.
func (l *Ledger) verifyChunks(ctx context.Context, cr ChunkReader, from, to int64, each func(*Entry) error) error {
	// Every return cancels the readers and waits for them: none reads the
	// store after this returned.
	var readers sync.WaitGroup
	defer readers.Wait()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type checked struct {
		first, end int64
		entries    []Entry // nil if the chunk did not check out
		err        error
	}
	// Reader k reads and checks chunks k, k+2, ...; the slices of entries
	// it fills come back to it through frees[k] once each has seen them
	// (each keeps no *Entry: only copies and leaves, which are slices of
	// the chunk's own aggregate), so that no chunk writes fresh memory.
	var ins [auditEntryReaders]chan checked
	var frees [auditEntryReaders]chan []Entry
	for k := range ins {
		ins[k] = make(chan checked, 1)
		frees[k] = make(chan []Entry, 3) // the reader's, the one in ins[k], the one handed over
		readers.Go(func() {
			defer close(ins[k])
			var hashes []tlog.Hash
			var results []namedReplay
			lc := leafChecker{store: l.store}
			for a := from + int64(k)*verifyEntryChunk; a < to; a += auditEntryReaders * verifyEntryChunk {
				r := checked{first: a, end: min(a+verifyEntryChunk, to)}
				c := &EntryChunk{Leaves: true}
				if r.err = cr.EntryChunk(ctx, r.first, r.end, c); r.err == nil {
					n := int(r.end - r.first)
					hashes = slices.Grow(hashes[:0], n)[:n]
					var entries []Entry
					select {
					case entries = <-frees[k]:
					default:
						entries = make([]Entry, 0, verifyEntryChunk)
					}
					lc.entries, lc.prev, lc.commits, results = &entries, math.MinInt64, lc.commits[:0], results[:0]
					var cols bool // no lookup columns read
					if lc.checkBlobs(c, r.first, hashes, &results, nil, &cols) && len(entries) == n {
						r.entries = entries
					}
				}
				select {
				case ins[k] <- r:
				case <-ctx.Done():
					return
				}
				if r.err != nil {
					return
				}
			}
		})
	}
	next := from
	for k := 0; ; k++ {
		r, ok := <-ins[k%len(ins)]
		if !ok {
			break
		}
		if r.err != nil {
			return r.err
		}
		if r.entries != nil {
			for i := range r.entries {
				if err := each(&r.entries[i]); err != nil {
					return err
				}
			}
			select {
			case frees[k%len(ins)] <- r.entries[:0]:
			default:
			}
		} else if err := l.verifyRows(ctx, r.first, r.end, to, each); err != nil {
			return err
		}
		next = r.end
	}
	if next < to {
		if err := ctx.Err(); err != nil {
			return err
		}
		return fmt.Errorf("entries %d..%d were not read", next, to-1)
	}
	return nil
}
