package tlogclient

import (
	"bytes"
	"context"
	"fmt"

	"github.com/sealedhq/sealed/ledger"
	"github.com/sealedhq/sealed/ledger/tiles"
	"github.com/sealedhq/sealed/ledger/witness"
	"golang.org/x/mod/sumdb/tlog"
)

// AuditReport is what a clean Audit checked.
type AuditReport struct {
	Checkpoint   *ledger.Checkpoint
	Cosignatures []witness.Cosignature // valid ones, by the policy
	Tiles        int                   // hash tiles fetched and matched
	Bundles      int                   // entry bundles fetched and hashed
}

// memHashes is the whole tree's stored hashes in memory, by
// tlog.StoredHashIndex.
type memHashes []tlog.Hash

func (m *memHashes) ReadHashes(idx []int64) ([]tlog.Hash, error) {
	out := make([]tlog.Hash, len(idx))
	for i, x := range idx {
		if x < 0 || x >= int64(len(*m)) {
			return nil, fmt.Errorf("hash %d not computed", x)
		}
		out[i] = (*m)[x]
	}
	return out, nil
}

type fetched struct {
	n      int64
	leaves []tlog.Hash
	err    error
}

// Audit re-derives the log's whole tree from its entry bundles alone and
// checks, against that tree: every level-0 tile (byte for byte the leaf
// hashes), every higher tile the checkpoint covers, and the checkpoint's
// root; the checkpoint must open with the key and meet the policy. It
// reads no database. Memory: 32 bytes per stored hash (about 64 MB per
// million entries). progress, if not nil, gets entries done and the
// total. The first failed check is a *CheckError naming the tile or
// entry; a request that fails is returned as it is.
func (c *Client) Audit(ctx context.Context, progress func(done, total int64)) (*AuditReport, error) {
	cp, cs, err := c.Checkpoint(ctx)
	if err != nil {
		return nil, err
	}
	rep := &AuditReport{Checkpoint: cp, Cosignatures: cs}
	size := cp.Size
	nTiles := (size + 1<<tiles.Height - 1) >> tiles.Height
	par := c.Parallel
	if par <= 0 {
		par = 8
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	// Workers fetch bundle and level-0 tile n and hash the leaves; results
	// come back in order through one channel per tile.
	slots := make(chan chan fetched, par)
	go func() {
		defer close(slots)
		for n := int64(0); n < nTiles; n++ {
			ch := make(chan fetched, 1)
			select {
			case slots <- ch:
			case <-ctx.Done():
				return
			}
			go func() { ch <- c.fetchLevel0(ctx, n, size) }()
		}
	}()
	// The stored hashes grow with the tiles fetched, not with the size
	// the checkpoint claims (up to ledger.MaxTreeSize).
	mem := make(memHashes, 0, tlog.StoredHashCount(min(size, 1<<20)))
	for ch := range slots {
		f := <-ch
		if f.err != nil {
			return rep, f.err
		}
		rep.Tiles++
		rep.Bundles++
		for i, h := range f.leaves {
			hs, err := tlog.StoredHashesForRecordHash(f.n<<tiles.Height+int64(i), h, &mem)
			if err != nil {
				return rep, err
			}
			mem = append(mem, hs...)
		}
		if progress != nil {
			progress(min((f.n+1)<<tiles.Height, size), size)
		}
	}
	root, err := tlog.TreeHash(size, &mem)
	if err != nil {
		return rep, err
	}
	if root != cp.Root {
		return rep, checkErr("the entries give root %s, but the checkpoint of size %d says %s", root, size, cp.Root)
	}
	for l := 1; size>>(tiles.Height*l) > 0; l++ {
		m := size >> (tiles.Height * l)
		for n := int64(0); n<<tiles.Height < m; n++ {
			t := tlog.Tile{H: tiles.Height, L: l, N: n, W: int(min(m-n<<tiles.Height, 1<<tiles.Height))}
			got, err := c.fetchTile(ctx, t)
			if err != nil {
				return rep, err
			}
			want, err := tlog.ReadTileData(t, &mem)
			if err != nil {
				return rep, err
			}
			if !bytes.Equal(got, want) {
				return rep, checkErr("%s: %s", tiles.Path(t), firstDiff(got, want))
			}
			rep.Tiles++
		}
	}
	return rep, nil
}

// fetchLevel0 fetches entry bundle n and level-0 tile n of a tree of
// size entries, hashes the leaves and checks them against the tile.
func (c *Client) fetchLevel0(ctx context.Context, n, size int64) fetched {
	w := int(min(size-n<<tiles.Height, 1<<tiles.Height))
	bt := tlog.Tile{H: tiles.Height, L: -1, N: n, W: w}
	ht := tlog.Tile{H: tiles.Height, L: 0, N: n, W: w}
	var tile []byte
	var terr error
	done := make(chan struct{})
	go func() { tile, terr = c.fetchTile(ctx, ht); close(done) }()
	bundle, err := c.fetchTile(ctx, bt)
	<-done
	if err != nil {
		return fetched{err: err}
	}
	if terr != nil {
		return fetched{err: terr}
	}
	leaves, err := SplitBundle(bundle, w)
	if err != nil {
		return fetched{err: checkErr("%s: %v", tiles.Path(bt), err)}
	}
	hs := make([]tlog.Hash, w)
	for i, l := range leaves {
		hs[i] = tlog.RecordHash(l)
	}
	if len(tile) != w*tlog.HashSize {
		return fetched{err: checkErr("%s: %d bytes, want %d", tiles.Path(ht), len(tile), w*tlog.HashSize)}
	}
	for i, h := range hs {
		if !bytes.Equal(tile[i*tlog.HashSize:(i+1)*tlog.HashSize], h[:]) {
			return fetched{err: checkErr("entry %d: its leaf in %s hashes to %s, but %s holds %x",
				n<<tiles.Height+int64(i), tiles.Path(bt), h, tiles.Path(ht), tile[i*tlog.HashSize:(i+1)*tlog.HashSize])}
		}
	}
	return fetched{n: n, leaves: hs}
}

func firstDiff(got, want []byte) string {
	if len(got) != len(want) {
		return fmt.Sprintf("%d bytes, want %d", len(got), len(want))
	}
	for i := range got {
		if got[i] != want[i] {
			return fmt.Sprintf("hash %d differs from the one the entries give", i/tlog.HashSize)
		}
	}
	return "differs"
}
