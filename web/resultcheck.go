package web

import (
	"errors"
	"sync"

	"github.com/sealedhq/sealed/ledger"
	"github.com/sealedhq/sealed/verify"
)

// ledgerTieView is what /replay/{index} and its report say about a result
// entry against the ledger (verify.CheckResult): the check, or why it could
// not be made.
type ledgerTieView struct {
	Check *verify.ResultCheck
	Err   string
}

// tieCache keeps recent verify.CheckResult answers by result index with the
// ledger size they were computed at. A tied result stays tied as the ledger
// grows (the earliest seed-commit before it and its commitment are fixed,
// and a seed-reveal found stays), so a tied answer is reused for good; any
// other is recomputed once the ledger has grown (a seed-reveal may have
// come since).
type tieCache struct {
	mu  sync.Mutex
	max int
	m   map[int64]tieEntry
}

type tieEntry struct {
	v    *ledgerTieView
	size int64
}

func newTieCache(n int) *tieCache { return &tieCache{max: n, m: map[int64]tieEntry{}} }

func (tc *tieCache) get(index, size int64) *ledgerTieView {
	tc.mu.Lock()
	defer tc.mu.Unlock()
	e, ok := tc.m[index]
	if !ok || (e.size != size && (e.v.Check == nil || !e.v.Check.Tied())) {
		return nil
	}
	return e.v
}

func (tc *tieCache) put(index, size int64, v *ledgerTieView) {
	tc.mu.Lock()
	defer tc.mu.Unlock()
	if len(tc.m) >= tc.max {
		for k := range tc.m { // drop any one
			delete(tc.m, k)
			break
		}
	}
	tc.m[index] = tieEntry{v: v, size: size}
}

// ledgerTie checks result entry n against the ledger on the read-only
// connection (verify.CheckResult: lookups in the store, after holding its
// seed_commits table to the leaves once). A check that cannot be made
// (the replay cannot be read) is a view with Err, not an error; a failing
// size lookup is an error, and so is a ledger that does not check out
// (wrapping ledger.ErrTampered: 409, the page serves no verdict on
// altered data).
func (s *Server) ledgerTie(n int64) (*ledgerTieView, error) {
	size, err := s.o.Reader.Size()
	if err != nil {
		return nil, err
	}
	if v := s.ties.get(n, size); v != nil {
		return v, nil
	}
	c, err := verify.CheckResult(s.o.Reader, n)
	if errors.Is(err, ledger.ErrTampered) {
		return nil, err
	}
	if err != nil {
		return &ledgerTieView{Err: err.Error()}, nil
	}
	v := &ledgerTieView{Check: c}
	s.ties.put(n, size, v)
	return v, nil
}
