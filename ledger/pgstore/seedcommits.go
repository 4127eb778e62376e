package pgstore

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/sealedhq/sealed/ledger"
)

// seedCommitsMigration is the migration that made the seed_commits table.
const seedCommitsMigration = 4

// fillSeedCommits writes the seed_commits rows of the seed-commit
// entries already stored (migration 4).
func fillSeedCommits(ctx context.Context, tx pgx.Tx) error {
	rows, err := tx.Query(ctx, `SELECT idx, body FROM entries WHERE kind = 'seed-commit' ORDER BY idx`)
	if err != nil {
		return fmt.Errorf("filling seed_commits: %w", err)
	}
	var found []ledger.StoredSeedCommit
	for rows.Next() {
		var idx int64
		var body []byte
		if err := rows.Scan(&idx, &body); err != nil {
			rows.Close()
			return fmt.Errorf("filling seed_commits: %w", err)
		}
		// A leaf without a commitment, game or match_id is the audit's
		// to name.
		if r, ok := ledger.SeedCommitOf(ledger.KindSeedCommit, body, idx); ok {
			found = append(found, r)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("filling seed_commits: %w", err)
	}
	for _, r := range found {
		if _, err := tx.Exec(ctx, `INSERT INTO seed_commits(commitment, idx, game, match_id) VALUES($1, $2, $3, $4)`, r.Commitment, r.Index, r.Game, r.MatchID); err != nil {
			return fmt.Errorf("filling seed_commits: %w", err)
		}
	}
	return nil
}

// hasSeedCommits reports whether the database has the seed_commits table
// (a database opened read-only may predate it), and its schema version.
func (s *Store) hasSeedCommits(ctx context.Context) (bool, int, error) {
	var ok bool
	if err := s.pool.QueryRow(ctx, `SELECT to_regclass('seed_commits') IS NOT NULL`).Scan(&ok); err != nil {
		return false, 0, err
	}
	v, err := schemaVersion(ctx, s.pool)
	return ok, v, err
}

// SeedCommits implements ledger.Store (the table's primary key).
func (s *Store) SeedCommits(ctx context.Context, commitment string) (_ []int64, err error) {
	defer s.classify(&err)
	if ok, _, err := s.hasSeedCommits(ctx); err != nil {
		return nil, fmt.Errorf("reading seed_commits: %w", err)
	} else if !ok {
		return nil, fmt.Errorf("seed_commits: the database predates the table (schema migration %d, applied when a writer opens it): %w", seedCommitsMigration, errors.ErrUnsupported)
	}
	return seedCommitIndexes(ctx, s.pool, fmt.Sprintf("commitment %s", commitment), `SELECT idx FROM seed_commits WHERE commitment = $1 ORDER BY idx`, commitment)
}

// SeedLeafCandidates implements ledger.SeedLeafReader: the server scans
// the range's leaves for ledger.SeedLeafNeedle (position in bytea) and
// sends only the rows holding it.
func (s *Store) SeedLeafCandidates(ctx context.Context, from, to int64) (_ []ledger.StoredEntry, err error) {
	defer s.classify(&err)
	return s.queryEntries(ctx, `WHERE idx >= $1 AND idx < $2 AND position($3::bytea IN body) > 0 ORDER BY idx`, from, to, []byte(ledger.SeedLeafNeedle))
}

// SeedCommitsOfMatch implements ledger.Store (seed_commits_match).
func (s *Store) SeedCommitsOfMatch(ctx context.Context, game, matchID string) (_ []int64, err error) {
	defer s.classify(&err)
	if ok, _, err := s.hasSeedCommits(ctx); err != nil {
		return nil, fmt.Errorf("reading seed_commits: %w", err)
	} else if !ok {
		return nil, fmt.Errorf("seed_commits: the database predates the table (schema migration %d, applied when a writer opens it): %w", seedCommitsMigration, errors.ErrUnsupported)
	}
	return seedCommitIndexes(ctx, s.pool, fmt.Sprintf("game %q, match_id %q", game, matchID),
		`SELECT idx FROM seed_commits WHERE game = $1 AND match_id = $2 ORDER BY idx`, game, matchID)
}

// seedCommitIndexes runs query (one idx a row), naming the rows asked
// for by what in a finding.
func seedCommitIndexes(ctx context.Context, q querier, what, query string, args ...any) ([]int64, error) {
	rows, err := q.Query(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("reading seed_commits: %w", err)
	}
	defer rows.Close()
	var out []int64
	for rows.Next() {
		v, err := rowValues(rows, 1)
		if err != nil {
			return nil, fmt.Errorf("reading seed_commits: %w", err)
		}
		if v[0] == nil { // min() of no row
			continue
		}
		idx, ok := asInt64(v[0])
		if !ok {
			return nil, badValue("seed_commits", "a row of "+what, "idx", v[0], "an integer")
		}
		out = append(out, idx)
	}
	return out, rows.Err()
}

// EachSeedCommit implements ledger.Store. A row holding NULL or a value
// of another type than the schema's is an error wrapping
// ledger.ErrTampered.
func (s *Store) EachSeedCommit(ctx context.Context, fn func(ledger.StoredSeedCommit) error) (err error) {
	defer s.classify(&err)
	if ok, _, err := s.hasSeedCommits(ctx); err != nil || !ok {
		return err
	}
	rows, err := s.pool.Query(ctx, `SELECT commitment, idx, game, match_id FROM seed_commits ORDER BY commitment COLLATE "C", idx`)
	if err != nil {
		return fmt.Errorf("reading seed_commits: %w", err)
	}
	var all []ledger.StoredSeedCommit
	for rows.Next() {
		v, err := rowValues(rows, 4)
		if err != nil {
			rows.Close()
			return fmt.Errorf("reading seed_commits: %w", err)
		}
		var r ledger.StoredSeedCommit
		var ok bool
		if r.Index, ok = asInt64(v[1]); !ok {
			rows.Close()
			return badValue("seed_commits", "a row", "idx", v[1], "an integer")
		}
		for _, c := range []struct {
			name string
			v    any
			to   *string
		}{{"commitment", v[0], &r.Commitment}, {"game", v[2], &r.Game}, {"match_id", v[3], &r.MatchID}} {
			if *c.to, ok = asText(c.v); !ok {
				rows.Close()
				return badValue("seed_commits", fmt.Sprintf("the row of entry %d", r.Index), c.name, c.v, "text")
			}
		}
		all = append(all, r)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("reading seed_commits: %w", err)
	}
	for _, r := range all {
		if err := fn(r); err != nil {
			return err
		}
	}
	return nil
}

// SeedCommits implements ledger.WriteTx: one seek per commitment
// (seed-commits are rare in a batch).
func (t *writeTx) SeedCommits(ctx context.Context, commitments []string) (map[string]int64, error) {
	out := make(map[string]int64, len(commitments))
	for _, c := range commitments {
		idx, err := seedCommitIndexes(ctx, t.conn, "commitment "+c, `SELECT min(idx) FROM seed_commits WHERE commitment = $1`, c)
		if err != nil {
			return nil, err
		}
		if len(idx) == 1 {
			out[c] = idx[0]
		}
	}
	return out, nil
}

// insertSeedCommits writes the seed_commits rows of the entries that are
// seed-commits.
func (t *writeTx) insertSeedCommits(ctx context.Context, entries []ledger.StoredEntry) error {
	for i := range entries {
		sc := entries[i].SeedCommit
		if sc == nil {
			continue
		}
		tag, err := t.conn.Exec(ctx, `INSERT INTO seed_commits(commitment, idx, game, match_id) VALUES($1, $2, $3, $4)`, sc.Commitment, entries[i].Index, sc.Game, sc.MatchID)
		if err != nil {
			return conflict(err)
		}
		if err := ledger.CheckRowsStored("seed_commits", func() (int64, error) { return tag.RowsAffected(), nil }, 1); err != nil {
			return err
		}
	}
	return nil
}
