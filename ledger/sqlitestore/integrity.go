package sqlitestore

import (
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/sealedhq/sealed/ledger"
)

// CheckIntegrity implements ledger.IntegrityChecker with SQLite's
// PRAGMA quick_check (structure, pages, indexes; O(n), about as fast as
// reading the file): a file cut short or with a damaged page is an error
// saying so, wrapping ledger.ErrTampered (the file was altered below
// its rows: the audit's check failed, exit 1).
func (s *Store) CheckIntegrity(ctx context.Context) error {
	if err := checkFileSize(s.path); err != nil {
		return fmt.Errorf("%w: %w", err, ledger.ErrTampered)
	}
	rows, err := s.r.QueryContext(ctx, `PRAGMA quick_check(20)`)
	if err != nil {
		return fmt.Errorf("%s: SQLite cannot read the file: %v", s.path, err)
	}
	defer rows.Close()
	var problems []string
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			return fmt.Errorf("%s: SQLite cannot read the file: %v", s.path, err)
		}
		if line != "ok" {
			problems = append(problems, line)
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("%s: SQLite cannot read the file: %v", s.path, err)
	}
	if len(problems) > 0 {
		return fmt.Errorf("%s: the SQLite file is damaged (cut short or altered below the rows: PRAGMA quick_check says %s): %w", s.path, strings.Join(problems, "; "), ledger.ErrTampered)
	}
	return nil
}

// checkFileSize holds the file to its header (sqlite.org/fileformat2.html,
// "The Database Header"): a whole number of pages, and, when the header's
// page count is valid (its version-valid-for number equals the change
// counter), exactly that many. SQLite reads the missing end of a file cut
// short as zeros, so without this a file cut by one byte reads as rows
// that changed.
func checkFileSize(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	var h [100]byte
	if _, err := io.ReadFull(f, h[:]); err != nil {
		return fmt.Errorf("%s: the SQLite file is damaged: %d bytes, shorter than its 100-byte header", path, st.Size())
	}
	pageSize := int64(binary.BigEndian.Uint16(h[16:18]))
	if pageSize == 1 {
		pageSize = 65536
	}
	if pageSize < 512 {
		return fmt.Errorf("%s: the SQLite file is damaged: its header gives a page size of %d bytes", path, pageSize)
	}
	if st.Size()%pageSize != 0 {
		return fmt.Errorf("%s: the SQLite file is damaged: %d bytes is not a whole number of %d-byte pages (the file was cut short or padded)", path, st.Size(), pageSize)
	}
	// With a WAL holding pages a checkpoint has not finished copying, the
	// file may already be longer than page 1 (its header) says: compare
	// the counts only when there is no WAL.
	if wal, err := os.Stat(path + "-wal"); err == nil && wal.Size() > 0 {
		return nil
	}
	pages := int64(binary.BigEndian.Uint32(h[28:32]))
	if binary.BigEndian.Uint32(h[92:96]) == binary.BigEndian.Uint32(h[24:28]) && pages != 0 && pages*pageSize != st.Size() {
		return fmt.Errorf("%s: the SQLite file is damaged: its header counts %d pages (%d bytes), but the file has %d bytes", path, pages, pages*pageSize, st.Size())
	}
	return nil
}
