package ledger

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"math"
	"time"

	"golang.org/x/mod/sumdb/tlog"
)

// The audit's readers. Each chunk of entries or stored hashes is first
// read as a few aggregated blobs (one row through the driver instead of
// thousands); a chunk whose blobs do not check out in every respect is
// read again row by row, and that reading alone decides what is reported,
// so the fast path can only accept, never name a problem. The aggregates
// concatenate the rows of a subquery ordered by the primary key, and
// their counts and lengths must show every row of the range present
// before the blobs are used.

const (
	// auditEntryChunk is how many entries one read covers (about 1 MB).
	auditEntryChunk = 4096
	// auditHashChunk is how many stored hashes one read covers (256 KB).
	auditHashChunk = 8192
	// auditEntryReaders is how many goroutines (and connections) read
	// entry chunks, taking turns: the entries are the widest rows.
	auditEntryReaders = 2
	// verifyEntryChunk is how many entries one read of VerifiedSizeEach
	// covers (about 256 KB). Its chunks are read into fresh memory (the
	// entries keep slices of them), unlike the audit's, which reuse their
	// buffers: smaller chunks let the memory of the ones already decoded
	// be reused sooner. On 50,000 entries, 1,024 faulted in 14,000-19,000
	// pages where 4,096 faulted in 21,000-25,000, and the site's judgement
	// before listening took 250-315 ms instead of 290-325
	// (docs/performance.md, thirteenth session).
	verifyEntryChunk = 1024
)

// entryChunk is entries [first, end) as read by an entries reader: blobs
// holds their aggregates, nil if the fast path is off.
type entryChunk struct {
	first, end int64
	blobs      *EntryChunk
}

