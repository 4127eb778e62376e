package pgstore

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/sealedhq/sealed/ledger"
)

// CheckSchema implements ledger.SchemaChecker, before the audit reads
// any row: schema_version must list versions 1..k, one row each, every
// one an integer; then each table the migrations 1..k make
// (schema_catalog.json, the catalog read right after applying them)
// must be there, of the same kind (a table, logged, without row level
// security or inheritance), with the same columns in the same order,
// each of the same type, NOT NULL and default, and no other. A version
// newer than this code's is left to the census.
func (s *Store) CheckSchema(ctx context.Context) (table, what string, err error) {
	defer s.classify(&err)
	return s.checkSchema(ctx, true, false)
}

// CheckSchemaObjects implements ledger.SchemaChecker, after every row
// checked out: the indexes, constraints, triggers (their definition and
// whether they are enabled, pg_trigger.tgenabled), rules and row
// security policies of the tables, and the functions the migrations make
// (their body, pg_proc.prosrc), must be those schema_catalog.json
// records for the recorded version, none disabled, none added; a table
// the migrations do not make is a finding too (one a later migration
// makes names the schema_version row that is missing).
func (s *Store) CheckSchemaObjects(ctx context.Context) (table, what string, err error) {
	defer s.classify(&err)
	return s.checkSchema(ctx, false, true)
}

// checkSchema runs the checks of CheckSchema (tables) and
// CheckSchemaObjects (objects) in one read-only transaction.
func (s *Store) checkSchema(ctx context.Context, tables, objects bool) (table, what string, err error) {
	tx, err := s.pool.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly})
	if err != nil {
		return "", "", err
	}
	defer tx.Rollback(ctx)
	return schemaProblem(ctx, tx, tables, objects)
}

// schemaProblem compares q's schema with the reference catalog of the
// version schema_version records: the versions and the tables (tables),
// the other objects (objects); the first difference found, table "" if
// none. A version newer than this code's is not compared.
func schemaProblem(ctx context.Context, q querier, tables, objects bool) (table, what string, err error) {
	vs, err := schemaVersions(ctx, q)
	if err != nil {
		if errors.Is(err, ledger.ErrTampered) {
			if !tables {
				return "", "", nil // CheckSchema named it
			}
			return "schema_version", strings.TrimPrefix(strings.TrimSuffix(err.Error(), ": "+ledger.ErrTampered.Error()), "schema_version: "), nil
		}
		return "", "", err
	}
	k := 0
	if len(vs) > 0 {
		k = vs[len(vs)-1]
	}
	if k > SchemaVersion() {
		return "", "", nil // the census says it is too new
	}
	if p := versionsProblem(vs); p != "" {
		if !tables {
			return "", "", nil
		}
		return "schema_version", p, nil
	}
	refs, err := references()
	if err != nil {
		return "", "", err
	}
	got, err := readCatalog(ctx, q)
	if err != nil {
		return "", "", err
	}
	ref := refs[k]
	if tables {
		if table, what := diffTables(ref, got, k); table != "" {
			return table, what, nil
		}
	}
	if objects {
		if table, what := diffObjects(refs, got, k); table != "" {
			return table, what, nil
		}
	}
	return "", "", nil
}

// schemaVersions reads the versions schema_version lists, ascending. A
// row whose version is NULL or not an integer is an error wrapping
// ledger.ErrTampered that names the table: sealed writes integers.
func schemaVersions(ctx context.Context, q querier) ([]int, error) {
	// Any type converts to text: a version column retyped is read too.
	rows, err := q.Query(ctx, `SELECT version::text FROM schema_version`)
	var pe *pgconn.PgError
	if errors.As(err, &pe) && pe.Code == undefinedColumn {
		return nil, fmt.Errorf("schema_version: the table cannot be read as a sealed ledger writes it (%s; the schema was altered): %w", pe.Message, ledger.ErrTampered)
	}
	if err != nil {
		return nil, fmt.Errorf("reading schema version: %w", notLedger(err))
	}
	defer rows.Close()
	var vs []int
	for rows.Next() {
		var v *string
		if err := rows.Scan(&v); err != nil {
			return nil, fmt.Errorf("reading schema version: %w", err)
		}
		if v == nil {
			return nil, fmt.Errorf("schema_version: a row's version is NULL, not an integer (the schema was altered): %w", ledger.ErrTampered)
		}
		n, err := strconv.Atoi(*v)
		if err != nil {
			return nil, fmt.Errorf("schema_version: a row's version is %q, not an integer (the schema was altered): %w", *v, ledger.ErrTampered)
		}
		vs = append(vs, n)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("reading schema version: %w", err)
	}
	slices.Sort(vs)
	return vs, nil
}

