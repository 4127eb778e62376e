package pgstore

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/sealedhq/sealed/ledger"
	"golang.org/x/mod/sumdb/tlog"
)

// The advisory lock keys (pg_advisory_xact_lock, one 64-bit key space
// per database). writeLockKey is the log's write lock, held by every
// Write transaction and by schema migrations: one writer batch at a time
// across every process and host using the database. checkpointLockKey
// serializes the assignment of checkpoint IDs. The values are "sealed"
// in ASCII followed by 1 and 2; they never change, or two versions of
// sealed would not exclude each other.
const (
	writeLockKey      int64 = 0x7365616c65640001
	checkpointLockKey int64 = 0x7365616c65640002
)

// Write implements ledger.Store. On a connection of the pool it sends,
// as one simple query (one round trip), BEGIN, then
// pg_advisory_xact_lock(writeLockKey), then the query of the log's tail
// (which Tail then answers from). fn runs inside that transaction; the
// lock is released by its COMMIT or ROLLBACK, or by the server when the
// connection ends. Write returns nil only once the COMMIT has succeeded,
// with synchronous_commit on (see Open): the batch is then in the
// server's flushed WAL. An error from the COMMIT itself (the connection
// lost before the answer) leaves the outcome unknown and is returned.
func (s *Store) Write(ctx context.Context, fn func(ledger.WriteTx) error) (err error) {
	defer s.classify(&err)
	if err := s.refuseReadOnly("writing entries"); err != nil {
		return err
	}
	c, err := s.pool.Acquire(ctx)
	if err != nil {
		return fmt.Errorf("starting a write transaction: %w", err)
	}
	// A connection still in a transaction (an error below, or one
	// ROLLBACK could not end) is closed rather than returned to the
	// pool; the server then rolls the transaction back.
	defer c.Release()
	t := &writeTx{conn: c.Conn()}
	if err := t.begin(ctx); err != nil {
		return fmt.Errorf("starting a write transaction (taking the write lock): %w", err)
	}
	if err := fn(t); err != nil {
		t.rollback()
		return err
	}
	tag, err := t.conn.Exec(ctx, "COMMIT")
	if err != nil {
		return fmt.Errorf("committing: %w", err)
	}
	if tag.String() != "COMMIT" {
		// The server answers ROLLBACK to a COMMIT of a failed
		// transaction.
		return fmt.Errorf("committing: the server rolled the transaction back (%s)", tag)
	}
	return nil
}

// beginWriteSQL starts a write transaction: BEGIN, the write lock, and
// the tail of the log (tailQuery) read under the lock. Set for this
// transaction only, enable_seqscan=off steers the planner away from
// sequential scans: every query of a write transaction has an index (the
// primary key, or entries_dedup for Duplicates), but without column
// statistics (a new or fast-growing table that autovacuum has not
// analyzed yet) the planner takes dedup = ANY(32 keys) for a sixth of
// the table and reads all of it: 14 ms a batch at 20,000 entries, and
// growing with the log.
var beginWriteSQL = fmt.Sprintf(`BEGIN; SELECT pg_advisory_xact_lock(%d), set_config('enable_seqscan', 'off', true); %s`, writeLockKey, tailQuery)

// tailQuery reads the tree size and the newest entry's integration time
// (Unix ns); no row when the ledger is empty.
const tailQuery = `SELECT idx+1, integrated_at FROM entries ORDER BY idx DESC LIMIT 1`

// writeTx is a ledger.WriteTx on a connection in a transaction.
type writeTx struct {
	conn *pgx.Conn
	// The tail read by begin, valid until the transaction writes.
	tailKnown  bool
	size, last int64
}

// begin runs beginWriteSQL and keeps the tail it read.
func (t *writeTx) begin(ctx context.Context) error {
	results, err := t.conn.PgConn().Exec(ctx, beginWriteSQL).ReadAll()
	if err != nil {
		t.rollback()
		return err
	}
	if len(results) != 3 {
		t.rollback()
		return fmt.Errorf("starting a write transaction: %d results for 3 statements", len(results))
	}
	tail := results[2]
	t.size, t.last = 0, math.MinInt64
	if len(tail.Rows) == 1 && len(tail.Rows[0]) == 2 {
		// The simple query protocol answers in text.
		if t.size, err = strconv.ParseInt(string(tail.Rows[0][0]), 10, 64); err == nil {
			t.last, err = strconv.ParseInt(string(tail.Rows[0][1]), 10, 64)
		}
		if err != nil {
			t.rollback()
			return fmt.Errorf("reading the log's tail: %w", err)
		}
	}
	t.tailKnown = true
	return nil
}

