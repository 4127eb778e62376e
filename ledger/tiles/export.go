package tiles

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"

	"github.com/sealedhq/sealed/ledger"
	"golang.org/x/mod/sumdb/tlog"
)

// ExportReport says what Export did.
type ExportReport struct {
	Size    int64 // the tree size of the checkpoint exported
	Written int   // tiles and bundles written
	Kept    int   // tiles and bundles already present, left alone
}

// exportBatch is how many level-0 tiles Export reads at once.
const exportBatch = 16

// Export writes the log in s as static tlog-tiles files under dir
// (created if needed): every tile and entry bundle the latest checkpoint
// covers, then dir/checkpoint (with the stored cosignatures), so that a
// reader never finds a checkpoint whose tiles are missing. Tiles already
// in dir are kept (the bytes at a tile path never change), so a second
// run writes only what is new; older partial tiles are left in place. Each
// file is written to a temporary name and renamed; the temporary files
// of exports that died before renaming them are removed. Each leaf is checked
// against its stored leaf hash as it is written: a mismatch (a tampered
// store) stops the export. Since tiles already there are kept unread,
// a dir whose checkpoint is not of this log's tree (another log's, a
// fork's, or a larger tree's) is refused before anything is written
// (*DirError). progress, if not nil, is called with the entries done and
// the total. Errors: *LeafTooLargeError, a mismatch, *DirError, a store
// or file system error.
func Export(ctx context.Context, s ledger.Store, dir string, progress func(done, total int64)) (*ExportReport, error) {
	note, cp, err := Checkpoint(ctx, s)
	if err != nil {
		return nil, fmt.Errorf("reading the checkpoint: %w", err)
	}
	if err := checkDir(ctx, s, dir, cp); err != nil {
		return nil, err
	}
	removeStale(dir)
	rep := &ExportReport{Size: cp.Size}
	size := cp.Size
	fw := newFileWriter(ctx, 4)
	defer fw.close()
	put := func(t tlog.Tile, data []byte) error {
		rep.Written++
		return fw.write(filepath.Join(dir, filepath.FromSlash(Path(t))), data)
	}
	// A tile's path names its width, so a file already there (written
	// whole, through a rename) holds the right bytes: full or partial.
	// Unless its size says otherwise: a file a crash left empty or cut
	// (renamed before its bytes reached the disk) is written again, not
	// published for good. Its size is what stat says, so keeping stays
	// free: a hash tile is 32 bytes a hash, a bundle at least the 2-byte
	// length of each of its entries.
	have := func(t tlog.Tile) bool {
		st, err := os.Stat(filepath.Join(dir, filepath.FromSlash(Path(t))))
		if err != nil || !st.Mode().IsRegular() {
			return false
		}
		if t.L < 0 {
			return st.Size() >= 2*int64(t.W)
		}
		return st.Size() == int64(t.W)*tlog.HashSize
	}
	// Level 0 and the entry bundles, exportBatch tiles at a time.
	nTiles := (size + 1<<Height - 1) >> Height
	for n0 := int64(0); n0 < nTiles; n0 += exportBatch {
		n1 := min(n0+exportBatch, nTiles)
		var todo []int64
		for n := n0; n < n1; n++ {
			w := int(min(size-n<<Height, 1<<Height))
			if have(tlog.Tile{H: Height, L: 0, N: n, W: w}) && have(tlog.Tile{H: Height, L: -1, N: n, W: w}) {
				rep.Kept += 2
				continue
			}
			todo = append(todo, n)
		}
		if len(todo) > 0 {
			if err := exportLevel0(ctx, s, size, todo, put); err != nil {
				return rep, err
			}
		}
		if progress != nil {
			progress(min(n1<<Height, size), size)
		}
	}
	// Upper levels: few tiles, read with tlog.ReadTileData.
	for l := 1; size>>(Height*l) > 0; l++ {
		m := size >> (Height * l)
		for n := int64(0); n<<Height < m; n++ {
			t := tlog.Tile{H: Height, L: l, N: n, W: int(min(m-n<<Height, 1<<Height))}
			if have(t) {
				rep.Kept++
				continue
			}
			data, err := tlog.ReadTileData(t, storeHashes{ctx, s})
			if err != nil {
				return rep, err
			}
			if err := put(t, data); err != nil {
				return rep, err
			}
		}
	}
	// Every tile is on disk before the checkpoint that needs it.
	if err := fw.close(); err != nil {
		return rep, err
	}
	if err := writeFile(filepath.Join(dir, "checkpoint"), note, nil); err != nil {
		return rep, err
	}
	return rep, nil
}

// DirError is Export's refusal of a directory whose checkpoint is not
// of the exported log's tree: keeping its tiles would publish a
// checkpoint over tiles that do not lead to it.
type DirError struct {
	Dir    string // the directory Export was given
	Reason string // what the directory's checkpoint is, against the log
}

// Error is "DIR: REASON; the tiles there are not this log's and cannot
// be kept".
func (e *DirError) Error() string {
	return fmt.Sprintf("%s: %s; the tiles there are not this log's and cannot be kept", e.Dir, e.Reason)
}

