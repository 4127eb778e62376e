package web

import (
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sealedhq/sealed/commit"
	"github.com/sealedhq/sealed/ledger"
	"github.com/sealedhq/sealed/rules/secret"
	"github.com/sealedhq/sealed/verify"
)

// judgement is the ledger's secret actions judged at one instant
// (verify.JudgeActions: seed 004, rule "Secret Information", readings
// S1-S5), indexed for lookups by commitment.
type judgement struct {
	built time.Time // when it was computed (for the TTL)
	at    time.Time // the instant judged
	j     *secret.Judgement
	// byCommitment maps a commitment to the positions in j.Actions of the
	// actions carrying it, in ledger order.
	byCommitment map[commit.Commitment][]int
	reveals      map[int64][]secret.Reveal // by the commit entry they name
	edits        map[int64][]secret.Edit
}

// judgeCache keeps the latest judgement and recomputes it when it is older
// than the TTL, when invalidated (the server appended an entry), or when
// a lookup misses a commitment the ledger has. One request recomputes;
// the others meanwhile use the previous judgement.
type judgeCache struct {
	l     *ledger.Ledger
	game  secret.Game
	now   func() time.Time
	ttl   time.Duration
	mu    sync.Mutex // held while recomputing
	cur   atomic.Pointer[judgement]
	stale atomic.Bool
}

func newJudgeCache(l *ledger.Ledger, g secret.Game, now func() time.Time, ttl time.Duration) *judgeCache {
	return &judgeCache{l: l, game: g, now: now, ttl: ttl}
}

// invalidate makes the next get recompute.
func (jc *judgeCache) invalidate() { jc.stale.Store(true) }

// get returns a judgement no older than the TTL, or the previous one while
// another request recomputes.
func (jc *judgeCache) get() (*judgement, error) {
	cur := jc.cur.Load()
	if cur != nil && !jc.stale.Load() && time.Since(cur.built) < jc.ttl {
		return cur, nil
	}
	if cur != nil && !jc.mu.TryLock() {
		return cur, nil
	}
	if cur == nil {
		jc.mu.Lock()
		if cur = jc.cur.Load(); cur != nil { // another request computed it meanwhile
			jc.mu.Unlock()
			return cur, nil
		}
	}
	defer jc.mu.Unlock()
	return jc.recompute()
}

// refresh recomputes now, waiting for a recomputation under way.
func (jc *judgeCache) refresh() (*judgement, error) {
	jc.mu.Lock()
	defer jc.mu.Unlock()
	return jc.recompute()
}

// recompute judges the whole ledger; jc.mu is held.
func (jc *judgeCache) recompute() (*judgement, error) {
	jc.stale.Store(false)
	at := jc.now()
	h, j, err := verify.JudgeActions(jc.l, jc.game, at)
	if err != nil {
		jc.stale.Store(true)
		return nil, fmt.Errorf("judging the secret actions: %w", err)
	}
	jd := &judgement{built: time.Now(), at: at, j: j,
		byCommitment: map[commit.Commitment][]int{},
		reveals:      map[int64][]secret.Reveal{}, edits: map[int64][]secret.Edit{}}
	for i, a := range j.Actions {
		jd.byCommitment[a.Post.Commitment] = append(jd.byCommitment[a.Post.Commitment], i)
	}
	for _, r := range h.Reveals {
		jd.reveals[r.Commit] = append(jd.reveals[r.Commit], r)
	}
	for _, e := range h.Edits {
		jd.edits[e.Commit] = append(jd.edits[e.Commit], e)
	}
	jc.cur.Store(jd)
	return jd, nil
}

// lookup returns the judgement holding the actions of commitment c, or
// one without them when the ledger has no commit entry for c. A miss in a
// cached judgement is checked against the ledger, so a commitment
// appended by another process shows at once.
func (jc *judgeCache) lookup(c commit.Commitment) (*judgement, []int, error) {
	jd, err := jc.get()
	if err != nil {
		return nil, nil, err
	}
	if idx := jd.byCommitment[c]; len(idx) > 0 {
		return jd, idx, nil
	}
	es, err := jc.l.CommitsByCommitment(c.String())
	if err != nil {
		return nil, nil, err
	}
	if len(es) == 0 {
		return jd, nil, nil
	}
	if jd, err = jc.refresh(); err != nil {
		return nil, nil, err
	}
	return jd, jd.byCommitment[c], nil
}
