package verify

import (
	"bytes"
	"context"
	"errors"
	"fmt"

	"github.com/sealedhq/sealed/ledger"
)

// A seed is committed once: a seed-commit whose commitment an earlier
// seed-commit holds commits to a seed that may already be public (the
// earlier match's seed-reveal publishes it), so every private value of
// its match may have been known before its commitment. Admit refuses such
// a seed-commit; CheckResult reports a result held to one.
//
// The stores index seed-commits by commitment (the seed_commits table,
// docs/ledger.md "Duplicates"), so the lookup is one seek, O(log n); the
// entries it names are read and checked. A database opened read-only
// from before that table is scanned instead, O(n) (scanSeedCommits).

// earlierSeedCommit is a seed-commit entry holding a commitment, and the
// first seed-reveal naming it (-1 if none).
type earlierSeedCommit struct {
	index  int64
	body   *ledger.Body
	reveal int64
}

// seedCommitHolding returns the earliest seed-commit entry with index in
// [0, to) whose commitment is commitment (64 lowercase hex characters),
// with the first seed-reveal naming it; nil when there is none.
//
// The store's seed_commits rows of commitment name the candidates; each
// is read and checked against its stored leaf hash (ledger.Entries), and
// decides. So the answer rests on checked entries, but a row deleted or
// altered in the database to hide a seed-commit is not seen here: the
// audit names it (the table is re-derived from the leaves).
func seedCommitHolding(l *ledger.Ledger, commitment string, to int64) (*earlierSeedCommit, error) {
	needle := []byte(`"commitment":"` + commitment + `"`) // as RFC 8785 writes the member
	idx, err := l.Store().SeedCommits(context.Background(), commitment)
	if errors.Is(err, errors.ErrUnsupported) {
		return scanSeedCommits(l, commitment, needle, to)
	}
	if err != nil {
		return nil, err
	}
	for _, i := range idx {
		if i < 0 || i >= to {
			continue
		}
		page, err := l.Entries(i, 1)
		if err != nil {
			return nil, err
		}
		// A row naming another entry was altered: the audit names it.
		if len(page) == 1 && page[0].Index == i {
			if found, err := holding(l, &page[0], needle, commitment); found != nil || err != nil {
				return found, err
			}
		}
	}
	return nil, nil
}

// scanSeedCommits is seedCommitHolding by a scan of the log, for a store
// without the seed_commits table (a file opened read-only from before
// it). A store with chunked reads (ledger.ChunkReader, the audit's:
// SQLite) shows a chunk of scanChunk entries' leaves as one blob; a chunk
// whose leaves do not hold the commitment's member is passed over unread,
// and any other (or every chunk of another store) is read entry by
// entry, each entry checked against its stored leaf hash, and decides.
func scanSeedCommits(l *ledger.Ledger, commitment string, needle []byte, to int64) (*earlierSeedCommit, error) {
	cr, _ := l.Store().(ledger.ChunkReader)
	for from := int64(0); from < to; {
		end := min(from+scanChunk, to)
		if cr != nil {
			var c ledger.EntryChunk
			if err := cr.EntryChunk(context.Background(), from, end, &c); err != nil {
				return nil, err
			}
			if c.Count == end-from && !bytes.Contains(c.Bodies, needle) {
				from = end
				continue
			}
		}
		for from < end {
			page, err := l.Entries(from, int(min(end-from, ledger.MaxEntries)))
			if err != nil {
				return nil, err
			}
			if len(page) == 0 {
				from = end
				break
			}
			for i := range page {
				if found, err := holding(l, &page[i], needle, commitment); found != nil || err != nil {
					return found, err
				}
			}
			from = page[len(page)-1].Index + 1
		}
	}
	return nil, nil
}

// scanChunk is how many entries seedCommitHolding reads as one chunk.
const scanChunk = 4096

// holding returns e as an earlierSeedCommit if it is a seed-commit whose
// commitment is commitment (needle is its member in the leaf).
func holding(l *ledger.Ledger, e *ledger.Entry, needle []byte, commitment string) (*earlierSeedCommit, error) {
	if e.Kind != ledger.KindSeedCommit || !bytes.Contains(e.Leaf, needle) {
		return nil, nil
	}
	b, err := e.Body()
	if err != nil || b.Commitment != commitment { // the needle was in the config
		return nil, err
	}
	found := &earlierSeedCommit{index: e.Index, body: b, reveal: -1}
	refs, err := l.EntriesReferencing(e.Index)
	if err != nil {
		return nil, err
	}
	for _, r := range refs {
		if r.Kind == ledger.KindSeedReveal {
			found.reveal = r.Index
			break
		}
	}
	return found, nil
}

// label names the entry for a message: "seed-commit entry 0 (auction
// match m1)".
func (e *earlierSeedCommit) label() string {
	return fmt.Sprintf("seed-commit entry %d (%s match %s)", e.index, e.body.Game, e.body.MatchID)
}

// reuseProblem is CheckResult's problem for seed-commit entry sc, whose
// commitment the earlier entry e holds.
func (e *earlierSeedCommit) reuseProblem(sc int64) string {
	if e.reveal >= 0 && e.reveal < sc {
		return fmt.Sprintf("seed-commit entry %d commits to a seed already committed at entry %d (%s match %s), and seed-reveal entry %d made it public before entry %d: a seed is committed once; every private value of this match was public before its commitment",
			sc, e.index, e.body.Game, e.body.MatchID, e.reveal, sc)
	}
	revealed := ""
	if e.reveal >= 0 {
		revealed = fmt.Sprintf(", revealed at entry %d", e.reveal)
	}
	return fmt.Sprintf("seed-commit entry %d commits to a seed already committed at entry %d (%s match %s)%s: a seed is committed once; the two matches share every draw, and the seed is public once either is revealed",
		sc, e.index, e.body.Game, e.body.MatchID, revealed)
}
