package sqlitestore

import (
	"database/sql"
	"strings"
)

// insertTable describes a multi-row INSERT: the table and its columns.
type insertTable struct {
	head string // "INSERT INTO t(c1, c2) VALUES"
	cols int
}

var (
	insertEntries = insertTable{`INSERT INTO entries(idx, kind, body, leaf_hash, integrated_at, posted_at, dedup, commitment, ref) VALUES`, 9}
	insertHashes  = insertTable{`INSERT INTO hashes(id, hash) VALUES`, 2}
)

// insertChunk is the most rows one INSERT statement writes.
const insertChunk = 64

// insertCache keeps the multi-row INSERT statements prepared on the writer
// connection, one per table and row count, so a batch costs a few
// statement executions instead of one per row.
type insertCache struct {
	stmts map[insertTable]map[int]*sql.Stmt
	tail  *sql.Stmt // tailQuery, run before every batch
	// dups[k] looks up 1<<k lookup keys (dupQuery); a shorter list is
	// padded with its first key.
	dups [dupSizes]*sql.Stmt
	// Argument buffers reused from batch to batch.
	entryArgs, hashArgs []any
}

// prepare prepares the statements for 1..insertChunk rows of each table
// on db (the writer, before the sequencer starts).
func (c *insertCache) prepare(db *sql.DB) error {
	c.stmts = map[insertTable]map[int]*sql.Stmt{}
	var err error
	if c.tail, err = db.Prepare(tailQuery); err != nil {
		return err
	}
	for k := range c.dups {
		if c.dups[k], err = db.Prepare(dupQuery(1 << k)); err != nil {
			return err
		}
	}
	for _, t := range []insertTable{insertEntries, insertHashes} {
		c.stmts[t] = map[int]*sql.Stmt{}
		row := "(" + strings.TrimSuffix(strings.Repeat("?,", t.cols), ",") + ")"
		for rows := 1; rows <= insertChunk; rows++ {
			var sb strings.Builder
			sb.WriteString(t.head)
			for i := range rows {
				if i > 0 {
					sb.WriteByte(',')
				}
				sb.WriteString(row)
			}
			st, err := db.Prepare(sb.String())
			if err != nil {
				return err
			}
			c.stmts[t][rows] = st
		}
	}
	return nil
}

// exec inserts args (len a multiple of t.cols) in chunks of insertChunk
// rows within tx.
func (c *insertCache) exec(tx *sql.Tx, t insertTable, args []any) error {
	for len(args) > 0 {
		rows := min(len(args)/t.cols, insertChunk)
		if _, err := tx.Stmt(c.stmts[t][rows]).Exec(args[:rows*t.cols]...); err != nil {
			return err
		}
		args = args[rows*t.cols:]
	}
	return nil
}

// dupSizes is the number of prepared duplicate lookups: 1, 2, 4, ...
// 1<<(dupSizes-1) keys each.
const dupSizes = 7

// dupQuery looks n probes up in the index entries_lookup (schema.sql,
// migration 4): two arguments a probe, its lookupKey and dedupKey. The
// OR of equalities is run as one index seek per probe (SQLite's planner
// does not seek an index for a row-value IN list; lookup_test.go checks
// the plan).
func dupQuery(n int) string {
	var sb strings.Builder
	sb.WriteString(`SELECT idx, kind, dedup FROM entries WHERE `)
	for i := range n {
		if i > 0 {
			sb.WriteString(` OR `)
		}
		sb.WriteString(`(` + lookupExpr + ` = ? AND ` + dedupExpr + ` = ?)`)
	}
	sb.WriteString(` ORDER BY idx`)
	return sb.String()
}
