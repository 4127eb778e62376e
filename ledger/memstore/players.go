package memstore

import (
	"context"
	"fmt"
	"slices"

	"github.com/sealedhq/sealed/ledger"
)

// PlayerBySkeleton implements ledger.Store.
func (s *Store) PlayerBySkeleton(ctx context.Context, skeleton string) (*ledger.StoredPlayer, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	p, ok := s.players[skeleton]
	if !ok {
		return nil, fmt.Errorf("player of skeleton %q: %w", skeleton, ledger.ErrNotFound)
	}
	return &p, nil
}

// EachPlayer implements ledger.Store.
func (s *Store) EachPlayer(ctx context.Context, fn func(ledger.StoredPlayer) error) error {
	s.mu.RLock()
	rows := make([]ledger.StoredPlayer, 0, len(s.players))
	for _, p := range s.players {
		rows = append(rows, p)
	}
	s.mu.RUnlock()
	slices.SortFunc(rows, func(a, b ledger.StoredPlayer) int {
		switch {
		case a.Skeleton < b.Skeleton:
			return -1
		case a.Skeleton > b.Skeleton:
			return 1
		}
		return 0
	})
	for _, p := range rows {
		if err := fn(p); err != nil {
			return err
		}
	}
	return nil
}

// TamperPlayers gives tests direct access to the players rows (skeleton
// -> row), to change what the audit must catch: fn runs under the
// store's lock.
func (s *Store) TamperPlayers(fn func(players map[string]ledger.StoredPlayer)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	fn(s.players)
}

// Players implements ledger.WriteTx.
func (t *writeTx) Players(ctx context.Context, skeletons []string) (map[string]ledger.StoredPlayer, error) {
	t.s.mu.RLock()
	defer t.s.mu.RUnlock()
	out := map[string]ledger.StoredPlayer{}
	for _, sk := range skeletons {
		if p, ok := t.s.players[sk]; ok {
			out[sk] = p
		}
		for _, p := range t.players {
			if p.Skeleton == sk {
				out[sk] = p
			}
		}
	}
	return out, nil
}

// InsertPlayers implements ledger.WriteTx.
func (t *writeTx) InsertPlayers(ctx context.Context, rows []ledger.StoredPlayer) error {
	t.s.mu.RLock()
	defer t.s.mu.RUnlock()
	for _, p := range rows {
		if _, ok := t.s.players[p.Skeleton]; ok {
			return fmt.Errorf("player of skeleton %q: %w", p.Skeleton, ledger.ErrConflict)
		}
		for _, o := range t.players {
			if o.Skeleton == p.Skeleton {
				return fmt.Errorf("player of skeleton %q: %w", p.Skeleton, ledger.ErrConflict)
			}
		}
		t.players = append(t.players, p)
	}
	return nil
}