// checkDir checks that dir/checkpoint, if there is one, is of the tree of
// cp: same origin, a size no larger, and the root the store's hashes give
// at that size. Its signatures need no check: the root binds it to
// the store's tree.
func checkDir(ctx context.Context, s ledger.Store, dir string, cp *ledger.StoredCheckpoint) error {
	b, err := os.ReadFile(filepath.Join(dir, "checkpoint"))
	if err != nil {
		// None (a first export), or a dir that cannot be read or made:
		// writing the tiles then says why, naming the path.
		return nil
	}
	fail := func(format string, a ...any) error {
		return &DirError{Dir: dir, Reason: fmt.Sprintf(format, a...)}
	}
	origin, _, _, err := ledger.ParseCheckpoint(noteText(cp.Note))
	if err != nil {
		return fmt.Errorf("the latest stored checkpoint: %w", err)
	}
	oldOrigin, oldSize, oldRoot, err := ledger.ParseCheckpoint(noteText(b))
	switch {
	case err != nil:
		return fail("its checkpoint does not parse (%v)", err)
	case oldOrigin != origin:
		return fail("its checkpoint is of origin %q, not this log's %q", oldOrigin, origin)
	case oldSize > cp.Size:
		return fail("its checkpoint is of size %d, larger than this log's %d (a cut log, or another log with the same origin)", oldSize, cp.Size)
	}
	root, err := tlog.TreeHash(oldSize, storeHashes{ctx, s})
	if err != nil {
		return fmt.Errorf("the root of this log at size %d: %w", oldSize, err)
	}
	if root != oldRoot {
		return fail("its checkpoint of size %d has root %v, but this log's root at that size is %v (a fork, or another log with the same origin)", oldSize, oldRoot, root)
	}
	return nil
}

// noteText returns the text of a signed note: up to and including the
// line before the blank line (all of it if there is none).
func noteText(signed []byte) string {
	if i := bytes.Index(signed, []byte("\n\n")); i >= 0 {
		return string(signed[:i+1])
	}
	return string(signed)
}

// exportLevel0 writes the level-0 tiles and entry bundles numbered ns
// (ascending) of a tree of size entries.
func exportLevel0(ctx context.Context, s ledger.Store, size int64, ns []int64, put func(tlog.Tile, []byte) error) error {
	a, b := ns[0]<<Height, min((ns[len(ns)-1]+1)<<Height, size)
	lo, hi := tlog.StoredHashIndex(0, a), tlog.StoredHashIndex(0, b-1)+1
	leaves, hashes, err := readLevel0(ctx, s, a, b, lo, hi)
	if err != nil {
		return err
	}
	for _, n := range ns {
		from, to := n<<Height, min((n+1)<<Height, size)
		w := int(to - from)
		bundle := make([]byte, 0, w*2+w*256)
		tile := make([]byte, 0, w*tlog.HashSize)
		for i := from; i < to; i++ {
			leaf := leaves[i-a]
			if leaf == nil {
				return fmt.Errorf("entry %d: missing from the store: %w", i, ledger.ErrTampered)
			}
			if len(leaf) > ledger.MaxLeafSize {
				return &LeafTooLargeError{Index: i, Size: len(leaf)}
			}
			bundle = binary.BigEndian.AppendUint16(bundle, uint16(len(leaf)))
			bundle = append(bundle, leaf...)
			h := hashes[tlog.StoredHashIndex(0, i)-lo]
			if len(h) != tlog.HashSize {
				return fmt.Errorf("entry %d: stored leaf hash missing or not %d bytes: %w", i, tlog.HashSize, ledger.ErrTampered)
			}
			if rh := tlog.RecordHash(leaf); !bytes.Equal(rh[:], h) {
				return fmt.Errorf("entry %d: the leaf hashes to %x but the stored hash is %x: run sealed ledger audit", i, rh[:], h)
			}
			tile = append(tile, h...)
		}
		if err := put(tlog.Tile{H: Height, L: 0, N: n, W: w}, tile); err != nil {
			return err
		}
		if err := put(tlog.Tile{H: Height, L: -1, N: n, W: w}, bundle); err != nil {
			return err
		}
	}
	return nil
}

// readLevel0 reads the leaves of entries [a, b) and the stored hashes
// with ids [lo, hi): see readLeaves and readHashes.
func readLevel0(ctx context.Context, s ledger.Store, a, b, lo, hi int64) ([][]byte, [][]byte, error) {
	leaves, err := readLeaves(ctx, s, a, b)
	if err != nil {
		return nil, nil, err
	}
	hashes, err := readHashes(ctx, s, lo, hi)
	return leaves, hashes, err
}

