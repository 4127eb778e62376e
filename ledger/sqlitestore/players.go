package sqlitestore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/sealedhq/sealed/ledger"
)

// playersMigration is the schema migration that adds the players table.
const playersMigration = 4

// fillPlayers fills the new players table of an existing ledger
// (migration 4) from its commit entries, in index order
// (ledger.DerivePlayers), a chunk at a time: the first commit naming a
// player of each skeleton gets the row. Rows that cannot be read as an
// entry are left to the audit.
func fillPlayers(tx *sql.Tx) error {
	const chunk = 4096
	after := int64(-1 << 63)
	for {
		rows, err := tx.Query(`SELECT idx, kind, body FROM entries WHERE idx > ? ORDER BY idx LIMIT ?`, after, chunk)
		if err != nil {
			return fmt.Errorf("filling players: %w", err)
		}
		var es []ledger.StoredEntry
		n := 0
		for rows.Next() {
			var idx int64
			var kind, body any
			if err := rows.Scan(&idx, &kind, &body); err != nil {
				rows.Close()
				return fmt.Errorf("filling players: %w", err)
			}
			n++
			after = idx
			k, ok1 := kind.(string)
			b, ok2 := body.([]byte)
			if ok1 && ok2 && k == string(ledger.KindCommit) {
				es = append(es, ledger.StoredEntry{Index: idx, Kind: ledger.Kind(k), Leaf: b})
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return fmt.Errorf("filling players: %w", err)
		}
		for _, p := range ledger.DerivePlayers(es, map[string]ledger.StoredPlayer{}) {
			// The first chunk naming a skeleton keeps its row.
			if _, err := tx.Exec(`INSERT INTO players(skeleton, player, idx) VALUES(?, ?, ?) ON CONFLICT(skeleton) DO NOTHING`, p.Skeleton, p.Player, p.Index); err != nil {
				return fmt.Errorf("filling players: %w", err)
			}
		}
		if n < chunk {
			return nil
		}
	}
}

// PlayerBySkeleton implements ledger.Store (the table's primary key).
func (s *Store) PlayerBySkeleton(ctx context.Context, skeleton string) (*ledger.StoredPlayer, error) {
	var v [3]any
	err := s.r.QueryRowContext(ctx, `SELECT skeleton, player, idx FROM players WHERE skeleton = ?`, skeleton).Scan(&v[0], &v[1], &v[2])
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("player of skeleton %q: %w", skeleton, ledger.ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("reading players: %w", err)
	}
	p, err := playerOfRow(v)
	if err != nil {
		return nil, err
	}
	return &p, nil
}

// EachPlayer implements ledger.Store.
func (s *Store) EachPlayer(ctx context.Context, fn func(ledger.StoredPlayer) error) error {
	if ok, err := s.hasTable(ctx, "players"); err != nil || !ok {
		return err
	}
	rows, err := s.r.QueryContext(ctx, `SELECT skeleton, player, idx FROM players ORDER BY skeleton`)
	if err != nil {
		return fmt.Errorf("reading players: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var v [3]any
		if err := rows.Scan(&v[0], &v[1], &v[2]); err != nil {
			return fmt.Errorf("reading players: %w", err)
		}
		p, err := playerOfRow(v)
		if err != nil {
			return err
		}
		if err := fn(p); err != nil {
			return err
		}
	}
	return rows.Err()
}

// playerOfRow converts a players row read as SQLite's own values,
// refusing a value of the wrong type (a text key stored as a blob would
// not be found by a lookup): an error wrapping ledger.ErrTampered naming
// the row and column.
func playerOfRow(v [3]any) (ledger.StoredPlayer, error) {
	sk, ok := v[0].(string)
	if !ok {
		return ledger.StoredPlayer{}, fmt.Errorf("players: a row's skeleton is %s, not text: %w", describe(v[0]), ledger.ErrTampered)
	}
	p := ledger.StoredPlayer{Skeleton: sk}
	if p.Player, ok = v[1].(string); !ok {
		return p, fmt.Errorf("players: the row of skeleton %q holds %s in column player; expected text: %w", sk, describe(v[1]), ledger.ErrTampered)
	}
	if p.Index, ok = v[2].(int64); !ok {
		return p, fmt.Errorf("players: the row of skeleton %q holds %s in column idx; expected an integer: %w", sk, describe(v[2]), ledger.ErrTampered)
	}
	return p, nil
}

// hasTable reports whether the file has the table (a file opened
// read-only may predate it).
func (s *Store) hasTable(ctx context.Context, name string) (bool, error) {
	var n int
	if err := s.r.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?`, name).Scan(&n); err != nil {
		return false, err
	}
	return n == 1, nil
}

// Players implements ledger.WriteTx: one prepared primary-key seek per
// skeleton.
func (t *writeTx) Players(ctx context.Context, skeletons []string) (map[string]ledger.StoredPlayer, error) {
	out := make(map[string]ledger.StoredPlayer, len(skeletons))
	st := t.tx.Stmt(t.s.inserts.player)
	defer st.Close()
	for _, sk := range skeletons {
		var v [3]any
		err := st.QueryRowContext(ctx, sk).Scan(&v[0], &v[1], &v[2])
		if errors.Is(err, sql.ErrNoRows) {
			continue
		}
		if err != nil {
			return nil, err
		}
		p, err := playerOfRow(v)
		if err != nil {
			return nil, err
		}
		out[p.Skeleton] = p
	}
	return out, nil
}

// InsertPlayers implements ledger.WriteTx (multi-row INSERTs prepared
// once, as for entries).
func (t *writeTx) InsertPlayers(ctx context.Context, rows []ledger.StoredPlayer) error {
	args := make([]any, 0, 3*len(rows))
	for _, p := range rows {
		args = append(args, p.Skeleton, p.Player, p.Index)
	}
	return conflict(t.s.inserts.exec(t.tx, insertPlayers, args))
}
