package sqlitestore

import (
	"context"
	"database/sql"
	"strings"

	"github.com/sealedhq/sealed/ledger"
)

// insertTable describes a multi-row INSERT: the table and its columns.
type insertTable struct {
	name string // the table
	head string // "INSERT INTO t(c1, c2) VALUES"
	cols int
}

var (
	insertEntries     = insertTable{"entries", `INSERT INTO entries(idx, kind, body, leaf_hash, integrated_at, posted_at, dedup, commitment, ref) VALUES`, 9}
	insertHashes      = insertTable{"hashes", `INSERT INTO hashes(id, hash) VALUES`, 2}
	insertPlayersTail = insertTable{"players_tail", `INSERT INTO players_tail(idx, skeleton, player) VALUES`, 3}
	insertLookupTail  = insertTable{"lookup_tail", `INSERT INTO lookup_tail(idx, k, d) VALUES`, 3}
)

// insertChunk is the most rows one INSERT statement writes.
const insertChunk = 64

// insertCache keeps the multi-row INSERT statements and the batched
// lookups prepared on the writer connection, one per table (or lookup)
// and row count, so a batch costs a few statement executions instead of
// one per row. They are prepared when first needed: a one-shot append
// needs the one-row statements only, and preparing all 64 sizes of every
// table at open cost such an append about a third of its time (the
// programs' memory, touched page by page). A statement cannot be
// prepared on the writer's one connection while a batch's transaction
// holds it, so a size first needed inside a transaction is prepared on
// that transaction; once it has been needed twice, Store.Write prepares
// it on the connection after the transaction (promote), for every later
// batch.
type insertCache struct {
	stmts  map[stmtKey]*sql.Stmt // prepared on the writer connection
	needed map[stmtKey]int       // sizes prepared on a transaction, and how often
	tail   *sql.Stmt             // tailQuery, run before every batch
	player *sql.Stmt             // playerQuery, run once per skeleton
	// tailBounds is tailBoundsQuery, run by every batch that looks a
	// player up (prepared once: parsing it cost about as much as the
	// lookups themselves).
	tailBounds *sql.Stmt
	// lookupBounds is lookupBoundsQuery, run by every batch.
	lookupBounds *sql.Stmt
	// keyRange is keyMissing: a batch's lookup_tail rows, computed by
	// SQL from its entries rows (two arguments instead of three a row).
	keyRange *sql.Stmt
	// hashRun is hashRunInsert: a batch's stored hashes, consecutive ids,
	// from one blob (three arguments instead of two a hash).
	hashRun *sql.Stmt
	// hashBlob is hashRun's blob, reused from batch to batch.
	hashBlob []byte
	// Argument buffers reused from batch to batch.
	entryArgs, hashArgs, keyArgs []any
	// lookupArgs is the batched lookups' argument buffer.
	lookupArgs []any
}

// stmtKey names a size-dependent statement: a multi-row INSERT into
// table (lookup empty) or a batched lookup of kind lookup, for n rows or
// keys.
type stmtKey struct {
	table  insertTable
	lookup lookupKind
	n      int
}

// sql is the statement's text.
func (k stmtKey) sql() string {
	var sb strings.Builder
	if k.lookup != (lookupKind{}) {
		sb.WriteString(k.lookup.head)
		for i := range k.n {
			if i > 0 {
				sb.WriteString(k.lookup.sep)
			}
			sb.WriteString(k.lookup.part)
		}
		sb.WriteString(k.lookup.tail)
		return sb.String()
	}
	row := "(" + strings.TrimSuffix(strings.Repeat("?,", k.table.cols), ",") + ")"
	sb.WriteString(k.table.head)
	for i := range k.n {
		if i > 0 {
			sb.WriteByte(',')
		}
		sb.WriteString(row)
	}
	return sb.String()
}

// stmt returns statement k ready to run in tx: the connection's, or one
// prepared on tx now (closed with it).
func (c *insertCache) stmt(ctx context.Context, tx *sql.Tx, k stmtKey) (*sql.Stmt, error) {
	if st, ok := c.stmts[k]; ok {
		return tx.StmtContext(ctx, st), nil
	}
	if c.needed == nil {
		c.needed = map[stmtKey]int{}
	}
	c.needed[k]++
	return tx.PrepareContext(ctx, k.sql())
}

// promote prepares on db (the writer connection, no transaction under
// way) the statements transactions have needed twice or more, so that
// later batches find them. A statement that fails to prepare is tried
// again the next time (the transactions prepare their own meanwhile).
func (c *insertCache) promote(db *sql.DB) {
	for k, n := range c.needed {
		if n < 2 {
			continue
		}
		st, err := db.Prepare(k.sql())
		if err != nil {
			continue
		}
		if c.stmts == nil {
			c.stmts = map[stmtKey]*sql.Stmt{}
		}
		c.stmts[k] = st
		delete(c.needed, k)
	}
}

// lookupKind is a batched lookup: how one key's part of the statement
// reads and how the parts join.
type lookupKind struct {
	head, part, sep, tail string
}