// rollback ends the transaction, with a context of its own since the
// caller's may have ended. If it fails, Release closes the connection.
func (t *writeTx) rollback() {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	t.conn.Exec(ctx, "ROLLBACK")
}

// Tail implements ledger.WriteTx.
func (t *writeTx) Tail(ctx context.Context) (size, last int64, err error) {
	if t.tailKnown {
		return t.size, t.last, nil
	}
	err = t.conn.QueryRow(ctx, tailQuery).Scan(&size, &last)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, math.MinInt64, nil
	}
	return size, last, err
}

// ReadHashes implements ledger.WriteTx.
func (t *writeTx) ReadHashes(ctx context.Context, indexes []int64) ([]tlog.Hash, error) {
	return readHashes(ctx, t.conn, indexes)
}

// Kinds implements ledger.WriteTx.
func (t *writeTx) Kinds(ctx context.Context, indexes []int64) (map[int64]ledger.Kind, error) {
	out := make(map[int64]ledger.Kind, len(indexes))
	if len(indexes) == 0 {
		return out, nil
	}
	rows, err := t.conn.Query(ctx, `SELECT idx, kind FROM entries WHERE idx = ANY($1)`, indexes)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var i int64
		var k string
		if err := rows.Scan(&i, &k); err != nil {
			return nil, err
		}
		out[i] = ledger.Kind(k)
	}
	return out, rows.Err()
}

// Duplicates implements ledger.WriteTx (through the index entries_dedup).
func (t *writeTx) Duplicates(ctx context.Context, probes []ledger.DuplicateProbe) (map[[32]byte]ledger.IndexKind, error) {
	out := map[[32]byte]ledger.IndexKind{}
	if len(probes) == 0 {
		return out, nil
	}
	args := make([][]byte, len(probes))
	for i := range probes {
		args[i] = probes[i].Dedup[:]
	}
	rows, err := t.conn.Query(ctx, `SELECT idx, kind, dedup FROM entries WHERE dedup = ANY($1) ORDER BY idx`, args)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var i int64
		var k string
		var d []byte
		if err := rows.Scan(&i, &k, &d); err != nil {
			return nil, err
		}
		if len(d) != 32 {
			continue
		}
		if _, ok := out[[32]byte(d)]; !ok {
			out[[32]byte(d)] = ledger.IndexKind{Index: i, Kind: ledger.Kind(k)}
		}
	}
	return out, rows.Err()
}

// The batch inserts. A batch of fewer than copyMin entries goes as one
// array per column, unnested by the server: one statement per table, both
// in one round trip (a pgx.Batch). A larger one goes by COPY (binary),
// one per table: a round trip more, but less work per row. Measured on
// the 2-core test machine under load, interleaved, each batch with its
// COMMIT: 32 entries (64 hashes) 12.7 ms by unnest, 13.3 ms by COPY;
// 4,096 entries 964 ms by unnest, 555 ms by COPY.
const (
	copyMin          = 256
	insertEntriesSQL = `INSERT INTO entries(idx, kind, body, leaf_hash, integrated_at, posted_at, dedup, commitment, ref)
		SELECT * FROM unnest($1::bigint[], $2::text[], $3::bytea[], $4::bytea[], $5::bigint[], $6::bigint[], $7::bytea[], $8::text[], $9::bigint[])`
	insertHashesSQL = `INSERT INTO hashes(id, hash) SELECT * FROM unnest($1::bigint[], $2::bytea[])`
)

var (
	entryColumnNames = []string{"idx", "kind", "body", "leaf_hash", "integrated_at", "posted_at", "dedup", "commitment", "ref"}
	hashColumnNames  = []string{"id", "hash"}
)

// Insert implements ledger.WriteTx. A row already stored at one of the
// indexes or ids is an error wrapping ledger.ErrConflict (SQLSTATE
// 23505, unique_violation).
func (t *writeTx) Insert(ctx context.Context, entries []ledger.StoredEntry, hashes []ledger.StoredHash) error {
	t.tailKnown = false
	if err := t.insertRows(ctx, entries, hashes); err != nil {
		return err
	}
	return t.insertSeedCommits(ctx, entries)
}

