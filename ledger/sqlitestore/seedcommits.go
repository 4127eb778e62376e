package sqlitestore

import (
	"context"
	"errors"
	"fmt"

	"github.com/sealedhq/sealed/ledger"
)

// seedCommitsMigration is the migration that made the seed_commits table.
const seedCommitsMigration = 7

// hasSeedCommits reports whether the file has seed_commits (a file opened
// read-only may predate migration 7).
func (s *Store) hasSeedCommits(ctx context.Context) (bool, error) {
	return s.hasSeeds.check(ctx, s, "seed_commits")
}

// SeedCommits implements ledger.Store: one seek of the table's key.
func (s *Store) SeedCommits(ctx context.Context, commitment string) (_ []int64, err error) {
	defer s.classify(&err)
	if ok, err := s.hasSeedCommits(ctx); err != nil {
		return nil, fmt.Errorf("reading seed_commits: %w", err)
	} else if !ok {
		return nil, fmt.Errorf("seed_commits: the file predates the table (schema migration %d, applied when a writer opens it): %w", seedCommitsMigration, errors.ErrUnsupported)
	}
	return s.seedCommitIndexes(ctx, fmt.Sprintf("commitment %s", commitment),
		`SELECT idx FROM seed_commits WHERE commitment = ? ORDER BY idx`, commitment)
}

// SeedCommitsOfMatch implements ledger.Store: one seek of
// seed_commits_match.
func (s *Store) SeedCommitsOfMatch(ctx context.Context, game, matchID string) (_ []int64, err error) {
	defer s.classify(&err)
	if ok, err := s.hasSeedCommits(ctx); err != nil {
		return nil, fmt.Errorf("reading seed_commits: %w", err)
	} else if !ok {
		return nil, fmt.Errorf("seed_commits: the file predates the table (schema migration %d, applied when a writer opens it): %w", seedCommitsMigration, errors.ErrUnsupported)
	}
	return s.seedCommitIndexes(ctx, fmt.Sprintf("game %q, match_id %q", game, matchID),
		`SELECT idx FROM seed_commits WHERE game = ? AND match_id = ? ORDER BY idx`, game, matchID)
}

// seedCommitIndexes runs q (one idx a row), naming the rows asked for by
// what in a finding.
func (s *Store) seedCommitIndexes(ctx context.Context, what, q string, args ...any) ([]int64, error) {
	rows, err := s.r.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("reading seed_commits: %w", err)
	}
	defer rows.Close()
	var out []int64
	for rows.Next() {
		var v any
		if err := rows.Scan(&v); err != nil {
			return nil, fmt.Errorf("reading seed_commits: %w", err)
		}
		idx, ok := v.(int64)
		if !ok {
			return nil, fmt.Errorf("seed_commits: a row of %s holds %s in column idx; expected an integer: %w", what, describe(v), ledger.ErrTampered)
		}
		out = append(out, idx)
	}
	return out, rows.Err()
}

// SeedLeafCandidates implements ledger.SeedLeafReader: SQLite scans the
// range's leaves for ledger.SeedLeafNeedle (instr over the BLOB) and
// returns only the rows holding it.
func (s *Store) SeedLeafCandidates(ctx context.Context, from, to int64) (_ []ledger.StoredEntry, err error) {
	defer s.classify(&err)
	return s.queryEntries(ctx, `WHERE idx >= ? AND idx < ? AND instr(body, ?) > 0 ORDER BY idx`, from, to, []byte(ledger.SeedLeafNeedle))
}

// EachSeedCommit implements ledger.Store.
func (s *Store) EachSeedCommit(ctx context.Context, fn func(ledger.StoredSeedCommit) error) (err error) {
	defer s.classify(&err)
	if ok, err := s.hasSeedCommits(ctx); err != nil || !ok {
		return err
	}
	rows, err := s.r.QueryContext(ctx, `SELECT commitment, idx, game, match_id FROM seed_commits ORDER BY commitment, idx`)
	if err != nil {
		return fmt.Errorf("reading seed_commits: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var v [4]any
		if err := rows.Scan(&v[0], &v[1], &v[2], &v[3]); err != nil {
			return fmt.Errorf("reading seed_commits: %w", err)
		}
		r, err := seedCommitOfRow(v)
		if err != nil {
			return err
		}
		if err := fn(r); err != nil {
			return err
		}
	}
	return rows.Err()
}

// seedCommitOfRow converts a seed_commits row read as SQLite's own
// values, refusing a value of the wrong type: an error wrapping
// ledger.ErrTampered naming the row and column.
func seedCommitOfRow(v [4]any) (ledger.StoredSeedCommit, error) {
	var r ledger.StoredSeedCommit
	var ok bool
	if r.Index, ok = v[1].(int64); !ok {
		return r, fmt.Errorf("seed_commits: a row holds %s in column idx; expected an integer: %w", describe(v[1]), ledger.ErrTampered)
	}
	for _, c := range []struct {
		name string
		v    any
		to   *string
	}{{"commitment", v[0], &r.Commitment}, {"game", v[2], &r.Game}, {"match_id", v[3], &r.MatchID}} {
		if *c.to, ok = c.v.(string); !ok {
			return r, fmt.Errorf("seed_commits: the row of entry %d holds %s in column %s; expected text: %w", r.Index, describe(c.v), c.name, ledger.ErrTampered)
		}
	}
	return r, nil
}

// SeedCommits implements ledger.WriteTx: the smallest index of each
// commitment, one seek each (seed-commits are rare in a batch).
func (t *writeTx) SeedCommits(ctx context.Context, commitments []string) (map[string]int64, error) {
	out := make(map[string]int64, len(commitments))
	for _, c := range commitments {
		var v any
		err := t.tx.QueryRowContext(ctx, `SELECT min(idx) FROM seed_commits WHERE commitment = ?`, c).Scan(&v)
		if err != nil {
			return nil, fmt.Errorf("reading seed_commits: %w", err)
		}
		switch idx := v.(type) {
		case nil:
		case int64:
			out[c] = idx
		default:
			return nil, fmt.Errorf("seed_commits: a row of commitment %s holds %s in column idx; expected an integer: %w", c, describe(v), ledger.ErrTampered)
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
		res, err := t.tx.ExecContext(ctx, `INSERT INTO seed_commits(commitment, idx, game, match_id) VALUES(?, ?, ?, ?)`, sc.Commitment, entries[i].Index, sc.Game, sc.MatchID)
		if err != nil {
			return conflict(err)
		}
		if err := ledger.CheckRowsStored("seed_commits", res.RowsAffected, 1); err != nil {
			return err
		}
	}
	return nil
}
