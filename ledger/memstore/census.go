package memstore

import (
	"bytes"
	"context"
	"slices"

	"github.com/sealedhq/sealed/ledger"
)

// Census implements ledger.Store.
func (s *Store) Census(ctx context.Context) (*ledger.Census, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	c := &ledger.Census{Cosignatures: int64(len(s.cosigs)), Replays: int64(len(s.replays)), SchemaLatest: schemaVersion,
		Players: int64(len(s.players)), PlayersTable: true,
		SeedCommits: int64(len(s.seedCommits)), SeedCommitsTable: true,
		// The schema is there from New, as a database store's is once
		// opened: Copy audits a copy before it writes the identity rows.
		SchemaVersions: []int{schemaVersion}}
	for i := range s.entries {
		c.Entries = widen(c.Entries, i)
	}
	for id := range s.hashes {
		c.Hashes = widen(c.Hashes, id)
	}
	for _, cp := range s.checkpoints {
		c.Checkpoints = widen(c.Checkpoints, cp.ID)
	}
	if s.meta != nil {
		c.MetaKeys = []string{"origin", "verifier_key"}
	}
	return c, nil
}

func widen(r ledger.RowRange, k int64) ledger.RowRange {
	if r.Rows == 0 || k < r.Min {
		r.Min = k
	}
	if r.Rows == 0 || k > r.Max {
		r.Max = k
	}
	r.Rows++
	return r
}

// EachReplay implements ledger.Store.
func (s *Store) EachReplay(ctx context.Context, fn func(digest string, data []byte) error) error {
	s.mu.RLock()
	keys := make([]string, 0, len(s.replays))
	for k := range s.replays {
		keys = append(keys, k)
	}
	s.mu.RUnlock()
	slices.Sort(keys)
	for _, k := range keys {
		s.mu.RLock()
		b := bytes.Clone(s.replays[k])
		s.mu.RUnlock()
		if err := fn(k, b); err != nil {
			return err
		}
	}
	return nil
}
