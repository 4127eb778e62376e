package web

import (
	"context"
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
	checked time.Time // when the ledger size was last found unchanged (real clock)
	at      time.Time // the instant judged
	size    int64     // the ledger size judged
	// until is the first instant after at when a state can change with no
	// new entry: the earliest maturation or revelation date, or time of an
	// entry, after at. The judgement holds until then or until the ledger
	// grows.
	until time.Time
	// j judges a player's actions when one is first looked up
	// (secret.Lazy), or before in the background (judgeRest): the first
	// lookup after a start or a new entry waits for one player's
	// judgement at most, not everyone's. j.Find gives the positions of
	// the actions carrying a commitment.
	j       *secret.Lazy
	reveals map[int64][]secret.Reveal // by the commit entry they name
	edits   map[int64][]secret.Edit
	// rest starts judging the players in the background, once, after the
	// first lookup has judged its own (judgeRest).
	rest *sync.Once
}

// judgeCache keeps the latest judgement. A judgement depends only on the
// entries and on which dates have passed, so it is reused until the ledger
// grows or its until instant passes; the ledger size is checked at most
// once per TTL, and at once after the server's own append (invalidate) or
// when a lookup misses a commitment the ledger has. One request checks or
// recomputes; the others meanwhile use the previous judgement.
type judgeCache struct {
	l    *ledger.Ledger
	game secret.Game
	now  func() time.Time
	ttl  time.Duration
	mu   sync.Mutex // held while checking or recomputing
	// hist is the secret-action entries below histSize, all verified
	// against a signed checkpoint; it grows with the ledger (extend), so
	// each entry is read and decoded once. Guarded by mu.
	hist     secret.History
	histSize int64
	cur      atomic.Pointer[judgement]
	stale    atomic.Bool
	// search indexes the entries of jc.hist's pass for the site's search
	// and replay links (filled by extend, read under its own lock).
	search searchIndex
}

func newJudgeCache(l *ledger.Ledger, g secret.Game, now func() time.Time, ttl time.Duration) *judgeCache {
	return &judgeCache{l: l, game: g, now: now, ttl: ttl}
}

// invalidate makes the next get check the ledger.
func (jc *judgeCache) invalidate() { jc.stale.Store(true) }

// fresh reports whether cur can be used without looking at the ledger.
func (jc *judgeCache) fresh(cur *judgement) bool {
	return !jc.stale.Load() && time.Since(cur.checked) < jc.ttl && jc.now().Before(cur.until)
}

// get returns a judgement valid now, or the previous one while another
// request checks or recomputes.
func (jc *judgeCache) get() (*judgement, error) {
	cur := jc.cur.Load()
	if cur != nil && jc.fresh(cur) {
		return cur, nil
	}
	if cur != nil && !jc.mu.TryLock() {
		return cur, nil
	}
	if cur == nil {
		jc.mu.Lock()
	}
	defer jc.mu.Unlock()
	if cur = jc.cur.Load(); cur != nil && jc.fresh(cur) { // another request did it meanwhile
		return cur, nil
	}
	return jc.check(cur)
}

// refresh checks the ledger now, waiting for a check under way.
func (jc *judgeCache) refresh() (*judgement, error) {
	jc.mu.Lock()
	defer jc.mu.Unlock()
	return jc.check(jc.cur.Load())
}

// check reuses cur when the ledger has not grown and no date has passed,
// else recomputes; jc.mu is held.
func (jc *judgeCache) check(cur *judgement) (*judgement, error) {
	jc.stale.Store(false)
	// Verdicts rest only on entries checked against a signed checkpoint
	// (incrementally: only what a new checkpoint added is read).
	size, err := jc.extend()
	if err != nil {
		jc.stale.Store(true)
		return nil, err
	}
	if cur != nil && cur.size == size && jc.now().Before(cur.until) {
		next := *cur // the judgement is the same
		next.checked = time.Now()
		jc.cur.Store(&next)
		return &next, nil
	}
	return jc.recompute(size)
}

