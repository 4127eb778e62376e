package pgstore

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// copyLockKey is the advisory lock key a copy into the database holds for
// its whole run (LockCopy): "sealed" in ASCII followed by 3, beside the
// write and checkpoint locks (write.go).
const copyLockKey int64 = 0x7365616c65640003

// CopyLock is the lock a copy into a database holds from start to end: a
// session-level advisory lock on a connection of its own, which the
// server releases when that connection ends, also when the process dies.
// While it is held a second copy into the database is refused; once it
// is taken, rows that a copy which did not complete left (no identity
// rows: ledger.ErrUnfinished) are nobody's, and may be discarded.
type CopyLock struct {
	conn *pgx.Conn
}

// LockCopy connects to the database conn names (as Open does) and takes
// its copy lock. Errors: a connection that fails (without the password),
// or the lock held by another session.
func LockCopy(ctx context.Context, conn string) (*CopyLock, error) {
	name := redact(conn)
	// pgxpool's parser, as Open's: it takes the pool's own parameters.
	pcfg, err := pgxpool.ParseConfig(conn)
	if err != nil {
		return nil, fmt.Errorf("postgres %s: %w", name, err)
	}
	password := pcfg.ConnConfig.Password
	c, err := pgx.ConnectConfig(ctx, pcfg.ConnConfig)
	if err != nil {
		return nil, scrub(fmt.Errorf("postgres %s: %w", name, err), password)
	}
	var ok bool
	if err := c.QueryRow(ctx, `SELECT pg_try_advisory_lock($1)`, copyLockKey).Scan(&ok); err != nil {
		c.Close(context.WithoutCancel(ctx))
		return nil, scrub(fmt.Errorf("postgres %s: taking the copy lock: %w", name, err), password)
	}
	if !ok {
		c.Close(context.WithoutCancel(ctx))
		return nil, fmt.Errorf("postgres %s: another copy into this database is running (it holds the copy lock)", name)
	}
	return &CopyLock{conn: c}, nil
}

// Release releases the lock and closes its connection. The lock is
// released by name first: the server drops a closed session's locks only
// once its backend has exited, after Close returns, so a LockCopy right
// after could still find it held.
func (l *CopyLock) Release() error {
	ctx := context.Background()
	_, uerr := l.conn.Exec(ctx, `SELECT pg_advisory_unlock($1)`, copyLockKey)
	if err := l.conn.Close(ctx); err != nil {
		return err
	}
	return uerr
}

// schemaObjects are the tables and functions schema.sql creates, in
// creating order.
var schemaObjects = regexp.MustCompile(`(?m)^CREATE (TABLE|FUNCTION) (\w+)`)

// Discard drops the ledger's tables (every table schema.sql creates, with
// their indexes and triggers) and its function from a database whose
// ledger has no identity rows (log_meta is empty): the rows a ledger copy
// that did not complete left (ledger.Copy writes the identity rows last;
// ledger.ErrUnfinished), or the schema alone. It runs in one transaction
// under the write lock, and refuses a database whose log_meta holds a
// row: a ledger is never dropped. The database is then as it was before
// Open with Options.Create made the schema. A copy discards only under
// its copy lock (LockCopy).
func (s *Store) Discard(ctx context.Context) (err error) {
	defer s.classify(&err)
	if err := s.refuseReadOnly("discarding a copy"); err != nil {
		return err
	}
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return s.fail(err)
	}
	defer tx.Rollback(context.WithoutCancel(ctx))
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, writeLockKey); err != nil {
		return s.fail(fmt.Errorf("taking the write lock: %w", err))
	}
	var hasMeta bool
	if err := tx.QueryRow(ctx, `SELECT to_regclass('log_meta') IS NOT NULL`).Scan(&hasMeta); err != nil {
		return s.fail(err)
	}
	if hasMeta {
		var n int
		if err := tx.QueryRow(ctx, `SELECT count(*) FROM log_meta`).Scan(&n); err != nil {
			return s.fail(err)
		}
		if n != 0 {
			return s.fail(errors.New("the database holds a ledger (identity rows): refusing to discard it"))
		}
	}
	var tables, funcs []string
	for _, m := range schemaObjects.FindAllStringSubmatch(schemaSQL, -1) {
		if m[1] == "TABLE" {
			tables = append(tables, pgx.Identifier{m[2]}.Sanitize())
		} else {
			funcs = append(funcs, pgx.Identifier{m[2]}.Sanitize())
		}
	}
	if len(tables) > 0 {
		if _, err := tx.Exec(ctx, `DROP TABLE IF EXISTS `+strings.Join(tables, ", ")); err != nil {
			return s.fail(fmt.Errorf("dropping the ledger's tables: %w", err))
		}
	}
	for _, f := range funcs {
		if _, err := tx.Exec(ctx, `DROP FUNCTION IF EXISTS `+f); err != nil {
			return s.fail(fmt.Errorf("dropping the ledger's function %s: %w", f, err))
		}
	}
	if err := tx.Commit(ctx); err != nil {
		return s.fail(err)
	}
	return nil
}
