package pgstore

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/sealedhq/sealed/ledger"
)

// insufficientPrivilege is SQLSTATE 42501: the role may not run a
// function (amcheck's are revoked from PUBLIC).
const insufficientPrivilege = "42501"

// indexesWhat is what the integrity check checks, as a NotCheckedError
// names it.
const indexesWhat = "the indexes against their tables"

// CheckIntegrity implements ledger.IntegrityChecker with PostgreSQL's
// amcheck extension (postgresql.org/docs/current/amcheck.html): each
// B-tree index of the ledger's schema is checked with bt_index_check(index,
// heapallindexed => true), its pages' structure and order and that every
// row of its table has its index entry. A damaged index (SQLSTATE XX002,
// or XX001 for a page that does not read) is an error naming it, wrapping
// ledger.ErrTampered (exit 1 from the CLI). The rows themselves are the
// audit's to check.
//
// amcheck ships with PostgreSQL but is installed per database by a
// superuser (CREATE EXTENSION amcheck), and its functions run only for
// roles granted EXECUTE on them: without either, the result is a
// *ledger.NotCheckedError saying which, and the audit lists it as not
// checked. An index that disagrees with its table then goes unseen: a
// writer would not find an entry whose index entry is missing.
func (s *Store) CheckIntegrity(ctx context.Context) (err error) {
	defer s.classify(&err)
	var schema string
	err = s.pool.QueryRow(ctx, `SELECT n.nspname FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'amcheck'`).Scan(&schema)
	if errors.Is(err, pgx.ErrNoRows) {
		return &ledger.NotCheckedError{What: indexesWhat, Why: "the amcheck extension is not installed in this database", Extension: "amcheck"}
	}
	if err != nil {
		return s.fail(err)
	}
	rows, err := s.pool.Query(ctx, `SELECT c.relname, i.indisvalid FROM pg_index i
		JOIN pg_class c ON c.oid = i.indexrelid
		JOIN pg_class t ON t.oid = i.indrelid
		JOIN pg_am a ON a.oid = c.relam
		WHERE t.relnamespace = current_schema()::regnamespace AND t.relkind = 'r' AND a.amname = 'btree'
		ORDER BY c.relname`)
	if err != nil {
		return s.fail(err)
	}
	type index struct {
		Name  string
		Valid bool
	}
	indexes, err := pgx.CollectRows(rows, pgx.RowToStructByPos[index])
	if err != nil {
		return s.fail(err)
	}
	// amcheck refuses an index that is not valid (pg_index.indisvalid
	// false: a CREATE or REINDEX ... CONCURRENTLY that did not finish
	// leaves one) with SQLSTATE 0A000; such an index is listed as not
	// checked, after the others are checked.
	var names, invalid []string
	for _, ix := range indexes {
		if ix.Valid {
			names = append(names, ix.Name)
		} else {
			invalid = append(invalid, ix.Name)
		}
	}
	check := fmt.Sprintf(`SELECT %s.bt_index_check(index => $1::regclass, heapallindexed => true)`, pgx.Identifier{schema}.Sanitize())
	for _, name := range names {
		ident := pgx.Identifier{name}.Sanitize()
		if _, err := s.pool.Exec(ctx, check, ident); err != nil {
			var pe *pgconn.PgError
			if errors.As(err, &pe) && pe.Code == insufficientPrivilege {
				return &ledger.NotCheckedError{What: indexesWhat, Why: "this role may not run amcheck's bt_index_check (" + pe.Message + ")", Extension: "amcheck"}
			}
			if errors.As(err, &pe) && (pe.Code == indexCorrupted || pe.Code == dataCorrupted) {
				return fmt.Errorf("%s: index %s does not agree with its table or is damaged (amcheck: %w): %w", s.name, name, err, ledger.ErrTampered)
			}
			return s.fail(fmt.Errorf("checking index %s: %w", name, err))
		}
	}
	if len(invalid) > 0 {
		return &ledger.NotCheckedError{What: "the indexes " + strings.Join(invalid, ", ") + " against their tables", Why: "PostgreSQL marks them not valid (a CREATE or REINDEX ... CONCURRENTLY that did not finish), and amcheck checks only valid indexes"}
	}
	return nil
}
