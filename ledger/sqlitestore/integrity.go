package sqlitestore

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/mattn/go-sqlite3"

	"github.com/sealedhq/sealed/ledger"
)

// CheckIntegrity implements ledger.IntegrityChecker with SQLite's
// PRAGMA integrity_check (sqlite.org/pragma.html#pragma_integrity_check:
// the pages, the b-trees, and every index entry against its table row,
// O(n log n)): a file cut short, a damaged page, or an index that
// disagrees with its table is an error saying so, wrapping
// ledger.ErrTampered (the file was altered below its rows: the audit's
// check failed, exit 1). PRAGMA quick_check, which it used before, skips
// the index comparison: one changed key of entries_lookup passed it, and a
// writer then admitted a duplicate the index no longer found (trial 10b,
// finding 12). It costs about 3 times quick_check (about 3-4 s of one
// core for 1,000,000 entries, run alongside the audit's other reads). The
// file is not memory-mapped for it, though that spares a read system call
// per page: a file cut short by another process while mapped would stop
// this one with SIGBUS. The lookup keys, which are tables, are held to
// the entries by CheckLookup.
func (s *Store) CheckIntegrity(ctx context.Context) (err error) {
	defer s.classify(&err)
	if err := checkFileSize(ctx, s.path, s.r); err != nil {
		return err
	}
	// SQLite may stop the check itself on a page it cannot read: that is
	// the check's verdict too (damaged), not a file that could not be
	// read just now.
	cannotRead := func(err error) error {
		var se sqlite3.Error
		if errors.As(err, &se) && (se.Code == sqlite3.ErrCorrupt || se.Code == sqlite3.ErrNotADB) {
			return fmt.Errorf("%s: the SQLite file is damaged (PRAGMA integrity_check stopped: %w): %w", s.path, err, ledger.ErrTampered)
		}
		return fmt.Errorf("%s: SQLite cannot read the file: %w", s.path, err)
	}
	rows, err := s.r.QueryContext(ctx, `PRAGMA integrity_check(20)`)
	if err != nil {
		return cannotRead(err)
	}
	defer rows.Close()
	var problems []string
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			return cannotRead(err)
		}
		if line != "ok" {
			problems = append(problems, line)
		}
	}
	if err := rows.Err(); err != nil {
		return cannotRead(err)
	}
	if len(problems) > 0 {
		return fmt.Errorf("%s: the SQLite file is damaged (cut short or altered below the rows: PRAGMA integrity_check says %s): %w", s.path, strings.Join(problems, "; "), ledger.ErrTampered)
	}
	return nil
}

// checkFileSize holds the file to its header (sqlite.org/fileformat2.html,
// "The Database Header"): a whole number of pages, and, when there is no
// WAL holding pages, exactly the pages the header counts. SQLite reads the
// missing end of a file cut short as zeros, so without this a file cut by
// one byte reads as rows that changed. Those errors wrap
// ledger.ErrTampered.
//
// The file is never opened here: its size comes from stat, its page size
// and page count from SQLite on q (which reads the header through its own
// descriptor). Opening and closing the database file in a process that
// holds SQLite connections to it would release every POSIX lock the
// process holds on it (fcntl locks belong to the process and the file,
// and any close drops them; sqlite.org/howtocorrupt.html, 2.2), and
// another process would then see the database unused: it could delete the
// WAL of the writer under it and lose acknowledged appends.
func checkFileSize(ctx context.Context, path string, q queryer) error {
	st, err := os.Stat(path)
	if err != nil {
		return err
	}
	if st.Size() < 100 {
		return fmt.Errorf("%s: the SQLite file is damaged: %d bytes, shorter than its 100-byte header: %w", path, st.Size(), ledger.ErrTampered)
	}
	var pageSize int64
	if err := q.QueryRowContext(ctx, `PRAGMA page_size`).Scan(&pageSize); err != nil {
		return notLedger(err)
	}
	if pageSize < 512 {
		return fmt.Errorf("%s: the SQLite file is damaged: its header gives a page size of %d bytes: %w", path, pageSize, ledger.ErrTampered)
	}
	// With a WAL holding pages a checkpoint has not finished copying, the
	// file may already be longer than its header says: compare the counts
	// only when there is no WAL.
	wal, err := os.Stat(path + "-wal")
	walHolds := err == nil && wal.Size() > 0
	if st.Size()%pageSize != 0 {
		// A checkpoint that could not write a page whole (the file system
		// full, the file size limit reached) leaves that page cut short
		// at the file's end; SQLite reads it from the WAL, which still
		// holds it, and the next checkpoint writes it whole. So with a
		// WAL, a last page cut short is one of the pages the database
		// has (page_count, read through the WAL), not a cut file, when
		// the WAL holds that page in a committed frame. A WAL that is
		// merely not empty (journal_size_limit leaves it at walFloor
		// bytes after a checkpoint; its frames may be stale or of no
		// transaction) does not excuse it: the file was cut.
		if walHolds {
			var pages int64
			if err := q.QueryRowContext(ctx, `PRAGMA page_count`).Scan(&pages); err != nil {
				return notLedger(err)
			}
			last := (st.Size() + pageSize - 1) / pageSize
			if last <= pages {
				holds, err := walHoldsPage(path, uint32(last))
				if err != nil {
					return err
				}
				if holds {
					return nil
				}
			}
		}
		return fmt.Errorf("%s: the SQLite file is damaged: %d bytes is not a whole number of %d-byte pages (the file was cut short or padded): %w", path, st.Size(), pageSize, ledger.ErrTampered)
	}
	if walHolds {
		return nil
	}
	// SQLite's page count is the header's when the header's count is valid
	// (its version-valid-for number equals the change counter), else the
	// file's size: a file cut or padded by whole pages differs only then.
	var pages int64
	if err := q.QueryRowContext(ctx, `PRAGMA page_count`).Scan(&pages); err != nil {
		return notLedger(err)
	}
	if pages != 0 && pages*pageSize != st.Size() {
		return fmt.Errorf("%s: the SQLite file is damaged: its header counts %d pages (%d bytes), but the file has %d bytes: %w", path, pages, pages*pageSize, st.Size(), ledger.ErrTampered)
	}
	return nil
}
