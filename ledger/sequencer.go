package ledger

import (
	"context"
	"errors"
	"fmt"
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
// existing index (for a seed-commit, also when an earlier seed-commit
// holds its commitment: a seed is committed once); a posted_at later than the integration time, or a
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
	if l.readOnly {
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
	// retry arms the timer again after a checkpoint that could not be
	// stored: the entries stay uncovered otherwise until the next batch
	// (a server that takes no more entries, never).
	retry := func() {
		if timer == nil {
			timer = time.NewTimer(l.interval)
		} else {
			timer.Reset(l.interval)
		}
		timerC = timer.C
	}
	checkpoint := func() {
		if f.size == cpSize {
			return
		}
		if err := l.writeCheckpoint(f); err == nil {
			cpSize, lastCP = f.size, time.Now()
			l.unsigned = nil
		} else {
			from := max(cpSize, 0)
			l.unsigned = fmt.Errorf("entries %d..%d are %w: storing the checkpoint of size %d failed: %w", from, f.size-1, ErrUnsigned, f.size, err)
			if timerC == nil {
				retry()
			}
		}
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
	added, err := l.writeBatchTx(f, batch)
	if err == nil {
		// Players rows are never changed or removed once stored: a
		// committed row stays true in the cache.
		if len(l.players)+len(added) > maxPlayerCache {
			clear(l.players)
		}
		for _, p := range added {
			l.players[p.Skeleton] = p.Player
		}
	}
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

// writeBatchTx writes the batch in one transaction and returns the
// players rows it added (the batch's new players).
func (l *Ledger) writeBatchTx(f *frontier, batch []*request) (added []StoredPlayer, err error) {
	ctx := context.Background()
	for _, r := range batch {
		r.index, r.err = -1, nil
	}
	err = l.store.Write(ctx, func(tx WriteTx) error {
		added = added[:0]
		// The write lock is held from here on, so no other process
		// appends until the commit. Another process may have appended
		// since our last batch: reload the right edge of the tree if so.
		size, lastNS, err := tx.Tail(ctx)
		if err != nil {
			return fmt.Errorf("reading tree size: %w", err)
		}
		if size != f.size {
			nf, err := loadFrontier(size, hashReader{ctx, tx})
			if err != nil {
				return err
			}
			// Another process appended: the right edge it left must be
			// what its entries give on top of the edge this writer
			// checked, before the log extends and signs it.
			trusted := *f
			if err := l.replayEdge(ctx, &trusted, nf, nothing); err != nil {
				return err
			}
			if nf.newest, err = l.newestTime(ctx, nf, hashReader{ctx, tx}); err != nil {
				return err
			}
			*f = *nf
		}
		// The newest entry's time is the one its leaf holds (checked when
		// this writer opened the log or found another's entries, or
		// written by this writer): a stored column that says otherwise
		// was altered, and a time taken from it would be signed into the
		// new leaves.
		if lastNS != f.newest {
			return fmt.Errorf("entries: the integrated_at column of entry %d (the newest) holds %d ns, its leaf %d; %s: %w", size-1, lastNS, f.newest, nothing, ErrTampered)
		}
		// The integration time is read under the write lock, and never
		// goes back: if the clock is behind the newest entry (another
		// process's clock, or this one stepped back), the batch takes the
		// newest entry's time, so the log's times are non-decreasing
		// (docs/ledger.md).
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
		// What the batch must look up in the store: the kinds of the
		// entries named by references, and the duplicate keys.
		sc := l.scratch.reset()
		refs := sc.refs
		probes := sc.probes
		for _, r := range batch {
			if idx, _, ok := r.p.body.Ref(); ok && idx >= 0 && idx < size {
				refs = append(refs, idx)
			}
			pr := DuplicateProbe{Dedup: r.p.dedup}
			if r.p.body.Kind == KindCommit {
				pr.Commitment = r.p.body.Commitment
			}
			probes = append(probes, pr)
		}
		sc.refs, sc.probes = refs, probes
		kinds, err := tx.Kinds(ctx, refs)
		if err != nil {
			return fmt.Errorf("reading referenced entries: %w", err)
		}
		dups, err := tx.Duplicates(ctx, probes)
		if err != nil {
			return fmt.Errorf("looking up duplicates: %w", err)
		}
		// A seed is committed once: the seed-commits already stored that
		// hold a commitment of the batch's seed-commits (rare: one per
		// match), looked up under the write lock, so that two writers
		// admitting the same seed at once cannot both append it.
		var seeds []string
		for _, r := range batch {
			if r.p.body.Kind == KindSeedCommit {
				seeds = append(seeds, r.p.body.Commitment)
			}
		}
		var seedsStored map[string]int64
		var seedsStaged map[string]int64
		if len(seeds) > 0 {
			if seedsStored, err = tx.SeedCommits(ctx, seeds); err != nil {
				return fmt.Errorf("looking up seed commitments: %w", err)
			}
			// A row the log did not write (naming an entry that is no
			// seed-commit) would refuse a new seed in the name of
			// another entry: the batch fails, as on other alterations.
			if len(seedsStored) > 0 {
				idx := make([]int64, 0, len(seedsStored))
				for _, i := range seedsStored {
					idx = append(idx, i)
				}
				ks, err := tx.Kinds(ctx, idx)
				if err != nil {
					return fmt.Errorf("looking up seed commitments: %w", err)
				}
				for c, i := range seedsStored {
					if k := ks[i]; k != KindSeedCommit {
						return fmt.Errorf("seed_commits: the row of commitment %s names entry %d, which is %s; expected a seed-commit entry (a row the log did not write); nothing was appended ('sealed ledger audit' names it): %w",
							c, i, kindOrMissing(k), ErrTampered)
					}
				}
			}
			seedsStaged = map[string]int64{}
		}
		// The players of the batch's commit entries: known ones from the
		// cache, the others looked up in the players table (one query,
		// and none when every player is known).
		unknown := sc.unknown
		for _, r := range batch {
			if r.p.skeleton != "" {
				if _, ok := l.players[r.p.skeleton]; !ok {
					unknown = append(unknown, r.p.skeleton)
				}
			}
		}
		sc.unknown = unknown
		var stored map[string]StoredPlayer
		batchPlayers := sc.players
		if len(unknown) > 0 {
			if stored, err = tx.Players(ctx, unknown); err != nil {
				return fmt.Errorf("looking up players: %w", err)
			}
		}
		// playerOf is the player stored or staged under a skeleton.
		playerOf := func(sk string) (string, int64, bool) {
			if name, ok := l.players[sk]; ok {
				return name, -1, true
			}
			if p, ok := stored[sk]; ok {
				return p.Player, p.Index, true
			}
			if p, ok := batchPlayers[sk]; ok {
				return p.Player, p.Index, true
			}
			return "", 0, false
		}
		start := f.size
		entries := sc.entries
		hashes := sc.hashes
		// The batch's leaf hashes, in one allocation (never reused: a
		// store may keep the slices).
		leafHashes := make([]tlog.Hash, 0, len(batch))
		// Entries accepted earlier in this batch: their kinds (for
		// references) and duplicate keys. A copy of an entry staged in
		// the same batch is refused as a duplicate of it; the batch goes
		// on.
		batchKinds := sc.kinds
		batchDups := sc.dups
		for _, r := range batch {
			p := r.p
			if p.hasPosted && p.postedAt > nowNS {
				r.err = bodyErr("posted_at", "%s is later than the integration time %s: a post cannot appear after it is recorded", p.body.PostedAt, ts)
				continue
			}
			if pe := p.body.PlayAtEntry; pe != nil && *pe <= f.size {
				r.err = bodyErr("play_at_entry", "entry %d would open play, but this seed-commit is entry %d; expected an index after it (the entry that opens play comes after the commitment)", *pe, f.size)
				continue
			}
			ref := int64(-1)
			if idx, want, ok := p.body.Ref(); ok {
				ref = idx
				var got Kind
				switch {
				case idx < 0 || idx >= f.size:
					r.err = fmt.Errorf("entry %d named by %s: %w (the log has %d entries)", idx, refField(p.body.Kind), ErrNotFound, f.size)
					continue
				case idx >= start:
					got = batchKinds[idx]
				default:
					k, ok := kinds[idx]
					if !ok {
						return fmt.Errorf("entry %d named by %s: %w in the store below the tree size %d", idx, refField(p.body.Kind), ErrNotFound, size)
					}
					got = k
				}
				if got != want {
					r.err = fmt.Errorf("entry %d named by %s is %s entry, not %s entry", idx, refField(p.body.Kind), got.Article(), want.Article())
					continue
				}
			}
			if d, ok := dups[p.dedup]; ok {
				r.err = &DuplicateError{Index: d.Index, Kind: d.Kind}
				continue
			}
			if d, ok := batchDups[p.dedup]; ok {
				r.err = &DuplicateError{Index: d.Index, Kind: d.Kind}
				continue
			}
			if p.body.Kind == KindSeedCommit {
				if i, ok := seedsStored[p.body.Commitment]; ok {
					r.err = &DuplicateError{Index: i, Kind: KindSeedCommit}
					continue
				}
				if i, ok := seedsStaged[p.body.Commitment]; ok {
					r.err = &DuplicateError{Index: i, Kind: KindSeedCommit}
					continue
				}
			}
			newPlayer := false
			if p.skeleton != "" {
				name, idx, ok := playerOf(p.skeleton)
				switch {
				case ok && name != p.body.Player:
					if idx < 0 { // known from the cache: read the row for its index
						if ps, err := tx.Players(ctx, []string{p.skeleton}); err == nil {
							idx = ps[p.skeleton].Index
						}
					}
					r.err = &ConfusableNameError{Player: p.body.Player, Existing: name, Index: idx, Skeleton: p.skeleton}
					continue
				case !ok:
					newPlayer = true
				}
			}
			copy(p.leaf[p.tsOff:], ts)
			leafHashes = append(leafHashes, tlog.RecordHash(p.leaf))
			leafHash := &leafHashes[len(leafHashes)-1]
			e := StoredEntry{
				Index: f.size, Kind: p.body.Kind, Leaf: p.leaf, LeafHash: leafHash[:],
				IntegratedAt: nowNS, Dedup: p.dedup[:], Ref: ref,
			}
			if p.hasPosted {
				e.PostedAt, e.HasPostedAt = p.postedAt, true
			}
			switch p.body.Kind {
			case KindCommit:
				e.Commitment = p.body.Commitment
			case KindSeedCommit:
				e.SeedCommit = &StoredSeedCommit{Commitment: p.body.Commitment, Index: f.size, Game: p.body.Game, MatchID: p.body.MatchID}
				seedsStaged[p.body.Commitment] = f.size
			}
			entries = append(entries, e)
			batchDups[p.dedup] = IndexKind{f.size, p.body.Kind}
			if newPlayer {
				np := StoredPlayer{Skeleton: p.skeleton, Player: p.body.Player, Index: f.size}
				added = append(added, np)
				batchPlayers[p.skeleton] = np
			}
			hs, err := tlog.StoredHashesForRecordHash(f.size, *leafHash, f)
			if err != nil {
				return err
			}
			base := tlog.StoredHashIndex(0, f.size)
			for k := range hs {
				hashes = append(hashes, StoredHash{ID: base + int64(k), Hash: hs[k][:]})
			}
			if p.body.Kind == KindCommit || p.body.Kind == KindSeedCommit {
				batchKinds[f.size] = p.body.Kind
			}
			r.index = f.size
			f.add(hs)
			f.newest = nowNS
		}
		sc.entries, sc.hashes = entries, hashes
		if len(entries) == 0 {
			return nil
		}
		if err := tx.Insert(ctx, entries, hashes); err != nil {
			if errors.Is(err, ErrConflict) {
				return l.strayRows(ctx, start, err)
			}
			return err
		}
		if len(added) > 0 {
			if err := tx.InsertPlayers(ctx, added); errors.Is(err, ErrConflict) {
				// The log writes a players row only with its entry: a row
				// already there at a new entry's index or skeleton was
				// left by someone else.
				return fmt.Errorf("players: a row the log did not write is already stored for a new player of entries %d..%d (%v); nothing was appended ('sealed ledger audit' names it): %w",
					added[0].Index, added[len(added)-1].Index, err, ErrTampered)
			} else if err != nil {
				return fmt.Errorf("storing new players: %w", err)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return added, nil
}

// batchScratch is the sequencer's working memory for one batch, kept
// between batches so that a batch allocates little (each allocation
// costs the sequencer, which is every appender's bottleneck, its share of
// the garbage collector's work).
type batchScratch struct {
	refs    []int64
	probes  []DuplicateProbe
	unknown []string
	entries []StoredEntry
	hashes  []StoredHash
	players map[string]StoredPlayer
	kinds   map[int64]Kind
	dups    map[[32]byte]IndexKind
}

// reset empties sc for a new batch (the rows' byte slices are dropped,
// not reused) and returns it.
func (sc *batchScratch) reset() *batchScratch {
	clear(sc.entries)
	clear(sc.hashes)
	sc.refs, sc.probes, sc.unknown = sc.refs[:0], sc.probes[:0], sc.unknown[:0]
	sc.entries, sc.hashes = sc.entries[:0], sc.hashes[:0]
	if sc.players == nil {
		sc.players = map[string]StoredPlayer{}
		sc.kinds = map[int64]Kind{}
		sc.dups = map[[32]byte]IndexKind{}
	}
	// A map that held a large batch keeps its buckets: drop it instead.
	for _, m := range []int{len(sc.players), len(sc.kinds), len(sc.dups)} {
		if m > maxScratchMap {
			sc.players, sc.kinds, sc.dups = map[string]StoredPlayer{}, map[int64]Kind{}, map[[32]byte]IndexKind{}
			break
		}
	}
	clear(sc.players)
	clear(sc.kinds)
	clear(sc.dups)
	return sc
}

// maxScratchMap is the most keys a scratch map keeps its memory for.
const maxScratchMap = 1024

// kindOrMissing names an entry by its kind ("a contribution entry"), or
// says there is none (k empty).
func kindOrMissing(k Kind) string {
	if k == "" {
		return "missing"
	}
	return k.Article() + " entry"
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
	// created_at is the time the log's timestamped signature carries, so
	// the audit can hold the column to signed data.
	signed, now, err := l.signer.sign(l.origin, f.size, root)
	if err != nil {
		return err
	}
	if err := l.store.PutCheckpoint(context.Background(), &StoredCheckpoint{
		Size: f.size, Root: root[:], Note: []byte(signed), CreatedAt: now.UnixNano()}); err != nil {
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
		if l.readOnly {
			return nil, ErrReadOnly
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// strayRows names the rows a store holds past the end of a log of size
// entries, which an append ran into (err wraps ErrConflict): the log did
// not write them. The error wraps ErrTampered; the CLI exits 1, the API
// answers 500 saying so.
func (l *Ledger) strayRows(ctx context.Context, size int64, err error) error {
	what := err.Error()
	if c, cerr := l.store.Census(ctx); cerr == nil {
		switch want := tlog.StoredHashCount(size); {
		case c.Entries.Max >= size:
			what = fmt.Sprintf("entries: a row at index %d", c.Entries.Max)
		case c.Hashes.Max >= want:
			what = fmt.Sprintf("hashes: a row at id %d (a tree of %d entries has ids 0..%d)", c.Hashes.Max, size, want-1)
		}
	}
	return fmt.Errorf("the database holds rows past the end of the log (%d entries), which the log did not write: %s; nothing was appended ('sealed ledger audit' names every such row): %w", size, what, ErrTampered)
}
