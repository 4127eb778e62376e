package tiles

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/sealedhq/sealed/ledger"
	"golang.org/x/mod/sumdb/tlog"
)

// Content types and Cache-Control values of the responses (C2SP
// tlog-tiles "Checkpoints", "Merkle Tree").
const (
	CheckpointType  = "text/plain; charset=utf-8"
	TileType        = "application/octet-stream"
	TileCache       = "public, max-age=31536000, immutable" // a tile's bytes never change
	CheckpointCache = "public, max-age=5"                   // a few seconds
)

// DefaultCacheBytes is the size of a Handler's tile cache when
// CacheBytes is 0: 256 MiB, the hash tiles and entry bundles of about a
// million entries (about 230 bytes each). Memory is used only as tiles
// are asked for.
const DefaultCacheBytes = 256 << 20

// Handler serves a ledger's store as a tlog-tiles log: GET and HEAD of
// /checkpoint and /tile/... relative to where it is mounted (it looks at
// the request path's suffix from "/checkpoint" or "/tile/"). A tile not
// covered by the latest checkpoint, or a malformed path, is 404; a store
// failure is 503 and logged.
type Handler struct {
	Store      ledger.Store
	Log        *slog.Logger // nil: slog.Default()
	CacheBytes int          // 0: DefaultCacheBytes
	// CheckpointMemo is how long /checkpoint is answered from memory
	// before the store is read again (a new checkpoint or cosignature
	// shows within it); 0 reads the store for every request.
	CheckpointMemo time.Duration
	// Check, if set, is called on the latest stored checkpoint each time
	// the handler reads it from the store (at most once per
	// CheckpointMemo), before it is served: an error wrapping
	// ledger.ErrTampered is answered 409 with its message, any other
	// error 503, and nothing is served. The web site passes
	// [ledger.Ledger.VerifyCheckpoint], so only a note that verifies under
	// the log's key and matches its row is served. With Check set, a tile
	// is served only if its bytes are what the tree of the latest
	// checkpoint Check accepts holds ([VerifyTile]: its hashes, or its
	// leaves' record hashes, authenticated up to the signed root); one
	// that is not is answered 409 naming it.
	Check func(*ledger.StoredCheckpoint) error

	cache cache
	size  atomic.Int64 // a signed tree size known to the handler (grows only)
	cp    atomic.Pointer[memo]
	tree  atomic.Pointer[tlog.Tree] // with Check: the latest checkpoint's tree, verified
}

// memo is the checkpoint as last read and when.
type memo struct {
	b  []byte
	at time.Time
}

// Checkpoint returns the latest stored checkpoint and its signed note with
// the stored witness cosignature lines appended (C2SP tlog-witness: "it
// can move the valid signatures to its own view of the checkpoint").
func Checkpoint(ctx context.Context, s ledger.Store) ([]byte, *ledger.StoredCheckpoint, error) {
	cp, err := s.LatestCheckpoint(ctx)
	if err != nil {
		return nil, nil, err
	}
	b, err := WithCosignatures(ctx, s, cp)
	return b, cp, err
}

// WithCosignatures returns cp's note with the stored cosignature lines of
// cp appended, in the store's order.
func WithCosignatures(ctx context.Context, s ledger.Store, cp *ledger.StoredCheckpoint) ([]byte, error) {
	cs, err := s.Cosignatures(ctx, cp.ID, 0, 0)
	if err != nil {
		return nil, err
	}
	b := append([]byte(nil), cp.Note...)
	for _, c := range cs {
		b = append(b, c.Line...)
	}
	return b, nil
}

// ServeHTTP implements http.Handler.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	p := r.URL.Path
	switch {
	case strings.HasSuffix(p, "/checkpoint"):
		if m := h.cp.Load(); m != nil && time.Since(m.at) < h.CheckpointMemo {
			h.write(w, CheckpointType, CheckpointCache, m.b)
			return
		}
		b, cp, err := Checkpoint(r.Context(), h.Store)
		if err != nil {
			h.fail(w, "reading the checkpoint", err)
			return
		}
		if h.Check != nil {
			if err := h.Check(cp); errors.Is(err, ledger.ErrTampered) {
				h.logger().Error("tlog-tiles: checkpoint refused", "err", err)
				http.Error(w, "this ledger's database was altered; nothing is served from the altered data: "+err.Error(), http.StatusConflict)
				return
			} else if err != nil {
				h.fail(w, "checking the checkpoint", err)
				return
			}
		}
		h.cp.Store(&memo{b: b, at: time.Now()})
		h.write(w, CheckpointType, CheckpointCache, b)
		return
	case strings.Contains(p, "/tile/"):
		p = p[strings.Index(p, "/tile/")+1:]
	default:
		http.NotFound(w, r)
		return
	}
	if b, ok := h.cache.get(p); ok {
		h.write(w, TileType, TileCache, b)
		return
	}
	t, err := ParsePath(p)
	if err != nil {
		http.Error(w, err.Error(), http.StatusNotFound)
		return
	}
	if h.Check != nil {
		h.serveVerified(w, r, p, t)
		return
	}
	// A tile covered by a size seen before needs no checkpoint read: the
	// signed size only grows.
	size := h.size.Load()
	if !Covers(t, size) {
		cp, err := h.Store.LatestCheckpoint(r.Context())
		if err != nil {
			h.fail(w, "reading the checkpoint", err)
			return
		}
		size = cp.Size
		for {
			old := h.size.Load()
			if old >= size || h.size.CompareAndSwap(old, size) {
				break
			}
		}
	}
	b, err := ReadTile(r.Context(), h.Store, t, size)
	h.answerTile(w, p, b, err)
}