// insertRows is Insert's entries and hashes: with COPY for a large
// batch, else in one pipelined batch of two multi-row INSERTs.
func (t *writeTx) insertRows(ctx context.Context, entries []ledger.StoredEntry, hashes []ledger.StoredHash) error {
	if len(entries) >= copyMin {
		return conflict(t.copyInsert(ctx, entries, hashes))
	}
	var b pgx.Batch
	if len(entries) > 0 {
		var (
			idx, integrated       = make([]int64, len(entries)), make([]int64, len(entries))
			kind                  = make([]string, len(entries))
			body, leafHash, dedup = make([][]byte, len(entries)), make([][]byte, len(entries)), make([][]byte, len(entries))
			posted, ref           = make([]*int64, len(entries)), make([]*int64, len(entries))
			commitment            = make([]*string, len(entries))
		)
		for i := range entries {
			e := &entries[i]
			idx[i], kind[i], integrated[i] = e.Index, string(e.Kind), e.IntegratedAt
			body[i], leafHash[i], dedup[i] = nonNil(e.Leaf), nonNil(e.LeafHash), nonNil(e.Dedup)
			if e.HasPostedAt {
				posted[i] = &e.PostedAt
			}
			if e.Commitment != "" {
				commitment[i] = &e.Commitment
			}
			if e.Ref >= 0 {
				ref[i] = &e.Ref
			}
		}
		b.Queue(insertEntriesSQL, idx, kind, body, leafHash, integrated, posted, dedup, commitment, ref)
	}
	if len(hashes) > 0 {
		ids, hs := make([]int64, len(hashes)), make([][]byte, len(hashes))
		for i, h := range hashes {
			ids[i], hs[i] = h.ID, nonNil(h.Hash)
		}
		b.Queue(insertHashesSQL, ids, hs)
	}
	if b.Len() == 0 {
		return nil
	}
	br := t.conn.SendBatch(ctx, &b)
	if err := checkBatch(br, len(entries), len(hashes)); err != nil {
		br.Close()
		return conflict(err)
	}
	return conflict(br.Close())
}

// checkBatch reads the command tags of Insert's batch: the entries
// statement (when entries > 0), then the hashes one (when hashes > 0),
// each of which must have stored all its rows (ledger.CheckRowsStored:
// a rule or trigger that is not in the schema may drop them).
func checkBatch(br pgx.BatchResults, entries, hashes int) error {
	for _, st := range []struct {
		table string
		rows  int
	}{{"entries", entries}, {"hashes", hashes}} {
		if st.rows == 0 {
			continue
		}
		tag, err := br.Exec()
		if err != nil {
			return err
		}
		if err := ledger.CheckRowsStored(st.table, rowsOf(tag), st.rows); err != nil {
			return err
		}
	}
	return nil
}

// rowsOf is a command tag's row count in the form
// ledger.CheckRowsStored takes.
func rowsOf(tag pgconn.CommandTag) func() (int64, error) {
	return func() (int64, error) { return tag.RowsAffected(), nil }
}

// copied is a CopyFrom count in the form ledger.CheckRowsStored takes.
func copied(n int64) func() (int64, error) {
	return func() (int64, error) { return n, nil }
}

// copyInsert inserts the rows with COPY FROM STDIN (binary).
func (t *writeTx) copyInsert(ctx context.Context, entries []ledger.StoredEntry, hashes []ledger.StoredHash) error {
	n, err := t.conn.CopyFrom(ctx, pgx.Identifier{"entries"}, entryColumnNames, pgx.CopyFromSlice(len(entries), func(i int) ([]any, error) {
		e := &entries[i]
		var posted, commitment, ref any
		if e.HasPostedAt {
			posted = e.PostedAt
		}
		if e.Commitment != "" {
			commitment = e.Commitment
		}
		if e.Ref >= 0 {
			ref = e.Ref
		}
		return []any{e.Index, string(e.Kind), nonNil(e.Leaf), nonNil(e.LeafHash), e.IntegratedAt, posted, nonNil(e.Dedup), commitment, ref}, nil
	}))
	if err != nil {
		return err
	}
	// COPY runs row triggers (not rules): one returning NULL skips a row,
	// which the count leaves out.
	if err := ledger.CheckRowsStored("entries", copied(n), len(entries)); err != nil || len(hashes) == 0 {
		return err
	}
	n, err = t.conn.CopyFrom(ctx, pgx.Identifier{"hashes"}, hashColumnNames, pgx.CopyFromSlice(len(hashes), func(i int) ([]any, error) {
		return []any{hashes[i].ID, nonNil(hashes[i].Hash)}, nil
	}))
	if err != nil {
		return err
	}
	return ledger.CheckRowsStored("hashes", copied(n), len(hashes))
}

// uniqueViolation is SQLSTATE 23505.
const uniqueViolation = "23505"

// conflict wraps a primary key violation as ledger.ErrConflict; nil
// stays nil.
func conflict(err error) error {
	var pe *pgconn.PgError
	if errors.As(err, &pe) && pe.Code == uniqueViolation {
		return fmt.Errorf("%w: %v", ledger.ErrConflict, err)
	}
	return err
}
