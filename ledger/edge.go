package ledger

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"time"

	"golang.org/x/mod/sumdb/tlog"
)

// nothing ends a writer's refusal of altered data; readerEnd ends a
// reader's finding (CheckEdge).
const (
	nothing   = "nothing was appended ('sealed ledger audit' names the rows)"
	readerEnd = "'sealed ledger audit' names the rows"
)

// checkEdge holds the right edge f, loaded from the stored hashes before
// the log extends it, to the latest signed checkpoint cp (nil: the store
// has none): a writer signs only trees that extend what the log signed
// before (RFC 6962 consistency), so altered stored hashes on the right
// edge stop the append instead of being signed into a new root.
//
//   - cp covers f.size entries: the root f gives must be cp's.
//   - cp covers fewer (entries appended and not signed yet, by a writer
//     that stopped or by another process): the stored right edge of cp's
//     size must give cp's root, and the entries after it, each leaf
//     re-hashed from its stored bytes, must give f.
//   - cp covers more, or there is no checkpoint below a non-empty log:
//     signed entries (or every checkpoint) were removed.
//
// It reads O(log n) stored hashes, plus the entries past cp. Every
// refusal wraps [ErrTampered], says what does not match and ends with
// end (nothing for a writer).
func (l *Ledger) checkEdge(ctx context.Context, f *frontier, cp *Checkpoint, end string) error {
	if cp == nil {
		if f.size == 0 {
			return nil
		}
		return fmt.Errorf("the store holds %d entries and no signed checkpoint (the log signs one when it is created); %s: %w", f.size, end, ErrTampered)
	}
	if cp.Size > f.size {
		return fmt.Errorf("the latest signed checkpoint covers %d entries, the store holds %d: signed entries were removed; %s: %w", cp.Size, f.size, end, ErrTampered)
	}
	if cp.Size == f.size {
		root, err := f.root()
		if err != nil {
			return err
		}
		if root != cp.Root {
			return fmt.Errorf("the stored hashes on the tree's right edge (ids %s) give the root %s for %d entries; the latest signed checkpoint has %s; %s: %w",
				edgeIDs(f), root, f.size, cp.Root, end, ErrTampered)
		}
		return nil
	}
	base, err := loadFrontier(cp.Size, hashReader{ctx, l.store})
	if errors.Is(err, ErrNotFound) {
		return fmt.Errorf("loading the tree edge at the latest checkpoint (%d entries): %v, which the log wrote; %s: %w", cp.Size, err, end, ErrTampered)
	}
	if err != nil {
		return fmt.Errorf("loading the tree edge at the latest checkpoint (%d entries): %w", cp.Size, err)
	}
	if root, err := base.root(); err != nil {
		return err
	} else if root != cp.Root {
		return fmt.Errorf("the stored hashes on the right edge of the latest checkpoint's tree (ids %s) give the root %s for %d entries; the checkpoint signs %s; %s: %w",
			edgeIDs(base), root, cp.Size, cp.Root, end, ErrTampered)
	}
	return l.replayEdge(ctx, base, f, end)
}

// replayEdge extends base, a right edge already trusted (verified against
// a signed checkpoint, or the sequencer's own), by the stored entries from
// base.size up to want.size, each leaf re-hashed from its stored bytes,
// and checks that it gives want, the right edge loaded from the stored
// hashes. base is modified. Refusals wrap [ErrTampered].
func (l *Ledger) replayEdge(ctx context.Context, base, want *frontier, end string) error {
	if want.size < base.size {
		return fmt.Errorf("the store holds %d entries, fewer than the %d this writer appended and checked: entries were removed; %s: %w", want.size, base.size, end, ErrTampered)
	}
	for base.size < want.size {
		es, err := l.store.EntryRange(ctx, base.size, min(base.size+MaxEntries, want.size))
		if err != nil {
			return fmt.Errorf("reading the entries to check the tree edge: %w", err)
		}
		if len(es) == 0 {
			return fmt.Errorf("entries: no row at index %d, below the log's size %d; %s: %w", base.size, want.size, end, ErrTampered)
		}
		for _, e := range es {
			if e.Index != base.size {
				return fmt.Errorf("entries: no row at index %d, below the log's size %d; %s: %w", base.size, want.size, end, ErrTampered)
			}
			h := tlog.RecordHash(e.Leaf)
			if !bytes.Equal(e.LeafHash, h[:]) {
				return fmt.Errorf("entries: the stored leaf hash of entry %d is not the hash of its stored leaf; %s: %w", e.Index, end, ErrTampered)
			}
			hs, err := tlog.StoredHashesForRecordHash(base.size, h, base)
			if err != nil {
				return err
			}
			base.add(hs)
		}
	}
	for s := uint64(want.size); s != 0; s &= s - 1 {
		lv := bits.TrailingZeros64(s)
		if base.hash[lv] != want.hash[lv] {
			return fmt.Errorf("hashes: stored hash %d (level %d, on the tree's right edge) is not the hash its entries give; %s: %w",
				want.idx[lv], lv, end, ErrTampered)
		}
	}
	return nil
}

