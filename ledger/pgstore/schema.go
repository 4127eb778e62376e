package pgstore

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"slices"
	"sync"
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
// (internal/migrations), once per process (an open asks several times);
// callers only read the sections.
var schemaMigrations = sync.OnceValues(func() ([]migrations.Migration, error) { return migrations.Split(schemaSQL) })

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

// identityTables reports whether the tables schema_version and log_meta
// are visible on q's search path. Sealed's first migration makes both,
// in one transaction: a database with one and not the other holds
// another application's table of that name.
func identityTables(ctx context.Context, q querier) (versions, meta bool, err error) {
	err = q.QueryRow(ctx, `SELECT to_regclass('schema_version') IS NOT NULL, to_regclass('log_meta') IS NOT NULL`).Scan(&versions, &meta)
	return versions, meta, err
}

// foreignTables is the error for a database that holds a table of one
// of sealed's names (name) but not sealed's ledger.
func foreignTables(name string) error {
	return fmt.Errorf("the database holds another application's tables (%s is not sealed's); use an empty database", name)
}

// noSchema says why a database with the identity tables versions and
// meta (identityTables) has no ledger schema, wrapping
// ledger.ErrNotLedger.
func noSchema(versions, meta bool) error {
	switch {
	case versions && !meta:
		return fmt.Errorf("%v (there is no log_meta table beside it): %w", foreignTables("schema_version"), ledger.ErrNotLedger)
	case meta && !versions:
		return fmt.Errorf("%v (there is no schema_version table beside it): %w", foreignTables("log_meta"), ledger.ErrNotLedger)
	}
	return fmt.Errorf("%w (no schema_version and log_meta tables)", ledger.ErrNotLedger)
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

// otherTable returns the name of a table (or view) in the current
// schema, or "": the database holds no ledger, so any table is another
// application's.
func otherTable(ctx context.Context, q querier) (string, error) {
	var name string
	err := q.QueryRow(ctx, `SELECT c.relname FROM pg_class c
		WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind IN ('r', 'p', 'v', 'm', 'f')
		ORDER BY c.relname LIMIT 1`).Scan(&name)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", nil
	}
	return name, err
}

// sealedTables are the names of the tables sealed's migrations make.
var sealedTables = []string{"schema_version", "log_meta", "entries", "hashes", "checkpoints", "replays", "cosignatures", "players"}

// migrate brings the schema up to date, one migration per transaction,
// each under the write lock (so that concurrent openers apply each
// migration once and writers never see half a schema). A database
// without the schema gets it only if create is set, and only if its
// current schema holds no table at all; without create it is left alone
// (Meta then reports ledger.ErrNotLedger). A database holding
// schema_version without log_meta, or log_meta without schema_version,
// is another application's: it is refused with create, left alone
// without. A database newer than this code is refused with
// ErrSchemaTooNew. A ledger whose schema differs from the one its
// recorded migrations make (checkWritable) is refused with an error
// wrapping ledger.ErrTampered, before any migration: a writer never
// writes to it.
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
	versions, meta, err := identityTables(ctx, tx)
	if err != nil {
		return false, fmt.Errorf("looking for tables: %w", err)
	}
	current := 0
	switch {
	case versions != meta:
		if !create {
			return true, nil // not a ledger; Meta says so
		}
		if versions {
			return false, foreignTables("schema_version")
		}
		return false, foreignTables("log_meta")
	case versions:
		if current, err = schemaVersion(ctx, tx); err != nil {
			return false, err
		}
	}
	latest := ms[len(ms)-1].Version
	switch {
	case current > latest:
		return false, tooNew(current)
	case !versions && !create:
		return true, nil // not a ledger; Meta says so
	case !versions:
		other, err := otherTable(ctx, tx)
		if err != nil {
			return false, fmt.Errorf("looking for tables: %w", err)
		}
		if slices.Contains(sealedTables, other) {
			return false, foreignTables(other)
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
	playersMigration:     fillPlayers,
	seedCommitsMigration: fillSeedCommits,
}