// extend checks the entries up to the latest checkpoint against it
// (ledger.VerifiedSizeEach) and adds those it checks anew to jc.hist, in
// the same pass; entries another caller of VerifiedSize checked first are
// read back (as checked). It returns the verified size, which jc.hist then
// covers; jc.mu is held.
func (jc *judgeCache) extend() (int64, error) {
	// The entries are decoded by another goroutine, in batches, while the
	// check reads and hashes the next ones, into one history whose slices
	// are sized before they grow: on the first reading, room for a post per
	// entry the latest signed checkpoint covers (an upper bound: the room
	// no post takes is never written), and for the reveals and edits a
	// batch brings, doubled when short (reserve). Appending entry by entry
	// would copy a large slice at every growth by a quarter, about five
	// times its size in all, every byte of it fresh memory to fault in (10
	// µs a page on the machine of docs/performance.md). A batch is reused
	// once decoded. The checkpoint's size, which VerifiedSizeEach reads up
	// to, not the store's (max(idx)+1): a row altered or added far past the
	// end would make that enormous. Later readings, of what a new
	// checkpoint added, grow by doubling, without a second read of the
	// checkpoint.
	var add secret.History
	if jc.histSize == 0 {
		if cp, err := jc.l.LatestCheckpoint(); err == nil {
			add.Posts = make([]secret.Post, 0, cp.Size)
		}
	}
	var found searchAdds
	const batchSize, inFlight = 512, 256
	batches := make(chan []ledger.Entry, inFlight) // the check never waits for the decoder
	free := make(chan []ledger.Entry, inFlight+2)  // every batch made fits
	decoded := make(chan error, 1)
	go func() {
		var err error
		for b := range batches {
			if err == nil {
				reserve(&add, b)
				for i := range b {
					if err = addEntry(&add, &found, &b[i]); err != nil {
						break
					}
				}
			}
			select {
			case free <- b[:0]:
			default:
			}
		}
		decoded <- err
	}()
	newBatch := func() []ledger.Entry {
		select {
		case b := <-free:
			return b
		default:
			return make([]ledger.Entry, 0, batchSize)
		}
	}
	batch := newBatch()
	first := int64(-1)
	size, err := jc.l.VerifiedSizeEach(context.Background(), func(e *ledger.Entry) error {
		if first < 0 {
			first = e.Index
		}
		if e.Index < jc.histSize {
			return nil // in jc.hist already
		}
		if batch = append(batch, *e); len(batch) == batchSize {
			batches <- batch
			batch = newBatch()
		}
		return nil
	})
	if len(batch) > 0 {
		batches <- batch
	}
	close(batches)
	if derr := <-decoded; err == nil {
		err = derr
	}
	if err != nil {
		return 0, err // add is dropped: its entries are not backed by a checkpoint
	}
	if first < 0 {
		first = size
	}
	if jc.histSize < first {
		// Read back what another caller checked first, before add's.
		var before secret.History
		var beforeFound searchAdds
		for from := jc.histSize; from < first; {
			es, err := jc.l.Entries(from, int(min(first-from, ledger.MaxEntries)))
			if err != nil {
				return 0, fmt.Errorf("reading the ledger from index %d: %w", from, err)
			}
			if len(es) == 0 {
				return 0, fmt.Errorf("reading the ledger from index %d: no entry below %d", from, first)
			}
			for i := range es {
				if err := addEntry(&before, &beforeFound, &es[i]); err != nil {
					return 0, err
				}
			}
			from += int64(len(es))
		}
		appendHistory(&jc.hist, &before)
		jc.search.merge(&beforeFound, first)
	}
	appendHistory(&jc.hist, &add)
	jc.search.merge(&found, size)
	jc.histSize = max(jc.histSize, size)
	return size, nil
}

// addEntry adds e to h when it is a secret action (verify.AddEntry), and
// what a search finds it by to found: the player a secret action names
// (as decoded for h), or, for the other kinds, what their body holds.
func addEntry(h *secret.History, found *searchAdds, e *ledger.Entry) error {
	posts, reveals, edits := len(h.Posts), len(h.Reveals), len(h.Edits)
	if err := verify.AddEntry(h, e); err != nil {
		return err
	}
	switch {
	case len(h.Posts) > posts:
		found.player(h.Posts[posts].Player, e.Index)
	case len(h.Reveals) > reveals:
		found.player(h.Reveals[reveals].Player, e.Index)
	case len(h.Edits) > edits:
		found.player(h.Edits[edits].Player, e.Index)
	default:
		found.other(e)
	}
	return nil
}

