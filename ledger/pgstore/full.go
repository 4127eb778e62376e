package pgstore

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/sealedhq/sealed/ledger"
)

// SQLSTATEs classify names (PostgreSQL's errcodes: class 53, insufficient
// resources; class XX, internal error).
const (
	diskFull       = "53100" // disk_full
	dataCorrupted  = "XX001" // data_corrupted: a page that does not read
	indexCorrupted = "XX002" // index_corrupted
)

// classify turns the server's verdicts on the ledger's storage, returned
// by any of the store's methods, into the ledger's errors: a write it
// refused for lack of disk space (53100) wraps ledger.ErrStoreFull
// (nothing of it was stored: the transaction rolled back, and it can be
// made again once there is room); a page or index the server finds
// damaged (XX001, XX002) wraps ledger.ErrTampered (the database is
// damaged: exit 1 from the CLI, 409 from the site), not a store that
// could not be read just now. A table or column the server says is
// missing (42P01, 42703) in a database holding a ledger is the schema
// check's finding on it (its table and what differs, as the audit names
// it), wrapping ledger.ErrTampered: a ledger's tables are never altered,
// and the identity rows and checkpoints are read before the audit's
// schema check could run. Any other error is left as it is.
func (s *Store) classify(err *error) {
	classifyServer(err)
	var pe *pgconn.PgError
	if *err == nil || !errors.As(*err, &pe) || (pe.Code != undefinedTable && pe.Code != undefinedColumn) ||
		errors.Is(*err, ledger.ErrTampered) || errors.Is(*err, ledger.ErrNotLedger) {
		return
	}
	if table, what, cerr := s.checkSchema(context.Background(), true, false); cerr == nil && table != "" {
		*err = fmt.Errorf("%s: %s: %w", table, what, ledger.ErrTampered)
	}
}

// undefinedColumn is SQLSTATE 42703, a query naming a column its table
// does not have.
const undefinedColumn = "42703"

// classifyServer is classify's verdicts on the server's storage.
func classifyServer(err *error) {
	var pe *pgconn.PgError
	if *err == nil || !errors.As(*err, &pe) {
		return
	}
	switch pe.Code {
	case diskFull:
		if !errors.Is(*err, ledger.ErrStoreFull) {
			*err = fmt.Errorf("%w: the PostgreSQL server's disk is full (%w)", ledger.ErrStoreFull, *err)
		}
	case dataCorrupted, indexCorrupted:
		if !errors.Is(*err, ledger.ErrTampered) {
			*err = fmt.Errorf("the PostgreSQL database is damaged (%w): %w", *err, ledger.ErrTampered)
		}
	}
}