// versionsProblem says what is wrong with the versions schema_version
// lists (ascending), "" if they are 1..k, one row each: each migration
// records its version in the transaction that applies it.
func versionsProblem(vs []int) string {
	if len(vs) == 0 {
		return "no rows, but every schema migration applied records its version (the rows were deleted: the schema was altered)"
	}
	for i, v := range vs {
		if v != i+1 {
			return fmt.Sprintf("versions %v; expected 1..%d, one row each (a row was deleted, changed or added: the schema was altered)", vs, vs[len(vs)-1])
		}
	}
	return ""
}

// diffTables compares got's tables with those of ref, the reference
// catalog of version k: the first table missing, of another kind, or
// whose columns differ, and what differs; "" if none.
func diffTables(ref, got *catalog, k int) (table, what string) {
	have := map[string]*catTable{}
	for i := range got.Tables {
		have[got.Tables[i].Name] = &got.Tables[i]
	}
	for _, w := range ref.Tables {
		g := have[w.Name]
		if g == nil {
			return w.Name, fmt.Sprintf("the table is missing, but schema version %d makes it (it was dropped or renamed: the schema was altered)", k)
		}
		if g.Kind != w.Kind {
			return w.Name, fmt.Sprintf("the relation is %s, where schema version %d makes %s (the schema was altered)", ledger.WithArticle(g.Kind), k, ledger.WithArticle(w.Kind))
		}
		for i, wc := range w.Columns {
			if i >= len(g.Columns) {
				return w.Name, fmt.Sprintf("column %s is missing (it was dropped: the schema was altered)", wc.Name)
			}
			gc := g.Columns[i]
			switch {
			case gc.Name != wc.Name:
				return w.Name, fmt.Sprintf("column %d is %s, where the schema has %s (a column was renamed, dropped or moved: the schema was altered)", i+1, gc.Name, wc.Name)
			case gc.Type != wc.Type:
				return w.Name, fmt.Sprintf("column %s is declared %s, where the schema declares %s (the schema was altered)", gc.Name, gc.Type, wc.Type)
			case gc.NotNull != wc.NotNull:
				return w.Name, fmt.Sprintf("column %s is %s, where the schema declares it %s (the schema was altered)", gc.Name, nullability(gc.NotNull), nullability(wc.NotNull))
			case gc.Default != wc.Default:
				return w.Name, fmt.Sprintf("column %s has the default %s, where the schema gives it %s (the schema was altered)", gc.Name, orNone(gc.Default), orNone(wc.Default))
			}
		}
		if len(g.Columns) > len(w.Columns) {
			gc := g.Columns[len(w.Columns)]
			return w.Name, fmt.Sprintf("column %d, %s %s, is one schema version %d does not make (a column was added: the schema was altered)", len(w.Columns)+1, gc.Name, gc.Type, k)
		}
	}
	return "", ""
}

// nullability names a column's NOT NULL.
func nullability(notNull bool) string {
	if notNull {
		return "NOT NULL"
	}
	return "nullable (no NOT NULL)"
}

// orNone names an empty default.
func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// objectKey identifies an object in its table.
type objectKey struct{ kind, table, name string }