// readLeaves returns the leaves of entries [a, b), by index-a (nil for a
// missing one). A store with the audit's ledger.ChunkReader fast path is
// read in one query; when the chunk does not add up, or without it, row
// by row.
func readLeaves(ctx context.Context, s ledger.Store, a, b int64) ([][]byte, error) {
	leaves := make([][]byte, b-a)
	if cr, ok := s.(ledger.ChunkReader); ok {
		var c ledger.EntryChunk
		if err := cr.EntryChunk(ctx, a, b, &c); err != nil {
			return nil, err
		}
		if c.Count == b-a && splitBodies(c.Bodies, c.Lengths, leaves) {
			return leaves, nil
		}
		clear(leaves)
	}
	for from := a; from < b; from += ledger.MaxEntries {
		rows, err := s.EntryRange(ctx, from, min(from+ledger.MaxEntries, b))
		if err != nil {
			return nil, err
		}
		for _, e := range rows {
			if e.Index >= a && e.Index < b {
				leaves[e.Index-a] = e.Leaf
			}
		}
	}
	return leaves, nil
}

// readHashes returns the stored hashes with ids [lo, hi), by id-lo (nil
// for a missing one), through the ChunkReader fast path when it adds up.
func readHashes(ctx context.Context, s ledger.Store, lo, hi int64) ([][]byte, error) {
	hashes := make([][]byte, hi-lo)
	if cr, ok := s.(ledger.ChunkReader); ok {
		count, shortest, blob, err := cr.HashChunk(ctx, lo, hi, nil)
		if err != nil {
			return nil, err
		}
		if count == hi-lo && shortest == tlog.HashSize && int64(len(blob)) == (hi-lo)*tlog.HashSize {
			for i := range hashes {
				hashes[i] = blob[i*tlog.HashSize : (i+1)*tlog.HashSize]
			}
			return hashes, nil
		}
	}
	rows, err := s.HashRange(ctx, lo, hi)
	if err != nil {
		return nil, err
	}
	for _, h := range rows {
		if h.ID >= lo && h.ID < hi {
			hashes[h.ID-lo] = h.Hash
		}
	}
	return hashes, nil
}

// splitBodies cuts bodies, concatenated, at the comma-separated decimal
// lengths into out; false if they do not add up exactly.
func splitBodies(bodies, lengths []byte, out [][]byte) bool {
	for i := range out {
		j := 0
		n := 0
		for j < len(lengths) && lengths[j] >= '0' && lengths[j] <= '9' {
			n = n*10 + int(lengths[j]-'0')
			if n > len(bodies) {
				return false
			}
			j++
		}
		if j == 0 || n > len(bodies) {
			return false
		}
		if i < len(out)-1 {
			if j >= len(lengths) || lengths[j] != ',' {
				return false
			}
			j++
		} else if j != len(lengths) {
			return false
		}
		out[i], bodies, lengths = bodies[:n:n], bodies[n:], lengths[j:]
	}
	return len(bodies) == 0
}

// fileWriter writes files on a few goroutines, so that reading the
// store and hashing overlap with the file system's work.
type fileWriter struct {
	jobs chan fileJob
	wg   sync.WaitGroup
	once sync.Once
	mu   sync.Mutex
	err  error
	dirs sync.Map // directories known to exist
}

type fileJob struct {
	path string
	data []byte
}

func newFileWriter(ctx context.Context, workers int) *fileWriter {
	fw := &fileWriter{jobs: make(chan fileJob, 64)}
	for range workers {
		fw.wg.Add(1)
		go func() {
			defer fw.wg.Done()
			for j := range fw.jobs {
				if fw.failed() != nil {
					continue
				}
				if err := writeFile(j.path, j.data, &fw.dirs); err != nil {
					fw.mu.Lock()
					if fw.err == nil {
						fw.err = err
					}
					fw.mu.Unlock()
				}
			}
		}()
	}
	return fw
}

func (fw *fileWriter) failed() error {
	fw.mu.Lock()
	defer fw.mu.Unlock()
	return fw.err
}

// write queues a file; it returns the first error any write has had.
func (fw *fileWriter) write(path string, data []byte) error {
	if err := fw.failed(); err != nil {
		return err
	}
	fw.jobs <- fileJob{path, data}
	return nil
}

// close waits for the queued writes and returns the first error.
func (fw *fileWriter) close() error {
	fw.once.Do(func() { close(fw.jobs); fw.wg.Wait() })
	return fw.failed()
}

var tmpSeq atomic.Int64

// writeFile writes data to path through a temporary file in the same
// directory (mode 0644) and a rename, creating the directories (those in
// dirs, if given, are known to exist).
func writeFile(path string, data []byte, dirs *sync.Map) error {
	d := filepath.Dir(path)
	known := false
	if dirs != nil {
		_, known = dirs.Load(d)
	}
	if !known {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
		if dirs != nil {
			dirs.Store(d, true)
		}
	}
	tmp := fmt.Sprintf("%s.tmp-%d-%d", path, os.Getpid(), tmpSeq.Add(1))
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		os.Remove(tmp)
		return err
	}
	if err := f.Close(); err != nil {
		os.Remove(tmp)
		return err
	}
	return os.Rename(tmp, path)
}
