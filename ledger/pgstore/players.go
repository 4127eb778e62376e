package pgstore

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/sealedhq/sealed/ledger"
)

// playersMigration is the schema migration that adds the players table
// (the SQLite store's migration 4).
const playersMigration = 3

// fillPlayers fills the new players table of an existing ledger from its
// commit entries, in index order (ledger.DerivePlayers), a chunk at a
// time: the first commit naming a player of each skeleton gets the row.
func fillPlayers(ctx context.Context, tx pgx.Tx) error {
	const chunk = 4096
	after := int64(-1 << 63)
	for {
		rows, err := tx.Query(ctx, `SELECT idx, kind, body FROM entries WHERE idx > $1 ORDER BY idx LIMIT $2`, after, chunk)
		if err != nil {
			return fmt.Errorf("filling players: %w", err)
		}
		var es []ledger.StoredEntry
		n := 0
		for rows.Next() {
			var e ledger.StoredEntry
			var kind string
			if err := rows.Scan(&e.Index, &kind, &e.Leaf); err != nil {
				rows.Close()
				return fmt.Errorf("filling players: %w", err)
			}
			n++
			after, e.Kind = e.Index, ledger.Kind(kind)
			if e.Kind == ledger.KindCommit {
				es = append(es, e)
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return fmt.Errorf("filling players: %w", err)
		}
		for _, p := range ledger.DerivePlayers(es, map[string]ledger.StoredPlayer{}) {
			// The first chunk naming a skeleton keeps its row.
			if _, err := tx.Exec(ctx, `INSERT INTO players(skeleton, player, idx) VALUES($1, $2, $3) ON CONFLICT(skeleton) DO NOTHING`, p.Skeleton, p.Player, p.Index); err != nil {
				return fmt.Errorf("filling players: %w", err)
			}
		}
		if n < chunk {
			return nil
		}
	}
}

// hasPlayers reports whether the database has the players table (a
// database opened read-only may predate it), and its schema version.
func (s *Store) hasPlayers(ctx context.Context) (bool, int, error) {
	var ok bool
	if err := s.pool.QueryRow(ctx, `SELECT to_regclass('players') IS NOT NULL`).Scan(&ok); err != nil {
		return false, 0, err
	}
	v, err := schemaVersion(ctx, s.pool)
	return ok, v, err
}

// PlayerBySkeleton implements ledger.Store (the table's primary key). A
// row holding NULL or a value of another type is an error wrapping
// ledger.ErrTampered (playerOfRow).
func (s *Store) PlayerBySkeleton(ctx context.Context, skeleton string) (_ *ledger.StoredPlayer, err error) {
	defer s.classify(&err)
	v := make([]any, 3)
	err = s.pool.QueryRow(ctx, `SELECT skeleton, player, idx FROM players WHERE skeleton = $1`, skeleton).Scan(&v[0], &v[1], &v[2])
	if errors.Is(err, pgx.ErrNoRows) {
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

// playerOfRow converts a row of skeleton, player, idx, read as its
// values: a NULL or a value of another type (in a column altered) is an
// error wrapping ledger.ErrTampered naming the row and the column.
func playerOfRow(v []any) (ledger.StoredPlayer, error) {
	var p ledger.StoredPlayer
	sk, ok := asText(v[0])
	if !ok {
		return p, fmt.Errorf("players: a row's skeleton is %s, not text: %w", describe(v[0]), ledger.ErrTampered)
	}
	p.Skeleton = sk
	row := fmt.Sprintf("the row of skeleton %q", sk)
	if p.Player, ok = asText(v[1]); !ok {
		return p, badValue("players", row, "player", v[1], "text")
	}
	if p.Index, ok = asInt64(v[2]); !ok {
		return p, badValue("players", row, "idx", v[2], "an integer")
	}
	return p, nil
}

// EachPlayer implements ledger.Store. A row holding NULL or a value of
// another type than the schema's (a column altered) is an error
// wrapping ledger.ErrTampered (playerOfRow).
func (s *Store) EachPlayer(ctx context.Context, fn func(ledger.StoredPlayer) error) (err error) {
	defer s.classify(&err)
	if ok, _, err := s.hasPlayers(ctx); err != nil || !ok {
		return err
	}
	rows, err := s.pool.Query(ctx, `SELECT skeleton, player, idx FROM players ORDER BY skeleton COLLATE "C"`)
	if err != nil {
		return fmt.Errorf("reading players: %w", err)
	}
	var all []ledger.StoredPlayer
	for rows.Next() {
		v, err := rowValues(rows, 3)
		if err != nil {
			rows.Close()
			return fmt.Errorf("reading players: %w", err)
		}
		p, err := playerOfRow(v)
		if err != nil {
			rows.Close()
			return err
		}
		all = append(all, p)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("reading players: %w", err)
	}
	for _, p := range all {
		if err := fn(p); err != nil {
			return err
		}
	}
	return nil
}

// Players implements ledger.WriteTx.
func (t *writeTx) Players(ctx context.Context, skeletons []string) (map[string]ledger.StoredPlayer, error) {
	out := make(map[string]ledger.StoredPlayer, len(skeletons))
	if len(skeletons) == 0 {
		return out, nil
	}
	rows, err := t.conn.Query(ctx, `SELECT skeleton, player, idx FROM players WHERE skeleton = ANY($1)`, skeletons)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var p ledger.StoredPlayer
		if err := rows.Scan(&p.Skeleton, &p.Player, &p.Index); err != nil {
			return nil, err
		}
		out[p.Skeleton] = p
	}
	return out, rows.Err()
}

// InsertPlayers implements ledger.WriteTx: one statement.
func (t *writeTx) InsertPlayers(ctx context.Context, rows []ledger.StoredPlayer) error {
	if len(rows) == 0 {
		return nil
	}
	t.tailKnown = false
	sk, pl, idx := make([]string, len(rows)), make([]string, len(rows)), make([]int64, len(rows))
	for i, p := range rows {
		sk[i], pl[i], idx[i] = p.Skeleton, p.Player, p.Index
	}
	tag, err := t.conn.Exec(ctx, `INSERT INTO players(skeleton, player, idx) SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[])`, sk, pl, idx)
	if err != nil {
		return conflict(err)
	}
	return ledger.CheckRowsStored("players", rowsOf(tag), len(rows))
}
