package sqlitestore

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sealedhq/sealed/ledger"
)

// TestLookupsUseTheIndex asks SQLite's planner (EXPLAIN QUERY PLAN) how it
// runs the duplicate and commitment lookups: through lookup's primary key
// (and, for a commitment, a scan of the small lookup_tail), never a scan
// of entries, so that a one-shot append costs O(log n).
func TestLookupsUseTheIndex(t *testing.T) {
	s, err := Open(filepath.Join(t.TempDir(), "t.db"), Options{Create: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	probes := []ledger.DuplicateProbe{{Commitment: strings.Repeat("ab", 32)}, {Dedup: [32]byte{1}}}
	for _, q := range []struct {
		sql, want string // want: how the plan must seek the key
		args      []any
	}{
		// Both columns: a commitment posted by many players costs one
		// seek, not a walk over all its commits.
		{dupQuery, "SEARCH lookup USING PRIMARY KEY (k=? AND d=?)", []any{lookupKey(probes[1]), probes[1].Dedup[:8]}},
		{`SELECT ` + entryColumns + ` FROM entries ` + commitmentQuery, "SEARCH lookup USING PRIMARY KEY (k=?)", []any{lookupKey(probes[0]), probes[0].Commitment}},
		// The batched forms the writer runs: each UNION ALL arm seeks the
		// index; the IN list seeks players' primary key.
		{dupQuery + ` UNION ALL ` + dupQuery, "SEARCH lookup USING PRIMARY KEY (k=? AND d=?)", []any{lookupKey(probes[1]), probes[1].Dedup[:8], lookupKey(probes[0]), probes[0].Dedup[:8]}},
		{playersIn.head + `?,?,?` + playersIn.tail, "SEARCH players USING PRIMARY KEY (skeleton=?)", []any{"a", "b", "c"}},
		// The audit's read of the key rows in key order: lookup's own
		// order merged with the sorted tail, lookup never sorted.
		{keyRowsQuery, "MERGE (UNION ALL)", []any{5}},
	} {
		rows, err := s.r.QueryContext(ctx, `EXPLAIN QUERY PLAN `+q.sql, q.args...)
		if err != nil {
			t.Fatal(err)
		}
		var plan []string
		for rows.Next() {
			var id, parent, unused int
			var detail string
			if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
				t.Fatal(err)
			}
			plan = append(plan, detail)
		}
		rows.Close()
		p := strings.Join(plan, "; ")
		if !strings.Contains(p, q.want) || strings.Contains(p, "SCAN entries") || strings.Contains(p, "SCAN players") ||
			(strings.HasPrefix(q.sql, dupQuery+" UNION ALL") && strings.Count(p, q.want) != 2) ||
			(q.sql == keyRowsQuery && (!strings.Contains(p, "SCAN lookup;") || strings.Count(p, "TEMP B-TREE") != 1)) {
			t.Errorf("plan of %s:\n%s\nwant %s and no scan of entries", q.sql, p, q.want)
		}
	}
}
