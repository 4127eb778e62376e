package ledger

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/base64"
	"fmt"
	"time"

	"golang.org/x/mod/sumdb/tlog"
)

// AuditReport is the result of Audit.
type AuditReport struct {
	Size        int64         `json:"size"`        // entries audited (the tree size when the audit started)
	Checkpoints int           `json:"checkpoints"` // stored checkpoints audited
	OK          bool          `json:"ok"`
	Problem     *AuditProblem `json:"problem,omitempty"` // the first problem found, if not OK
}

// AuditProblem names the first thing found wrong.
type AuditProblem struct {
	// Index is the entry concerned: the entry whose leaf is wrong, or whose
	// append wrote the wrong stored hash; -1 for a checkpoint problem.
	Index int64 `json:"index"`
	// Checkpoint is the tree size of the checkpoint concerned, or -1.
	Checkpoint int64  `json:"checkpoint"`
	What       string `json:"what"` // what differed: stored and recomputed values
}

// String is the problem in one line: "entry 7: ..." or "checkpoint of size 20: ...".
func (p *AuditProblem) String() string {
	switch {
	case p.Index >= 0:
		return fmt.Sprintf("entry %d: %s", p.Index, p.What)
	case p.Checkpoint >= 0:
		return fmt.Sprintf("checkpoint of size %d: %s", p.Checkpoint, p.What)
	}
	return p.What
}

type storedCheckpoint struct {
	id, size int64
	root     []byte
	note     []byte
}

