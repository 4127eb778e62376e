package ledger

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"sync"
)

// SeedCommitOf returns the seed_commits row of a seed-commit entry at
// index: the string members commitment (64 lowercase hex characters in a
// leaf the log wrote), game and match_id at the top level of its leaf,
// and true; false for another kind, or a leaf without all three as
// strings. It is what [StoredEntry.SeedCommit] holds for a store.
func SeedCommitOf(kind Kind, leaf []byte, index int64) (StoredSeedCommit, bool) {
	if kind != KindSeedCommit {
		return StoredSeedCommit{}, false
	}
	c, ok1 := topLevelString(leaf, "commitment")
	g, ok2 := topLevelString(leaf, "game")
	m, ok3 := topLevelString(leaf, "match_id")
	if !ok1 || !ok2 || !ok3 {
		return StoredSeedCommit{}, false
	}
	return StoredSeedCommit{Commitment: c, Index: index, Game: g, MatchID: m}, true
}

// seedIndexCheck is what CheckSeedCommits has read of the log: the
// seed-commit leaves below upTo, by index.
type seedIndexCheck struct {
	mu     sync.Mutex
	upTo   int64
	leaves map[int64]StoredSeedCommit
}

// CheckSeedCommits holds the store's seed_commits rows to the seed-commit
// leaves below the tree size: each seed-commit leaf has exactly its row
// (SeedCommitOf: its commitment, game and match_id), and every row below
// the size names one. A reader whose verdict rests on what the table does
// NOT hold (no earlier seed-commit of a commitment, no earlier seed-commit
// of a match: verify.CheckResult) calls it first, so that a row deleted,
// moved or added in the database is reported as an alteration rather
// than changing the verdict. The first call reads the log: a store that
// selects the leaves holding SeedLeafNeedle itself (SeedLeafReader:
// SQLite, PostgreSQL) sends only those rows; one with chunked reads
// (ChunkReader) sends chunks of leaves, and only those holding the
// needle are read row by row; any other every row (EntryRange). Later
// calls read only the entries appended since. The leaves are taken as stored: one altered to hide a
// seed-commit is the audit's to name (and a reader's proof of each entry
// it shows). Writers do not call it: admission trusts the table, as it
// trusts the players table and the duplicate keys (O(log n) per append),
// and the audit re-derives it. A store whose file predates the table
// (opened read-only) has nothing to check. Errors: a difference, wrapping
// ErrTampered and naming the row or entry; storage errors.
func (l *Ledger) CheckSeedCommits(ctx context.Context) error {
	// A lookup of no match is how a store says, cheaply, that its file
	// predates the table (Census would count every table's rows).
	if _, err := l.store.SeedCommitsOfMatch(ctx, "", ""); errors.Is(err, errors.ErrUnsupported) {
		return nil
	} else if err != nil {
		return err
	}
	c := &l.seedIndex
	c.mu.Lock()
	defer c.mu.Unlock()
	size, err := l.store.Size(ctx)
	if err != nil {
		return err
	}
	if c.leaves == nil {
		c.leaves = map[int64]StoredSeedCommit{}
	}
	if size > c.upTo {
		if err := l.readSeedCommitLeaves(ctx, c.upTo, size, c.leaves); err != nil {
			return err
		}
		c.upTo = size
	}
	altered := func(format string, args ...any) error {
		return fmt.Errorf("seed_commits: "+format+"; the table must hold exactly the seed-commit leaves ('sealed ledger audit' names the row): %w", append(args, ErrTampered)...)
	}
	seen := make(map[int64]bool, len(c.leaves))
	err = l.store.EachSeedCommit(ctx, func(r StoredSeedCommit) error {
		if r.Index >= c.upTo {
			return nil // appended since the size was read
		}
		leaf, ok := c.leaves[r.Index]
		switch {
		case !ok:
			return altered("a row (%s) names entry %d, which is not a seed-commit", rowText(r), r.Index)
		case seen[r.Index]:
			return altered("entry %d has two rows", r.Index)
		case leaf != r:
			return altered("the row of entry %d holds %s; its leaf holds %s", r.Index, rowText(r), rowText(leaf))
		}
		seen[r.Index] = true
		return nil
	})
	if err != nil {
		return err
	}
	if len(seen) != len(c.leaves) {
		for i, leaf := range c.leaves {
			if !seen[i] {
				return altered("seed-commit entry %d (%s) has no row", i, rowText(leaf))
			}
		}
	}
	return nil
}

// readSeedCommitLeaves adds the seed-commit leaves of entries [from, to)
// to into, by index.
func (l *Ledger) readSeedCommitLeaves(ctx context.Context, from, to int64, into map[int64]StoredSeedCommit) error {
	needle := []byte(SeedLeafNeedle)
	cr, _ := l.store.(ChunkReader)
	sr, _ := l.store.(SeedLeafReader)
	if sr != nil {
		cr = nil // the database scans; only candidates come back
	}
	var ch EntryChunk
	step := int64(auditEntryChunk)
	if sr != nil {
		step = 1 << 16
	}
	for a := from; a < to; a += step {
		b := min(a+step, to)
		if cr != nil {
			if err := cr.EntryChunk(ctx, a, b, &ch); err == nil && ch.Count == b-a && !bytes.Contains(ch.Bodies, needle) {
				continue
			}
		}
		var rows []StoredEntry
		var err error
		if sr != nil {
			rows, err = sr.SeedLeafCandidates(ctx, a, b)
		} else {
			rows, err = l.store.EntryRange(ctx, a, b)
		}
		if err != nil {
			return err
		}
		for i := range rows {
			kind, _ := topLevelString(rows[i].Leaf, "kind")
			if sc, ok := SeedCommitOf(Kind(kind), rows[i].Leaf, rows[i].Index); ok {
				into[rows[i].Index] = sc
			}
		}
	}
	return nil
}
