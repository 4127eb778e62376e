package tlogclient

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/sealedhq/sealed/ledger"
	"github.com/sealedhq/sealed/ledger/tiles"
	"github.com/sealedhq/sealed/ledger/witness"
	"golang.org/x/mod/sumdb/tlog"
)

// Client reads one tlog-tiles log.
type Client struct {
	// URL is the log's prefix ("http://host/" or "https://host/path");
	// paths are appended after a slash.
	URL string
	// VerifierKey is the log's note verifier key; its name must be the
	// checkpoint origin. Empty: the checkpoint's body is parsed but its
	// signature is not checked (ProveInclusion for a proof that
	// ledger.CheckInclusion checks later, with the key).
	VerifierKey string
	// Policy, if not nil, is checked on every checkpoint read.
	Policy *witness.Policy
	// HTTP is the client used; nil: one with a 30 s timeout.
	HTTP *http.Client
	// Parallel is how many requests run at once; 0: 8.
	Parallel int
}

// CheckError is a check the log failed (as opposed to a request that
// could not be made): a bad signature, a tile or bundle that does not
// match, an inconsistent proof.
type CheckError struct{ Msg string }

// Error is the check that failed, in words.
func (e *CheckError) Error() string { return e.Msg }

func checkErr(format string, args ...any) error { return &CheckError{fmt.Sprintf(format, args...)} }

func (c *Client) http() *http.Client {
	if c.HTTP != nil {
		return c.HTTP
	}
	return &http.Client{Timeout: 30 * time.Second}
}

// Answer size limits: Fetch reads at most maxAnswer bytes of an answer;
// a checkpoint (a signed note with its cosignatures) at most
// maxCheckpointAnswer, and a tile at most what one of its width holds
// (maxTileAnswer), so that a log, or a mirror in front of it, cannot make
// a client hold more than the tree it claims.
const (
	maxAnswer           = 64 << 20
	maxCheckpointAnswer = 1 << 20
	maxEntrySize        = 1<<16 - 1 // an entry bundle's 2-byte length (c2sp.org/tlog-tiles)
)

// maxTileAnswer is the most bytes tile t can hold: 32 bytes a hash of a
// hash tile, and 2 + 65,535 bytes an entry of an entry bundle.
func maxTileAnswer(t tlog.Tile) int64 {
	if t.L < 0 {
		return int64(t.W) * (2 + maxEntrySize)
	}
	return int64(t.W) * tlog.HashSize
}

// fetchTile fetches tile t (a hash tile, or an entry bundle for L = -1),
// refusing an answer longer than the tile can be with a *CheckError.
func (c *Client) fetchTile(ctx context.Context, t tlog.Tile) ([]byte, error) {
	return c.fetch(ctx, tiles.Path(t), maxTileAnswer(t))
}

// Fetch GETs path under the log's prefix, reading at most 64 MiB of the
// answer; any status but 200 is a *StatusError carrying the log's
// explanation, and a longer answer is a *CheckError.
func (c *Client) Fetch(ctx context.Context, path string) ([]byte, error) {
	return c.fetch(ctx, path, maxAnswer)
}

// fetch is Fetch reading at most limit bytes of an answer of 200.
func (c *Client) fetch(ctx context.Context, path string, limit int64) ([]byte, error) {
	u := strings.TrimSuffix(c.URL, "/") + "/" + path
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, err
	}
	resp, err := c.http().Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b, err := io.ReadAll(io.LimitReader(resp.Body, 4<<10))
		if err != nil {
			return nil, fmt.Errorf("GET %s: %w", u, err)
		}
		return nil, &StatusError{URL: u, Status: resp.Status, Code: resp.StatusCode, Body: firstLine(b)}
	}
	if resp.ContentLength > limit {
		return nil, checkErr("GET %s: the answer is %d bytes long; expected at most %d, the most it can hold", u, resp.ContentLength, limit)
	}
	b, err := io.ReadAll(io.LimitReader(resp.Body, limit+1))
	if err != nil {
		return nil, fmt.Errorf("GET %s: %w", u, err)
	}
	if int64(len(b)) > limit {
		return nil, checkErr("GET %s: the answer is longer than %d bytes, the most it can hold", u, limit)
	}
	return b, nil
}

// StatusError is Fetch's error for an answer other than 200: the log's
// explanation, the first line of its body, goes with the status.
type StatusError struct {
	URL    string // the URL fetched
	Status string // "409 Conflict"
	Code   int    // 409
	Body   string // the body's first line, at most 300 bytes; "" for none
}

// Error names the URL, the status and what the log said, if anything.
func (e *StatusError) Error() string {
	if e.Body == "" {
		return fmt.Sprintf("GET %s: %s", e.URL, e.Status)
	}
	return fmt.Sprintf("GET %s: %s: the log says %q", e.URL, e.Status, e.Body)
}

// firstLine is the first non-empty line of a response body, trimmed and
// cut at 300 bytes (at a UTF-8 boundary).
func firstLine(b []byte) string {
	s := strings.TrimSpace(string(b))
	s, _, _ = strings.Cut(s, "\n")
	s = strings.TrimSpace(s)
	if len(s) > 300 {
		s = strings.ToValidUTF8(s[:300], "") + "..."
	}
	return s
}

// RangeError is ProveInclusion's error for an index the log's checkpoint
// does not cover: the request is wrong, not the log.
type RangeError struct {
	Index int64 // the index asked for
	Size  int64 // the checkpoint's tree size
}