// Audit re-derives the log from its entry bodies and checks everything
// stored against it: every leaf hash (RFC 6962 SHA-256(0x00 || leaf)) in
// the entries and hashes tables, every stored tree hash (recomputed with
// tlog.StoredHashes), the integration times (the body's integrated_at
// equals the stored one and never goes back), indexes without gaps, every
// checkpoint's signature (note.Open with the log's verifier key), body
// and root (the recomputed root at its size), and the consistency of each
// checkpoint with the next (tlog.ProveTree / tlog.CheckTree). It stops at
// the first problem and names it in the report; the error is only for
// failures to read. progress, if not nil, is called now and then with
// entries done and the total.
func (l *Ledger) Audit(ctx context.Context, progress func(done, total int64)) (*AuditReport, error) {
	n, err := treeSize(l.r)
	if err != nil {
		return nil, err
	}
	rep := &AuditReport{Size: n, OK: true}
	fail := func(index, cp int64, format string, args ...any) (*AuditReport, error) {
		rep.OK = false
		rep.Problem = &AuditProblem{Index: index, Checkpoint: cp, What: fmt.Sprintf(format, args...)}
		return rep, nil
	}
	// Checkpoints first: signature, origin, size and root fields.
	var cps []storedCheckpoint
	rows, err := l.r.QueryContext(ctx, `SELECT id, size, root, note FROM checkpoints WHERE size <= ? ORDER BY size, id`, n)
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		var c storedCheckpoint
		if err := rows.Scan(&c.id, &c.size, &c.root, &c.note); err != nil {
			rows.Close()
			return nil, err
		}
		cps = append(cps, c)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	rep.Checkpoints = len(cps)
	for _, c := range cps {
		cp, err := OpenCheckpoint(l.vkey, c.note)
		if err != nil {
			return fail(-1, c.size, "%v", err)
		}
		if cp.Size != c.size || !bytes.Equal(cp.Root[:], c.root) {
			return fail(-1, c.size, "signed size %d and root %s differ from the stored size %d and root %s",
				cp.Size, cp.Root, c.size, base64.StdEncoding.EncodeToString(c.root))
		}
	}

	// Indexes and stored hash ids must be dense: 0..n-1 and
	// 0..StoredHashCount(n)-1 (they are integer primary keys, so the counts
	// settle it). The readers below then need not read them.
	hcount := tlog.StoredHashCount(n)
	if gap, err := firstGap(ctx, l.r, "entries", "idx", n); err != nil {
		return nil, err
	} else if gap >= 0 {
		return fail(gap, -1, "missing from the entries table")
	}
	if gap, err := firstGap(ctx, l.r, "hashes", "id", hcount); err != nil {
		return nil, err
	} else if gap >= 0 {
		level, node := tlog.SplitStoredHashIndex(gap)
		return fail((node+1)<<level-1, -1, "stored hash %d (level %d, node %d) is missing", gap, level, node)
	}

	// Entries and stored hashes, in one pass, recomputing the tree. Two
	// goroutines read the two tables (and hash the leaves) while this one
	// recomputes the stored hashes, so the audit uses two cores.
	actx, cancel := context.WithCancel(ctx)
	defer cancel()
	leaves := make(chan []auditLeaf, 4)
	hashes := make(chan []auditHash, 4)
	errc := make(chan error, 2)
	go func() { errc <- l.readLeaves(actx, n, leaves) }()
	go func() { errc <- l.readHashes(actx, hcount, hashes) }()
	f := &frontier{}
	ci := 0
	checkRoots := func() (bool, error) {
		for ; ci < len(cps) && cps[ci].size == f.size; ci++ {
			root, err := f.root()
			if err != nil {
				return false, err
			}
			if !bytes.Equal(root[:], cps[ci].root) {
				rep.OK = false
				rep.Problem = &AuditProblem{Index: -1, Checkpoint: f.size, What: fmt.Sprintf(
					"signed root %s, but the entries give %s", base64.StdEncoding.EncodeToString(cps[ci].root), root)}
				return false, nil
			}
		}
		return true, nil
	}
	if ok, err := checkRoots(); !ok || err != nil {
		return rep, err
	}
	// readErr reports why a producer stopped early.
	readErr := func() error {
		cancel()
		for range 2 {
			if err := <-errc; err != nil && err != context.Canceled {
				return err
			}
		}
		return ctx.Err()
	}
	var lbuf []auditLeaf
	var hbuf []auditHash
	for i := int64(0); i < n; i++ {
		if len(lbuf) == 0 {
			if progress != nil {
				progress(i, n)
			}
			var ok bool
			if lbuf, ok = <-leaves; !ok {
				if err := readErr(); err != nil {
					return nil, err
				}
				return fail(i, -1, "missing: the entries end before the tree size %d", n)
			}
		}
		e := lbuf[0]
		lbuf = lbuf[1:]
		if e.problem != "" {
			return fail(i, -1, "%s", e.problem)
		}
		hs, err := tlog.StoredHashesForRecordHash(i, e.leafHash, f)
		if err != nil {
			return nil, err
		}
		base := tlog.StoredHashIndex(0, i)
		for k, h := range hs {
			want := base + int64(k)
			if len(hbuf) == 0 {
				var ok bool
				if hbuf, ok = <-hashes; !ok {
					if err := readErr(); err != nil {
						return nil, err
					}
					return fail(i, -1, "stored hash %d is missing", want)
				}
			}
			sh := hbuf[0]
			hbuf = hbuf[1:]
			if sh.bad || sh.hash != h {
				level, node := tlog.SplitStoredHashIndex(want)
				return fail(i, -1, "stored hash %d (level %d, node %d) is %s, but the entries give %s",
					want, level, node, sh.String(), h)
			}
		}
		f.add(hs)
		if ok, err := checkRoots(); !ok || err != nil {
			return rep, err
		}
	}
	if progress != nil {
		progress(n, n)
	}
	if ci != len(cps) {
		return fail(-1, cps[ci].size, "no tree of that size was found among the entries")
	}
	// Each checkpoint consistent with the next (their roots were checked
	// against the entries above; this checks the proofs the log serves).
	hr := hashReader{l.r}
	for k := 1; k < len(cps); k++ {
		a, b := cps[k-1], cps[k]
		if a.size == 0 {
			continue
		}
		p, err := tlog.ProveTree(b.size, a.size, hr)
		if err != nil {
			return fail(-1, b.size, "cannot prove consistency with size %d: %v", a.size, err)
		}
		if err := tlog.CheckTree(p, b.size, tlog.Hash(b.root), a.size, tlog.Hash(a.root)); err != nil {
			return fail(-1, b.size, "not consistent with the checkpoint of size %d: %v", a.size, err)
		}
	}
	return rep, nil
}

// auditBatch is how many rows a reader goroutine sends at once.
const auditBatch = 4096

// auditLeaf is one entry as the leaf reader found it: its recomputed leaf
// hash, or what was wrong with it.
type auditLeaf struct {
	leafHash tlog.Hash
	problem  string
}

// auditHash is one stored hash; bad if it is not 32 bytes.
type auditHash struct {
	hash tlog.Hash
	bad  bool
	raw  string
}

// String is the stored hash in base64.
func (h auditHash) String() string {
	if h.bad {
		return base64.StdEncoding.EncodeToString([]byte(h.raw))
	}
	return h.hash.String()
}

// readLeaves reads entries [0, n) in order, in chunks of auditBatch (one
// range query each),
// recomputes each leaf hash, checks it against the stored leaf hash and
// the body's integrated_at against the stored time (never going back),
// and sends one batch per chunk; it closes out when done.
func (l *Ledger) readLeaves(ctx context.Context, n int64, out chan<- []auditLeaf) error {
	defer close(out)
	lr := leafReader{db: l.r}
	for a := int64(0); a < n; a += auditBatch {
		b := min(a+auditBatch, n)
		batch, err := lr.read(ctx, a, b)
		if err != nil {
			return err
		}
		select {
		case out <- batch:
		case <-ctx.Done():
			return ctx.Err()
		}
		if len(batch) > 0 && batch[len(batch)-1].problem != "" {
			return nil
		}
	}
	return nil
}