// put caches the bytes of the tile at path p.
func (h *Handler) put(p string, b []byte) {
	limit := h.CacheBytes
	if limit == 0 {
		limit = DefaultCacheBytes
	}
	h.cache.put(p, b, limit)
}

// serveVerified serves tile t (path p, not cached) when Check is set: the
// tile must be covered by the latest checkpoint that Check accepts, and
// its bytes must be what that checkpoint's tree holds (VerifyTile);
// otherwise nothing is served: 409 naming what was altered.
func (h *Handler) serveVerified(w http.ResponseWriter, r *http.Request, p string, t tlog.Tile) {
	tree := h.tree.Load()
	if tree == nil || !Covers(t, tree.N) {
		c, err := h.Store.LatestCheckpoint(r.Context())
		if err != nil {
			h.fail(w, "reading the checkpoint", err)
			return
		}
		if err := h.Check(c); err != nil {
			h.refuse(w, "checking the checkpoint", err)
			return
		}
		if len(c.Root) != tlog.HashSize {
			h.refuse(w, "checking the checkpoint", fmt.Errorf("checkpoint %d: stored root has %d bytes: %w", c.ID, len(c.Root), ledger.ErrTampered))
			return
		}
		nt := &tlog.Tree{N: c.Size, Hash: tlog.Hash(c.Root)}
		for {
			old := h.tree.Load()
			if old != nil && old.N >= nt.N {
				nt = old
				break
			}
			if h.tree.CompareAndSwap(old, nt) {
				break
			}
		}
		tree = nt
	}
	b, err := ReadTile(r.Context(), h.Store, t, tree.N)
	if err == nil {
		err = VerifyTile(r.Context(), h.Store, t, b, tree.N, tree.Hash)
	}
	h.answerTile(w, p, b, err)
}

// answerTile answers with the bytes b of the tile at path p, read (and
// verified) with error err: 404 for a tile the tree does not cover or a
// leaf too large for a bundle, 409 for altered data (refuse), 503 for a
// store failure; served bytes are cached.
func (h *Handler) answerTile(w http.ResponseWriter, p string, b []byte, err error) {
	var big *LeafTooLargeError
	switch {
	case errors.Is(err, ErrNotCovered):
		http.Error(w, err.Error(), http.StatusNotFound)
		return
	case errors.As(err, &big):
		h.logger().Error("tlog-tiles: entry bundle refused", "tile", p, "err", err)
		http.Error(w, err.Error(), http.StatusNotFound)
		return
	case err != nil:
		h.refuse(w, "reading tile "+p, err)
		return
	}
	h.put(p, b)
	h.write(w, TileType, TileCache, b)
}

// refuse answers 409 with err's message for an error wrapping
// ledger.ErrTampered (logged), else as fail does.
func (h *Handler) refuse(w http.ResponseWriter, what string, err error) {
	if !errors.Is(err, ledger.ErrTampered) {
		h.fail(w, what, err)
		return
	}
	h.logger().Error("tlog-tiles: refused", "what", what, "err", err)
	http.Error(w, "this ledger's database was altered; nothing is served from the altered data: "+err.Error(), http.StatusConflict)
}

func (h *Handler) logger() *slog.Logger {
	if h.Log != nil {
		return h.Log
	}
	return slog.Default()
}

func (h *Handler) fail(w http.ResponseWriter, what string, err error) {
	h.logger().Error("tlog-tiles: "+what, "err", err)
	http.Error(w, what+": the store is unavailable", http.StatusServiceUnavailable)
}

func (h *Handler) write(w http.ResponseWriter, ctype, cache string, b []byte) {
	hd := w.Header()
	hd.Set("Content-Type", ctype)
	hd.Set("Cache-Control", cache)
	hd.Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(http.StatusOK)
	w.Write(b)
}
