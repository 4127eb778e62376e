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

	// Entries and stored hashes, in one pass, recomputing the tree.
	erows, err := l.r.QueryContext(ctx, `SELECT idx, body, leaf_hash, integrated_at FROM entries WHERE idx < ? ORDER BY idx`, n)
	if err != nil {
		return nil, err
	}
	defer erows.Close()
	hrows, err := l.r.QueryContext(ctx, `SELECT id, hash FROM hashes WHERE id < ? ORDER BY id`, tlog.StoredHashCount(n))
	if err != nil {
		return nil, err
	}
	defer hrows.Close()
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
	var (
		idx, integrated, prevTime int64
		body, leafHash, hash      sql.RawBytes
		hid                       int64
	)
	for i := int64(0); i < n; i++ {
		if i%8192 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			if progress != nil {
				progress(i, n)
			}
		}
		if !erows.Next() {
			if err := erows.Err(); err != nil {
				return nil, err
			}
			return fail(i, -1, "missing: the entries end before the tree size %d", n)
		}
		if err := erows.Scan(&idx, &body, &leafHash, &integrated); err != nil {
			return nil, err
		}
		if idx != i {
			return fail(i, -1, "missing: the next stored entry is %d", idx)
		}
		lh := tlog.RecordHash(body)
		if !bytes.Equal(lh[:], leafHash) {
			return fail(i, -1, "stored leaf hash %s, but the body hashes to %s (the body or its leaf hash was altered)",
				base64.StdEncoding.EncodeToString(leafHash), lh)
		}
		off := topLevelValue(body, "integrated_at")
		if off < 0 || off+len(placeholderTime)+2 > len(body) {
			return fail(i, -1, "the body has no integrated_at")
		}
		t, err := time.Parse(TimeLayout, string(body[off+1:off+1+len(placeholderTime)]))
		if err != nil || t.UnixNano() != integrated {
			return fail(i, -1, "integrated_at in the body differs from the stored integration time %s",
				time.Unix(0, integrated).UTC().Format(TimeLayout))
		}
		if integrated < prevTime {
			return fail(i, -1, "integration time %s is earlier than the previous entry's", time.Unix(0, integrated).UTC().Format(TimeLayout))
		}
		prevTime = integrated
		hs, err := tlog.StoredHashesForRecordHash(i, lh, f)
		if err != nil {
			return nil, err
		}
		base := tlog.StoredHashIndex(0, i)
		for k, h := range hs {
			want := base + int64(k)
			if !hrows.Next() {
				if err := hrows.Err(); err != nil {
					return nil, err
				}
				return fail(i, -1, "stored hash %d is missing", want)
			}
			if err := hrows.Scan(&hid, &hash); err != nil {
				return nil, err
			}
			if hid != want {
				return fail(i, -1, "stored hash %d is missing (found %d next)", want, hid)
			}
			if !bytes.Equal(hash, h[:]) {
				level, node := tlog.SplitStoredHashIndex(want)
				return fail(i, -1, "stored hash %d (level %d, node %d) is %s, but the entries give %s",
					want, level, node, base64.StdEncoding.EncodeToString(hash), h)
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
