package pgstore

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/sealedhq/sealed/internal/migrations"
	"github.com/sealedhq/sealed/ledger"
)

// schemaSQL is the versioned schema: "-- migration N" sections, applied
// forward only.
//
//go:embed schema.sql
var schemaSQL string

// schemaMigrations splits schema.sql into its numbered sections
// (internal/migrations).
func schemaMigrations() ([]migrations.Migration, error) { return migrations.Split(schemaSQL) }

// ErrSchemaTooNew (which is ledger.ErrSchemaTooNew, for callers of any
// store) is returned (wrapped) by [Open] and [Store.Meta] for a
// database whose schema version is newer than [SchemaVersion]: it was
// written by a newer version of sealed, and this one refuses to read or
// write it.
var ErrSchemaTooNew = ledger.ErrSchemaTooNew

// SchemaVersion is the newest schema version this package knows (the
// last "-- migration N" section of schema.sql), 1 or more.
func SchemaVersion() int {
	m, err := schemaMigrations()
	if err != nil {
		return 0
	}
	return m[len(m)-1].Version
}

// tooNew is the error for a database at schema version v > SchemaVersion.
func tooNew(v int) error {
	return fmt.Errorf("database schema version %d is newer than this version of sealed understands (%d): %w", v, SchemaVersion(), ErrSchemaTooNew)
}

// hasSchema reports whether the tables log_meta and schema_version are
// visible on q's search path.
func hasSchema(ctx context.Context, q querier) (bool, error) {
	var ok bool
	err := q.QueryRow(ctx, `SELECT to_regclass('schema_version') IS NOT NULL AND to_regclass('log_meta') IS NOT NULL`).Scan(&ok)
	return ok, err
}

// schemaVersion reads the database's schema version, the largest
// schema_version lists: 0 if it has no schema_version table. A version
// that is not an integer is an error wrapping ledger.ErrTampered.
func schemaVersion(ctx context.Context, q querier) (int, error) {
	var exists bool
	if err := q.QueryRow(ctx, `SELECT to_regclass('schema_version') IS NOT NULL`).Scan(&exists); err != nil {
		return 0, fmt.Errorf("reading schema version: %w", err)
	}
	if !exists {
		return 0, nil
	}
	vs, err := schemaVersions(ctx, q)
	if err != nil || len(vs) == 0 {
		return 0, err
	}
	return vs[len(vs)-1], nil
}

// otherTable returns the name of a table in the current schema that is
// not one of the ledger's, or "".
func otherTable(ctx context.Context, q querier) (string, error) {
	var name string
	err := q.QueryRow(ctx, `SELECT c.relname FROM pg_class c
		WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind IN ('r', 'p', 'v', 'm', 'f')
		AND c.relname NOT IN ('schema_version', 'log_meta', 'entries', 'hashes', 'checkpoints', 'replays')
		ORDER BY c.relname LIMIT 1`).Scan(&name)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", nil
	}
	return name, err
}

// migrate brings the schema up to date, one migration per transaction,
// each under the write lock (so that concurrent openers apply each
// migration once and writers never see half a schema). A database
// without the schema gets it only if create is set, and only if its
// current schema holds no other table; without create it is left alone
// (Meta then reports ledger.ErrNotLedger). A database newer than this
// code is refused with ErrSchemaTooNew. A ledger whose schema differs
// from the one its recorded migrations make (checkWritable) is refused
// with an error wrapping ledger.ErrTampered, before any migration: a
// writer never writes to it.
func migrate(ctx context.Context, pool *pgxpool.Pool, create bool) error {
	ms, err := schemaMigrations()
	if err != nil {
		return err
	}
	for {
		done, err := migrateStep(ctx, pool, ms, create)
		if err != nil || done {
			return err
		}
	}
}

// migrateStep applies the next migration, if any, in one transaction; it
// reports done when there was nothing (more) to apply. The schema is
// checked (checkWritable) before each migration and when there is none
// left to apply.
func migrateStep(ctx context.Context, pool *pgxpool.Pool, ms []migrations.Migration, create bool) (done bool, err error) {
	tx, err := pool.Begin(ctx)
	if err != nil {
		return false, err
	}
	defer tx.Rollback(ctx)
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, writeLockKey); err != nil {
		return false, fmt.Errorf("taking the write lock: %w", err)
	}
	current, err := schemaVersion(ctx, tx)
	if err != nil {
		return false, err
	}
	latest := ms[len(ms)-1].Version
	switch {
	case current > latest:
		return false, tooNew(current)
	case current == 0 && !create:
		return true, nil // not a ledger; Meta says so
	case current == 0:
		other, err := otherTable(ctx, tx)
		if err != nil {
			return false, fmt.Errorf("looking for tables: %w", err)
		}
		if other != "" {
			return false, fmt.Errorf("the database holds a table %q but no sealed ledger: refusing to create a ledger beside it (expected an empty database)", other)
		}
	default:
		// A ledger: its schema must be what its recorded migrations
		// make, before this writer writes anything or applies the next.
		if err := checkWritable(ctx, tx); err != nil {
			return false, err
		}
		if current == latest {
			return true, nil
		}
	}
	m := ms[current]
	if _, err := tx.Exec(ctx, m.SQL); err != nil {
		return false, fmt.Errorf("applying schema migration %d: %w", m.Version, err)
	}
	if fill := fills[m.Version]; fill != nil {
		if err := fill(ctx, tx); err != nil {
			return false, fmt.Errorf("applying schema migration %d: %w", m.Version, err)
		}
	}
	if _, err := tx.Exec(ctx, `INSERT INTO schema_version(version, applied_at) VALUES($1, $2)`,
		m.Version, time.Now().UTC().Format(time.RFC3339)); err != nil {
		return false, fmt.Errorf("recording schema migration %d: %w", m.Version, err)
	}
	if err := tx.Commit(ctx); err != nil {
		return false, fmt.Errorf("committing schema migration %d: %w", m.Version, err)
	}
	return false, nil
}

// fills are the parts of migrations written in Go, run after the
// migration's SQL in its transaction: they fill a new table from the
// rows already there.
var fills = map[int]func(context.Context, pgx.Tx) error{
	playersMigration: fillPlayers,
}
