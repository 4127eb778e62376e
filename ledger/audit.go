package ledger

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"time"

	"golang.org/x/mod/sumdb/tlog"
)

// AuditReport is the result of Audit.
type AuditReport struct {
	Size        int64 `json:"size"`        // entries audited (the tree size when the audit started)
	Checkpoints int   `json:"checkpoints"` // stored checkpoints audited
	// Untimed counts the checkpoints signed by a sealed from before the
	// log's timestamped signature (their created_at is not signed, so it
	// is not checked).
	Untimed int           `json:"untimed,omitempty"`
	OK      bool          `json:"ok"`
	Problem *AuditProblem `json:"problem,omitempty"` // the first problem found, if not OK
	// Unchecked lists what the store's integrity check could not check
	// in this database, and why (a [NotCheckedError]'s What and Why, e.g.
	// "the indexes against their tables: the amcheck extension is not
	// installed in this database"); empty when it checked everything.
	Unchecked []string `json:"unchecked,omitempty"`

	results    []namedReplay // result entries seen by the tree pass, for auditRest
	players    *playersAudit // the players rows, re-derived by the tree pass
	playersErr error         // reading the players rows failed
	// seeds are the seed-commit entries the tree pass saw, with their
	// leaves' commitments; seedRows the seed_commits rows, read before
	// it (seedRowsErr: reading them failed).
	seeds       []StoredSeedCommit
	seedRows    []StoredSeedCommit
	seedRowsErr error
	// playersFast is the players fast path's result (PlayerReader), nil
	// if the tree pass re-derived the table into players instead.
	playersFast *playersFast
}

// AuditProblem names the first thing found wrong.
type AuditProblem struct {
	// Index is the entry concerned: the entry whose leaf is wrong, or whose
	// append wrote the wrong stored hash; -1 for a checkpoint problem.
	Index int64 `json:"index"`
	// Checkpoint is the tree size of the checkpoint concerned, or -1.
	Checkpoint int64 `json:"checkpoint"`
	// Table is the table holding the row found wrong: entries, hashes,
	// checkpoints, replays, log_meta, schema_version (the names of the
	// SQLite and PostgreSQL stores).
	Table string `json:"table"`
	What  string `json:"what"` // what differed: stored and recomputed values, naming the row
	// SchemaObject is set for a trigger, index or other schema object
	// that differs from the schema's (SchemaChecker.CheckSchemaObjects):
	// the audit reports it only when every row checks out, so a caller
	// with more checks of rows (the witnesses' cosignatures) may still
	// find a row to name.
	SchemaObject bool `json:"schema_object,omitempty"`
}

// String is the problem in one line, naming the table and the row:
// "entries, entry 7: ...", "checkpoints, checkpoint of size 20: ...",
// "replays: ...".
func (p *AuditProblem) String() string {
	switch {
	case p.Index >= 0:
		return fmt.Sprintf("%s, entry %d: %s", p.Table, p.Index, p.What)
	case p.Checkpoint >= 0:
		return fmt.Sprintf("%s, checkpoint of size %d: %s", p.Table, p.Checkpoint, p.What)
	}
	if p.Table == "" {
		return p.What
	}
	return p.Table + ": " + p.What
}

// tableOf names the table of a problem of the main pass.
func tableOf(index, checkpoint int64, what string) string {
	switch {
	case checkpoint >= 0:
		return "checkpoints"
	case strings.HasPrefix(what, "stored hash"):
		return "hashes"
	}
	return "entries"
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
	// The store's integrity check runs alongside the audit, on its own
	// connection, and decides first: a database the store cannot read
	// whole is that error, whatever the rows read meanwhile showed.
	integrity := make(chan error, 1)
	if ic, ok := l.store.(IntegrityChecker); ok {
		go func() { integrity <- ic.CheckIntegrity(ctx) }()
	} else {
		integrity <- nil
	}
	rep, err := l.audit(ctx, progress)
	ierr := <-integrity
	var nc *NotCheckedError
	if errors.As(ierr, &nc) {
		if rep != nil {
			rep.Unchecked = append(rep.Unchecked, nc.What+": "+nc.Why)
		}
		ierr = nil
	}
	if ierr != nil {
		return nil, ierr
	}
	return rep, err
}

