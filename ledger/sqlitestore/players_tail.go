package sqlitestore

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/sealedhq/sealed/ledger"
)

// playersFoldAt is how many rows players_tail holds before the append
// that reaches it moves them into players (playersTail.fold). Larger
// means fewer, longer folds; a fold writes each page of players it
// touches once, so on a ledger of many players the pages written per new
// player fall as the fold grows. Reads of the tail by key scan it, so it
// stays small: 8,192 rows of about 40 bytes.
const playersFoldAt = 8192

// playersTail is the writer's copy of players_tail (schema.sql, migration
// 6), by skeleton, so a batch's players lookups cost no scan. It is valid
// for the table's state (lo, hi): the smallest and largest index in it,
// which change whenever anyone writes the table (rows are only appended
// at larger indexes, or all moved out by a fold). Used only inside the
// writer's transactions, which the single writer connection serialises.
type playersTail struct {
	valid  bool
	lo, hi int64 // min and max idx of players_tail; -1, -1 when empty
	rows   map[string]ledger.StoredPlayer
}

// tailBoundsQuery reads players_tail's smallest and largest index (each
// one rowid seek), -1 when the table is empty.
const tailBoundsQuery = `SELECT coalesce((SELECT min(idx) FROM players_tail), -1), coalesce((SELECT max(idx) FROM players_tail), -1)`

// sync makes the copy match the table as tx sees it (bounds is
// tailBoundsQuery prepared on the writer connection): it compares the
// bounds and reads the whole table again if they moved (another process
// appended or folded) or the copy was invalidated by a failed commit.
func (pt *playersTail) sync(ctx context.Context, tx *sql.Tx, bounds *sql.Stmt) error {
	var lo, hi int64
	if err := tx.StmtContext(ctx, bounds).QueryRowContext(ctx).Scan(&lo, &hi); err != nil {
		return fmt.Errorf("reading players_tail: %w", err)
	}
	if pt.valid && lo == pt.lo && hi == pt.hi {
		return nil
	}
	rows, err := tx.QueryContext(ctx, `SELECT skeleton, player, idx FROM players_tail`)
	if err != nil {
		return fmt.Errorf("reading players_tail: %w", err)
	}
	defer rows.Close()
	// Sized for the rows read, or for a full tail when it is empty.
	m := make(map[string]ledger.StoredPlayer, tailHint(lo, hi, playersFoldAt))
	for rows.Next() {
		var v [3]any
		if err := rows.Scan(&v[0], &v[1], &v[2]); err != nil {
			return fmt.Errorf("reading players_tail: %w", err)
		}
		p, err := playerOfRow(v)
		if err != nil {
			return err
		}
		// A skeleton twice is a tampered table (the audit names it);
		// the earlier row is the one a lookup finds.
		if q, ok := m[p.Skeleton]; !ok || p.Index < q.Index {
			m[p.Skeleton] = p
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("reading players_tail: %w", err)
	}
	pt.valid, pt.lo, pt.hi, pt.rows = true, lo, hi, m
	return nil
}

// added records rows a committed transaction appended to players_tail.
func (pt *playersTail) added(rows []ledger.StoredPlayer) {
	for _, p := range rows {
		if _, ok := pt.rows[p.Skeleton]; !ok {
			pt.rows[p.Skeleton] = p
		}
		if pt.lo < 0 {
			pt.lo = p.Index
		}
		pt.hi = max(pt.hi, p.Index)
	}
}

// foldSQL moves the tail's rows into players in key order (one pass over
// the B-tree) and deletes the rows moved. A row whose skeleton players
// already holds (a tampered table) is not moved and stays in the tail,
// where the audit finds the skeleton twice; appends go on.
const foldSQL = `INSERT INTO players(skeleton, player, idx)
	SELECT skeleton, player, idx FROM players_tail WHERE true ORDER BY skeleton
	ON CONFLICT(skeleton) DO NOTHING;
DELETE FROM players_tail WHERE EXISTS (SELECT 1 FROM players p
	WHERE p.skeleton = players_tail.skeleton AND p.idx = players_tail.idx AND p.player = players_tail.player)`

// fold runs foldSQL in tx when the tail (with staged, the rows tx
// appended) has reached playersFoldAt rows, and reports whether it did.
func (pt *playersTail) fold(ctx context.Context, tx *sql.Tx, staged int) (bool, error) {
	if !pt.valid || len(pt.rows)+staged < playersFoldAt {
		return false, nil
	}
	if _, err := tx.ExecContext(ctx, foldSQL); err != nil {
		return false, fmt.Errorf("moving players_tail into players: %w", err)
	}
	return true, nil
}

// playerLookup reads the players row of one skeleton from players (its
// key) or players_tail (a scan of at most about playersFoldAt rows), in
// one statement, so one snapshot: a fold committed between two reads
// cannot hide the row. With both (a tampered table), the earlier index.
const playerLookup = `SELECT skeleton, player, idx FROM players WHERE skeleton = ?1
	UNION ALL SELECT skeleton, player, idx FROM players_tail WHERE skeleton = ?1
	ORDER BY 3 LIMIT 1`

// eachPlayerQuery lists players and players_tail together in skeleton
// order: SQLite merges the two ordered scans (the key of players and a
// sort of the small tail) without sorting players.
const eachPlayerQuery = `SELECT skeleton, player, idx FROM players
	UNION ALL SELECT skeleton, player, idx FROM players_tail
	ORDER BY 1`
