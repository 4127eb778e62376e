package memstore

import (
	"cmp"
	"context"
	"slices"

	"github.com/sealedhq/sealed/ledger"
)

// SeedCommits implements ledger.Store.
func (s *Store) SeedCommits(ctx context.Context, commitment string) ([]int64, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	var out []int64
	for _, r := range s.seedCommits {
		if r.Commitment == commitment {
			out = append(out, r.Index)
		}
	}
	slices.Sort(out)
	return out, nil
}

// SeedCommitsOfMatch implements ledger.Store.
func (s *Store) SeedCommitsOfMatch(ctx context.Context, game, matchID string) ([]int64, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	var out []int64
	for _, r := range s.seedCommits {
		if r.Game == game && r.MatchID == matchID {
			out = append(out, r.Index)
		}
	}
	slices.Sort(out)
	return out, nil
}

// EachSeedCommit implements ledger.Store.
func (s *Store) EachSeedCommit(ctx context.Context, fn func(ledger.StoredSeedCommit) error) error {
	s.mu.RLock()
	rows := slices.Clone(s.seedCommits)
	s.mu.RUnlock()
	slices.SortFunc(rows, func(a, b ledger.StoredSeedCommit) int {
		return cmp.Or(cmp.Compare(a.Commitment, b.Commitment), cmp.Compare(a.Index, b.Index))
	})
	for _, r := range rows {
		if err := fn(r); err != nil {
			return err
		}
	}
	return nil
}

// TamperSeedCommits gives tests direct access to the seed_commits rows,
// to change what the audit must catch: fn runs under the store's lock
// and returns the rows to keep.
func (s *Store) TamperSeedCommits(fn func(rows []ledger.StoredSeedCommit) []ledger.StoredSeedCommit) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.seedCommits = fn(s.seedCommits)
}

// SeedCommits implements ledger.WriteTx.
func (t *writeTx) SeedCommits(ctx context.Context, commitments []string) (map[string]int64, error) {
	t.s.mu.RLock()
	defer t.s.mu.RUnlock()
	out := map[string]int64{}
	consider := func(c string, index int64) {
		if prev, ok := out[c]; slices.Contains(commitments, c) && (!ok || index < prev) {
			out[c] = index
		}
	}
	for _, r := range t.s.seedCommits {
		consider(r.Commitment, r.Index)
	}
	for _, e := range t.entries {
		if e.SeedCommit != nil {
			consider(e.SeedCommit.Commitment, e.Index)
		}
	}
	return out, nil
}
