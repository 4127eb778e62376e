package sqlitestore

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"syscall"

	"github.com/mattn/go-sqlite3"

	"github.com/sealedhq/sealed/ledger"
)

// classify turns SQLite's verdicts on the file, returned by any of the
// store's methods, into the ledger's errors, naming the file: a page
// SQLite finds damaged while reading or writing it (SQLITE_CORRUPT)
// wraps ledger.ErrTampered, as the audit's integrity check
// reports it (the file was altered below its rows: exit 1 from the CLI,
// 409 from the site), not a store that could not be read just now; a
// write that found no room (SQLITE_FULL, or an I/O error with ENOSPC or
// EFBIG: the file system is full, or the file size limit is reached)
// wraps ledger.ErrStoreFull. A table or column SQLite says is missing
// ("no such column: key") is the schema check's finding on the file (its
// table and what differs, as the audit names it), wrapping
// ledger.ErrTampered: a ledger's tables are never altered, and the
// identity rows and checkpoints are read before the audit's schema check
// could run. Any other error is left as it is.
func (s *Store) classify(err *error) {
	*err = classified(s.path, *err)
	if *err == nil || s.r == nil || !missingSchemaObject(*err) || errors.Is(*err, ledger.ErrTampered) || errors.Is(*err, ledger.ErrNotLedger) {
		return
	}
	if table, what, cerr := checkSchema(context.Background(), s.r); cerr == nil && table != "" {
		*err = fmt.Errorf("%s: %s: %w", table, what, ledger.ErrTampered)
	}
}

// missingSchemaObject reports whether err is SQLite's error for a
// statement naming a table or column the database does not have.
func missingSchemaObject(err error) bool {
	var se sqlite3.Error
	if !errors.As(err, &se) || se.Code != sqlite3.ErrError {
		return false
	}
	msg := se.Error()
	return strings.HasPrefix(msg, "no such table") || strings.HasPrefix(msg, "no such column")
}

// classified is err as classify gives it for the file at path.
func classified(path string, err error) error {
	if err == nil {
		return nil
	}
	var se sqlite3.Error
	if !errors.As(err, &se) {
		return err
	}
	switch se.Code {
	case sqlite3.ErrCorrupt:
		if !errors.Is(err, ledger.ErrTampered) {
			return fmt.Errorf("%s: the SQLite file is damaged (%w): %w", path, err, ledger.ErrTampered)
		}
	case sqlite3.ErrFull, sqlite3.ErrIoErr:
		// A write past the file size limit is an I/O error with EFBIG;
		// some file systems say ENOSPC through it too.
		if se.Code == sqlite3.ErrIoErr && se.SystemErrno != syscall.EFBIG && se.SystemErrno != syscall.ENOSPC {
			return err
		}
		if errors.Is(err, ledger.ErrStoreFull) {
			return err
		}
		why := "the file system holding it is full"
		if se.SystemErrno == syscall.EFBIG {
			why = "a file of the ledger reached this process's file size limit (ulimit -f)"
		}
		return fmt.Errorf("%s: %w: %s (%w)", path, ledger.ErrStoreFull, why, err)
	}
	return err
}