// audit is Audit but for the store's integrity check.
func (l *Ledger) audit(ctx context.Context, progress func(done, total int64)) (*AuditReport, error) {
	// A table whose columns were altered is a finding before any row is
	// read through them.
	if sc, ok := l.store.(SchemaChecker); ok {
		table, what, err := sc.CheckSchema(ctx)
		if err != nil {
			return nil, err
		}
		if table != "" {
			return &AuditReport{Problem: &AuditProblem{Index: -1, Checkpoint: -1, Table: table, What: what}}, nil
		}
	}
	rep, err := l.auditTree(ctx, progress)
	if err != nil && errors.Is(err, ErrTampered) {
		// A row the store could not even read as its columns' types.
		table := tableOfError(err)
		return &AuditReport{Problem: &AuditProblem{Index: -1, Checkpoint: -1, Table: table, What: strings.TrimPrefix(err.Error(), table+": ")}}, nil
	}
	if err != nil || !rep.OK {
		return rep, err
	}
	if p, err := l.auditRest(ctx, rep); err != nil || p != nil {
		if p != nil {
			rep.OK, rep.Problem = false, p
		}
		return rep, err
	}
	// Every row checks out: the store's own lookup keys must match them.
	if lc, ok := l.store.(LookupChecker); ok {
		table, what, err := lc.CheckLookup(ctx, rep.Size)
		if err != nil {
			return nil, err
		}
		if table != "" {
			rep.OK, rep.Problem = false, &AuditProblem{Index: -1, Checkpoint: -1, Table: table, What: what}
			return rep, nil
		}
	}
	// A trigger or index dropped, changed or added is still a change to
	// the database.
	if sc, ok := l.store.(SchemaChecker); ok {
		table, what, err := sc.CheckSchemaObjects(ctx)
		if err != nil {
			return nil, err
		}
		if table != "" {
			rep.OK, rep.Problem = false, &AuditProblem{Index: -1, Checkpoint: -1, Table: table, What: what, SchemaObject: true}
		}
	}
	return rep, nil
}