// edgeIDs lists the stored hash ids of f's right edge, "a, b, c".
func edgeIDs(f *frontier) string {
	var b []byte
	for lv := 63; lv >= 0; lv-- {
		if f.size&(1<<uint(lv)) != 0 {
			if len(b) > 0 {
				b = append(b, ", "...)
			}
			b = fmt.Appendf(b, "%d", f.idx[lv])
		}
	}
	return string(b)
}

// CheckEdge holds the stored right edge of the tree (the hashes the next
// append extends and the next checkpoint signs) to the latest signed
// checkpoint, as a writer does when it opens the ledger: the stored edge
// must give the checkpoint's root, and entries past it must give the
// stored edge. It reads O(log n) stored hashes plus the entries past the
// checkpoint, so `sealed serve` runs it at start. Errors: one wrapping
// [ErrTampered] saying what does not match; a failure to read.
func (l *Ledger) CheckEdge(ctx context.Context) error {
	size, err := l.store.Size(ctx)
	if err != nil {
		return err
	}
	f, err := loadFrontier(size, hashReader{ctx, l.store})
	if errors.Is(err, ErrNotFound) {
		return fmt.Errorf("loading the tree edge: %v, which the log wrote: %w", err, ErrTampered)
	}
	if err != nil {
		return fmt.Errorf("loading the tree edge: %w", err)
	}
	cp, err := l.LatestCheckpoint()
	if errors.Is(err, ErrNotFound) {
		cp, err = nil, nil
	}
	if err != nil {
		return err
	}
	return l.checkEdge(ctx, f, cp, readerEnd)
}

// newestTime returns the integration time (Unix ns) of the newest entry
// of the tree f, whose right edge the caller has checked (checkEdge,
// replayEdge): the entry's leaf is re-hashed and proved in f's tree
// (RFC 6962 inclusion, O(log n) stored hashes read through r), and the
// time is its leaf's top-level integrated_at member, which must equal
// the stored integrated_at column. The sequencer takes the next batch's
// time from this, so a forged column (a time far in the future, which
// every later entry would inherit, since times never go back) stops the
// append instead of being signed into new leaves. math.MinInt64 for an
// empty log. Refusals wrap [ErrTampered].
func (l *Ledger) newestTime(ctx context.Context, f *frontier, r tlog.HashReader) (int64, error) {
	if f.size == 0 {
		return math.MinInt64, nil
	}
	n := f.size - 1
	es, err := l.store.EntryRange(ctx, n, n+1)
	if err != nil {
		return 0, fmt.Errorf("reading the newest entry: %w", err)
	}
	if len(es) != 1 || es[0].Index != n {
		return 0, fmt.Errorf("entries: no row at index %d, below the log's size %d; %s: %w", n, f.size, nothing, ErrTampered)
	}
	e := es[0]
	h := tlog.RecordHash(e.Leaf)
	root, err := f.root()
	if err != nil {
		return 0, err
	}
	proof, err := tlog.ProveRecord(f.size, n, r)
	if err == nil {
		err = tlog.CheckRecord(proof, f.size, root, n, h)
	}
	if err != nil {
		return 0, fmt.Errorf("entries: the stored leaf of entry %d (the newest) is not the one the tree of %d entries holds (%v); %s: %w", n, f.size, err, nothing, ErrTampered)
	}
	i := topLevelValue(e.Leaf, "integrated_at")
	var t time.Time
	if i >= 0 && i+len(TimeLayout)+2 <= len(e.Leaf) && e.Leaf[i] == '"' {
		t, err = time.Parse(TimeLayout, string(e.Leaf[i+1:i+1+len(TimeLayout)]))
	}
	if i < 0 || err != nil || t.IsZero() {
		return 0, fmt.Errorf("entries: the leaf of entry %d (the newest) has no integrated_at time in the form %s; %s: %w", n, TimeLayout, nothing, ErrTampered)
	}
	if ns := t.UnixNano(); ns != e.IntegratedAt {
		return 0, fmt.Errorf("entries: the integrated_at column of entry %d (the newest) holds %s, its leaf %s; %s: %w",
			n, time.Unix(0, e.IntegratedAt).UTC().Format(TimeLayout), t.Format(TimeLayout), nothing, ErrTampered)
	}
	return e.IntegratedAt, nil
}
