package tlogclient

import (
	"context"
	"fmt"
	"strings"

	"github.com/sealedhq/sealed/ledger"
	"golang.org/x/mod/sumdb/tlog"
)

// WatchError is a new checkpoint that does not extend the one seen
// before: a rollback (smaller tree), a fork (same size, other root; or a
// consistency proof that fails). It carries both checkpoints and the
// proof that failed (empty for a rollback or a same-size fork).
type WatchError struct {
	What     string // "rollback" or "fork"
	Old, New *ledger.Checkpoint
	Proof    tlog.TreeProof
	Err      error // the proof check's error, if any
}

// Error names the two checkpoints' sizes and why the later one does not
// extend the earlier.
func (e *WatchError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: the log's checkpoint of size %d does not extend the one of size %d seen before", e.What, e.New.Size, e.Old.Size)
	if e.Err != nil {
		fmt.Fprintf(&b, " (%v)", e.Err)
	}
	fmt.Fprintf(&b, "\nseen before:\n%s\nnow:\n%s", e.Old.Note, e.New.Note)
	if len(e.Proof) > 0 {
		b.WriteString("consistency proof (built from the log's own tiles):\n")
		for _, h := range e.Proof {
			b.WriteString(h.String() + "\n")
		}
	}
	return b.String()
}

// Watch fetches the log's checkpoint and checks that it extends old (a
// signed note seen before, opened with the key; nil on the first run): a
// smaller tree, the same size with another root, or a consistency proof
// (tlog.ProveTree over tiles checked against the new root) that does not
// lead to old's root is a *WatchError. It returns the new checkpoint, to
// be kept for the next run only if err is nil.
func (c *Client) Watch(ctx context.Context, old []byte) (*ledger.Checkpoint, error) {
	var prev *ledger.Checkpoint
	if old != nil {
		p, err := ledger.OpenCheckpoint(c.VerifierKey, old)
		if err != nil {
			return nil, fmt.Errorf("the saved checkpoint: %v", err)
		}
		prev = p
	}
	cp, _, err := c.Checkpoint(ctx)
	if err != nil {
		return nil, err
	}
	if prev == nil {
		return cp, nil
	}
	switch {
	case cp.Size < prev.Size:
		return nil, &WatchError{What: "rollback", Old: prev, New: cp}
	case cp.Size == prev.Size:
		if cp.Root != prev.Root {
			return nil, &WatchError{What: "fork", Old: prev, New: cp}
		}
		return cp, nil
	}
	thr := tlog.TileHashReader(tlog.Tree{N: cp.Size, Hash: cp.Root}, tileReader{ctx, c})
	proof, err := tlog.ProveTree(cp.Size, prev.Size, thr)
	if err != nil {
		return nil, checkErr("consistency proof from size %d to %d from tiles: %v", prev.Size, cp.Size, err)
	}
	if err := tlog.CheckTree(proof, cp.Size, cp.Root, prev.Size, prev.Root); err != nil {
		return nil, &WatchError{What: "fork", Old: prev, New: cp, Proof: proof, Err: err}
	}
	return cp, nil
}