// auditTree is the pass over the tree: checkpoints, entries, stored
// hashes and lookup columns.
func (l *Ledger) auditTree(ctx context.Context, progress func(done, total int64)) (*AuditReport, error) {
	// The checkpoints are read before the tree size: a checkpoint is
	// stored only after the entries it covers, so with another process
	// appending meanwhile the tree read next is still at least as large
	// as every checkpoint read. A smaller tree means entries were deleted
	// from the end of the log.
	all, err := l.store.Checkpoints(ctx, math.MaxInt64)
	if err != nil {
		return nil, err
	}
	n, err := l.store.Size(ctx)
	if err != nil {
		return nil, err
	}
	rep := &AuditReport{Size: n, OK: true}
	fail := func(index, cp int64, format string, args ...any) (*AuditReport, error) {
		rep.OK = false
		what := fmt.Sprintf(format, args...)
		rep.Problem = &AuditProblem{Index: index, Checkpoint: cp, Table: tableOf(index, cp, what), What: what}
		return rep, nil
	}
	// A row at an index no log reaches (the stored hash ids of a log of
	// 2^62 entries would overflow int64): a row added far past the end,
	// named as itself rather than through the ids it would overflow.
	if n > MaxTreeSize {
		return fail(n-1, -1, "an entry stored at index %d, past the size any log can have (%d): a row was added far past the end", n-1, MaxTreeSize)
	}
	var cps []StoredCheckpoint
	for _, c := range all {
		if c.Size > n {
			maxCP := all[len(all)-1].Size
			return fail(n, c.Size, "missing: the log has %d entries, but a checkpoint was signed for %d (entries %d..%d were removed from the end)", n, c.Size, n, maxCP-1)
		}
		cps = append(cps, c)
	}
	// The lookup-column check: a store that can run it itself does so
	// alongside the pass below (its answer is read after the pass);
	// otherwise the leaf checker compares the columns row by row.
	type columnsResult struct {
		idx  int64
		what string
		err  error
	}
	columns := make(chan columnsResult, 1) // buffered: an early return leaks nothing
	cc, storeColumns := l.store.(ColumnChecker)
	// With the chunked reads below, the leaf checker compares the columns
	// of each chunk itself, and the store's check runs only if a chunk
	// does not check out (audit_columns_fast.go).
	_, chunked := l.store.(ChunkReader)
	fastColumns := storeColumns && chunked
	if storeColumns && !fastColumns {
		go func() {
			idx, what, err := cc.CheckColumns(ctx, 0, n)
			columns <- columnsResult{idx, what, err}
		}()
	} else if !fastColumns {
		columns <- columnsResult{idx: -1}
	}
	// Checkpoints first: signature, origin, size and root fields.
	rep.Checkpoints = len(cps)
	for _, c := range cps {
		cp, err := OpenCheckpoint(l.vkey, c.Note)
		if err != nil {
			return fail(-1, c.Size, "%v", err)
		}
		if cp.Size != c.Size || !bytes.Equal(cp.Root[:], c.Root) {
			return fail(-1, c.Size, "signed size %d and root %s differ from the stored size %d and root %s",
				cp.Size, cp.Root, c.Size, base64.StdEncoding.EncodeToString(c.Root))
		}
	}
	// By id: ids 1, 2, 3, ... without a gap (a deleted row), no note
	// stored twice (the log never signs one size twice), created_at the
	// time the log's timestamped signature carries; once checkpoints
	// carry that signature, every later one must. The order of the ids
	// itself is not signed, nor by size where several processes write
	// (each stores its own view after its batch): two rows whose ids were
	// swapped pass (docs/ledger.md, "Audit").
	byID := slices.Clone(cps)
	slices.SortFunc(byID, func(a, b StoredCheckpoint) int { return cmpInt64(a.ID, b.ID) })
	seen := map[[32]byte]int64{}
	timedSince := int64(-1)
	for i, c := range byID {
		if c.ID != int64(i)+1 {
			return fail(-1, c.Size, "checkpoints row id %d: ids must run 1, 2, 3, ... in storing order, and id %d is missing (a checkpoint was deleted)", c.ID, i+1)
		}
		// Create signs the empty tree first; a first row of another size
		// is what deleting the checkpoints and appending again leaves.
		if c.ID == 1 && c.Size != 0 {
			return fail(-1, c.Size, "checkpoints row id 1 is of size %d: the first checkpoint of a ledger is the empty tree's, signed when it was made (checkpoints were deleted)", c.Size)
		}
		key := sha256.Sum256(c.Note)
		if first, ok := seen[key]; ok {
			return fail(-1, c.Size, "checkpoints row id %d repeats the note of row id %d (a checkpoint row was copied)", c.ID, first)
		}
		seen[key] = c.ID
		t, timed, err := CheckpointTime(l.vkey, c.Note)
		switch {
		case err != nil:
			return fail(-1, c.Size, "checkpoints row id %d: %v", c.ID, err)
		case timed && c.CreatedAt != t.UnixNano():
			return fail(-1, c.Size, "checkpoints row id %d: created_at %s differs from the time the log signed it, %s",
				c.ID, time.Unix(0, c.CreatedAt).UTC().Format(time.RFC3339Nano), t.Format(time.RFC3339))
		case timed && timedSince < 0:
			timedSince = c.ID
		case !timed && timedSince >= 0:
			return fail(-1, c.Size, "checkpoints row id %d lacks the log's timestamped signature that every checkpoint since row id %d carries", c.ID, timedSince)
		case !timed:
			rep.Untimed++
		}
	}

	// Entries and stored hashes, in one pass, recomputing the tree. Two
	// goroutines take turns reading entry chunks, one recomputes and
	// checks their leaf hashes, one reads the stored hashes, and this one
	// recomputes the stored hashes and compares, so the audit uses both
	// cores. The readers fetch a chunk as a few aggregates (few rows
	// through the driver) and it is read again row by row to name a
	// problem; indexes and stored hash ids are checked to be dense chunk
	// by chunk (a missing stored hash is named by the entry whose append
	// wrote it).
	hcount := tlog.StoredHashCount(n)
	// The chunked reads are a store's optional fast path; they are used
	// only where the store also checks the lookup columns itself.
	var fast ChunkReader
	if cr, ok := l.store.(ChunkReader); ok && storeColumns {
		fast = cr
	}
	// The producers below stop once actx is cancelled; every return
	// cancels it and then waits for them, so none reads the store after
	// the audit returned (its caller may close the store at once).
	var producers sync.WaitGroup
	defer producers.Wait()
	actx, cancel := context.WithCancel(ctx)
	defer cancel()
	var raw []chan entryChunk
	leaves := make(chan leafBatch, 2)
	hashes := make(chan hashChunk, 4)
	efree := make(chan *EntryChunk, 2*auditEntryReaders) // entry blobs back to the entries readers
	lfree := make(chan []tlog.Hash, 4)                   // leaf hash slices back to the leaf checker
	hfree := make(chan []byte, 6)                        // stored hash blobs back to the hashes reader
	errc := make(chan error, auditEntryReaders+2)
	for k := range auditEntryReaders {
		ch := make(chan entryChunk, 1)
		raw = append(raw, ch)
		producers.Go(func() { errc <- l.readEntryChunks(actx, n, fast, fastColumns, int64(k), auditEntryReaders, ch, efree) })
	}
	// The players rows: looked up by the skeletons of the commit entries
	// alongside the pass (audit_players_fast.go), or read before the pass
	// and re-derived by it.
	var pout chan []playerCommit
	pdone := make(chan playersFast, 1)
	if pr, ok := l.store.(PlayerReader); ok && fast != nil {
		pout = make(chan []playerCommit, 4)
		producers.Go(func() { checkPlayersFast(actx, pr, pout, pdone) })
	} else {
		players, err := l.readPlayers(ctx)
		rep.players, rep.playersErr = newPlayersAudit(players, false), err
	}
	// The seed_commits rows, read before the pass as the players rows
	// are: every row a writer stores with its entries lies below the
	// census auditRest takes after it.
	rep.seedRowsErr = l.store.EachSeedCommit(ctx, func(r StoredSeedCommit) error {
		rep.seedRows = append(rep.seedRows, r)
		return nil
	})
	producers.Go(func() { errc <- l.checkLeafChunks(actx, raw, !storeColumns, rep.players, pout, leaves, efree, lfree) })
	producers.Go(func() { errc <- l.readHashChunks(actx, hcount, fast, hashes, hfree) })
	f := &frontier{}
	ci := 0
	checkRoots := func() (bool, error) {
		for ; ci < len(cps) && cps[ci].Size == f.size; ci++ {
			root, err := f.root()
			if err != nil {
				return false, err
			}
			if !bytes.Equal(root[:], cps[ci].Root) {
				rep.OK = false
				rep.Problem = &AuditProblem{Index: -1, Checkpoint: f.size, Table: "checkpoints", What: fmt.Sprintf(
					"signed root %s, but the entries give %s", base64.StdEncoding.EncodeToString(cps[ci].Root), root)}
				return false, nil
			}
		}
		return true, nil
	}
	if ok, err := checkRoots(); !ok || err != nil {
		return rep, err
	}
	// readErr reports why a producer stopped early. Another producer's
	// read stopped by the cancel says nothing: a store may wrap the
	// context's error in its own ("reading stored hashes: context
	// canceled"), which once hid the finding of the producer that
	// stopped first.
	readErr := func() error {
		cancel()
		for range auditEntryReaders + 2 {
			if err := <-errc; err != nil && !errors.Is(err, context.Canceled) {
				return err
			}
		}
		return ctx.Err()
	}
	var lb leafBatch   // the current batch of leaf hashes
	var lpos int       // the next leaf of lb
	columnsAll := true // every chunk's columns checked out (fastColumns)
	var hc hashChunk   // the current chunk of stored hashes
	var hpos int64     // the next hash of hc
	for i := int64(0); i < n; i++ {
		if lpos == len(lb.hashes) {
			if lb.problem != "" {
				return fail(i, -1, "%s", lb.problem)
			}
			if progress != nil {
				progress(i, n)
			}
			if lb.hashes != nil {
				select {
				case lfree <- lb.hashes:
				default:
				}
			}
			var ok bool
			if lb, ok = <-leaves; !ok {
				if err := readErr(); err != nil {
					return nil, err
				}
				return fail(i, -1, "missing: the entries end before the tree size %d", n)
			}
			lpos = 0
			columnsAll = columnsAll && lb.columns
			rep.results = append(rep.results, lb.results...)
			rep.seeds = append(rep.seeds, lb.seeds...)
			if len(lb.hashes) == 0 && lb.problem != "" {
				return fail(i, -1, "%s", lb.problem)
			}
		}
		hs, err := tlog.StoredHashesForRecordHash(i, lb.hashes[lpos], f)
		if err != nil {
			return nil, err
		}
		lpos++
		base := tlog.StoredHashIndex(0, i)
		for k, h := range hs {
			want := base + int64(k)
			if hpos == hc.len() {
				if hc.fast != nil {
					select {
					case hfree <- hc.fast:
					default:
					}
				}
				var ok bool
				if hc, ok = <-hashes; !ok {
					if err := readErr(); err != nil {
						return nil, err
					}
					return fail(i, -1, "stored hash %d is missing", want)
				}
				hpos = 0
			}
			if hc.fast != nil {
				if bytes.Equal(hc.fast[hpos*tlog.HashSize:(hpos+1)*tlog.HashSize], h[:]) {
					hpos++
					continue
				}
				// Read the chunk again row by row: that reading decides.
				if hc, err = l.readHashRows(ctx, hc.first, hc.first+hc.len()); err != nil {
					return nil, err
				}
			}
			sh := hc.rows[hpos]
			hpos++
			if sh.missing || sh.bad || sh.hash != h {
				level, node := tlog.SplitStoredHashIndex(want)
				if sh.missing {
					return fail(i, -1, "stored hash %d (level %d, node %d) is missing", want, level, node)
				}
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
		return fail(-1, cps[ci].Size, "no tree of that size was found among the entries")
	}
	if pout != nil {
		pf := <-pdone
		rep.playersFast = &pf
	}
	// The lookup columns (kind, posted_at, ref, commitment) are copies of
	// leaf fields that rulings and lookups read: each must equal the leaf.
	if fastColumns {
		if columnsAll {
			columns <- columnsResult{idx: -1}
		} else {
			slowPath("columns")
			idx, what, err := cc.CheckColumns(ctx, 0, n)
			columns <- columnsResult{idx, what, err}
		}
	}
	if c := <-columns; c.err != nil {
		return nil, c.err
	} else if c.idx >= 0 {
		return fail(c.idx, -1, "%s", c.what)
	}
	// Each checkpoint consistent with the next (their roots were checked
	// against the entries above; this checks the proofs the log serves).
	hr := hashReader{ctx, l.store}
	for k := 1; k < len(cps); k++ {
		a, b := cps[k-1], cps[k]
		if a.Size == 0 {
			continue
		}
		p, err := tlog.ProveTree(b.Size, a.Size, hr)
		if err != nil {
			return fail(-1, b.Size, "cannot prove consistency with size %d: %v", a.Size, err)
		}
		if err := tlog.CheckTree(p, b.Size, tlog.Hash(b.Root), a.Size, tlog.Hash(a.Root)); err != nil {
			return fail(-1, b.Size, "not consistent with the checkpoint of size %d: %v", a.Size, err)
		}
	}
	return rep, nil
}

// MaxTreeSize is the largest tree size sealed reads, proves or checks,
// 2^62-1 entries: the stored hash ids of a larger tree (about twice its
// size, tlog.StoredHashIndex) would overflow int64, and
// golang.org/x/mod/sumdb/tlog never returns from a proof over more (its
// maxpow2 loops forever above 2^62, and a tile reader asks it about the
// size plus one). No log comes near it (a billion entries a second for
// 146 years), so a checkpoint or proof claiming more is refused as
// malformed (ParseCheckpoint, VerifyInclusion, VerifyConsistency).
const MaxTreeSize = 1<<62 - 1
