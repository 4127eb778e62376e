package tiles

import (
	"bytes"
	"context"
	"fmt"

	"github.com/sealedhq/sealed/ledger"
	"golang.org/x/mod/sumdb/tlog"
)

// storeTiles is a tlog.TileReader over a store's stored hashes, for a
// tree of size entries: what [tlog.TileHashReader] reads to authenticate
// a tile against the tree's root. The tile being verified (known, read
// already) is not read again.
type storeTiles struct {
	ctx   context.Context
	s     ledger.Store
	size  int64
	known tlog.Tile
	data  []byte
	// tiles, if set, gives tiles read before (a Handler's cache), and
	// keep takes the tiles TileHashReader verified: the tiles above a
	// served one are then read from the store once, not for every tile
	// served. What tiles gives is verified again like what the store
	// gives (TileHashReader hashes every tile it reads up to the root).
	tiles func(tlog.Tile) []byte
	keep  func(tlog.Tile, []byte)
}

func (r storeTiles) Height() int { return Height }

func (r storeTiles) ReadTiles(ts []tlog.Tile) ([][]byte, error) {
	out := make([][]byte, len(ts))
	for i, t := range ts {
		if t == r.known {
			out[i] = r.data
			continue
		}
		if r.tiles != nil {
			if b := r.tiles(t); b != nil {
				out[i] = b
				continue
			}
		}
		b, err := ReadTile(r.ctx, r.s, t, r.size)
		if err != nil {
			return nil, err
		}
		out[i] = b
	}
	return out, nil
}

func (r storeTiles) SaveTiles(ts []tlog.Tile, data [][]byte) {
	if r.keep == nil {
		return
	}
	for i, t := range ts {
		r.keep(t, data[i])
	}
}

// VerifyTile checks data, the bytes of tile t (a hash tile, or an entry
// bundle when t.L is -1) as read from s, against the signed tree of size
// entries and root hash root: the hashes a hash tile holds, and the
// record hashes (RFC 6962 SHA-256(0x00 || leaf)) of a bundle's leaves,
// must be those the tiles of that tree authenticate up to the root
// (tlog.TileHashReader, which checks every tile it loads against the
// root). A mismatch is an error wrapping [ledger.ErrTampered] naming the
// tile; a store failure is returned as it is.
func VerifyTile(ctx context.Context, s ledger.Store, t tlog.Tile, data []byte, size int64, root tlog.Hash) error {
	return verifyTile(storeTiles{ctx: ctx, s: s, size: size}, t, data, root)
}

// verifyTile is VerifyTile reading the tiles above t through st.
func verifyTile(st storeTiles, t tlog.Tile, data []byte, root tlog.Hash) error {
	size := st.size
	if t.L >= 0 {
		st.known, st.data = t, data
	}
	thr := tlog.TileHashReader(tlog.Tree{N: size, Hash: root}, st)
	var want [][]byte // the hashes data must give, in order
	var indexes []int64
	switch {
	case t.L >= 0:
		if len(data) != t.W*tlog.HashSize {
			return fmt.Errorf("tile %s: %d bytes, not %d hashes: %w", Path(t), len(data), t.W, ledger.ErrTampered)
		}
		for i := range t.W {
			indexes = append(indexes, tlog.StoredHashIndex(t.L*t.H, t.N<<t.H+int64(i)))
			want = append(want, data[i*tlog.HashSize:(i+1)*tlog.HashSize])
		}
	default:
		rest := data
		for i := range t.W {
			if len(rest) < 2 {
				return fmt.Errorf("entry bundle %s: cut short at leaf %d: %w", Path(t), i, ledger.ErrTampered)
			}
			n := int(rest[0])<<8 | int(rest[1])
			if len(rest) < 2+n {
				return fmt.Errorf("entry bundle %s: cut short at leaf %d: %w", Path(t), i, ledger.ErrTampered)
			}
			h := tlog.RecordHash(rest[2 : 2+n])
			want = append(want, h[:])
			indexes = append(indexes, tlog.StoredHashIndex(0, t.N<<Height+int64(i)))
			rest = rest[2+n:]
		}
	}
	got, err := thr.ReadHashes(indexes)
	if err != nil {
		return fmt.Errorf("tile %s: the stored hashes do not give the signed root of %d entries (%v): %w", Path(t), size, err, ledger.ErrTampered)
	}
	for i := range got {
		if !bytes.Equal(got[i][:], want[i]) {
			what := "hash"
			if t.L < 0 {
				what = "leaf"
			}
			return fmt.Errorf("tile %s: %s %d is not what the signed tree of %d entries holds: %w", Path(t), what, i, size, ledger.ErrTampered)
		}
	}
	return nil
}