// Error names the index and the indexes the checkpoint covers.
func (e *RangeError) Error() string {
	if e.Size == 0 {
		return fmt.Sprintf("entry %d is not in the log: its checkpoint covers no entries yet", e.Index)
	}
	return fmt.Sprintf("entry %d is not in the log: its checkpoint covers %d entries (indexes 0..%d)", e.Index, e.Size, e.Size-1)
}

// Checkpoint fetches and opens the log's checkpoint and checks the
// policy's cosignatures. Errors: a *CheckError for a checkpoint that does
// not open with the key or misses the quorum (its Msg says which).
func (c *Client) Checkpoint(ctx context.Context) (*ledger.Checkpoint, []witness.Cosignature, error) {
	b, err := c.fetch(ctx, "checkpoint", maxCheckpointAnswer)
	if err != nil {
		return nil, nil, err
	}
	return c.Open(b)
}

// Open opens a signed checkpoint of this log with the key and the policy.
func (c *Client) Open(signed []byte) (*ledger.Checkpoint, []witness.Cosignature, error) {
	if c.VerifierKey == "" {
		text, _, ok := strings.Cut(string(signed), "\n\n")
		if !ok {
			return nil, nil, checkErr("checkpoint: no blank line before the signatures")
		}
		origin, size, root, err := ledger.ParseCheckpoint(text + "\n")
		if err != nil {
			return nil, nil, checkErr("%v", err)
		}
		return &ledger.Checkpoint{Origin: origin, Size: size, Root: root, Note: string(signed)}, nil, nil
	}
	cp, err := ledger.OpenCheckpoint(c.VerifierKey, signed)
	if err != nil {
		return nil, nil, checkErr("checkpoint: %v", err)
	}
	var cs []witness.Cosignature
	if c.Policy != nil {
		if err := c.Policy.CheckNotLog(c.VerifierKey); err != nil {
			return nil, nil, err
		}
		cs, err = c.Policy.Check(signed)
		if err != nil {
			return nil, nil, checkErr("checkpoint of size %d: %v", cp.Size, err)
		}
	}
	return cp, cs, nil
}

// tileReader fetches tiles for tlog.TileHashReader.
type tileReader struct {
	ctx context.Context
	c   *Client
}

func (r tileReader) Height() int { return tiles.Height }

func (r tileReader) ReadTiles(ts []tlog.Tile) ([][]byte, error) {
	out := make([][]byte, len(ts))
	errs := make([]error, len(ts))
	var wg sync.WaitGroup
	for i, t := range ts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out[i], errs[i] = r.c.fetchTile(r.ctx, t)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

func (r tileReader) SaveTiles([]tlog.Tile, [][]byte) {}

// ProveInclusion builds the inclusion proof of entry index in the tree of
// the log's current checkpoint from its tiles (each checked against the
// checkpoint's root by tlog.TileHashReader) and reads the entry from its
// bundle. The proof's Checkpoint is the note as served (with any
// cosignatures); it checks with ledger.CheckInclusion. An index the
// checkpoint does not cover is a *RangeError.
func (c *Client) ProveInclusion(ctx context.Context, index int64) (*ledger.InclusionProof, error) {
	cp, _, err := c.Checkpoint(ctx)
	if err != nil {
		return nil, err
	}
	if index < 0 || index >= cp.Size {
		return nil, &RangeError{Index: index, Size: cp.Size}
	}
	tree := tlog.Tree{N: cp.Size, Hash: cp.Root}
	thr := tlog.TileHashReader(tree, tileReader{ctx, c})
	proof, err := tlog.ProveRecord(cp.Size, index, thr)
	if err != nil {
		return nil, checkErr("proving entry %d from tiles: %v", index, err)
	}
	n := index >> tiles.Height
	w := int(min(cp.Size-n<<tiles.Height, 1<<tiles.Height))
	t := tlog.Tile{H: tiles.Height, L: -1, N: n, W: w}
	b, err := c.fetchTile(ctx, t)
	if err != nil {
		return nil, err
	}
	leaves, err := SplitBundle(b, w)
	if err != nil {
		return nil, checkErr("%s: %v", tiles.Path(t), err)
	}
	leaf := leaves[index-n<<tiles.Height]
	lh := tlog.RecordHash(leaf)
	if err := tlog.CheckRecord(proof, cp.Size, cp.Root, index, lh); err != nil {
		return nil, checkErr("entry %d from %s does not hash into the checkpoint's tree: %v", index, tiles.Path(t), err)
	}
	return &ledger.InclusionProof{Index: index, Size: cp.Size, Leaf: string(leaf), LeafHash: lh, Proof: proof, Checkpoint: cp.Note}, nil
}

// SplitBundle splits an entry bundle into its w leaves (each behind a
// big-endian uint16 length). Anything else, fewer or more leaves or bytes
// left over, is an error; reading stops at the first byte past the w-th
// leaf.
func SplitBundle(b []byte, w int) ([][]byte, error) {
	out := make([][]byte, 0, max(w, 0))
	for len(b) > 0 {
		if len(out) == w {
			return nil, fmt.Errorf("entry bundle: more than %d entries (%d bytes left after entry %d)", w, len(b), w-1)
		}
		if len(b) < 2 {
			return nil, fmt.Errorf("entry bundle: 1 byte left where a 2-byte length was expected")
		}
		n := int(b[0])<<8 | int(b[1])
		if len(b)-2 < n {
			return nil, fmt.Errorf("entry bundle: entry %d claims %d bytes, %d left", len(out), n, len(b)-2)
		}
		out = append(out, b[2:2+n])
		b = b[2+n:]
	}
	if len(out) != w {
		return nil, fmt.Errorf("entry bundle: %d entries, want %d", len(out), w)
	}
	return out, nil
}