var (
	// playersIn looks skeletons up in players by its primary key: an IN
	// list is one seek per value (lookup_test.go checks the plan).
	playersIn = lookupKind{`SELECT skeleton, player, idx FROM players WHERE skeleton IN (`, `?`, `,`, `)`}
	// dupsUnion is dupQuery once per probe, joined by UNION ALL: each arm
	// seeks lookup's primary key, and the batch is one statement run instead of
	// one per probe (an OR of the terms makes SQLite collect and sort
	// rowids, and a row-value IN list is not seeked: lookup_test.go).
	dupsUnion = lookupKind{``, dupQuery, ` UNION ALL `, ``}
	// kindsIn reads the kinds and duplicate keys of entries by primary
	// key: those a batch's references name, and those its duplicate
	// lookups found.
	kindsIn = lookupKind{`SELECT idx, kind, dedup FROM entries WHERE idx IN (`, `?`, `,`, `)`}
)

// lookupSizes are the key counts the batched lookups are made for: a
// batch of n keys runs the smallest size >= n, the last key repeated to
// fill it (a key asked twice finds the same rows, which the caller keeps
// once).
var lookupSizes = []int{1, 2, 4, 8, 16, 32, insertChunk}

// lookup returns the statement of kind k, ready to run in tx, for the
// first keys of args (per keys arguments each; at most insertChunk
// keys), args filled up to its size by repeating the last key, and how
// many args it consumed.
func (c *insertCache) lookup(ctx context.Context, tx *sql.Tx, k lookupKind, args []any, per int) (st *sql.Stmt, filled []any, used int, err error) {
	n := min(len(args)/per, insertChunk)
	size := lookupSizes[len(lookupSizes)-1]
	for _, s := range lookupSizes {
		if s >= n {
			size = s
			break
		}
	}
	filled = append(c.lookupArgs[:0], args[:n*per]...)
	for len(filled) < size*per {
		filled = append(filled, args[(n-1)*per:n*per]...)
	}
	c.lookupArgs = filled
	st, err = c.stmt(ctx, tx, stmtKey{lookup: k, n: size})
	return st, filled, n * per, err
}

// prepare prepares the statements every batch runs on db (the writer,
// before the sequencer starts); the size-dependent ones are prepared
// when first needed (stmt).
func (c *insertCache) prepare(db *sql.DB) error {
	var err error
	if c.tail, err = db.Prepare(tailQuery); err != nil {
		return err
	}
	if c.player, err = db.Prepare(playerQuery); err != nil {
		return err
	}
	if c.tailBounds, err = db.Prepare(tailBoundsQuery); err != nil {
		return err
	}
	if c.lookupBounds, err = db.Prepare(lookupBoundsQuery); err != nil {
		return err
	}
	if c.keyRange, err = db.Prepare(keyMissing); err != nil {
		return err
	}
	if c.hashRun, err = db.Prepare(hashRunInsert); err != nil {
		return err
	}
	return nil
}

// exec inserts args (len a multiple of t.cols) in chunks of insertChunk
// rows within tx. A statement that stored fewer rows than it was given
// (a trigger the schema does not have, answering RAISE(IGNORE), added
// after the writer opened the file) is an error wrapping
// ledger.ErrTampered: the caller rolls the batch back, so nothing is
// acknowledged that is not stored.
func (c *insertCache) exec(ctx context.Context, tx *sql.Tx, t insertTable, args []any) error {
	for len(args) > 0 {
		rows := min(len(args)/t.cols, insertChunk)
		st, err := c.stmt(ctx, tx, stmtKey{table: t, n: rows})
		if err != nil {
			return err
		}
		res, err := st.ExecContext(ctx, args[:rows*t.cols]...)
		if err != nil {
			return err
		}
		if err := ledger.CheckRowsStored(t.name, res.RowsAffected, rows); err != nil {
			return err
		}
		args = args[rows*t.cols:]
	}
	return nil
}

// playerQuery reads the players row of one skeleton (migration 4).
const playerQuery = `SELECT skeleton, player, idx FROM players WHERE skeleton = ?`

// hashRunInsert stores ?2 hashes of 32 bytes, the blob ?3 in order, at
// the consecutive ids from ?1.
const hashRunInsert = `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i+1 FROM n WHERE i+1 < ?2)
INSERT INTO hashes(id, hash) SELECT ?1 + i, substr(?3, i*32 + 1, 32) FROM n`

// hashRun reports whether hashes are a run of consecutive ids of 32
// bytes each, as a batch's stored hashes are, which hashRunInsert writes
// in one statement.
func hashRun(hashes []ledger.StoredHash) bool {
	for i, h := range hashes {
		if len(h.Hash) != 32 || h.ID != hashes[0].ID+int64(i) {
			return false
		}
	}
	return len(hashes) > 0
}

// entryRun reports whether entries have consecutive indexes (Insert's
// contract), whose lookup_tail rows keyMissing then writes from the
// entries rows.
func entryRun(entries []ledger.StoredEntry) bool {
	for i, e := range entries {
		if e.Index != entries[0].Index+int64(i) {
			return false
		}
	}
	return len(entries) > 0
}
