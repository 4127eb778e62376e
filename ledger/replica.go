package ledger

import (
	"context"
	"errors"
	"fmt"

	"golang.org/x/mod/sumdb/tlog"
)

// ErrNotReplica is wrapped by [CheckReplica]'s refusals.
var ErrNotReplica = errors.New("not a replica of the ledger")

// CheckReplica checks that replica holds a copy of the ledger l, as a
// read replica that may lag behind it: the same origin and verifier key,
// and a latest signed checkpoint no larger than l's and consistent with
// it (RFC 6962: its tree is a prefix of l's, proved from l's stored
// hashes against l's latest signed root). Call it with replica's
// checkpoint read first (replica opened before l is read), so that l,
// which only grows, cannot look behind a true replica. It reads O(log n)
// stored hashes. Refusals wrap [ErrNotReplica] and say what differs
// (another ledger, one ahead of l, a fork); other errors are reads that
// failed.
func CheckReplica(ctx context.Context, l, replica *Ledger) error {
	if replica.origin != l.origin {
		return fmt.Errorf("%w: its origin is %q, the ledger's %q", ErrNotReplica, replica.origin, l.origin)
	}
	if replica.vkey != l.vkey {
		return fmt.Errorf("%w: its verifier key is %s, the ledger's %s", ErrNotReplica, replica.vkey, l.vkey)
	}
	rc, err := replica.LatestCheckpoint()
	if err != nil {
		return fmt.Errorf("the replica's %w", err)
	}
	lc, err := l.LatestCheckpoint()
	if err != nil {
		return fmt.Errorf("the ledger's %w", err)
	}
	if rc.Size > lc.Size {
		return fmt.Errorf("%w: its latest signed checkpoint covers %d entries, the ledger's %d (a fork, or the two swapped)", ErrNotReplica, rc.Size, lc.Size)
	}
	if rc.Size == 0 {
		return nil
	}
	p, err := tlog.ProveTree(lc.Size, rc.Size, hashReader{ctx, l.store})
	if err != nil {
		return fmt.Errorf("proving the replica's tree of %d entries consistent with the ledger's of %d: %w", rc.Size, lc.Size, err)
	}
	if err := tlog.CheckTree(p, lc.Size, lc.Root, rc.Size, rc.Root); err != nil {
		return fmt.Errorf("%w: its signed tree of %d entries is not a prefix of the ledger's signed tree of %d (a fork)", ErrNotReplica, rc.Size, lc.Size)
	}
	return nil
}
