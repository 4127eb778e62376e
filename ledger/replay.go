package ledger

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
)

// MaxReplaySize is the largest replay PutReplay stores, in bytes (4 MiB):
// a default 5-seat, 10-item Blind Auction replay is about 17 KB and a
// 6-match Negotiation Games episode about 7 KB, so this leaves room for
// tables a hundred times larger while keeping every replay page and
// re-simulation bounded (docs/ledger.md, "Replays").
const MaxReplaySize = 4 << 20

// PutReplay stores replay bytes content-addressed and returns their digest
// (64 lowercase hex SHA-256), the value a result entry's replay_sha256
// carries. Storing the same bytes again is a no-op. The replay is not in
// the tree: the digest in the result entry makes it tamper-evident.
// Errors: ErrReadOnly, a replay over MaxReplaySize, storage errors.
func (l *Ledger) PutReplay(replay []byte) (string, error) {
	if l.readOnly {
		return "", ErrReadOnly
	}
	if len(replay) > MaxReplaySize {
		return "", fmt.Errorf("the replay has %d bytes, more than the %d (4 MiB) a ledger stores; split a longer session into several matches", len(replay), MaxReplaySize)
	}
	sum := sha256.Sum256(replay)
	d := hex.EncodeToString(sum[:])
	if err := l.store.PutReplay(context.Background(), d, replay); err != nil {
		return "", fmt.Errorf("storing replay: %w", err)
	}
	return d, nil
}

// Replay returns the replay bytes stored under digest (any form
// NormaliseDigest accepts), checked against the digest; an error wrapping
// ErrNotFound if none is stored.
func (l *Ledger) Replay(digest string) ([]byte, error) {
	d, err := NormaliseDigest(digest)
	if err != nil {
		return nil, fmt.Errorf("replay digest: %w", err)
	}
	b, err := l.store.Replay(context.Background(), d)
	if err != nil {
		return nil, fmt.Errorf("replay %s: %w", d, err)
	}
	if sum := sha256.Sum256(b); hex.EncodeToString(sum[:]) != d {
		return nil, fmt.Errorf("replay %s: the stored bytes hash to %x, not to their digest: %w", d, sum, ErrTampered)
	}
	if b == nil {
		b = []byte{}
	}
	return b, nil
}
