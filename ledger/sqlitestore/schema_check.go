package sqlitestore

import (
	"context"
	"database/sql"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/sealedhq/sealed/ledger"
)

// columnInfo is one column as PRAGMA table_info declares it.
type columnInfo struct {
	name, typ string
	notNull   bool
	pk        int
}

// tableColumns reads the declared columns of every table of q's
// database, by table. Virtual tables are left out: no migration makes
// one, and reading the columns of one whose module this build lacks
// (FTS5) fails with "no such module"; extraTable names them.
func tableColumns(ctx context.Context, q queryer) (map[string][]columnInfo, error) {
	rows, err := q.QueryContext(ctx, `SELECT m.name, c.name, c.type, c."notnull", c.pk
		FROM sqlite_master AS m, pragma_table_info(m.name) AS c
		WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%' AND coalesce(m.sql, '') NOT LIKE 'CREATE VIRTUAL TABLE%'
		ORDER BY m.name, c.cid`)
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
// NOT NULL and primary key. Extra tables and views are named by
// CheckSchemaObjects (extraTable); a schema newer than this code is left
// to the census.
func (s *Store) CheckSchema(ctx context.Context) (table, what string, err error) {
	defer s.classify(&err)
	return checkSchema(ctx, s.r)
}

// checkSchema is CheckSchema on the database q reads.
func checkSchema(ctx context.Context, q queryer) (table, what string, err error) {
	return schemaCheck(ctx, q, true, false)
}

// schemaCheck compares q's database with the schema schema.sql's
// migrations make up to the version it records, built once in memory:
// the tables' columns (columns: checkColumns) and the triggers and
// indexes (objects: checkObjects), the first difference found. An
// unreadable schema_version is a finding of the columns check, nothing
// for the objects check alone; a version newer than this code's is left
// to the census. A writer opening the file asks for both.
func schemaCheck(ctx context.Context, q queryer, columns, objects bool) (table, what string, err error) {
	var version int
	if err := q.QueryRowContext(ctx, `SELECT coalesce(max(version), 0) FROM schema_version`).Scan(&version); err != nil {
		if !columns {
			return "", "", nil
		}
		return "schema_version", fmt.Sprintf("the table cannot be read as a sealed ledger writes it: %v", err), nil
	}
	ref, err := referenceSchema(ctx, version)
	if err != nil || ref == nil {
		return "", "", err
	}
	defer ref.Close()
	if columns {
		if table, what, err := checkColumns(ctx, ref, q, version); err != nil || table != "" {
			return table, what, err
		}
	}
	if objects {
		return checkObjects(ctx, ref, q, version)
	}
	return "", "", nil
}

// checkColumns compares the tables of q's database with those of ref,
// the reference schema of version: each table there must be in the file
// with the same columns in the same order, declared with the same type,
// NOT NULL and primary key.
func checkColumns(ctx context.Context, ref, q queryer, version int) (table, what string, err error) {
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

// CheckSchemaObjects implements ledger.SchemaChecker: the file's triggers
// and indexes against those schema.sql's migrations make, up to the
// version the file records (checkObjects).
func (s *Store) CheckSchemaObjects(ctx context.Context) (table, what string, err error) {
	defer s.classify(&err)
	return schemaCheck(ctx, s.r, false, true)
}

// referenceSchema builds, in an in-memory database, the schema
// schema.sql's migrations make up to version; nil if that version is
// newer than this code's (left to the census).
func referenceSchema(ctx context.Context, version int) (*sql.DB, error) {
	ms, err := schemaMigrations()
	if err != nil {
		return nil, err
	}
	if version > ms[len(ms)-1].Version {
		return nil, nil
	}
	ref, err := sql.Open("sqlite3", "file::memory:")
	if err != nil {
		return nil, err
	}
	ref.SetMaxOpenConns(1) // one in-memory database
	for _, m := range ms {
		if m.Version > version {
			break
		}
		if _, err := ref.ExecContext(ctx, m.SQL); err != nil {
			ref.Close()
			return nil, fmt.Errorf("building the reference schema (migration %d): %w", m.Version, err)
		}
	}
	return ref, nil
}

// schemaObject is a trigger or an index as sqlite_master holds it.
type schemaObject struct {
	typ, table, sql string
}

// schemaObjects reads the triggers and the indexes made by CREATE
// statements (not those SQLite makes for a key) of q's database, by name,
// their SQL with white space folded.
func schemaObjects(ctx context.Context, q queryer) (map[string]schemaObject, error) {
	return readObjects(ctx, q, `SELECT type, name, tbl_name, sql FROM sqlite_master
		WHERE type IN ('trigger', 'index') AND sql IS NOT NULL`)
}

// readObjects reads the rows of query (type, name, table and SQL of
// sqlite_master rows) by name, their SQL with white space folded.
func readObjects(ctx context.Context, q queryer, query string) (map[string]schemaObject, error) {
	rows, err := q.QueryContext(ctx, query)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]schemaObject{}
	for rows.Next() {
		var name string
		var o schemaObject
		if err := rows.Scan(&o.typ, &name, &o.table, &o.sql); err != nil {
			return nil, err
		}
		o.sql = strings.Join(strings.Fields(o.sql), " ")
		out[name] = o
	}
	return out, rows.Err()
}

// checkObjects compares the file's triggers and indexes with the
// reference schema's (ref, built up to version): the append-only triggers
// are what refuses an UPDATE or DELETE, so one dropped or changed is a
// finding, as is a trigger, index, table or view the schema does not make.
func checkObjects(ctx context.Context, ref, q queryer, version int) (table, what string, err error) {
	want, err := schemaObjects(ctx, ref)
	if err != nil {
		return "", "", err
	}
	got, err := schemaObjects(ctx, q)
	if err != nil {
		return "", "", err
	}
	// First a table a later migration makes, with its triggers and
	// indexes: that migration's schema_version row was deleted (and what
	// the later migration dropped is missing). Said as a writer opening
	// the file says it (checkRecorded), naming the table.
	ms, err := schemaMigrations()
	if err != nil {
		return "", "", err
	}
	latest := ms[len(ms)-1].Version
	if table, what, err := laterTable(ctx, q, version, latest); err != nil || table != "" {
		return table, what, err
	}
	for _, name := range slices.Sorted(maps.Keys(want)) {
		w := want[name]
		g, ok := got[name]
		switch {
		case !ok:
			return w.table, fmt.Sprintf("the %s %s is missing, but schema version %d makes it (it was dropped: the schema was altered)", w.typ, name, version), nil
		case g != w:
			return w.table, fmt.Sprintf("the %s %s is not the one schema version %d makes (the schema was altered): %s", w.typ, name, version, g.sql), nil
		}
	}
	if table, what, err := extraTable(ctx, ref, q, version); err != nil || table != "" {
		return table, what, err
	}
	for _, name := range slices.Sorted(maps.Keys(got)) {
		if _, ok := want[name]; !ok {
			g := got[name]
			if v, err := objectMadeLater(ctx, name, g, version, latest); err != nil {
				return "", "", err
			} else if v > 0 {
				return g.table, fmt.Sprintf("the %s %s is made by schema migration %d, but schema_version lists versions 1..%d (its row of version %d was deleted: the schema was altered)", g.typ, name, v, version, v), nil
			}
			return g.table, fmt.Sprintf("%s %s that schema version %d does not make (the schema was altered): %s", ledger.WithArticle(g.typ), name, version, g.sql), nil
		}
	}
	return "", "", nil
}

// objectMadeLater returns the first schema version after version (up to
// latest) whose migrations make the trigger or index name as o is (its
// type and table), or 0.
func objectMadeLater(ctx context.Context, name string, o schemaObject, version, latest int) (int, error) {
	for v := version + 1; v <= latest; v++ {
		ref, err := referenceSchema(ctx, v)
		if err != nil {
			return 0, err
		}
		objs, err := schemaObjects(ctx, ref)
		ref.Close()
		if err != nil {
			return 0, err
		}
		if w, ok := objs[name]; ok && w.typ == o.typ && w.table == o.table {
			return v, nil
		}
	}
	return 0, nil
}

// orNone names an empty declared type.
func orNone(t string) string {
	if t == "" {
		return "no type"
	}
	return t
}

// laterTable returns the first table of q's database (by name) that the
// migrations up to version do not make but a later one (up to latest)
// does, and what to say of it; "" if none. A database at version holds
// none: its schema_version row of that later migration was deleted.
func laterTable(ctx context.Context, q queryer, version, latest int) (table, what string, err error) {
	got, err := tableColumns(ctx, q)
	if err != nil {
		return "", "", err
	}
	for v := version; v <= latest; v++ {
		ref, err := referenceSchema(ctx, v)
		if err != nil {
			return "", "", err
		}
		want, err := tableColumns(ctx, ref)
		ref.Close()
		if err != nil {
			return "", "", err
		}
		if v == version {
			// The tables of version itself are not later ones.
			for t := range want {
				delete(got, t)
			}
			continue
		}
		for _, t := range slices.Sorted(maps.Keys(got)) {
			if _, ok := want[t]; ok {
				return t, fmt.Sprintf("the table is made by schema migration %d, but schema_version lists versions 1..%d (its row of version %d was deleted: the schema was altered)", v, version, v), nil
			}
		}
	}
	return "", "", nil
}

// extraTable returns the first table or view of q's database (by name)
// that no migration up to version makes, and what to say of it; "" if
// none. laterTable has named one a later migration makes. SQLite's own
// tables (sqlite_stat1 that ANALYZE writes, ...) are not the schema's.
func extraTable(ctx context.Context, ref, q queryer, version int) (table, what string, err error) {
	want, err := tablesAndViews(ctx, ref)
	if err != nil {
		return "", "", err
	}
	got, err := tablesAndViews(ctx, q)
	if err != nil {
		return "", "", err
	}
	for _, name := range slices.Sorted(maps.Keys(got)) {
		if _, ok := want[name]; !ok {
			g := got[name]
			return name, fmt.Sprintf("%s %s that schema version %d does not make (the schema was altered): %s",
				ledger.WithArticle(g.typ), name, version, g.sql), nil
		}
	}
	return "", "", nil
}

// tablesAndViews reads the tables and views of q's database but SQLite's
// own, by name, their SQL with white space folded.
func tablesAndViews(ctx context.Context, q queryer) (map[string]schemaObject, error) {
	return readObjects(ctx, q, `SELECT type, name, tbl_name, coalesce(sql, '') FROM sqlite_master
		WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite\_%' ESCAPE '\'`)
}
