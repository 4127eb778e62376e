package stores

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/sealedhq/sealed/ledger"
	"github.com/sealedhq/sealed/ledger/pgstore"
	"github.com/sealedhq/sealed/ledger/sqlitestore"
)

// Copy copies the ledger in src (an open store; ledger.Copy checks and
// audits it first) into a new ledger at to, a SQLite file that does not
// exist yet or an empty PostgreSQL database, so that a copy that fails,
// or is killed, leaves no ledger at to:
//
//   - A SQLite copy is built in a new file beside to, named
//     to + ".copying-" and 8 random hex digits, and given the name to
//     (a hard link, so that a file made at to meanwhile is not replaced)
//     only once ledger.Copy has audited it and written its identity rows.
//     A copy that fails removes that file; one that is killed leaves it,
//     with no identity rows (not a ledger) unless it was killed between
//     its last write and the rename.
//   - A copy into PostgreSQL holds the database's copy lock
//     (pgstore.LockCopy) from start to end: a second copy into the same
//     database is refused. The database holds no ledger until ledger.Copy
//     writes the identity rows, its last write. A copy that fails drops
//     what it created (pgstore.Store.Discard). The rows of one that was
//     killed are refused by the next copy (ledger.ErrUnfinished), never
//     dropped: a ledger whose identity rows were deleted looks the same.
//     Drop them by hand (docs/ledger.md, "Moving a ledger").
//
// Errors: a name that names no store (CheckName's: another scheme, a
// keyword/value connection string, an ambiguous URL), a SQLite file that
// exists (matching fs.ErrExist), one that
// cannot be created (a *fs.PathError naming to: "cannot create to:
// permission denied"), a PostgreSQL database that holds a ledger
// (ledger.ErrHoldsLedger) or other tables, and ledger.Copy's.
func Copy(ctx context.Context, src ledger.Store, to string, progress func(stage ledger.CopyStage, done, total int64)) (*ledger.CopyReport, error) {
	if to == "" {
		return nil, errors.New("no destination named: expected a SQLite file path or a postgres:// URL")
	}
	if err := CheckName(to); err != nil {
		return nil, err
	}
	if IsURL(to) {
		return copyPostgres(ctx, src, to, progress)
	}
	return copySQLite(ctx, src, to, progress)
}

// copySQLite is Copy to a SQLite file.
func copySQLite(ctx context.Context, src ledger.Store, to string, progress func(ledger.CopyStage, int64, int64)) (*ledger.CopyReport, error) {
	if _, err := os.Lstat(to); err == nil {
		return nil, fileExists(to)
	}
	var r [4]byte
	if _, err := rand.Read(r[:]); err != nil {
		return nil, err
	}
	tmp := to + ".copying-" + hex.EncodeToString(r[:])
	dst, err := sqlitestore.Open(tmp, sqlitestore.Options{Create: true})
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) && pe.Path == tmp {
			// The file this process could not make is the destination's.
			err = &fs.PathError{Op: pe.Op, Path: to, Err: pe.Err}
		} else {
			removeSQLite(tmp)
		}
		return nil, err
	}
	rep, err := ledger.Copy(ctx, src, dst, progress)
	if cerr := dst.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("destination: %w", cerr)
	}
	if err == nil {
		err = publish(tmp, to)
	}
	removeSQLite(tmp)
	if err != nil {
		return rep, err
	}
	return rep, nil
}

// publish gives the complete copy at tmp the name to, never replacing a
// file there: a hard link, or where the file system has none, a rename
// after checking that to does not exist. The directory is synced, so
// that the new name survives a crash. tmp itself is left to the caller.
func publish(tmp, to string) error {
	err := os.Link(tmp, to)
	if errors.Is(err, fs.ErrExist) {
		return fileExists(to)
	}
	if err != nil {
		// No hard links here (some network and FUSE file systems).
		if _, lerr := os.Lstat(to); lerr == nil {
			return fileExists(to)
		}
		if err := os.Rename(tmp, to); err != nil {
			return fmt.Errorf("destination: %w", err)
		}
	}
	if d, err := os.Open(filepath.Dir(to)); err == nil {
		d.Sync()
		d.Close()
	}
	return nil
}

// removeSQLite removes the SQLite file at path with its WAL, shared
// memory and journal files.
func removeSQLite(path string) {
	for _, suffix := range []string{"", "-wal", "-shm", "-journal"} {
		os.Remove(path + suffix)
	}
}

// copyPostgres is Copy to a PostgreSQL database.
func copyPostgres(ctx context.Context, src ledger.Store, to string, progress func(ledger.CopyStage, int64, int64)) (*ledger.CopyReport, error) {
	lock, err := pgstore.LockCopy(ctx, to)
	if err != nil {
		return nil, err
	}
	defer lock.Release()
	dst, err := pgstore.Open(ctx, to, pgstore.Options{Create: true})
	if err != nil {
		return nil, err
	}
	rep, err := ledger.Copy(ctx, src, dst, progress)
	if errors.Is(err, ledger.ErrUnfinished) {
		// Rows with no identity rows: what a copy that did not complete
		// left, or a ledger whose identity rows were deleted. Nothing
		// tells the two apart, so they are never dropped here: the
		// caller says how to remove them.
		dst.Close()
		return nil, err
	}
	if err != nil && !errors.Is(err, ledger.ErrHoldsLedger) {
		// Whatever Copy wrote (never the identity rows): dropped, with
		// the schema, even if ctx was canceled (an interrupted copy).
		if derr := dst.Discard(context.WithoutCancel(ctx)); derr != nil {
			err = fmt.Errorf("%w; removing what the copy wrote failed too: %v", err, derr)
		}
	}
	if cerr := dst.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("destination: %w", cerr)
	}
	return rep, err
}