// readEntryChunks reads the entry chunks k, k+stride, k+2*stride, ... of
// [0, n) and sends them to out (closed when done); blobs come back
// through free for reuse.
func (l *Ledger) readEntryChunks(ctx context.Context, n int64, fast ChunkReader, columns bool, k, stride int64, out chan<- entryChunk, free <-chan *EntryChunk) error {
	defer close(out)
	for a := k * auditEntryChunk; a < n; a += stride * auditEntryChunk {
		c := entryChunk{first: a, end: min(a+auditEntryChunk, n)}
		if fast != nil {
			select {
			case c.blobs = <-free:
			default:
				c.blobs = new(EntryChunk)
			}
			c.blobs.Columns = columns
			if err := fast.EntryChunk(ctx, c.first, c.end, c.blobs); err != nil {
				return err
			}
		}
		select {
		case out <- c:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return nil
}

// leafBatch is the recomputed leaf hashes of consecutive entries from a
// chunk's first, and, if problem is set, what is wrong with the entry
// right after them (the audit stops there).
type leafBatch struct {
	hashes  []tlog.Hash
	problem string
	results []namedReplay // the result entries among these leaves
	// seeds are the seed-commit entries among these leaves, each with
	// the commitment its leaf holds (checked against the seed_commits
	// rows in auditRest).
	seeds []StoredSeedCommit
	// columns reports that the chunk's lookup columns were compared with
	// its leaves and checked out (audit_columns_fast.go).
	columns bool
}

// namedReplay is a result entry and the replay digest its leaf names
// (checked against the replays table in auditRest).
type namedReplay struct {
	index  int64
	digest string
}

// leafChecker recomputes and checks leaves in index order; prev is the
// last integration time seen.
type leafChecker struct {
	store   Store
	columns bool // check the lookup columns against the leaves here
	prev    int64
	cache   timeNeedle
	players *playersAudit // fed every commit leaf, in index order
	commits []chunkLeaf   // the commit leaves of the chunk checkBlobs read
	// playersOut, if not nil, takes the players of each chunk's commit
	// entries instead of players (the fast path, checkPlayersFast);
	// pending holds the current chunk's.
	playersOut chan<- []playerCommit
	pending    []playerCommit
	// entries, if not nil, takes each entry of a chunk checkBlobs reads,
	// as entryOf would give it (VerifiedSizeEach's fast path); a chunk
	// that does not check out may leave some there.
	entries *[]Entry
}

// player hands a checked entry to the players re-derivation.
func (c *leafChecker) player(index int64, kind Kind, leaf []byte) {
	if c.playersOut == nil {
		c.players.feed(index, kind, leaf)
		return
	}
	if name, ok := commitPlayer(kind, leaf); ok {
		c.pending = append(c.pending, playerCommit{index, name})
	}
}

// chunkLeaf is a commit entry's index and leaf (a slice of a chunk's
// bodies), and its player (ok false if it has none).
type chunkLeaf struct {
	index  int64
	leaf   []byte
	player string
	ok     bool
}

// checkLeafChunks checks the chunks from ins (taking them in turn, chunk
// k from ins[k % len(ins)]), in order, and sends one batch per chunk to
// out (closed when done), stopping after a problem. Entry blobs go back
// to efree, and leaf hash slices come from lfree.
func (l *Ledger) checkLeafChunks(ctx context.Context, ins []chan entryChunk, columns bool, pa *playersAudit, pout chan<- []playerCommit, out chan<- leafBatch, efree chan<- *EntryChunk, lfree <-chan []tlog.Hash) error {
	defer close(out)
	if pout != nil {
		defer close(pout)
	}
	lc := leafChecker{store: l.store, columns: columns, players: pa, playersOut: pout}
	for k := 0; ; k++ {
		c, ok := <-ins[k%len(ins)]
		if !ok {
			break
		}
		var hashes []tlog.Hash
		select {
		case hashes = <-lfree:
		default:
		}
		if cap(hashes) < int(c.end-c.first) {
			hashes = make([]tlog.Hash, c.end-c.first)
		}
		hashes = hashes[:c.end-c.first]
		batch := leafBatch{hashes: hashes}
		lc.commits = lc.commits[:0]
		ok = c.blobs != nil && lc.checkBlobs(c.blobs, c.first, hashes, &batch.results, &batch.seeds, &batch.columns)
		if ok {
			for _, e := range lc.commits {
				if lc.playersOut == nil {
					lc.players.feed(e.index, KindCommit, e.leaf)
				} else if e.ok {
					lc.pending = append(lc.pending, playerCommit{e.index, e.player})
				}
			}
		}
		if c.blobs != nil {
			select {
			case efree <- c.blobs:
			default:
			}
		}
		if !ok {
			var err error
			if batch, err = lc.checkRows(ctx, c.first, c.end, hashes); err != nil {
				return err
			}
		}
		if batch.problem != "" {
			lc.pending = nil // the audit stops here: no players verdict is read
		}
		if len(lc.pending) > 0 {
			select {
			case pout <- lc.pending:
			case <-ctx.Done():
				return ctx.Err()
			}
			lc.pending = nil
		}
		select {
		case out <- batch:
		case <-ctx.Done():
			return ctx.Err()
		}
		if batch.problem != "" {
			return nil
		}
	}
	return ctx.Err()
}

// checkBlobs checks the aggregates of a chunk of len(hashes) entries and
// fills hashes with the recomputed leaf hashes (entry first onwards),
// results with its result entries and, if seeds is not nil, seeds with
// its seed-commit entries. It returns false, leaving the checker, results
// and seeds as they were, if anything does not check out (a count, a
// length, a leaf hash, a time): the chunk is then read again row by row.
func (c *leafChecker) checkBlobs(e *EntryChunk, first int64, hashes []tlog.Hash, results *[]namedReplay, seeds *[]StoredSeedCommit, columns *bool) bool {
	n := int64(len(hashes))
	// A chunk read with Leaves holds no duplicate keys but the ref
	// column, each compared with its leaf (refMatches).
	leavesOnly := e.Leaves && !e.HasColumns
	dedups := !leavesOnly
	if e.Count != n || e.Times != n || e.MinLeafHash != tlog.HashSize || int64(len(e.LeafHashes)) != n*tlog.HashSize ||
		dedups && (e.MinDedup != 32 || int64(len(e.Dedups)) != n*32) ||
		leavesOnly && (!e.HasRefs || (e.RefType != "integer" && e.RefType != "null")) {
		return false
	}
	refs := e.Refs
	cols, colsOK := startColumns(e, n)
	prev := c.prev
	found := *results
	var seedsFound []StoredSeedCommit
	if seeds != nil {
		seedsFound = *seeds
	}
	var m leafMembers
	bodies, lengths, instants := e.Bodies, e.Lengths, e.Instants
	for i := range hashes {
		last := i == len(hashes)-1
		var bodyLen, integrated int64
		var ok bool
		if bodyLen, lengths, ok = cutInt(lengths, last); !ok || bodyLen < 0 || bodyLen > int64(len(bodies)) {
			return false
		}
		if integrated, instants, ok = cutInt(instants, last); !ok {
			return false
		}
		body := bodies[:bodyLen]
		bodies = bodies[bodyLen:]
		h := tlog.RecordHash(body)
		plain := scanMembers(body, &m)
		if !bytes.Equal(h[:], e.LeafHashes[i*tlog.HashSize:(i+1)*tlog.HashSize]) ||
			integrated < prev || !leafHasTimeAt(body, m[mIntegratedAt], integrated, &c.cache) {
			return false
		}
		kindb, _ := m.bytes(body, mKind)
		kind := kindOf(kindb)
		colsOK = colsOK && plain && cols.row(body, &m, kind, last)
		if dedups {
			if d, ok := dedupOfMembers(kind, body, &m); !ok || !bytes.Equal(d[:], e.Dedups[i*32:(i+1)*32]) {
				return false
			}
		} else if tr, ok := cutToken(&refs, last); !ok || !plain || !refMatches(body, &m, tr) {
			return false
		}
		switch kind {
		case KindResult:
			d, _ := m.str(body, mReplay)
			found = append(found, namedReplay{first + int64(i), d})
		case KindCommit:
			name, ok := m.str(body, mPlayer)
			c.commits = append(c.commits, chunkLeaf{first + int64(i), body, name, ok})
		case KindSeedCommit:
			if sc, ok := SeedCommitOf(kind, body, first+int64(i)); ok && seeds != nil {
				seedsFound = append(seedsFound, sc)
			}
		}
		prev = integrated
		hashes[i] = h
		if c.entries != nil && !c.entry(first+int64(i), kind, body, h, integrated, &m) {
			return false
		}
	}
	if len(bodies) != 0 || leavesOnly && len(refs) != 0 {
		return false
	}
	c.prev = prev
	*results = found
	if seeds != nil {
		*seeds = seedsFound
	}
	*columns = colsOK && cols.done(e)
	return true
}

// entry appends to c.entries the entry of a leaf checkBlobs checked, as
// leafEntryOf converts its row: the kind and posted_at are the leaf's
// members, the integration time the stored one, which checkBlobs found
// in the leaf. false if the leaf has no kind or its posted_at does not
// parse (the row path then decides).
func (c *leafChecker) entry(index int64, kind Kind, body []byte, h tlog.Hash, integrated int64, m *leafMembers) bool {
	if kind == "" {
		return false // leafEntryOf refuses a leaf without a kind
	}
	e := Entry{Index: index, Kind: kind, Leaf: body, LeafHash: h, IntegratedAt: time.Unix(0, integrated).UTC()}
	if m[mPostedAt] >= 0 {
		s, ok := m.bytes(body, mPostedAt)
		if !ok {
			return false
		}
		t, err := time.Parse(TimeLayout, string(s))
		if err != nil {
			return false
		}
		e.PostedAt = time.Unix(0, t.UnixNano()).UTC()
	}
	*c.entries = append(*c.entries, e)
	return true
}

// cutInt parses a decimal integer at the start of p, as SQLite writes an
// integer as text, followed by the separator ',' (or by nothing if last),
// and returns it and the rest after the separator.
func cutInt(p []byte, last bool) (int64, []byte, bool) {
	i, neg := 0, false
	if len(p) > 0 && p[0] == '-' {
		i, neg = 1, true
	}
	start := i
	var v int64
	for ; i < len(p) && p[i] >= '0' && p[i] <= '9'; i++ {
		d := int64(p[i] - '0')
		if v > (math.MaxInt64-d)/10 {
			return 0, nil, false // out of range: left to the row-by-row reading
		}
		v = v*10 + d
	}
	if i == start {
		return 0, nil, false
	}
	if neg {
		v = -v
	}
	if last {
		return v, nil, i == len(p)
	}
	if i >= len(p) || p[i] != ',' {
		return 0, nil, false
	}
	return v, p[i+1:], true
}

// checkRows reads entries [a, b) row by row and checks them: every index
// present, each stored leaf hash equal to the one recomputed from the
// body, the body's integrated_at equal to the stored integration time,
// which never goes back. It returns the leaf hashes up to the first
// problem, and the problem.
func (c *leafChecker) checkRows(ctx context.Context, a, b int64, hashes []tlog.Hash) (leafBatch, error) {
	rows, err := c.store.EntryRange(ctx, a, b)
	if err != nil {
		return leafBatch{}, err
	}
	batch := leafBatch{hashes: hashes[:0]}
	want := a
	for i := range rows {
		r := &rows[i]
		if r.Index != want {
			batch.problem = "missing from the entries table"
			return batch, nil
		}
		h, problem := c.check(r.Leaf, r.LeafHash, r.IntegratedAt)
		if problem == "" && c.columns {
			problem = checkColumns(r)
		} else if problem == "" {
			// The store checks the other columns (ColumnChecker); the
			// duplicate key, a SHA-256, only Go can recompute.
			kind, _ := topLevelString(r.Leaf, "kind")
			if d, ok := dedupOfLeaf(Kind(kind), r.Leaf); !ok || !bytes.Equal(d[:], r.Dedup) {
				problem = fmt.Sprintf("the stored dedup column %x is not the duplicate key of the leaf, %x", r.Dedup, d)
			}
		}
		if problem != "" {
			batch.problem = problem
			return batch, nil
		}
		if r.Kind == KindResult {
			d, _ := topLevelString(r.Leaf, "replay_sha256")
			batch.results = append(batch.results, namedReplay{r.Index, d})
		}
		if sc, ok := SeedCommitOf(r.Kind, r.Leaf, r.Index); ok {
			batch.seeds = append(batch.seeds, sc)
		}
		c.player(r.Index, r.Kind, r.Leaf)
		batch.hashes = append(batch.hashes, h)
		want++
	}
	if want < b {
		batch.problem = "missing from the entries table"
	}
	return batch, nil
}

// check checks one entry's body, stored leaf hash and time, and returns
// its leaf hash or what is wrong with it.
func (c *leafChecker) check(body, leafHash []byte, integrated int64) (tlog.Hash, string) {
	h := tlog.RecordHash(body)
	switch {
	case !bytes.Equal(h[:], leafHash):
		return h, fmt.Sprintf("stored leaf hash %s, but the body hashes to %s (the body or its leaf hash was altered)",
			base64.StdEncoding.EncodeToString(leafHash), h)
	case !leafHasTime(body, integrated, &c.cache):
		return h, fmt.Sprintf("integrated_at in the body differs from the stored integration time %s",
			time.Unix(0, integrated).UTC().Format(TimeLayout))
	case integrated < c.prev:
		return h, fmt.Sprintf("integration time %s is earlier than the previous entry's",
			time.Unix(0, integrated).UTC().Format(TimeLayout))
	}
	c.prev = integrated
	return h, ""
}

// hashChunk is stored hashes [first, first+len) as read: fast holds them
// concatenated (32 bytes each) if the aggregate checked out, else rows
// holds one element per id.
type hashChunk struct {
	first int64
	fast  []byte
	rows  []auditHash
}

// len is the number of stored hashes in the chunk.
func (c *hashChunk) len() int64 {
	if c.fast != nil {
		return int64(len(c.fast) / tlog.HashSize)
	}
	return int64(len(c.rows))
}

// auditHash is one stored hash as read row by row: missing if there is no
// row for its id, bad if it is not 32 bytes (raw holds it then).
type auditHash struct {
	hash    tlog.Hash
	missing bool
	bad     bool
	raw     string
}

// String is the stored hash in base64.
func (h auditHash) String() string {
	if h.bad {
		return base64.StdEncoding.EncodeToString([]byte(h.raw))
	}
	return h.hash.String()
}

// readHashChunks reads stored hashes [0, count) chunk by chunk and sends
// them to out (closed when done); blobs come back through free for reuse.
func (l *Ledger) readHashChunks(ctx context.Context, count int64, fast ChunkReader, out chan<- hashChunk, free <-chan []byte) error {
	defer close(out)
	for a := int64(0); a < count; a += auditHashChunk {
		b := min(a+auditHashChunk, count)
		var c hashChunk
		ok := false
		if fast != nil {
			var buf []byte
			select {
			case buf = <-free:
			default:
			}
			n, shortest, blob, err := fast.HashChunk(ctx, a, b, buf)
			if err != nil {
				return err
			}
			if ok = n == b-a && shortest == tlog.HashSize && int64(len(blob)) == n*tlog.HashSize; ok {
				c = hashChunk{first: a, fast: blob}
			}
		}
		if !ok {
			var err error
			if c, err = l.readHashRows(ctx, a, b); err != nil {
				return err
			}
		}
		select {
		case out <- c:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return nil
}

// readHashRows reads stored hashes [a, b) row by row, one element per id
// (missing where there is no row).
func (l *Ledger) readHashRows(ctx context.Context, a, b int64) (hashChunk, error) {
	rows, err := l.store.HashRange(ctx, a, b)
	if err != nil {
		return hashChunk{}, err
	}
	c := hashChunk{first: a, rows: make([]auditHash, b-a)}
	for i := range c.rows {
		c.rows[i].missing = true
	}
	for _, r := range rows {
		if r.ID < a || r.ID >= b {
			continue
		}
		h := &c.rows[r.ID-a]
		h.missing = false
		if len(r.Hash) == tlog.HashSize {
			h.hash = tlog.Hash(r.Hash)
		} else {
			h.bad, h.raw = true, string(r.Hash)
		}
	}
	return c, nil
}

// timeNeedle caches the `"integrated_at":"..."` member of the last time
// seen: the entries of a batch share one time.
type timeNeedle struct {
	ns     int64
	needle []byte
}

// leafHasTime reports whether the canonical leaf's top-level member
// "integrated_at" holds the time ns (TimeLayout). Only the top level
// counts: a seed-commit's config or a result's summary may hold a member
// of the same name, and a forged column equal to that nested value must
// not pass (docs/ledger.md "Audit", item 5).
func leafHasTime(body []byte, ns int64, c *timeNeedle) bool {
	return leafHasTimeAt(body, topLevelValue(body, "integrated_at"), ns, c)
}

// leafHasTimeAt is leafHasTime with the offset i of the member's value
// already found (-1 if none).
func leafHasTimeAt(body []byte, i int, ns int64, c *timeNeedle) bool {
	if c.needle == nil || c.ns != ns {
		c.ns = ns
		c.needle = []byte(`"` + time.Unix(0, ns).UTC().Format(TimeLayout) + `"`)
	}
	return i >= 0 && bytes.HasPrefix(body[i:], c.needle)
}
