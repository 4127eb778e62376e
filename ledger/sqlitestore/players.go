package sqlitestore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync"

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

// PlayerBySkeleton implements ledger.Store: players' key, then the
// players_tail rows (migration 6), in one statement.
func (s *Store) PlayerBySkeleton(ctx context.Context, skeleton string) (_ *ledger.StoredPlayer, err error) {
	defer s.classify(&err)
	q := `SELECT skeleton, player, idx FROM players WHERE skeleton = ?1`
	if ok, err := s.hasPlayersTail(ctx); err != nil {
		return nil, fmt.Errorf("reading players: %w", err)
	} else if ok {
		q = playerLookup
	}
	var v [3]any
	err = s.r.QueryRowContext(ctx, q, skeleton).Scan(&v[0], &v[1], &v[2])
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

// EachPlayer implements ledger.Store: the rows of players and
// players_tail (migration 6) together, in skeleton order.
func (s *Store) EachPlayer(ctx context.Context, fn func(ledger.StoredPlayer) error) (err error) {
	defer s.classify(&err)
	if ok, err := s.hasTable(ctx, "players"); err != nil || !ok {
		return err
	}
	q := `SELECT skeleton, player, idx FROM players ORDER BY skeleton`
	if ok, err := s.hasPlayersTail(ctx); err != nil {
		return fmt.Errorf("reading players: %w", err)
	} else if ok {
		q = eachPlayerQuery
	}
	rows, err := s.r.QueryContext(ctx, q)
	if err != nil {
		return fmt.Errorf("reading players: %w", err)
	}
	defer rows.Close()
	var prev ledger.StoredPlayer
	first := true
	for rows.Next() {
		var v [3]any
		if err := rows.Scan(&v[0], &v[1], &v[2]); err != nil {
			return fmt.Errorf("reading players: %w", err)
		}
		p, err := playerOfRow(v)
		if err != nil {
			return err
		}
		// players' key keeps a skeleton to one row there; one in both
		// tables, or twice in the tail, is not a table a log writes.
		if !first && p.Skeleton == prev.Skeleton {
			return fmt.Errorf("players: skeleton %q has two rows (entries %d and %d), in players and players_tail or twice in players_tail: %w", p.Skeleton, prev.Index, p.Index, ledger.ErrTampered)
		}
		prev, first = p, false
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
		if idx, ok := v[2].(int64); ok {
			return ledger.StoredPlayer{}, fmt.Errorf("players: the row of entry %d: its skeleton is %s, not text: %w", idx, describe(v[0]), ledger.ErrTampered)
		}
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

// tablePresence is whether the file has a table, read once.
type tablePresence struct {
	once sync.Once
	has  bool
	err  error
}

// check reads once whether s's file has the table name; a writer's file
// has every table, migrated when opened.
func (tp *tablePresence) check(ctx context.Context, s *Store, name string) (bool, error) {
	if s.w != nil {
		return true, nil
	}
	tp.once.Do(func() { tp.has, tp.err = s.hasTable(ctx, name) })
	return tp.has, tp.err
}

// hasPlayersTail reports whether the file has players_tail (a file
// opened read-only may predate migration 6).
func (s *Store) hasPlayersTail(ctx context.Context) (bool, error) {
	return s.hasTail.check(ctx, s, "players_tail")
}

// syncTail brings the writer's copy of players_tail up to date, once per
// transaction.
func (t *writeTx) syncTail(ctx context.Context) error {
	if t.tailSynced {
		return nil
	}
	if err := t.s.tail.sync(ctx, t.tx, t.s.inserts.tailBounds); err != nil {
		return err
	}
	t.tailSynced = true
	return nil
}

// Players implements ledger.WriteTx: the rows this transaction added,
// the writer's copy of players_tail, then the players rows of all the
// skeletons, looked up by primary key with one statement per
// insertChunk skeletons (players IN (...), seeked); with a skeleton in
// two places (a tampered table), the row of the earlier index.
func (t *writeTx) Players(ctx context.Context, skeletons []string) (map[string]ledger.StoredPlayer, error) {
	out := make(map[string]ledger.StoredPlayer, len(skeletons))
	if len(skeletons) == 0 {
		return out, nil
	}
	if err := t.syncTail(ctx); err != nil {
		return nil, err
	}
	keep := func(p ledger.StoredPlayer) {
		if q, ok := out[p.Skeleton]; !ok || p.Index < q.Index {
			out[p.Skeleton] = p
		}
	}
	args := t.s.scratch.args[:0]
	asked := t.s.scratch.asked
	clear(asked)
	for _, sk := range skeletons {
		if p, ok := t.staged[sk]; ok {
			keep(p)
		}
		if p, ok := t.s.tail.rows[sk]; ok {
			keep(p)
		}
		if !asked[sk] {
			asked[sk] = true
			args = append(args, sk)
		}
	}
	defer t.s.scratch.keepArgs(args)
	found := t.s.scratch.found
	clear(found)
	for len(args) > 0 {
		st, filled, used, err := t.s.inserts.lookup(ctx, t.tx, playersIn, args, 1)
		if err != nil {
			return nil, err
		}
		rows, err := st.QueryContext(ctx, filled...)
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			var v [3]any
			if err := rows.Scan(&v[0], &v[1], &v[2]); err != nil {
				rows.Close()
				return nil, err
			}
			p, err := playerOfRow(v)
			if err != nil {
				rows.Close()
				return nil, err
			}
			found[p.Skeleton] = true
			keep(p)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
		args = args[used:]
	}
	for sk := range asked {
		if _, ok := out[sk]; !ok && !found[sk] {
			if t.absent == nil {
				t.absent = map[string]bool{}
			}
			t.absent[sk] = true
		}
	}
	return out, nil
}

// InsertPlayers implements ledger.WriteTx: the rows go to players_tail
// (migration 6), at their entries' indexes, in multi-row INSERTs prepared
// once. A skeleton already stored, in players or the tail, is an error
// wrapping ledger.ErrConflict (checked against the lookups Players made
// in this transaction, else with a seek).
func (t *writeTx) InsertPlayers(ctx context.Context, rows []ledger.StoredPlayer) error {
	if len(rows) == 0 {
		return nil
	}
	if err := t.syncTail(ctx); err != nil {
		return err
	}
	args := make([]any, 0, 3*len(rows))
	for _, p := range rows {
		_, inTail := t.s.tail.rows[p.Skeleton]
		_, inTx := t.staged[p.Skeleton]
		if inTail || inTx {
			return fmt.Errorf("players: skeleton %q is already stored: %w", p.Skeleton, ledger.ErrConflict)
		}
		if !t.absent[p.Skeleton] {
			var v [3]any
			err := t.tx.Stmt(t.s.inserts.player).QueryRowContext(ctx, p.Skeleton).Scan(&v[0], &v[1], &v[2])
			if err == nil {
				return fmt.Errorf("players: skeleton %q is already stored: %w", p.Skeleton, ledger.ErrConflict)
			}
			if !errors.Is(err, sql.ErrNoRows) {
				return err
			}
		}
		args = append(args, p.Index, p.Skeleton, p.Player)
	}
	if err := t.s.inserts.exec(ctx, t.tx, insertPlayersTail, args); err != nil {
		return conflict(err)
	}
	for _, p := range rows {
		t.staged[p.Skeleton] = p
		t.stagedRows = append(t.stagedRows, p)
	}
	return nil
}
