package tiles

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"sync"
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
// CacheBytes is 0: 320 MiB, the hash tiles and entry bundles of about a
// million entries (about 230 bytes each) with the bundles' gzip encodings
// (about 50 more). Memory is used only as tiles are asked for.
const DefaultCacheBytes = 320 << 20

// GzipMinSize is the smallest entry bundle a Handler sends
// gzip-compressed: below a kilobyte (a partial bundle of a few entries)
// the saving is less than a packet and not worth a compression.
const GzipMinSize = 1024

// Handler serves a ledger's store as a tlog-tiles log: GET and HEAD of
// /checkpoint and /tile/... relative to where it is mounted (it looks at
// the request path's suffix from "/checkpoint" or "/tile/"). A malformed
// tile path is 400, with a text body saying what is wrong and what was
// expected ([PathError]); a well-formed one not covered by the latest
// checkpoint is 404; a store failure is 503 and logged.
//
// Entry bundles are compressed at the HTTP layer, as tlog-tiles says
// they SHOULD be: a bundle of at least GzipMinSize bytes is answered with
// Content-Encoding: gzip to a request whose Accept-Encoding accepts gzip,
// from the second such request for it on (it is then compressed once, at
// gzip's fastest level, and kept in the cache beside its bytes),
// uncompressed to the first and to any other request; every bundle answer
// carries Vary: Accept-Encoding. So a bundle read once (a single pass of
// an auditor over the log) costs no compression on either side, and one
// read again and again (by many monitors) goes compressed. Hash tiles (SHA-256 output, which does not compress),
// the checkpoint and error answers are never compressed.
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
	// the log's key and matches its row is served, and none smaller than
	// one served before (checkpoints deleted: the log was cut or rolled
	// back, answered 409 too). With Check set, a tile
	// is served only if its bytes are what the tree of the latest
	// checkpoint Check accepts holds ([VerifyTile]: its hashes, or its
	// leaves' record hashes, authenticated up to the signed root); one
	// that is not is answered 409 naming it.
	Check func(*ledger.StoredCheckpoint) error

	cache cache
	size  atomic.Int64 // a signed tree size known to the handler (grows only)
	cp    atomic.Pointer[memo]
	// served: with Check, the largest checkpoint size served (grows
	// only): a smaller latest checkpoint is refused, the log went back
	served atomic.Int64
	tree   atomic.Pointer[tlog.Tree] // with Check: the latest checkpoint's tree, verified
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
// cp appended, in the store's order. Each line is first checked against
// the checkpoint as far as can be done without the witness's key
// ([ledger.CheckCosignature]): one line that is not a signature line, or
// whose key hash or shape is wrong, would make the whole note malformed
// for every client (C2SP signed-note), so a row that does not check out
// is an error wrapping ledger.ErrTampered and nothing is returned.
func WithCosignatures(ctx context.Context, s ledger.Store, cp *ledger.StoredCheckpoint) ([]byte, error) {
	cs, err := s.Cosignatures(ctx, cp.ID, 0, 0)
	if err != nil {
		return nil, err
	}
	if len(cs) > 0 {
		m, err := s.Meta(ctx)
		if err != nil {
			return nil, err
		}
		for i := range cs {
			if err := ledger.CheckCosignature(m.VerifierKey, cp, &cs[i]); err != nil {
				return nil, fmt.Errorf("the stored cosignature by %q of the checkpoint of size %d: %v: %w", cs[i].Witness, cp.Size, err, ledger.ErrTampered)
			}
		}
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
		seen := h.served.Load() // before the read: a read begun later sees at least this
		b, cp, err := Checkpoint(r.Context(), h.Store)
		if err != nil {
			h.refuse(w, "reading the checkpoint", err)
			return
		}
		if h.Check != nil {
			err := h.Check(cp)
			if err == nil && cp.Size < seen {
				err = fmt.Errorf("the latest checkpoint has size %d, but a checkpoint of size %d was served before (the log was cut or rolled back): %w", cp.Size, seen, ledger.ErrTampered)
			}
			for err == nil && seen < cp.Size && !h.served.CompareAndSwap(seen, cp.Size) {
				seen = h.served.Load()
			}
			if errors.Is(err, ledger.ErrTampered) {
				h.logger().Error("tlog-tiles: checkpoint refused", "err", err)
				http.Error(w, "nothing is served from this ledger's altered data: "+err.Error(), http.StatusConflict)
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
	if e := h.cache.get(p); e != nil {
		h.serveTile(w, r, p, e)
		return
	}
	t, err := ParsePath(p)
	var pe *PathError
	switch {
	case errors.As(err, &pe):
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	case err != nil: // a well-formed index past any tree
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
	h.answerTile(w, r, p, b, err)
}

func (h *Handler) cacheLimit() int {
	if h.CacheBytes == 0 {
		return DefaultCacheBytes
	}
	return h.CacheBytes
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
		// The tiles above t come from the cache when served or verified
		// before (verified again all the same), and those verified here
		// go into it: a remote auditor's pass over the bundles reads the
		// upper tiles from the store once, not once per bundle.
		err = verifyTile(storeTiles{ctx: r.Context(), s: h.Store, size: tree.N,
			tiles: func(t tlog.Tile) []byte {
				if e := h.cache.get(Path(t)); e != nil {
					return e.b
				}
				return nil
			},
			keep: func(t tlog.Tile, b []byte) { h.cache.put(Path(t), b, h.cacheLimit()) },
		}, t, b, tree.Hash)
	}
	h.answerTile(w, r, p, b, err)
}

// answerTile answers with the bytes b of the tile at path p, read (and
// verified) with error err: 404 for a tile the tree does not cover or a
// leaf too large for a bundle, 409 for altered data (refuse), 503 for a
// store failure; served bytes are cached.
func (h *Handler) answerTile(w http.ResponseWriter, r *http.Request, p string, b []byte, err error) {
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
	h.serveTile(w, r, p, h.cache.put(p, b, h.cacheLimit()))
}

// serveTile answers 200 with the cached tile e at path p: an entry
// bundle of at least GzipMinSize bytes gzip-compressed when r accepts
// gzip (compressed once, then from e), anything else as it is.
func (h *Handler) serveTile(w http.ResponseWriter, r *http.Request, p string, e *cached) {
	b := e.b
	if strings.HasPrefix(p, "tile/entries/") {
		w.Header().Set("Vary", "Accept-Encoding")
		if len(b) >= GzipMinSize && acceptsGzip(r.Header.Values("Accept-Encoding")) && (e.gz.Load() != nil || e.asked.Add(1) > 1) {
			if z := h.gzipped(e); len(z) > 0 {
				w.Header().Set("Content-Encoding", "gzip")
				b = z
			}
		}
	}
	h.write(w, TileType, TileCache, b)
}

// gzipped returns the gzip encoding of e's bytes, made once and kept in
// e; empty when it is no shorter than the bytes themselves.
func (h *Handler) gzipped(e *cached) []byte {
	if z := e.gz.Load(); z != nil {
		return *z
	}
	zw, _ := gzipWriters.Get().(*gzip.Writer)
	var buf bytes.Buffer
	buf.Grow(len(e.b) / 4)
	if zw == nil {
		// The fastest level: a third of the default's time for 5% more
		// bytes (52 KB bundles of the 1M-entry ledger: 0.5 against 1.6
		// ms, 10.9 against 10.3 KB).
		zw, _ = gzip.NewWriterLevel(&buf, gzip.BestSpeed)
	} else {
		zw.Reset(&buf)
	}
	zw.Write(e.b) // a bytes.Buffer does not fail
	zw.Close()
	gzipWriters.Put(zw)
	z := buf.Bytes()
	if len(z) >= len(e.b) {
		z = []byte{}
	}
	h.cache.setGzip(e, z)
	return z
}

// gzipWriters are gzip writers to reuse (each holds about 800 KB of
// compressor state).
var gzipWriters sync.Pool

// acceptsGzip reports whether the Accept-Encoding header values vs accept
// gzip (RFC 9110, section 12.5.3): "gzip" or "x-gzip" with a q-value
// above 0, or, when neither is named, "*" with one.
func acceptsGzip(vs []string) bool {
	gz, star := -1.0, -1.0
	for _, v := range vs {
		for v != "" {
			var part string
			part, v, _ = strings.Cut(v, ",")
			coding, params, _ := strings.Cut(part, ";")
			q := 1.0
			for params != "" {
				var prm string
				prm, params, _ = strings.Cut(params, ";")
				k, val, ok := strings.Cut(strings.TrimSpace(prm), "=")
				if ok && strings.EqualFold(strings.TrimSpace(k), "q") {
					f, err := strconv.ParseFloat(strings.TrimSpace(val), 64)
					if err != nil || f < 0 || f > 1 {
						f = 0
					}
					q = f
				}
			}
			switch c := strings.TrimSpace(coding); {
			case strings.EqualFold(c, "gzip"), strings.EqualFold(c, "x-gzip"):
				gz = max(gz, q)
			case c == "*":
				star = max(star, q)
			}
		}
	}
	if gz >= 0 {
		return gz > 0
	}
	return star > 0
}

// refuse answers 409 with err's message for an error wrapping
// ledger.ErrTampered (logged), else as fail does.
func (h *Handler) refuse(w http.ResponseWriter, what string, err error) {
	if !errors.Is(err, ledger.ErrTampered) {
		h.fail(w, what, err)
		return
	}
	h.logger().Error("tlog-tiles: refused", "what", what, "err", err)
	http.Error(w, "nothing is served from this ledger's altered data: "+err.Error(), http.StatusConflict)
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
