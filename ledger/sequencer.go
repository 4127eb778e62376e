package ledger

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"time"

	"golang.org/x/mod/sumdb/tlog"
)

// maxBatch bounds the entries written in one transaction.
const maxBatch = 4096

// request is one queued append.
type request struct {
	p     *prepared
	index int64
	err   error
	done  chan struct{}
}

// Append validates body (ParseBody), queues it to the sequencer and
// returns its ledger index once the transaction holding it (entry and
// stored hashes) is durable on disk. Concurrent calls are batched into one
// transaction. Errors: *BodyError for a bad body; *DuplicateError with the
// existing index; a posted_at later than the integration time, or a
// commit/seed_commit reference to a missing entry or one of the wrong kind
// (errors wrapping ErrNotFound or saying which kind was found);
// ErrReadOnly, ErrClosed; ctx's error if ctx ends first (the entry may
// then still be appended).
func (l *Ledger) Append(ctx context.Context, body []byte) (int64, error) {
	b, canon, err := parseBody(body)
	if err != nil {
		return -1, err
	}
	p, err := prepareCanonical(b, canon)
	if err != nil {
		return -1, err
	}
	return l.append(ctx, p)
}

// AppendBody is Append for a Body built in Go; b is validated and
// normalised as ParseBody would (b itself is not modified).
func (l *Ledger) AppendBody(ctx context.Context, b *Body) (int64, error) {
	c := *b
	if err := c.normalise(); err != nil {
		return -1, err
	}
	p, err := prepare(&c)
	if err != nil {
		return -1, err
	}
	return l.append(ctx, p)
}

func (l *Ledger) append(ctx context.Context, p *prepared) (int64, error) {
	if l.w == nil {
		return -1, ErrReadOnly
	}
	r := &request{p: p, done: make(chan struct{})}
	l.mu.RLock()
	if l.closed {
		l.mu.RUnlock()
		return -1, ErrClosed
	}
	select {
	case l.reqs <- r:
	case <-ctx.Done():
		l.mu.RUnlock()
		return -1, ctx.Err()
	}
	l.mu.RUnlock()
	select {
	case <-r.done:
		return r.index, r.err
	case <-ctx.Done():
		return -1, ctx.Err()
	}
}

// sequence is the single sequencer goroutine: it takes every queued
// request, writes them in one transaction, answers each, and signs a
// checkpoint when the tree has grown and the interval has passed.
func (l *Ledger) sequence(f *frontier) {
	defer close(l.done)
	cpSize := int64(-1)
	lastCP := time.Time{}
	if cp := l.latestCached(); cp != nil {
		cpSize = cp.Size
	}
	var timer *time.Timer
	var timerC <-chan time.Time
	batch := make([]*request, 0, maxBatch)
	checkpoint := func() {
		if f.size == cpSize {
			return
		}
		if err := l.writeCheckpoint(f); err == nil {
			cpSize, lastCP = f.size, time.Now()
		}
		// On error the next batch or tick tries again.
	}
	for {
		select {
		case r, ok := <-l.reqs:
			if !ok {
				checkpoint()
				return
			}
			batch = append(batch[:0], r)
			closing := false
		drain:
			for len(batch) < maxBatch {
				select {
				case r, ok := <-l.reqs:
					if !ok {
						closing = true
						break drain
					}
					batch = append(batch, r)
				default:
					break drain
				}
			}
			l.writeBatch(f, batch)
			if closing {
				checkpoint()
				return
			}
			if f.size != cpSize {
				if wait := l.interval - time.Since(lastCP); wait <= 0 {
					checkpoint()
				} else if timerC == nil {
					if timer == nil {
						timer = time.NewTimer(wait)
					} else {
						timer.Reset(wait)
					}
					timerC = timer.C
				}
			}
		case <-timerC:
			timerC = nil
			checkpoint()
		}
	}
}

// writeBatch writes the batch in one transaction and answers each request.
// Requests refused on their own (posted_at, reference, duplicate) do not
// take an index; any storage error fails the whole batch and leaves f as
// it was.
func (l *Ledger) writeBatch(f *frontier, batch []*request) {
	saved := *f
	err := l.writeBatchTx(f, batch)
	if err != nil {
		*f = saved
		for _, r := range batch {
			if r.err == nil {
				r.index, r.err = -1, fmt.Errorf("writing to the ledger: %w", err)
			}
		}
	}
	for _, r := range batch {
		close(r.done)
	}
}

