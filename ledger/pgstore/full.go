package pgstore

import (
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
// could not be read just now. Any other error is left as it is.
func classify(err *error) {
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
