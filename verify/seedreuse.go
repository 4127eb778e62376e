package verify

import (
	"bytes"
	"context"
	"fmt"

	"github.com/sealedhq/sealed/ledger"
)

// A seed is committed once: a seed-commit whose commitment an earlier
// seed-commit holds commits to a seed that may already be public (the
// earlier match's seed-reveal publishes it), so every private value of
// its match may have been known before its commitment. Admit refuses such
// a seed-commit; CheckResult reports a result held to one.
//
// The stores index the commitments of commit entries only (the
// commitment column is empty for other kinds, docs/ledger.md "Lookups"),
// so the lookup here is a scan of the log, O(n): on SQLite the leaves are
// read a chunk at a time as one blob and searched for the commitment's
// member (about 1 µs an entry: 0.3 s for 300,000 entries on two shared
// cores), on other stores entry by entry (about 10 µs an entry). An
// index of seed-commits' commitments in the stores would make it one
// lookup, O(log n).

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
// A store with chunked reads (ledger.ChunkReader, the audit's: SQLite)
// shows a chunk of scanChunk entries' leaves as one blob; a chunk whose
// leaves do not hold the commitment's member is passed over unread, and
// any other (or every chunk of another store) is read entry by entry,
// each entry checked against its stored leaf hash, and decides. So the
// answer rests on checked entries, but a leaf altered in the database to
// hide the member is not seen here: the audit names it, and CheckResult
// has read (and checked) every entry it passes over already.
func seedCommitHolding(l *ledger.Ledger, commitment string, to int64) (*earlierSeedCommit, error) {
	needle := []byte(`"commitment":"` + commitment + `"`) // as RFC 8785 writes the member
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
