package sqlitestore

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// ErrWALUnreadable is returned (wrapped) by Open, read-only, for a file
// whose WAL holds commits this process cannot read: the directory is not
// writable, so SQLite cannot make the -shm file it reads a WAL through,
// and the file alone, read with the immutable flag, would be an older
// ledger (the commits the WAL holds, acknowledged appends and their
// checkpoints, left out with no error).
var ErrWALUnreadable = errors.New("the WAL holds commits this process cannot read")

// walCommits reports whether the WAL file beside path holds a committed
// transaction: a valid header and, after it, frames of that header's
// salts whose cumulative checksums verify up to a commit frame
// (sqlite.org/fileformat2.html, "The Write-Ahead Log"). Only the WAL is
// read, never the database file, whose descriptors belong to SQLite.
func walCommits(path string) (bool, error) {
	return walScan(path, func(_ uint32, commit bool) bool { return commit })
}

// walHoldsPage reports whether the WAL file beside path holds page pgno
// (1-based) in a committed transaction: a valid frame for it, followed by
// a valid commit frame, as walCommits reads them.
func walHoldsPage(path string, pgno uint32) (bool, error) {
	pending := false
	return walScan(path, func(p uint32, commit bool) bool {
		pending = pending || p == pgno
		return commit && pending
	})
}

// walScan calls f with the page number of each valid frame of the WAL
// file beside path, in order, and whether it is a commit frame; it stops
// at the first frame that does not verify, or when f returns true, and
// reports whether f did.
func walScan(path string, f func(pgno uint32, commit bool) bool) (bool, error) {
	wf, err := os.Open(path + "-wal")
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	defer wf.Close()
	var hdr [32]byte
	if _, err := io.ReadFull(wf, hdr[:]); err != nil {
		return false, nil // empty or shorter than its header: no frames
	}
	magic := binary.BigEndian.Uint32(hdr[0:])
	if magic&^1 != 0x377f0682 {
		return false, nil
	}
	var order binary.ByteOrder = binary.LittleEndian
	if magic&1 == 1 {
		order = binary.BigEndian
	}
	sum := func(b []byte, s0, s1 uint32) (uint32, uint32) {
		for i := 0; i+8 <= len(b); i += 8 {
			s0 += order.Uint32(b[i:]) + s1
			s1 += order.Uint32(b[i+4:]) + s0
		}
		return s0, s1
	}
	s0, s1 := sum(hdr[:24], 0, 0)
	if s0 != binary.BigEndian.Uint32(hdr[24:]) || s1 != binary.BigEndian.Uint32(hdr[28:]) {
		return false, nil
	}
	pageSize := int(binary.BigEndian.Uint32(hdr[8:]))
	if pageSize == 1 {
		pageSize = 65536
	}
	if pageSize < 512 || pageSize > 65536 || pageSize&(pageSize-1) != 0 {
		return false, nil
	}
	frame := make([]byte, 24+pageSize)
	for {
		if _, err := io.ReadFull(wf, frame); err != nil {
			return false, nil
		}
		if string(frame[8:16]) != string(hdr[16:24]) {
			return false, nil
		}
		s0, s1 = sum(frame[:8], s0, s1)
		s0, s1 = sum(frame[24:], s0, s1)
		if s0 != binary.BigEndian.Uint32(frame[16:]) || s1 != binary.BigEndian.Uint32(frame[20:]) {
			return false, nil
		}
		if f(binary.BigEndian.Uint32(frame[0:]), binary.BigEndian.Uint32(frame[4:]) != 0) {
			return true, nil
		}
	}
}

// walUnreadable is the error of a read-only open that would read the
// file alone while its WAL holds commits.
func walUnreadable(path string) error {
	return fmt.Errorf("%s: its WAL %s-wal may hold commits not yet copied into the file, and SQLite reads a WAL only through a %s-shm file, which is missing and which this process cannot create in %s: read alone, the file would show an older ledger: %w",
		path, filepath.Base(path), filepath.Base(path), filepath.Dir(path), ErrWALUnreadable)
}