// reserve makes room in h for the secret actions of entries es: a post
// for each commit entry, a reveal for each reveal entry, an edit for each
// edit entry.
func reserve(h *secret.History, es []ledger.Entry) {
	var posts, reveals, edits int
	for i := range es {
		switch es[i].Kind {
		case ledger.KindCommit:
			posts++
		case ledger.KindReveal:
			reveals++
		case ledger.KindEdit:
			edits++
		}
	}
	h.Posts = room(h.Posts, posts)
	h.Reveals = room(h.Reveals, reveals)
	h.Edits = room(h.Edits, edits)
}

// room returns s with room for n more elements: s itself when it has
// it, else a copy with twice the capacity needed (so a slice that grows
// to n elements is copied about n elements in all).
func room[T any](s []T, n int) []T {
	if len(s)+n <= cap(s) {
		return s
	}
	return append(make([]T, 0, 2*(len(s)+n)), s...)
}

// appendHistory appends add's posts, reveals and edits to h's.
func appendHistory(h, add *secret.History) {
	h.Posts = appendAll(h.Posts, add.Posts)
	h.Reveals = appendAll(h.Reveals, add.Reveals)
	h.Edits = appendAll(h.Edits, add.Edits)
}

// appendAll is append(s, add...), or add itself when s is empty (the
// first load: no copy of the whole history).
func appendAll[T any](s, add []T) []T {
	if len(s) == 0 {
		return add
	}
	return append(s, add...)
}

// recompute prepares the judgement of the whole ledger below size
// (jc.hist, extended to size; secret.Game.Prepare), whose players are then
// judged in the background or when looked up; jc.mu is held. size is the
// ledger size read before, so entries appended meanwhile make the next
// check recompute again.
func (jc *judgeCache) recompute(size int64) (*judgement, error) {
	at := jc.now()
	if jc.histSize != size {
		jc.stale.Store(true)
		return nil, fmt.Errorf("judging the secret actions: the history covers %d entries, not %d", jc.histSize, size)
	}
	h := jc.hist
	j, err := jc.game.Prepare(h, at)
	if err != nil {
		jc.stale.Store(true)
		return nil, fmt.Errorf("judging the secret actions: %w", err)
	}
	jd := &judgement{checked: time.Now(), at: at, size: size, until: farFuture, j: j,
		reveals: map[int64][]secret.Reveal{}, edits: map[int64][]secret.Edit{}, rest: new(sync.Once)}
	later := func(t time.Time) {
		if t.After(at) && t.Before(jd.until) {
			jd.until = t
		}
	}
	later(j.NextDate()) // the actions' maturation and revelation dates
	for _, p := range h.Posts {
		t, _ := p.Time()
		later(t)
	}
	for _, r := range h.Reveals {
		jd.reveals[r.Commit] = append(jd.reveals[r.Commit], r)
		t, _ := r.Time()
		later(t)
	}
	for _, e := range h.Edits {
		jd.edits[e.Commit] = append(jd.edits[e.Commit], e)
		t, _ := e.Time()
		later(t)
	}
	jc.cur.Store(jd)
	return jd, nil
}

// farFuture is the until of a judgement no date will change.
var farFuture = time.Date(9999, 1, 1, 0, 0, 0, 0, time.UTC)

// lookup returns the judgement holding the actions of commitment c, or
// one without them when the ledger has no commit entry for c. A miss in a
// cached judgement is checked against the ledger, so a commitment
// appended by another process shows at once.
func (jc *judgeCache) lookup(c commit.Commitment) (*judgement, []int, error) {
	jd, err := jc.get()
	if err != nil {
		return nil, nil, err
	}
	if idx := jd.j.Find(c); len(idx) > 0 {
		jc.judgeRest(jd, idx)
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
	idx := jd.j.Find(c)
	jc.judgeRest(jd, idx)
	return jd, idx, nil
}

// judgeRest judges the players of the actions at idx, then, on the first
// lookup of jd, starts judging the other players in the background (on
// every CPU but one, a player at a time: secret.Lazy.JudgeRest) until jd's
// judgement is replaced, so later lookups find their actions judged. The
// first lookup after a start or a new entry waits for its own players
// only, with no background work competing.
func (jc *judgeCache) judgeRest(jd *judgement, idx []int) {
	for _, i := range idx {
		jd.j.Action(i)
	}
	jd.rest.Do(func() {
		j := jd.j
		go j.JudgeRest(func() bool {
			cur := jc.cur.Load()
			return cur == nil || cur.j != j
		})
	})
}