// leafReader checks leaves chunk by chunk; prev is the last integration
// time seen.
type leafReader struct {
	db    *sql.DB
	prev  int64
	cache timeNeedle
}

// check checks one entry's body, stored leaf hash and time.
func (r *leafReader) check(body, leafHash []byte, integrated int64) auditLeaf {
	e := auditLeaf{leafHash: tlog.RecordHash(body)}
	switch {
	case !bytes.Equal(e.leafHash[:], leafHash):
		e.problem = fmt.Sprintf("stored leaf hash %s, but the body hashes to %s (the body or its leaf hash was altered)",
			base64.StdEncoding.EncodeToString(leafHash), e.leafHash)
	case !leafHasTime(body, integrated, &r.cache):
		e.problem = fmt.Sprintf("integrated_at in the body differs from the stored integration time %s",
			time.Unix(0, integrated).UTC().Format(TimeLayout))
	case integrated < r.prev:
		e.problem = fmt.Sprintf("integration time %s is earlier than the previous entry's",
			time.Unix(0, integrated).UTC().Format(TimeLayout))
	}
	r.prev = integrated
	return e
}

// read reads entries [a, b) row by row.
func (r *leafReader) read(ctx context.Context, a, b int64) ([]auditLeaf, error) {
	rows, err := r.db.QueryContext(ctx, `SELECT body, leaf_hash, integrated_at FROM entries WHERE idx >= ? AND idx < ? ORDER BY idx`, a, b)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var integrated int64
	var body, leafHash sql.RawBytes
	batch := make([]auditLeaf, 0, b-a)
	for rows.Next() {
		if err := rows.Scan(&body, &leafHash, &integrated); err != nil {
			return nil, err
		}
		e := r.check(body, leafHash, integrated)
		batch = append(batch, e)
		if e.problem != "" {
			break
		}
	}
	return batch, rows.Err()
}

// readHashes reads stored hashes [0, count) in order, in chunks of
// auditBatch, and sends one batch per chunk; it closes out when done.
func (l *Ledger) readHashes(ctx context.Context, count int64, out chan<- []auditHash) error {
	defer close(out)
	for a := int64(0); a < count; a += auditBatch {
		batch, err := l.readHashChunk(ctx, a, min(a+auditBatch, count))
		if err != nil {
			return err
		}
		select {
		case out <- batch:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return nil
}

// readHashChunk reads stored hashes [a, b) row by row.
func (l *Ledger) readHashChunk(ctx context.Context, a, b int64) ([]auditHash, error) {
	rows, err := l.r.QueryContext(ctx, `SELECT hash FROM hashes WHERE id >= ? AND id < ? ORDER BY id`, a, b)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var raw sql.RawBytes
	batch := make([]auditHash, 0, b-a)
	for rows.Next() {
		if err := rows.Scan(&raw); err != nil {
			return nil, err
		}
		var h auditHash
		if len(raw) == tlog.HashSize {
			h.hash = tlog.Hash(raw)
		} else {
			h.bad, h.raw = true, string(raw)
		}
		batch = append(batch, h)
	}
	return batch, rows.Err()
}

// timeNeedle caches the `"integrated_at":"..."` member of the last time
// seen: the entries of a batch share one time.
type timeNeedle struct {
	ns     int64
	needle []byte
}

// leafHasTime reports whether the canonical leaf holds the member
// "integrated_at" with the time ns (TimeLayout). The leaf hash is checked
// before, so the body is one the ledger wrote, with that member at the top
// level.
func leafHasTime(body []byte, ns int64, c *timeNeedle) bool {
	if c.needle == nil || c.ns != ns {
		c.ns = ns
		c.needle = []byte(`"integrated_at":"` + time.Unix(0, ns).UTC().Format(TimeLayout) + `"`)
	}
	return bytes.Contains(body, c.needle)
}

// firstGap returns the smallest i in [0, n) with no row whose integer
// primary key col is i, or -1 if there is none.
func firstGap(ctx context.Context, q *sql.DB, table, col string, n int64) (int64, error) {
	var count int64
	if err := q.QueryRowContext(ctx, `SELECT count(*) FROM `+table+` WHERE `+col+` >= 0 AND `+col+` < ?`, n).Scan(&count); err != nil {
		return 0, err
	}
	if count == n {
		return -1, nil
	}
	var gap int64
	err := q.QueryRowContext(ctx, `SELECT CASE WHEN NOT EXISTS (SELECT 1 FROM `+table+` WHERE `+col+` = 0) THEN 0
		ELSE (SELECT min(a.`+col+`) + 1 FROM `+table+` a WHERE a.`+col+` >= 0 AND a.`+col+` + 1 < ?
			AND NOT EXISTS (SELECT 1 FROM `+table+` b WHERE b.`+col+` = a.`+col+` + 1)) END`, n).Scan(&gap)
	return gap, err
}