// diffObjects compares got's objects with those of refs[k]: an object
// of the reference missing or different (a trigger disabled among
// them), a function of the reference missing or with another body, an
// internal trigger disabled, an object or table the reference does not
// make; the first found, and what differs; "" if none.
func diffObjects(refs map[int]*catalog, got *catalog, k int) (table, what string) {
	ref := refs[k]
	have := map[objectKey]catObject{}
	for _, o := range got.Objects {
		have[objectKey{o.Kind, o.Table, o.Name}] = o
	}
	want := map[objectKey]bool{}
	for _, w := range ref.Objects {
		want[objectKey{w.Kind, w.Table, w.Name}] = true
		g, ok := have[objectKey{w.Kind, w.Table, w.Name}]
		switch {
		case !ok:
			return w.Table, fmt.Sprintf("the %s %s is missing, but schema version %d makes it (it was dropped: the schema was altered)", w.Kind, w.Name, k)
		case g.Def != w.Def:
			return w.Table, fmt.Sprintf("the %s %s is not the one schema version %d makes (the schema was altered): %s, where the schema makes %s", w.Kind, w.Name, k, g.Def, w.Def)
		case g.Enabled != w.Enabled:
			return w.Table, fmt.Sprintf("the %s %s is %s, where schema version %d makes it %s (the schema was altered)", w.Kind, w.Name, enabled(g.Enabled), k, enabled(w.Enabled))
		}
	}
	funcs := map[string]catFunction{}
	for _, f := range got.Functions {
		funcs[f.Name] = f
	}
	for _, w := range ref.Functions {
		// The table of the finding: the first whose triggers call it.
		table := ref.Tables[0].Name
		calledBy := ""
		if len(w.Tables) > 0 {
			table = w.Tables[0]
			calledBy = fmt.Sprintf(", which the triggers of %s call,", strings.Join(w.Tables, ", "))
		}
		g, ok := funcs[w.Name]
		switch {
		case !ok:
			return table, fmt.Sprintf("the function %s%s is missing, but schema version %d makes it (it was dropped or renamed: the schema was altered)", w.Name, calledBy, k)
		case g.Def != w.Def:
			return table, fmt.Sprintf("the function %s%s is not the one schema version %d makes (the schema was altered): %s, where the schema makes %s", w.Name, calledBy, k, g.Def, w.Def)
		case lines(g.Body) != lines(w.Body):
			return table, fmt.Sprintf("the function %s%s has another body than the one schema version %d makes (it was replaced: the schema was altered): %s", w.Name, calledBy, k, excerpt(g.Body))
		}
	}
	if len(got.disabled) > 0 { // the first one
		g := got.disabled[0]
		what := fmt.Sprintf("the internal trigger %s is %s, where PostgreSQL makes it enabled (the schema was altered)", g.Name, enabled(g.Enabled))
		if g.Def != "" {
			what = fmt.Sprintf("the internal trigger %s, which enforces the constraint %s, is %s, where PostgreSQL makes it enabled (the schema was altered)", g.Name, g.Def, enabled(g.Enabled))
		}
		return g.Table, what
	}
	tables := map[string]bool{}
	for _, t := range ref.Tables {
		tables[t.Name] = true
	}
	for _, g := range got.Objects {
		if !tables[g.Table] || want[objectKey{g.Kind, g.Table, g.Name}] {
			continue // a table the schema does not make is named below
		}
		if v := madeLater(refs, k, func(c *catalog) bool {
			return slices.ContainsFunc(c.Objects, func(o catObject) bool { return o.Kind == g.Kind && o.Table == g.Table && o.Name == g.Name })
		}); v > 0 {
			return g.Table, fmt.Sprintf("the %s %s is made by schema migration %d, but schema_version lists versions 1..%d (its row of version %d was deleted: the schema was altered)", g.Kind, g.Name, v, k, v)
		}
		return g.Table, fmt.Sprintf("%s %s that schema version %d does not make (the schema was altered): %s", ledger.WithArticle(g.Kind), g.Name, k, g.Def)
	}
	for _, g := range got.Tables {
		if tables[g.Name] {
			continue
		}
		if v := madeLater(refs, k, func(c *catalog) bool {
			return slices.ContainsFunc(c.Tables, func(t catTable) bool { return t.Name == g.Name })
		}); v > 0 {
			return g.Name, fmt.Sprintf("the table is made by schema migration %d, but schema_version lists versions 1..%d (its row of version %d was deleted: the schema was altered)", v, k, v)
		}
		return g.Name, fmt.Sprintf("%s that schema version %d does not make (the schema was altered; a ledger's database holds only sealed's tables)", ledger.WithArticle(g.Kind), k)
	}
	return "", ""
}

// madeLater returns the first schema version after k whose reference
// catalog has what has picks out, or 0.
func madeLater(refs map[int]*catalog, k int, has func(*catalog) bool) int {
	for v := k + 1; refs[v] != nil; v++ {
		if has(refs[v]) {
			return v
		}
	}
	return 0
}

// enabled names a pg_trigger.tgenabled or pg_rewrite.ev_enabled value.
func enabled(c string) string {
	switch c {
	case "O":
		return "enabled"
	case "D":
		return "disabled"
	case "R":
		return "enabled in replica sessions only (ENABLE REPLICA)"
	case "A":
		return "enabled always (ENABLE ALWAYS)"
	}
	return fmt.Sprintf("in state %q", c)
}

// lines is a function body with CRLF line ends as LF (schema.sql checked
// out with either).
func lines(s string) string { return strings.ReplaceAll(s, "\r\n", "\n") }

// excerpt is a body on one line, cut to 200 bytes, quoted.
func excerpt(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 200 {
		s = s[:200] + "..."
	}
	return strconv.Quote(s)
}

// checkWritable refuses, with an error wrapping ledger.ErrTampered, a
// ledger whose schema differs from the one the migrations up to its
// recorded version make (schemaProblem): a writer checks it when it
// opens the database, before writing anything, and before applying a
// migration (so that a deleted schema_version row is not taken for a
// migration still to apply).
func checkWritable(ctx context.Context, q querier) error {
	table, what, err := schemaProblem(ctx, q, true, true)
	if err != nil {
		return err
	}
	if table != "" {
		return fmt.Errorf("%s: %s: %w", table, what, ledger.ErrTampered)
	}
	return nil
}
