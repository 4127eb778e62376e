package pgstore

import (
	"context"
	"fmt"

	"github.com/sealedhq/sealed/ledger"
)

// Census implements ledger.Store.
func (s *Store) Census(ctx context.Context) (_ *ledger.Census, err error) {
	defer s.classify(&err)
	c := &ledger.Census{SchemaLatest: SchemaVersion()}
	// One statement, so one snapshot: with a writer appending meanwhile,
	// counts read one after the other would find the stored hashes of
	// entries appended after the entries were counted.
	if err := s.pool.QueryRow(ctx, `SELECT e.n, e.lo, e.hi, h.n, h.lo, h.hi, c.n, c.lo, c.hi FROM
		(SELECT count(*) AS n, coalesce(min(idx), 0) AS lo, coalesce(max(idx), 0) AS hi FROM entries) AS e,
		(SELECT count(*) AS n, coalesce(min(id), 0) AS lo, coalesce(max(id), 0) AS hi FROM hashes) AS h,
		(SELECT count(*) AS n, coalesce(min(id), 0) AS lo, coalesce(max(id), 0) AS hi FROM checkpoints) AS c`).Scan(
		&c.Entries.Rows, &c.Entries.Min, &c.Entries.Max,
		&c.Hashes.Rows, &c.Hashes.Min, &c.Hashes.Max,
		&c.Checkpoints.Rows, &c.Checkpoints.Min, &c.Checkpoints.Max); err != nil {
		return nil, fmt.Errorf("census: %w", err)
	}
	if err := s.pool.QueryRow(ctx, `SELECT count(*) FROM cosignatures`).Scan(&c.Cosignatures); err != nil {
		return nil, fmt.Errorf("census: %w", err)
	}
	if err := s.pool.QueryRow(ctx, `SELECT count(*) FROM replays`).Scan(&c.Replays); err != nil {
		return nil, fmt.Errorf("census: %w", err)
	}
	// A database opened read-only may predate the players table; one
	// whose schema version says it has one has it.
	ok, v, err := s.hasPlayers(ctx)
	if err != nil {
		return nil, fmt.Errorf("census: %w", err)
	}
	c.PlayersTable = ok
	if ok {
		if err := s.pool.QueryRow(ctx, `SELECT count(*) FROM players`).Scan(&c.Players); err != nil {
			return nil, fmt.Errorf("census: %w", err)
		}
	} else if v >= playersMigration {
		return nil, fmt.Errorf("players: the table is missing, but schema version %d (migration %d made it) is recorded: %w", v, playersMigration, ledger.ErrTampered)
	}
	// And seed_commits.
	if ok, v, err = s.hasSeedCommits(ctx); err != nil {
		return nil, fmt.Errorf("census: %w", err)
	}
	c.SeedCommitsTable = ok
	if ok {
		if err := s.pool.QueryRow(ctx, `SELECT count(*) FROM seed_commits`).Scan(&c.SeedCommits); err != nil {
			return nil, fmt.Errorf("census: %w", err)
		}
	} else if v >= seedCommitsMigration {
		return nil, fmt.Errorf("seed_commits: the table is missing, but schema version %d (migration %d made it) is recorded: %w", v, seedCommitsMigration, ledger.ErrTampered)
	}
	rows, err := s.pool.Query(ctx, `SELECT key FROM log_meta ORDER BY key`)
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
	rows, err = s.pool.Query(ctx, `SELECT version FROM schema_version ORDER BY version`)
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

// EachReplay implements ledger.Store. A row holding NULL or a value of
// another type than the schema's is an error wrapping ledger.ErrTampered
// naming the row and the column.
func (s *Store) EachReplay(ctx context.Context, fn func(digest string, data []byte) error) (err error) {
	defer s.classify(&err)
	rows, err := s.pool.Query(ctx, `SELECT sha256, bytes FROM replays ORDER BY sha256`)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		v, err := rowValues(rows, 2)
		if err != nil {
			return fmt.Errorf("replays: %w", err)
		}
		d, ok := asText(v[0])
		if !ok {
			return fmt.Errorf("replays: a row's sha256 is %s, not text: %w", describe(v[0]), ledger.ErrTampered)
		}
		b, ok := asBytes(v[1])
		if !ok {
			return badValue("replays", fmt.Sprintf("the row of digest %q", d), "bytes", v[1], "bytes (bytea)")
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
