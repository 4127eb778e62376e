package ledger

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"golang.org/x/mod/sumdb/note"
	"golang.org/x/mod/sumdb/tlog"
)

// CoverageGrace is how long after the newest checkpoint was signed (by
// the ledger's clock, Options.Clock, against the checkpoint's signed time)
// entries may stand past it before the audit fails: a writer signs a checkpoint at most
// CheckpointInterval after an append (DefaultCheckpointInterval), and
// when it closes; an entry integrated longer ago than this and still not
// covered by any checkpoint was appended by something that never signed
// (or its checkpoints were deleted).
const CoverageGrace = time.Minute

// auditRest checks what the pass over the tree does not: every row of
// every table in its range (Store.Census), the identity rows (log_meta
// holds exactly origin and verifier_key, the origin is the key's name,
// the schema versions run 1..latest), every stored replay against its
// digest and every replay a result entry names present, and the newest
// checkpoint covering the log, the players table re-derived from the
// commit leaves (auditPlayers) and every cosignature row checked against
// its checkpoint (auditCosignatures). It returns the first problem, or
// nil.
func (l *Ledger) auditRest(ctx context.Context, rep *AuditReport) (*AuditProblem, error) {
	n := rep.Size
	problem := func(table, format string, args ...any) (*AuditProblem, error) {
		return &AuditProblem{Index: -1, Checkpoint: -1, Table: table, What: fmt.Sprintf(format, args...)}, nil
	}
	// The players rows were read before the tree pass (see below).
	if err := rep.playersErr; err != nil {
		if errors.Is(err, ErrTampered) {
			table := tableOfError(err)
			return problem(table, "%s", strings.TrimPrefix(err.Error(), table+": "))
		}
		return nil, err
	}
	c, err := l.store.Census(ctx)
	if err != nil {
		if errors.Is(err, ErrTampered) {
			table := tableOfError(err)
			return problem(table, "%s", strings.TrimPrefix(err.Error(), table+": "))
		}
		return nil, err
	}
	// Rows outside the log's range. Entries appended meanwhile by a writer
	// may lie past n: only rows below 0 and rows past the log's own end
	// (the census's largest index) are findings.
	if c.Entries.Rows > 0 && c.Entries.Min < 0 {
		return problem("entries", "a row at index %d, outside the log's indexes 0..%d", c.Entries.Min, n-1)
	}
	if c.Entries.Rows != 0 && c.Entries.Rows != c.Entries.Max+1 {
		return problem("entries", "%d rows for indexes 0..%d: %d rows the log did not write, or missing", c.Entries.Rows, c.Entries.Max, c.Entries.Rows-(c.Entries.Max+1))
	}
	size := c.Entries.Max + 1
	if c.Entries.Rows == 0 {
		size = 0
	}
	want := tlog.StoredHashCount(size)
	if c.Hashes.Rows > 0 && (c.Hashes.Min < 0 || c.Hashes.Max >= want) {
		bad := c.Hashes.Min
		if bad >= 0 {
			bad = c.Hashes.Max
		}
		return problem("hashes", "a row at id %d, outside the stored hash ids 0..%d of a tree of %d entries", bad, want-1, size)
	}
	if c.Hashes.Rows != want {
		return problem("hashes", "%d rows, but a tree of %d entries has %d stored hashes", c.Hashes.Rows, size, want)
	}
	if c.Checkpoints.Rows > 0 && (c.Checkpoints.Min != 1 || c.Checkpoints.Max != c.Checkpoints.Rows) {
		return problem("checkpoints", "%d rows with ids %d..%d: ids must run 1, 2, 3, ... without a gap (a checkpoint was deleted, or a row added)", c.Checkpoints.Rows, c.Checkpoints.Min, c.Checkpoints.Max)
	}
	// The identity rows.
	keys := c.MetaKeys
	if l.identityPending && len(keys) == 0 {
		// A copy Copy audits before writing its identity rows, the last
		// thing it writes.
		keys = []string{"origin", "verifier_key"}
	}
	if !slices.Equal(keys, []string{"origin", "verifier_key"}) {
		return problem("log_meta", "keys %q; expected exactly origin and verifier_key", c.MetaKeys)
	}
	if v, err := note.NewVerifier(l.vkey); err != nil || v.Name() != l.origin {
		name := ""
		if err == nil {
			name = v.Name()
		}
		return problem("log_meta", "origin %q is not the name of the verifier key %q (%q)", l.origin, l.vkey, name)
	}
	for i, v := range c.SchemaVersions {
		if v != i+1 {
			return problem("schema_version", "versions %v; expected 1..%d, one row each", c.SchemaVersions, c.SchemaLatest)
		}
	}
	// A ledger opened read-only keeps an older schema (its writer
	// migrates it): 1..k with k <= latest.
	if len(c.SchemaVersions) == 0 || len(c.SchemaVersions) > c.SchemaLatest {
		return problem("schema_version", "versions %v; expected 1..k, one row each, with k at most %d", c.SchemaVersions, c.SchemaLatest)
	}
	// Replays: content-addressed, each re-hashed; every one a result entry
	// names must be there.
	stored := map[string]bool{}
	var bad *AuditProblem
	err = l.store.EachReplay(ctx, func(d string, data []byte) error {
		sum := sha256.Sum256(data)
		if got := hex.EncodeToString(sum[:]); got != d {
			bad = &AuditProblem{Index: -1, Checkpoint: -1, Table: "replays",
				What: fmt.Sprintf("the row under digest %q holds %d bytes that hash to %s", d, len(data), got)}
			return errStop
		}
		stored[d] = true
		return nil
	})
	if bad != nil {
		return bad, nil
	}
	if err != nil {
		return nil, err
	}
	// Players: the rows were read before the tree pass, so before the
	// census (every row a writer stored with its entries lies below the
	// census's end), and re-derived from the commit leaves by that pass,
	// which also collected the result entries (a second read of the whole
	// log cost as much as the rest of the audit). The first finding in
	// index order is reported, a players one first at the same index.
	pa := rep.players
	if f := rep.playersFast; f != nil {
		switch {
		case !c.PlayersTable, f.ok && f.claims == c.Players:
			// No table to check (a file from before it), or every row
			// claimed by its own entry and every commit entry's row
			// checked: the table is the re-derived one (docs/ledger.md
			// "Audit", item 13).
			pa = newPlayersAudit(nil, false)
		default:
			// Re-derive the table the slow way, which names the problem;
			// the rows are read before a new census, as above.
			slowPath("players")
			if pa, err = l.rederivePlayers(ctx, n); err != nil {
				if errors.Is(err, ErrTampered) {
					table := tableOfError(err)
					return problem(table, "%s", strings.TrimPrefix(err.Error(), table+": "))
				}
				return nil, err
			}
			if c, err = l.store.Census(ctx); err != nil {
				if errors.Is(err, ErrTampered) {
					table := tableOfError(err)
					return problem(table, "%s", strings.TrimPrefix(err.Error(), table+": "))
				}
				return nil, err
			}
			if size = c.Entries.Max + 1; c.Entries.Rows == 0 {
				size = 0
			}
		}
	}
	pa.on = c.PlayersTable
	if p := pa.checkRows(); p != nil {
		return p, nil
	}
	var missing *AuditProblem
	for _, r := range rep.results {
		if !stored[r.digest] {
			missing = &AuditProblem{Index: r.index, Checkpoint: -1, Table: "replays",
				What: fmt.Sprintf("the replay %s this result entry names is not stored", r.digest)}
			break
		}
	}
	if p := pa.first; pa.on && p != nil && (missing == nil || p.Index <= missing.Index) {
		return p, nil
	}
	if missing != nil {
		return missing, nil
	}
	if p := pa.finish(n, size); p != nil {
		return p, nil
	}
	if err := rep.seedRowsErr; err != nil && !errors.Is(err, ErrTampered) {
		return nil, err
	}
	if p := auditSeedCommits(rep, c.SeedCommitsTable, n, size); p != nil {
		return p, nil
	}
	if p, err := l.auditCosignatures(ctx, c); p != nil || err != nil {
		return p, err
	}
	// The newest checkpoint covers the log, but for entries a writer
	// appended within CoverageGrace.
	latest, err := l.store.LatestCheckpoint(ctx)
	if errors.Is(err, ErrNotFound) {
		return problem("checkpoints", "no checkpoint at all: a ledger always has the empty tree's, signed when it was made")
	}
	if err != nil {
		return nil, err
	}
	if latest.Size < n && !l.readOnly {
		// This process writes the log: its sequencer signs the checkpoint
		// covering what it appended within the checkpoint interval.
		wctx, cancel := context.WithTimeout(ctx, min(2*l.interval, 5*time.Second))
		l.WaitCheckpoint(wctx, n)
		cancel()
		if latest, err = l.store.LatestCheckpoint(ctx); err != nil {
			return nil, err
		}
	}
	// created_at is the time the log signed (checked above against its
	// timestamped signature): a log whose newest checkpoint is older than
	// the grace, with entries past it, has entries no writer ever covered.
	if latest.Size < n {
		signed := time.Unix(0, latest.CreatedAt)
		if l.clock().Sub(signed) > CoverageGrace {
			return &AuditProblem{Index: latest.Size, Checkpoint: latest.Size, Table: "checkpoints",
				What: fmt.Sprintf("%d entries, from index %d on, are covered by no signed checkpoint: the newest has size %d and was signed at %s, more than %v ago",
					n-latest.Size, latest.Size, latest.Size, signed.UTC().Format(time.RFC3339), CoverageGrace)}, nil
		}
	}
	return nil, nil
}

// errStop ends an EachReplay walk early.
var errStop = errors.New("stop")

// tableOfError names the table an error wrapping ErrTampered speaks of:
// the first table name its message starts with, else "entries".
func tableOfError(err error) string {
	msg := err.Error()
	for _, t := range []string{"replays", "checkpoints", "hashes", "log_meta", "schema_version", "cosignatures", "players", "entries"} {
		if strings.HasPrefix(msg, t) {
			return t
		}
	}
	if strings.HasPrefix(msg, "checkpoint") {
		return "checkpoints"
	}
	return "entries"
}
