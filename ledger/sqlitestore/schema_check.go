package sqlitestore

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"
)

// columnInfo is one column as PRAGMA table_info declares it.
type columnInfo struct {
	name, typ string
	notNull   bool
	pk        int
}

// tableColumns reads the declared columns of every table of q's
// database, by table.
func tableColumns(ctx context.Context, q queryer) (map[string][]columnInfo, error) {
	rows, err := q.QueryContext(ctx, `SELECT m.name, c.name, c.type, c."notnull", c.pk
		FROM sqlite_master AS m, pragma_table_info(m.name) AS c
		WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%' ORDER BY m.name, c.cid`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string][]columnInfo{}
	for rows.Next() {
		var t string
		var c columnInfo
		if err := rows.Scan(&t, &c.name, &c.typ, &c.notNull, &c.pk); err != nil {
			return nil, err
		}
		out[t] = append(out[t], c)
	}
	return out, rows.Err()
}

// CheckSchema implements ledger.SchemaChecker: the file's tables against
// those schema.sql's migrations make, up to the version the file records,
// built in an in-memory database: each table there must be in the file
// with the same columns in the same order, declared with the same type,
// NOT NULL and primary key. Extra tables and a schema newer than this code
// are left to the census.
func (s *Store) CheckSchema(ctx context.Context) (table, what string, err error) {
	return checkSchema(ctx, s.r)
}

// checkSchema is CheckSchema on the database q reads.
func checkSchema(ctx context.Context, q queryer) (table, what string, err error) {
	var version int
	if err := q.QueryRowContext(ctx, `SELECT coalesce(max(version), 0) FROM schema_version`).Scan(&version); err != nil {
		return "schema_version", fmt.Sprintf("the table cannot be read as a sealed ledger writes it: %v", err), nil
	}
	ms, err := schemaMigrations()
	if err != nil {
		return "", "", err
	}
	if version > ms[len(ms)-1].Version {
		return "", "", nil
	}
	ref, err := sql.Open("sqlite3", "file::memory:")
	if err != nil {
		return "", "", err
	}
	defer ref.Close()
	ref.SetMaxOpenConns(1) // one in-memory database
	for _, m := range ms {
		if m.Version > version {
			break
		}
		if _, err := ref.ExecContext(ctx, m.SQL); err != nil {
			return "", "", fmt.Errorf("building the reference schema (migration %d): %w", m.Version, err)
		}
	}
	want, err := tableColumns(ctx, ref)
	if err != nil {
		return "", "", err
	}
	got, err := tableColumns(ctx, q)
	if err != nil {
		return "", "", err
	}
	names := make([]string, 0, len(want))
	for t := range want {
		names = append(names, t)
	}
	// In a fixed order, so the same file gives the same finding.
	slices.Sort(names)
	for _, t := range names {
		w, g := want[t], got[t]
		if len(g) == 0 {
			return t, fmt.Sprintf("the table is missing, but schema version %d makes it (the schema was altered)", version), nil
		}
		for i, wc := range w {
			if i >= len(g) {
				return t, fmt.Sprintf("column %s is missing (the schema was altered)", wc.name), nil
			}
			gc := g[i]
			switch {
			case gc.name != wc.name:
				return t, fmt.Sprintf("column %d is %s, where the schema has %s (a column was renamed, dropped or moved: the schema was altered)", i+1, gc.name, wc.name), nil
			case !strings.EqualFold(gc.typ, wc.typ):
				return t, fmt.Sprintf("column %s is declared %s, where the schema declares %s (the schema was altered)", gc.name, orNone(gc.typ), orNone(wc.typ)), nil
			case gc.notNull != wc.notNull || gc.pk != wc.pk:
				return t, fmt.Sprintf("column %s has another NOT NULL or PRIMARY KEY than the schema's (the schema was altered)", gc.name), nil
			}
		}
	}
	return "", "", nil
}

// orNone names an empty declared type.
func orNone(t string) string {
	if t == "" {
		return "no type"
	}
	return t
}
