package sqlitestore

import (
	"context"
	"database/sql"
	_ "embed"
	"fmt"
	"sync"
	"time"

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

// SchemaVersion is the newest schema version this package knows (the last
// "-- migration N" section of schema.sql).
func SchemaVersion() int {
	m, err := schemaMigrations()
	if err != nil {
		return 0
	}
	return m[len(m)-1].Version
}

// migrate applies the migrations newer than the database's version, each in
// its own transaction. A database newer than this code is refused.
func migrate(db *sql.DB) error {
	ms, err := schemaMigrations()
	if err != nil {
		return err
	}
	current := 0
	var exists int
	if err := db.QueryRow(`SELECT count(*) FROM sqlite_master WHERE type='table' AND name='schema_version'`).Scan(&exists); err != nil {
		return fmt.Errorf("reading schema version: %w", err)
	}
	if exists == 1 {
		if err := db.QueryRow(`SELECT coalesce(max(version), 0) FROM schema_version`).Scan(&current); err != nil {
			return fmt.Errorf("reading schema version: %w", err)
		}
	}
	latest := ms[len(ms)-1].Version
	if current > latest {
		return fmt.Errorf("database schema version %d is newer than this version of sealed understands (%d): %w", current, latest, ledger.ErrSchemaTooNew)
	}
	if exists == 1 {
		if err := checkRecorded(context.Background(), db, current, latest); err != nil {
			return err
		}
	}
	for _, m := range ms[current:] {
		tx, err := db.Begin()
		if err != nil {
			return err
		}
		if _, err := tx.Exec(m.SQL); err != nil {
			tx.Rollback()
			return fmt.Errorf("applying schema migration %d: %w", m.Version, err)
		}
		if fill := fills[m.Version]; fill != nil {
			if err := fill(tx); err != nil {
				tx.Rollback()
				return fmt.Errorf("applying schema migration %d: %w", m.Version, err)
			}
		}
		if _, err := tx.Exec(`INSERT INTO schema_version(version, applied_at) VALUES(?, ?)`,
			m.Version, time.Now().UTC().Format(time.RFC3339)); err != nil {
			tx.Rollback()
			return fmt.Errorf("recording schema migration %d: %w", m.Version, err)
		}
		if err := tx.Commit(); err != nil {
			return fmt.Errorf("committing schema migration %d: %w", m.Version, err)
		}
	}
	return nil
}

// checkRecorded checks, before a writer migrates or writes anything,
// that the file's schema is the one its recorded migrations made:
// schema_version lists versions 1..current, one row each, and, if a
// migration is still to apply, the file holds no table of a later
// migration (its schema_version row deleted: applying it again would
// fail on that table) and its tables, triggers and indexes are those of
// version current (schemaCheck). Otherwise the error wraps
// ledger.ErrTampered and names the table. (When no migration is left,
// Open's schemaCheck compares the schema.)
func checkRecorded(ctx context.Context, db *sql.DB, current, latest int) error {
	rows, err := db.QueryContext(ctx, `SELECT version FROM schema_version ORDER BY version`)
	if err != nil {
		return fmt.Errorf("reading schema version: %w", err)
	}
	var vs []any
	for rows.Next() {
		var v any
		if err := rows.Scan(&v); err != nil {
			rows.Close()
			return fmt.Errorf("reading schema version: %w", err)
		}
		vs = append(vs, v)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("reading schema version: %w", err)
	}
	for i, v := range vs {
		if n, ok := v.(int64); !ok || n != int64(i+1) || len(vs) != current {
			return fmt.Errorf("schema_version: versions %v; expected 1..%d, one row each (a row was deleted, changed or added: the schema was altered): %w", vs, current, ledger.ErrTampered)
		}
	}
	if len(vs) == 0 {
		return fmt.Errorf("schema_version: no rows, but every schema migration applied records its version (the rows were deleted: the schema was altered): %w", ledger.ErrTampered)
	}
	if current == latest {
		return nil
	}
	table, what, err := laterTable(ctx, db, current, latest)
	if err == nil && table == "" {
		table, what, err = schemaCheck(ctx, db, true, true)
	}
	if err != nil {
		return err
	}
	if table != "" {
		return fmt.Errorf("%s: %s: %w", table, what, ledger.ErrTampered)
	}
	return nil
}

// fills are the parts of migrations written in Go, run after the
// migration's SQL in its transaction: they fill a new table from the
// rows already there.
var fills = map[int]func(*sql.Tx) error{
	playersMigration: fillPlayers,
}
