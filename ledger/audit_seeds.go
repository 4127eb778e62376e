package ledger

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// auditSeedCommits holds the seed_commits rows (read before the tree
// pass) to the seed-commit leaves the pass saw below n: each such entry
// has exactly one row, holding the commitment, game and match_id of its
// leaf (SeedCommitOf), and every row below n is such an entry's. A row at an index in [n, size) belongs to
// an entry a writer appended during the audit; one at or past size (the
// census's end), or below 0, is outside the log. The finding at the
// smallest index is returned. A file opened read-only from before the
// table (on false) has nothing to check.
func auditSeedCommits(rep *AuditReport, on bool, n, size int64) *AuditProblem {
	if err := rep.seedRowsErr; err != nil {
		if errors.Is(err, ErrTampered) {
			return &AuditProblem{Index: -1, Checkpoint: -1, Table: "seed_commits",
				What: strings.TrimPrefix(err.Error(), "seed_commits: ")}
		}
		return nil // reported by the caller (seedRowsErr)
	}
	if !on {
		return nil
	}
	rows := map[int64][]StoredSeedCommit{}
	for _, r := range rep.seedRows {
		if r.Index < 0 || r.Index >= size {
			return &AuditProblem{Index: -1, Checkpoint: -1, Table: "seed_commits",
				What: fmt.Sprintf("a row for index %d (%s), outside the log's indexes 0..%d", r.Index, rowText(r), size-1)}
		}
		if r.Index < n {
			rows[r.Index] = append(rows[r.Index], r)
		}
	}
	var found []*AuditProblem
	leaves := make(map[int64]bool, len(rep.seeds))
	for _, s := range rep.seeds {
		leaves[s.Index] = true
		got := rows[s.Index]
		switch {
		case len(got) == 0:
			found = append(found, &AuditProblem{Index: s.Index, Checkpoint: -1, Table: "seed_commits",
				What: fmt.Sprintf("the row of this seed-commit entry (commitment %s) is missing: a seed-commit holding it would not be refused", s.Commitment)})
		case len(got) > 1:
			found = append(found, &AuditProblem{Index: s.Index, Checkpoint: -1, Table: "seed_commits",
				What: fmt.Sprintf("this seed-commit entry has %d rows (%s); expected one, %s", len(got), rowsText(got), rowText(s))})
		case got[0] != s:
			found = append(found, &AuditProblem{Index: s.Index, Checkpoint: -1, Table: "seed_commits",
				What: fmt.Sprintf("the row of this seed-commit entry holds %s; its leaf holds %s", rowText(got[0]), rowText(s))})
		}
	}
	for idx, rs := range rows {
		if !leaves[idx] {
			found = append(found, &AuditProblem{Index: idx, Checkpoint: -1, Table: "seed_commits",
				What: fmt.Sprintf("a row (%s) names this entry, which is not a seed-commit holding a commitment, game and match_id", rowText(rs[0]))})
		}
	}
	if len(found) == 0 {
		return nil
	}
	return slices.MinFunc(found, func(a, b *AuditProblem) int { return int(min(max(a.Index-b.Index, -1), 1)) })
}

// rowText shows a seed_commits row's values for a finding.
func rowText(r StoredSeedCommit) string {
	return fmt.Sprintf("commitment %q, game %q, match_id %q", r.Commitment, r.Game, r.MatchID)
}

// rowsText shows several rows' values for a finding.
func rowsText(rs []StoredSeedCommit) string {
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = rowText(r)
	}
	return strings.Join(out, "; ")
}
