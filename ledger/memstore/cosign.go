package memstore

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"slices"

	"github.com/sealedhq/sealed/ledger"
)

// PutCosignature implements ledger.Store.
func (s *Store) PutCosignature(ctx context.Context, c *ledger.StoredCosignature) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	found := false
	for _, cp := range s.checkpoints {
		if cp.ID == c.CheckpointID {
			found = true
		}
	}
	if !found {
		return fmt.Errorf("cosignature of checkpoint %d: %w", c.CheckpointID, ledger.ErrNotFound)
	}
	for _, o := range s.cosigs {
		if o.CheckpointID == c.CheckpointID && o.Witness == c.Witness {
			return nil
		}
	}
	cc := *c
	cc.Line = bytes.Clone(c.Line)
	s.cosigs = append(s.cosigs, cc)
	return nil
}

// Cosignatures implements ledger.Store.
func (s *Store) Cosignatures(ctx context.Context, id, minSize int64, limit int) ([]ledger.StoredCosignature, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	var out []ledger.StoredCosignature
	for _, c := range s.cosigs {
		if (id == 0 || c.CheckpointID == id) && c.Size >= minSize {
			c.Line = bytes.Clone(c.Line)
			out = append(out, c)
		}
	}
	slices.SortFunc(out, func(a, b ledger.StoredCosignature) int {
		return cmp.Or(cmp.Compare(a.Time, b.Time), cmp.Compare(a.CheckpointID, b.CheckpointID), cmp.Compare(a.Witness, b.Witness))
	})
	if limit > 0 && len(out) > limit {
		out = out[:limit]
	}
	return out, nil
}
