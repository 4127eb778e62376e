package ledger

import (
	"fmt"
	"math/bits"

	"golang.org/x/mod/sumdb/tlog"
)

// frontier is the in-memory cache the sequencer hashes with: the stored
// hashes of the complete subtrees on the right edge of a tree of size
// entries, one per set bit of size. These are exactly the hashes
// tlog.StoredHashes reads to add record size, and tlog.TreeHash reads for
// the root, so appends and checkpoints never read hashes from SQLite.
type frontier struct {
	size int64
	hash [64]tlog.Hash // hash[l]: the complete subtree at level l, if bit l of size is set
	idx  [64]int64     // idx[l]: its tlog.StoredHashIndex
	// newest is the integration time (Unix ns) of entry size-1, read
	// from its leaf once the leaf was checked against the tree
	// (Ledger.newestTime), or written by the sequencer itself;
	// math.MinInt64 for an empty log. The next batch's time is never
	// earlier. Not set by loadFrontier.
	newest int64
}

// frontierIndex is the stored hash index of the level-l subtree on the
// right edge of a tree of the given size (bit l of size must be set).
func frontierIndex(size int64, l int) int64 {
	return tlog.StoredHashIndex(l, size>>uint(l)-1)
}

// loadFrontier reads the right-edge hashes of a tree of size entries from r.
func loadFrontier(size int64, r tlog.HashReader) (*frontier, error) {
	f := &frontier{size: size}
	var levels []int
	var indexes []int64
	for l := 63; l >= 0; l-- {
		if size&(1<<uint(l)) != 0 {
			levels = append(levels, l)
			indexes = append(indexes, frontierIndex(size, l))
		}
	}
	if len(indexes) == 0 {
		return f, nil
	}
	hs, err := r.ReadHashes(indexes)
	if err != nil {
		return nil, err
	}
	for i, l := range levels {
		f.hash[l], f.idx[l] = hs[i], indexes[i]
	}
	return f, nil
}

// ReadHashes implements tlog.HashReader over the frontier; an index that is
// not on the right edge is an error.
func (f *frontier) ReadHashes(indexes []int64) ([]tlog.Hash, error) {
	out := make([]tlog.Hash, len(indexes))
next:
	for i, x := range indexes {
		for s := uint64(f.size); s != 0; s &= s - 1 {
			l := bits.TrailingZeros64(s)
			if f.idx[l] == x {
				out[i] = f.hash[l]
				continue next
			}
		}
		return nil, fmt.Errorf("ledger: internal error: stored hash %d is not on the right edge of tree size %d", x, f.size)
	}
	return out, nil
}

// add records hashes = tlog.StoredHashes(f.size, ...) and grows the tree
// by one: the last hash is the new complete subtree at level
// len(hashes)-1, which replaces the lower levels it absorbed.
func (f *frontier) add(hashes []tlog.Hash) {
	m := len(hashes) - 1
	f.size++
	f.hash[m] = hashes[m]
	f.idx[m] = frontierIndex(f.size, m)
}

// addLeaf grows the tree by the record hash h as add(tlog.StoredHashes
// ForRecordHash(f.size, h, f)) does, without the slices that allocates:
// h is combined (tlog.NodeHash) with the complete subtree at each level
// below the lowest clear bit of f.size, which it absorbs.
func (f *frontier) addLeaf(h tlog.Hash) {
	m := bits.TrailingZeros64(^uint64(f.size))
	for l := range m {
		h = tlog.NodeHash(f.hash[l], h)
	}
	f.size++
	f.hash[m] = h
	f.idx[m] = frontierIndex(f.size, m)
}

// root is the RFC 6962 root hash of the tree of f.size entries.
func (f *frontier) root() (tlog.Hash, error) { return tlog.TreeHash(f.size, f) }
