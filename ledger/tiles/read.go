package tiles

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"sync"
	"sync/atomic"

	"github.com/sealedhq/sealed/ledger"
	"golang.org/x/mod/sumdb/tlog"
)

// LeafTooLargeError is returned for an entry bundle holding a leaf longer
// than ledger.MaxLeafSize (a ledger written before the limit).
type LeafTooLargeError struct {
	Index int64 // the entry's index
	Size  int   // its leaf's length in bytes
}

// Error names the entry, its leaf size and the limit.
func (e *LeafTooLargeError) Error() string {
	return fmt.Sprintf("entry %d: leaf of %d bytes, more than the %d an entry bundle can hold (C2SP tlog-tiles)", e.Index, e.Size, ledger.MaxLeafSize)
}

// ErrNotCovered is returned (wrapped) for a tile the given tree size does
// not cover: it would hold hashes or entries past the signed tree.
var ErrNotCovered = errors.New("tile not covered by the checkpoint")

// Covers reports whether a tree of size entries determines tile t: every
// hash (or entry) in it is of a complete subtree of the tree.
func Covers(t tlog.Tile, size int64) bool {
	if t.H != Height || t.W < 1 || t.W > 1<<Height || t.N < 0 {
		return false
	}
	l := max(t.L, 0)
	if l > 7 { // 256^8 > 2^63
		return false
	}
	if t.N > (math.MaxInt64-int64(t.W))>>Height { // N*256+W would overflow
		return false
	}
	end := t.N<<Height + int64(t.W)
	return end <= size>>(Height*l)
}

// storeHashes reads stored hashes from a store.
type storeHashes struct {
	ctx context.Context
	s   ledger.Store
}

func (h storeHashes) ReadHashes(indexes []int64) ([]tlog.Hash, error) {
	return h.s.ReadHashes(h.ctx, indexes)
}

// ReadTile returns the bytes of tile t (a hash tile, or an entry bundle
// when t.L is -1) of the log in s, which must be covered by a tree of
// size entries (the latest checkpoint's). Errors: ErrNotCovered (wrapped),
// *LeafTooLargeError, a store error, and an error wrapping
// ledger.ErrTampered for an entry or stored leaf hash of the tile that the
// store does not hold (the checkpoint signed it: the row was deleted).
func ReadTile(ctx context.Context, s ledger.Store, t tlog.Tile, size int64) ([]byte, error) {
	if !Covers(t, size) {
		return nil, fmt.Errorf("%s: %w of size %d", Path(t), ErrNotCovered, size)
	}
	from, to := t.N<<Height, t.N<<Height+int64(t.W)
	switch {
	case t.L > 0:
		return tlog.ReadTileData(t, storeHashes{ctx, s})
	case t.L == 0:
		// The level-0 hashes of a tile lie in one range of stored ids.
		lo := tlog.StoredHashIndex(0, from)
		hs, err := readHashes(ctx, s, lo, tlog.StoredHashIndex(0, to-1)+1)
		if err != nil {
			return nil, err
		}
		data := make([]byte, 0, t.W*tlog.HashSize)
		for i := from; i < to; i++ {
			h := hs[tlog.StoredHashIndex(0, i)-lo]
			if len(h) != tlog.HashSize {
				return nil, fmt.Errorf("tile %s: entry %d: stored leaf hash missing or not %d bytes: %w", Path(t), i, tlog.HashSize, ledger.ErrTampered)
			}
			data = append(data, h...)
		}
		return data, nil
	}
	leaves, err := readLeaves(ctx, s, from, to)
	if err != nil {
		return nil, err
	}
	var b []byte
	for i, leaf := range leaves {
		if leaf == nil {
			return nil, fmt.Errorf("tile %s: entry %d: missing from the store: %w", Path(t), from+int64(i), ledger.ErrTampered)
		}
		if len(leaf) > ledger.MaxLeafSize {
			return nil, &LeafTooLargeError{Index: from + int64(i), Size: len(leaf)}
		}
		b = binary.BigEndian.AppendUint16(b, uint16(len(leaf)))
		b = append(b, leaf...)
	}
	return b, nil
}

// AppendBundle appends to b the entry bundle of the n entries from index
// from, given as rows (in index order): each leaf behind its length as a
// big-endian uint16. A missing row is an error; a leaf longer than
// ledger.MaxLeafSize is a *LeafTooLargeError.
func AppendBundle(b []byte, from, n int64, rows []ledger.StoredEntry) ([]byte, error) {
	if int64(len(rows)) != n {
		return nil, fmt.Errorf("entries %d..%d: the store returned %d rows, want %d", from, from+n-1, len(rows), n)
	}
	for i, e := range rows {
		if e.Index != from+int64(i) {
			return nil, fmt.Errorf("entry %d: missing from the store", from+int64(i))
		}
		if len(e.Leaf) > ledger.MaxLeafSize {
			return nil, &LeafTooLargeError{Index: e.Index, Size: len(e.Leaf)}
		}
		b = binary.BigEndian.AppendUint16(b, uint16(len(e.Leaf)))
		b = append(b, e.Leaf...)
	}
	return b, nil
}

// cache holds tile bytes by path, with their gzip encoding once made,
// up to limit bytes in all; when full it is emptied (tiles are
// immutable: a refill costs only the reads).
type cache struct {
	mu    sync.RWMutex
	m     map[string]*cached
	bytes int
}

// cached is one tile's bytes in the cache.
type cached struct {
	b  []byte
	gz atomic.Pointer[[]byte] // b gzip-compressed, once made (empty: no shorter than b)
	// asked counts the requests accepting gzip: the bundle is
	// compressed from the second on (Handler).
	asked atomic.Int32
}

// get returns the tile at path k, or nil.
func (c *cache) get(k string) *cached {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.m[k]
}

// put caches b as the tile at path k (emptying the cache first if it
// would hold more than limit bytes) and returns its entry: the one
// already there, if any.
func (c *cache) put(k string, b []byte, limit int) *cached {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.m[k]; ok {
		return e
	}
	if c.m == nil || c.bytes+len(b) > limit {
		c.m, c.bytes = map[string]*cached{}, 0
	}
	e := &cached{b: b}
	c.m[k] = e
	c.bytes += len(b)
	return e
}

// setGzip records z as e's gzip encoding and counts its bytes (the next
// put empties a cache over its limit).
func (c *cache) setGzip(e *cached, z []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e.gz.CompareAndSwap(nil, &z) {
		c.bytes += len(z)
	}
}
