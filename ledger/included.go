package ledger

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math/bits"
	"slices"
	"sync"

	"golang.org/x/mod/sumdb/tlog"
)

// provenLevel is the lowest level of the stored hashes provenNodes keeps
// (besides a checkpoint's right edge): a node of level 6 covers 64
// entries, so the cache holds about n/32 hashes for n entries (1 MB per
// 30,000 entries), and an entry whose block was proved before costs at
// most 6 sibling hashes read and 6 hashed.
const provenLevel = 6

// provenNodes is what readers proved of the tree: stored hash positions
// (tlog.StoredHashIndex) whose hash is the one a signed checkpoint's
// tree holds, each recomputed from an entry's leaf hash and the hashes
// beside its path up to a node proved before, or to the right edge of a
// checkpoint, whose hashes give its signed root. A complete subtree never
// changes as the log grows, so what was proved in one checkpoint's tree
// holds in every later one that extends it.
type provenNodes struct {
	mu    sync.Mutex
	size  int64               // the newest checkpoint whose right edge is in nodes (0: none)
	nodes map[int64]tlog.Hash // levels >= provenLevel, and the right edge of size
	low   []int64             // the right edge's positions below provenLevel
}

// proveIncluded proves that each of es (entries entryOf checked, whose
// leaf hash VerifiedSize has not checked) is in the tree of the latest
// signed checkpoint, from its own leaf hash: the hashes of the tree are
// recomputed from the leaf hashes up, with the stored hashes beside the
// paths, until they reach a node proved before (provenNodes) or the
// checkpoint's right edge, which must give its signed root. A stored hash
// is thus trusted only as the sibling of a recomputed node whose parent
// is proved, which is an RFC 6962 inclusion proof (tlog.CheckRecord),
// shortened to the part not proved before: entries read together share
// their paths, and a page of entries reads only the hashes beside its
// two ends. Entries at or past the latest checkpoint's size are not
// covered by a signed tree yet and are left as they are. Errors: a leaf
// that the tree does not hold, a right edge that does not give the
// signed root, a checkpoint smaller than one proved before (all wrapping
// ErrTampered), and storage errors.
func (l *Ledger) proveIncluded(ctx context.Context, es []*Entry) error {
	p := &l.proven
	p.mu.Lock()
	size := p.size
	p.mu.Unlock()
	last := es[0].Index
	for _, e := range es[1:] {
		last = max(last, e.Index)
	}
	if last >= size {
		cp, err := l.LatestCheckpoint()
		if err != nil {
			return err
		}
		if cp.Size < size {
			return fmt.Errorf("the latest checkpoint has size %d, but a checkpoint of size %d was read before (the log was cut or rolled back): %w", cp.Size, size, ErrTampered)
		}
		if cp.Size > size {
			// proveEdge records cp's right edge in p, read again below.
			if err := l.proveEdge(ctx, cp); err != nil {
				return err
			}
		}
	}
	// The leaves to prove, in index order, once each.
	type node struct {
		j int64
		h tlog.Hash
	}
	cur := make([]node, 0, len(es))
	for _, e := range es {
		cur = append(cur, node{e.Index, e.LeafHash})
	}
	slices.SortFunc(cur, func(a, b node) int { return cmp.Compare(a.j, b.j) })
	for i := 1; i < len(cur); i++ {
		if cur[i].j == cur[i-1].j && cur[i].h != cur[i-1].h {
			return fmt.Errorf("entry %d: two rows with different leaves: %w", cur[i].j, ErrTampered)
		}
	}
	cur = slices.CompactFunc(cur, func(a, b node) bool { return a.j == b.j })

	// Plan, from positions alone: where each path stops (a proved node)
	// and which stored hashes it needs beside it. Then read those in one
	// query, and recompute.
	type side struct {
		read int       // index into the hashes read, or -1
		h    tlog.Hash // a proved hash, when read < 0
	}
	type step struct {
		stop  bool      // cur[i] is proved: compare
		want  tlog.Hash // its proved hash
		other side      // the sibling, when cur[i] is not proved and its sibling is not in cur
	}
	var plan [][]step
	var reads []int64
	p.mu.Lock()
	// The newest right edge proved: entries below it are in its tree
	// (another caller may have proved a newer one meanwhile), entries at
	// or past it are left as they are.
	size = p.size
	cur = slices.DeleteFunc(cur, func(n node) bool { return n.j >= size })
	if len(cur) == 0 {
		p.mu.Unlock()
		return nil
	}
	pos := make([]int64, len(cur))
	for i := range cur {
		pos[i] = cur[i].j
	}
	for level := 0; len(pos) > 0; level++ {
		steps := make([]step, len(pos))
		next := pos[:0:0]
		for i := 0; i < len(pos); i++ {
			j := pos[i]
			if h, ok := p.nodes[tlog.StoredHashIndex(level, j)]; ok {
				steps[i] = step{stop: true, want: h}
				continue
			}
			if (j+1)<<level > size {
				p.mu.Unlock()
				return fmt.Errorf("ledger: internal error: node %d of level %d is not in the tree of size %d", j, level, size)
			}
			sib := j ^ 1
			if (i > 0 && pos[i-1] == sib) || (i+1 < len(pos) && pos[i+1] == sib) {
				steps[i].other.read = -1 // recomputed alongside
			} else if h, ok := p.nodes[tlog.StoredHashIndex(level, sib)]; ok {
				steps[i].other = side{read: -1, h: h}
			} else {
				steps[i].other.read = len(reads)
				reads = append(reads, tlog.StoredHashIndex(level, sib))
			}
			if len(next) == 0 || next[len(next)-1] != j>>1 {
				next = append(next, j>>1)
			}
		}
		plan = append(plan, steps)
		pos = next
	}
	p.mu.Unlock()
	var read []tlog.Hash
	if len(reads) > 0 {
		var err error
		if read, err = l.store.ReadHashes(ctx, reads); err != nil {
			if errors.Is(err, ErrNotFound) {
				return fmt.Errorf("proving entries in the signed tree of size %d: %v, which the log wrote: %w", size, err, ErrTampered)
			}
			return err
		}
	}

	// Recompute, level by level; a recomputed node and its sibling are
	// proved once their parent is.
	var got []int64 // positions (StoredHashIndex) recomputed or used beside a path, level >= provenLevel
	var gotHash []tlog.Hash
	keep := func(level int, j int64, h tlog.Hash) {
		if level >= provenLevel {
			got, gotHash = append(got, tlog.StoredHashIndex(level, j)), append(gotHash, h)
		}
	}
	for level, steps := range plan {
		next := cur[:0:0]
		for i := 0; i < len(cur); i++ {
			n, s := cur[i], steps[i]
			if s.stop {
				if n.h != s.want {
					return notInTree(es, n.j<<level, (n.j+1)<<level, size, n.h, s.want)
				}
				continue
			}
			var left, right tlog.Hash
			var sh tlog.Hash
			paired := false
			switch {
			case s.other.read >= 0:
				sh = read[s.other.read]
			case i+1 < len(cur) && cur[i+1].j == n.j^1:
				sh, paired = cur[i+1].h, true
			case i > 0 && cur[i-1].j == n.j^1:
				// the left sibling was a stop, or made the parent already
				if len(next) > 0 && next[len(next)-1].j == n.j>>1 {
					continue
				}
				sh = cur[i-1].h
			default:
				sh = s.other.h
			}
			if n.j&1 == 0 {
				left, right = n.h, sh
			} else {
				left, right = sh, n.h
			}
			keep(level, n.j, n.h)
			keep(level, n.j^1, sh)
			next = append(next, node{n.j >> 1, tlog.NodeHash(left, right)})
			if paired && !steps[i+1].stop {
				i++ // the sibling's parent is this one
			}
		}
		cur = next
	}
	p.mu.Lock()
	for i, x := range got {
		if _, ok := p.nodes[x]; !ok {
			p.nodes[x] = gotHash[i]
		}
	}
	p.mu.Unlock()
	return nil
}