func (l *Ledger) writeBatchTx(f *frontier, batch []*request) error {
	committed := false
	// BEGIN IMMEDIATE: from here on this process holds the write lock, so
	// no other process appends until the commit.
	tx, err := l.w.Begin()
	if err != nil {
		return err
	}
	defer tx.Rollback()
	// Another process may have appended since our last batch: reload the
	// right edge of the tree from the database if so.
	var size, lastNS int64
	switch err := tx.Stmt(l.inserts.tail).QueryRow().Scan(&size, &lastNS); {
	case err == sql.ErrNoRows:
		size, lastNS = 0, math.MinInt64
	case err != nil:
		return fmt.Errorf("reading tree size: %w", err)
	}
	if size != f.size {
		nf, err := loadFrontier(size, hashReader{tx})
		if err != nil {
			return err
		}
		*f = *nf
	}
	// The integration time is read under the write lock, and never goes
	// back: if the clock is behind the newest entry (another process's
	// clock, or this one stepped back), the batch takes the newest entry's
	// time, so the log's times are non-decreasing (docs/ledger.md).
	now := l.clock()
	if _, err := formatTime(now); err != nil { // outside Unix nanoseconds
		return fmt.Errorf("ledger clock: %w", err)
	}
	if now.UnixNano() < lastNS {
		now = time.Unix(0, lastNS)
	}
	ts, err := formatTime(now)
	if err != nil {
		return fmt.Errorf("ledger clock: %w", err)
	}
	nowNS := now.UnixNano()
	if err := l.dedup.catchUp(tx, size); err != nil {
		return err
	}
	var added []dedupKey
	defer func() {
		if !committed {
			l.dedup.forget(added)
		}
	}()
	entryArgs, hashArgs := l.inserts.entryArgs[:0], l.inserts.hashArgs[:0]
	defer func() {
		// Keep the buffers, without the values, for the next batch.
		clear(entryArgs)
		clear(hashArgs)
		l.inserts.entryArgs, l.inserts.hashArgs = entryArgs[:0], hashArgs[:0]
	}()
	start := f.size
	var batchKinds map[int64]Kind
	for _, r := range batch {
		p := r.p
		r.index = -1
		if p.postedAt > nowNS {
			r.err = fmt.Errorf("posted_at %s is later than the integration time %s: a post cannot appear after it is recorded", p.body.PostedAt, ts)
			continue
		}
		var ref any
		if idx, want, ok := p.body.Ref(); ok {
			ref = idx
			var got Kind
			switch {
			case idx >= f.size:
				r.err = fmt.Errorf("entry %d named by %s: %w (the log has %d entries)", idx, refField(p.body.Kind), ErrNotFound, f.size)
				continue
			case idx >= start:
				got = batchKinds[idx]
			default:
				var k string
				if err := tx.QueryRow(`SELECT kind FROM entries WHERE idx = ?`, idx).Scan(&k); err != nil {
					return err
				}
				got = Kind(k)
			}
			if got != want {
				r.err = fmt.Errorf("entry %d named by %s is a %s entry, not a %s entry", idx, refField(p.body.Kind), got, want)
				continue
			}
		}
		copy(p.leaf[p.tsOff:], ts)
		leafHash := tlog.RecordHash(p.leaf)
		var posted, commitment any
		if p.postedAt >= 0 {
			posted = p.postedAt
		}
		if p.body.Kind == KindCommit {
			commitment = p.body.Commitment
		}
		key := dedupKeyOf(p.dedup)
		if existing, ok := l.dedup.m[key]; ok {
			var k string
			if err := tx.QueryRow(`SELECT kind FROM entries WHERE idx = ?`, existing).Scan(&k); err != nil {
				return err
			}
			r.err = &DuplicateError{Index: existing, Kind: Kind(k)}
			continue
		}
		entryArgs = append(entryArgs, f.size, string(p.body.Kind), p.leaf, leafHash[:], nowNS, posted, p.dedup[:], commitment, ref)
		l.dedup.m[key] = f.size
		added = append(added, key)
		hashes, err := tlog.StoredHashesForRecordHash(f.size, leafHash, f)
		if err != nil {
			return err
		}
		base := tlog.StoredHashIndex(0, f.size)
		for k, h := range hashes {
			hashArgs = append(hashArgs, base+int64(k), h[:])
		}
		if p.body.Kind == KindCommit || p.body.Kind == KindSeedCommit {
			if batchKinds == nil {
				batchKinds = map[int64]Kind{}
			}
			batchKinds[f.size] = p.body.Kind
		}
		r.index = f.size
		f.add(hashes)
	}
	if err := l.inserts.exec(tx, insertEntries, entryArgs); err != nil {
		return err
	}
	if err := l.inserts.exec(tx, insertHashes, hashArgs); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	committed = true
	l.dedup.size = f.size
	return nil
}

// refField names the field holding the reference of a kind.
func refField(k Kind) string {
	if k == KindSeedReveal {
		return "seed_commit"
	}
	return "commit"
}

// writeCheckpoint signs and stores the checkpoint of the tree f and
// publishes it to LatestCheckpoint and WaitCheckpoint.
func (l *Ledger) writeCheckpoint(f *frontier) error {
	root, err := f.root()
	if err != nil {
		return err
	}
	signed, err := signCheckpoint(l.signer, l.origin, f.size, root)
	if err != nil {
		return err
	}
	now := l.clock()
	if _, err := l.w.Exec(`INSERT INTO checkpoints(size, root, note, created_at) VALUES(?, ?, ?, ?)`,
		f.size, root[:], []byte(signed), now.UnixNano()); err != nil {
		return err
	}
	l.publish(&Checkpoint{Origin: l.origin, Size: f.size, Root: root, Note: signed, Time: now.UTC()})
	return nil
}

// publish makes cp the latest checkpoint and wakes WaitCheckpoint callers.
func (l *Ledger) publish(cp *Checkpoint) {
	l.cpMu.Lock()
	if l.cpLatest == nil || cp.Size >= l.cpLatest.Size {
		l.cpLatest = cp
	}
	close(l.cpNotify)
	l.cpNotify = make(chan struct{})
	l.cpMu.Unlock()
}

func (l *Ledger) latestCached() *Checkpoint {
	l.cpMu.Lock()
	defer l.cpMu.Unlock()
	return l.cpLatest
}

// WaitCheckpoint waits until this process has stored a signed checkpoint
// covering at least size entries and returns it, or returns ctx's error.
// A read-only ledger returns ErrReadOnly unless one already covers size.
func (l *Ledger) WaitCheckpoint(ctx context.Context, size int64) (*Checkpoint, error) {
	for {
		l.cpMu.Lock()
		cp, ch := l.cpLatest, l.cpNotify
		l.cpMu.Unlock()
		if cp != nil && cp.Size >= size {
			return cp, nil
		}
		if l.w == nil {
			return nil, ErrReadOnly
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}
