package sqlitestore

import (
	"context"
	"fmt"

	"github.com/sealedhq/sealed/ledger"
)

// censusQuery reads the row count, smallest and largest key of entries,
// hashes and checkpoints.
const censusQuery = `SELECT e.n, e.lo, e.hi, h.n, h.lo, h.hi, c.n, c.lo, c.hi FROM
	(SELECT count(*) AS n, coalesce(min(idx), 0) AS lo, coalesce(max(idx), 0) AS hi FROM entries) AS e,
	(SELECT count(*) AS n, coalesce(min(id), 0) AS lo, coalesce(max(id), 0) AS hi FROM hashes) AS h,
	(SELECT count(*) AS n, coalesce(min(id), 0) AS lo, coalesce(max(id), 0) AS hi FROM checkpoints) AS c`

// Census implements ledger.Store.
func (s *Store) Census(ctx context.Context) (_ *ledger.Census, err error) {
	defer s.classify(&err)
	c := &ledger.Census{SchemaLatest: SchemaVersion()}
	// One statement, so one snapshot: with a writer appending meanwhile,
	// counts read one after the other would find the stored hashes of
	// entries appended after the entries were counted.
	if err := s.r.QueryRowContext(ctx, censusQuery).Scan(
		&c.Entries.Rows, &c.Entries.Min, &c.Entries.Max,
		&c.Hashes.Rows, &c.Hashes.Min, &c.Hashes.Max,
		&c.Checkpoints.Rows, &c.Checkpoints.Min, &c.Checkpoints.Max); err != nil {
		return nil, fmt.Errorf("census: %w", err)
	}
	// A file opened read-only may predate the cosignatures table
	// (migration 3).
	var tables int
	if err = s.r.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'cosignatures'`).Scan(&tables); err != nil {
		return nil, fmt.Errorf("census: %w", err)
	}
	if tables == 1 {
		if err := s.r.QueryRowContext(ctx, `SELECT count(*) FROM cosignatures`).Scan(&c.Cosignatures); err != nil {
			return nil, fmt.Errorf("census: %w", err)
		}
	}
	if err := s.r.QueryRowContext(ctx, `SELECT count(*) FROM replays`).Scan(&c.Replays); err != nil {
		return nil, fmt.Errorf("census: %w", err)
	}
	// Likewise the players table (migration 4); a file whose schema
	// version says it has one has it.
	if c.PlayersTable, err = s.hasTable(ctx, "players"); err != nil {
		return nil, fmt.Errorf("census: %w", err)
	}
	if c.PlayersTable {
		if err := s.r.QueryRowContext(ctx, `SELECT count(*) FROM players`).Scan(&c.Players); err != nil {
			return nil, fmt.Errorf("census: %w", err)
		}
		// The rows of players_tail (migration 6) are players rows too.
		if ok, err := s.hasPlayersTail(ctx); err != nil {
			return nil, fmt.Errorf("census: %w", err)
		} else if ok {
			var n int64
			if err := s.r.QueryRowContext(ctx, `SELECT count(*) FROM players_tail`).Scan(&n); err != nil {
				return nil, fmt.Errorf("census: %w", err)
			}
			c.Players += n
		}
	} else {
		var v int
		if err := s.r.QueryRowContext(ctx, `SELECT coalesce(max(version), 0) FROM schema_version`).Scan(&v); err != nil {
			return nil, fmt.Errorf("census: %w", err)
		}
		if v >= playersMigration {
			return nil, fmt.Errorf("players: the table is missing, but schema version %d (migration %d made it) is recorded: %w", v, playersMigration, ledger.ErrTampered)
		}
	}
	// And seed_commits (migration 7).
	if c.SeedCommitsTable, err = s.hasTable(ctx, "seed_commits"); err != nil {
		return nil, fmt.Errorf("census: %w", err)
	}
	if c.SeedCommitsTable {
		if err := s.r.QueryRowContext(ctx, `SELECT count(*) FROM seed_commits`).Scan(&c.SeedCommits); err != nil {
			return nil, fmt.Errorf("census: %w", err)
		}
	} else {
		var v int
		if err := s.r.QueryRowContext(ctx, `SELECT coalesce(max(version), 0) FROM schema_version`).Scan(&v); err != nil {
			return nil, fmt.Errorf("census: %w", err)
		}
		if v >= seedCommitsMigration {
			return nil, fmt.Errorf("seed_commits: the table is missing, but schema version %d (migration %d made it) is recorded: %w", v, seedCommitsMigration, ledger.ErrTampered)
		}
	}
	rows, err := s.r.QueryContext(ctx, `SELECT key FROM log_meta ORDER BY key`)
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		var k string
		if err := rows.Scan(&k); err != nil {
			rows.Close()
			return nil, fmt.Errorf("census: log_meta: %w", err)
		}
		c.MetaKeys = append(c.MetaKeys, k)
	}
	rows.Close()
	rows, err = s.r.QueryContext(ctx, `SELECT version FROM schema_version ORDER BY version`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var v int
		if err := rows.Scan(&v); err != nil {
			return nil, fmt.Errorf("census: schema_version: %w", err)
		}
		c.SchemaVersions = append(c.SchemaVersions, v)
	}
	return c, rows.Err()
}

// EachReplay implements ledger.Store.
func (s *Store) EachReplay(ctx context.Context, fn func(digest string, data []byte) error) (err error) {
	defer s.classify(&err)
	rows, err := s.r.QueryContext(ctx, `SELECT sha256, bytes FROM replays ORDER BY sha256`)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var d string
		var b []byte
		if err := rows.Scan(&d, &b); err != nil {
			return fmt.Errorf("replays: %w", err)
		}
		if b == nil {
			b = []byte{}
		}
		if err := fn(d, b); err != nil {
			return err
		}
	}
	return rows.Err()
}
