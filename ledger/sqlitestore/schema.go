package sqlitestore

import (
	"database/sql"
	_ "embed"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/sealedhq/sealed/ledger"
)

// schemaSQL is the versioned schema: "-- migration N" sections, applied
// forward only.
//
//go:embed schema.sql
var schemaSQL string

// migration is one numbered section of schema.sql.
type migration struct {
	version int
	sql     string
}

// migrations splits schema.sql into its numbered sections. The numbers
// must run 1, 2, 3, ... without gaps; anything else is a build mistake
// reported as an error.
func migrations() ([]migration, error) {
	var out []migration
	for _, line := range strings.SplitAfter(schemaSQL, "\n") {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(line), "-- migration "); ok {
			v, err := strconv.Atoi(rest)
			if err != nil || v != len(out)+1 {
				return nil, fmt.Errorf("schema.sql: bad migration header %q", strings.TrimSpace(line))
			}
			out = append(out, migration{version: v})
			continue
		}
		if len(out) > 0 {
			out[len(out)-1].sql += line
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("schema.sql: no migrations")
	}
	return out, nil
}

// SchemaVersion is the newest schema version this package knows (the last
// "-- migration N" section of schema.sql).
func SchemaVersion() int {
	m, err := migrations()
	if err != nil {
		return 0
	}
	return m[len(m)-1].version
}

// migrate applies the migrations newer than the database's version, each in
// its own transaction. A database newer than this code is refused.
func migrate(db *sql.DB) error {
	ms, err := migrations()
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
	latest := ms[len(ms)-1].version
	if current > latest {
		return fmt.Errorf("database schema version %d is newer than this version of sealed understands (%d): %w", current, latest, ledger.ErrSchemaTooNew)
	}
	for _, m := range ms[current:] {
		tx, err := db.Begin()
		if err != nil {
			return err
		}
		if _, err := tx.Exec(m.sql); err != nil {
			tx.Rollback()
			return fmt.Errorf("applying schema migration %d: %w", m.version, err)
		}
		if _, err := tx.Exec(`INSERT INTO schema_version(version, applied_at) VALUES(?, ?)`,
			m.version, time.Now().UTC().Format(time.RFC3339)); err != nil {
			tx.Rollback()
			return fmt.Errorf("recording schema migration %d: %w", m.version, err)
		}
		if err := tx.Commit(); err != nil {
			return fmt.Errorf("committing schema migration %d: %w", m.version, err)
		}
	}
	return nil
}
