package verify

import (
	"fmt"
	"slices"
	"time"

	"github.com/sealedhq/sealed/commit"
	"github.com/sealedhq/sealed/ledger"
)

// Abandoned is a match whose seed-commit names a reveal_by deadline that
// passed with no seed-reveal of the committed seed integrated by then
// (docs/rng.md, "Abandoned matches").
type Abandoned struct {
	SeedCommit int64  `json:"seed_commit"`
	Game       string `json:"game"`
	MatchID    string `json:"match_id"`
	RevealBy   string `json:"reveal_by"`
	// RevealedLate is the index of a seed-reveal of the committed seed
	// integrated after the deadline, -1 if none.
	RevealedLate int64 `json:"revealed_late"`
}

// OperatorMatches counts one operator's seed commitments: how many there
// are, how many were revealed (a seed-reveal of the committed seed), how
// many are still within their deadline or have none, and which were
// abandoned.
type OperatorMatches struct {
	// Operator is the seed-commits' operator field, "" for those without.
	Operator  string      `json:"operator"`
	Committed int         `json:"committed"`
	Revealed  int         `json:"revealed"`
	Pending   int         `json:"pending"`
	Abandoned []Abandoned `json:"abandoned"`
}

// AbandonedMatches reads every entry of l and returns, per operator in
// name order, its seed commitments and the matches it abandoned as of
// now: a seed-commit whose reveal_by is not after now and that no
// seed-reveal of the committed seed (commit.CheckSeed) integrated at or
// before reveal_by names. A server that abandons the matches it does not
// like is seen doing it. Seed-commits without reveal_by are never
// abandoned: they are pending until revealed. Errors are storage errors.
func AbandonedMatches(l *ledger.Ledger, now time.Time) ([]OperatorMatches, error) {
	type sc struct {
		index    int64
		body     *ledger.Body
		revealBy time.Time
		revealed bool
		late     int64
	}
	var scs []*sc
	byIndex := map[int64]*sc{}
	size, err := l.Size()
	if err != nil {
		return nil, err
	}
	for from := int64(0); from < size; {
		page, err := l.Entries(from, int(min(size-from, ledger.MaxEntries)))
		if err != nil {
			return nil, err
		}
		if len(page) == 0 {
			break
		}
		for i := range page {
			e := &page[i]
			switch e.Kind {
			case ledger.KindSeedCommit:
				b, err := e.Body()
				if err != nil {
					return nil, err
				}
				s := &sc{index: e.Index, body: b, late: -1}
				if b.RevealBy != "" {
					if s.revealBy, err = time.Parse(ledger.TimeLayout, b.RevealBy); err != nil {
						return nil, fmt.Errorf("entry %d: reveal_by: %w", e.Index, err)
					}
				}
				scs = append(scs, s)
				byIndex[e.Index] = s
			case ledger.KindSeedReveal:
				b, err := e.Body()
				if err != nil {
					return nil, err
				}
				s := byIndex[*b.SeedCommit]
				if s == nil || s.revealed {
					continue
				}
				seed, err1 := commit.ParseSeed(b.Seed)
				c, err2 := commit.ParseCommitment(s.body.Commitment)
				if err1 != nil || err2 != nil || !commit.CheckSeed(seed, c) {
					continue
				}
				if s.revealBy.IsZero() || !e.IntegratedAt.After(s.revealBy) {
					s.revealed = true
				} else if s.late < 0 {
					s.late = e.Index
				}
			}
		}
		from = page[len(page)-1].Index + 1
	}
	ops := map[string]*OperatorMatches{}
	for _, s := range scs {
		o := ops[s.body.Operator]
		if o == nil {
			o = &OperatorMatches{Operator: s.body.Operator, Abandoned: []Abandoned{}}
			ops[s.body.Operator] = o
		}
		o.Committed++
		switch {
		case s.revealed:
			o.Revealed++
		case s.revealBy.IsZero() || s.revealBy.After(now):
			o.Pending++
		default:
			o.Abandoned = append(o.Abandoned, Abandoned{SeedCommit: s.index, Game: s.body.Game, MatchID: s.body.MatchID,
				RevealBy: s.body.RevealBy, RevealedLate: s.late})
		}
	}
	out := make([]OperatorMatches, 0, len(ops))
	for _, o := range ops {
		out = append(out, *o)
	}
	slices.SortFunc(out, func(a, b OperatorMatches) int {
		switch {
		case a.Operator < b.Operator:
			return -1
		case a.Operator > b.Operator:
			return 1
		}
		return 0
	})
	return out, nil
}