// proveEdge reads the stored hashes on the right edge of cp's tree and
// keeps them as proved if they give cp's signed root. A right edge proved
// before is kept: a later checkpoint's edge is added to it.
func (l *Ledger) proveEdge(ctx context.Context, cp *Checkpoint) error {
	f, err := loadFrontier(cp.Size, hashReader{ctx, l.store})
	if errors.Is(err, ErrNotFound) {
		return fmt.Errorf("loading the tree edge at the latest checkpoint (%d entries): %v, which the log wrote; %s: %w", cp.Size, err, readerEnd, ErrTampered)
	}
	if err != nil {
		return fmt.Errorf("loading the tree edge at the latest checkpoint (%d entries): %w", cp.Size, err)
	}
	if root, err := f.root(); err != nil {
		return err
	} else if root != cp.Root {
		return fmt.Errorf("the stored hashes on the right edge of the latest checkpoint's tree (ids %s) give the root %s for %d entries; the checkpoint signs %s; %s: %w",
			edgeIDs(f), root, cp.Size, cp.Root, readerEnd, ErrTampered)
	}
	p := &l.proven
	p.mu.Lock()
	defer p.mu.Unlock()
	if cp.Size <= p.size {
		return nil
	}
	if p.nodes == nil {
		p.nodes = make(map[int64]tlog.Hash)
	}
	// The lower hashes of the previous edge are dropped (they stay
	// proved, but would pile up, a few per checkpoint).
	for _, x := range p.low {
		delete(p.nodes, x)
	}
	p.low = p.low[:0]
	for s := uint64(f.size); s != 0; s &= s - 1 {
		level := bits.TrailingZeros64(s)
		if _, ok := p.nodes[f.idx[level]]; !ok {
			p.nodes[f.idx[level]] = f.hash[level]
			if level < provenLevel {
				p.low = append(p.low, f.idx[level])
			}
		}
	}
	p.size = cp.Size
	return nil
}

// notInTree is proveIncluded's error for the subtree of entries [lo, hi)
// whose hash h, recomputed from the leaves of es under it and the stored
// hashes beside them, is not want, the signed tree's: it names the entry
// of es under it, or the first and last when several are (one of them,
// or a stored hash beside them, was altered: the audit names the row).
func notInTree(es []*Entry, lo, hi, size int64, h, want tlog.Hash) error {
	first, last, n := hi, lo, 0
	for _, e := range es {
		if e.Index >= lo && e.Index < hi {
			first, last, n = min(first, e.Index), max(last, e.Index), n+1
		}
	}
	what := fmt.Sprintf("entry %d: its leaf, with the stored hashes beside its path,", first)
	if n > 1 {
		what = fmt.Sprintf("entries %d..%d: their leaves, with the stored hashes beside them,", first, last)
	}
	return fmt.Errorf("%s do not lead to the tree the checkpoint of size %d signs (they give %s for the subtree of entries %d..%d, which that tree has as %s): %w",
		what, size, h, lo, hi-1, want, ErrTampered)
}
