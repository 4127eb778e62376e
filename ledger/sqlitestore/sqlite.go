package sqlitestore

import (
	"database/sql"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mattn/go-sqlite3" // the SQLite driver (cgo)
)

// writerDriver is go-sqlite3 with automatic WAL checkpoints turned off on
// the writer connection: a checkpoint inside a commit would copy the WAL
// into the database and fsync it while appenders wait. The ledger's
// checkpointer goroutine runs them from its own connection instead. The
// writer's page cache is writerCacheKiB, so that the lookup index's pages
// stay in memory on a large ledger (SQLite's default is 2 MiB); its
// journal_size_limit truncates the WAL file to walFloor when it starts
// the WAL over (see walCheckpointer).
const writerDriver = "sqlite3-sealed-writer"

// writerCacheKiB is the writer connection's page cache, in KiB.
const writerCacheKiB = 32 << 10

func init() {
	sql.Register(writerDriver, &sqlite3.SQLiteDriver{
		ConnectHook: func(c *sqlite3.SQLiteConn) error {
			_, err := c.Exec(fmt.Sprintf(`PRAGMA wal_autocheckpoint = 0; PRAGMA cache_size = -%d; PRAGMA journal_size_limit = %d`, writerCacheKiB, walFloor), nil)
			return err
		},
	})
}

// busyTimeoutMS is how long a connection waits for another writer's lock.
const busyTimeoutMS = 10000

// dsn builds the go-sqlite3 data source name for path. Writers use WAL
// with synchronous=FULL set explicitly (go-sqlite3 would default a WAL
// database to NORMAL, which can lose the last transactions on power
// loss) and BEGIN IMMEDIATE transactions; readers open the file read-only.
func dsn(path string, mode string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}
	q := url.Values{}
	q.Set("mode", mode)
	q.Set("_busy_timeout", fmt.Sprint(busyTimeoutMS))
	if mode != "ro" {
		q.Set("_journal_mode", "WAL")
		q.Set("_synchronous", "FULL")
		q.Set("_txlock", "immediate")
	}
	return u.String() + "?" + q.Encode(), nil
}

// openWriter opens the single writer connection (mode "rw", or "rwc" to
// create) and checks the durability settings took effect.
func openWriter(path, mode string) (*sql.DB, error) {
	d, err := dsn(path, mode)
	if err != nil {
		return nil, err
	}
	db, err := sql.Open(writerDriver, d)
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1)
	db.SetMaxIdleConns(1)
	db.SetConnMaxLifetime(0)
	var journal string
	var sync int
	if err := db.QueryRow(`PRAGMA journal_mode`).Scan(&journal); err != nil {
		db.Close()
		return nil, fmt.Errorf("opening ledger %s: %w", path, err)
	}
	if err := db.QueryRow(`PRAGMA synchronous`).Scan(&sync); err != nil {
		db.Close()
		return nil, fmt.Errorf("opening ledger %s: %w", path, err)
	}
	if !strings.EqualFold(journal, "wal") || sync != 2 {
		db.Close()
		return nil, fmt.Errorf("opening ledger %s: got journal_mode=%s synchronous=%d, want wal and 2 (FULL)", path, journal, sync)
	}
	return db, nil
}

// openReaders opens the read-only connection pool. immutable opens the
// file with SQLite's immutable flag: no locks and no -shm file, for a
// ledger in a directory this process cannot write (a read-only copy).
func openReaders(path string, immutable bool) (*sql.DB, error) {
	d, err := dsn(path, "ro")
	if err != nil {
		return nil, err
	}
	if immutable {
		d += "&immutable=1"
	}
	db, err := sql.Open("sqlite3", d)
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(8)
	db.SetMaxIdleConns(4)
	return db, nil
}

// walInterval is how often the WAL checkpointer copies the WAL into the
// database file.
const walInterval = 100 * time.Millisecond

// walFloor is the WAL size below which the checkpointer never blocks the
// writer; above it and above walShare of the database file's size, it
// runs a RESTART checkpoint (docs/ledger.md, "SQLite"). Each RESTART
// holds up one batch for a millisecond or more, so on a young ledger,
// where half the database is small, the floor sets how often: with a
// floor of 4 MiB, 12,000 appends at 1 and then at 8 writers (about 12 KB
// of WAL each) met 61 RESTARTs of 1.5 ms on average and 8 ms at most
// (2026-12-01, loaded machine), each holding up the batch after it:
// about one append in a hundred, the p99's share; 16 MiB makes them
// about 4 times rarer.
const (
	walFloor = 16 << 20
	walShare = 0.5
)

// openWriterPlain opens a read-write connection with the driver's
// default automatic checkpoints, for the WAL checkpointer. Its
// journal_size_limit truncates the WAL file back to walFloor when a
// checkpoint resets it (applied by whichever connection next writes; the
// writer's is the same).
func openWriterPlain(path string) (*sql.DB, error) {
	d, err := dsn(path, "rw")
	if err != nil {
		return nil, err
	}
	db, err := sql.Open("sqlite3", d)
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1)
	if _, err := db.Exec(fmt.Sprintf(`PRAGMA journal_size_limit = %d`, walFloor)); err != nil {
		db.Close()
		return nil, err
	}
	return db, nil
}

// walCheckpointer bounds the WAL until stop is closed, then closes db.
// Every walInterval it runs a PASSIVE checkpoint, which never blocks the
// writer. Under sustained appends a PASSIVE checkpoint never catches up
// with the writer, so SQLite never starts the WAL over and the file grows
// without end (to 2-3 times the database at 1M entries; a RESTART
// checkpoint from this connection waits for a moment with no writer,
// which a busy sequencer never leaves). So when the WAL is larger than
// walFloor and than walShare of the database, the checkpointer sets
// restart, and the writer runs a RESTART checkpoint itself before its
// next transaction ([Store.Write]): it copies what the PASSIVE
// checkpoints have not yet copied and the next transaction writes from
// the WAL's start (truncating the file to walFloor). The WAL therefore
// stays under about walShare of the database plus what the writer adds
// in one interval.
func walCheckpointer(path string, db *sql.DB, restart *atomic.Bool, busy *sync.Mutex, stop <-chan struct{}, done chan<- struct{}) {
	defer close(done)
	defer db.Close()
	t := time.NewTicker(walInterval)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
			busy.Lock()
			db.Exec(`PRAGMA wal_checkpoint(PASSIVE)`) // best effort: the next tick retries
			busy.Unlock()
			if walTooLarge(path) {
				restart.Store(true)
			}
		}
	}
}

// restartWAL runs a RESTART checkpoint on the writer connection w, between
// two transactions, holding busy, which the checkpointer holds through
// each PASSIVE checkpoint: a RESTART that met one under way would wait in
// SQLite's busy handler, which sleeps in steps of milliseconds (the
// batch's appenders with it), where busy wakes it the moment the PASSIVE
// one ends. It waits at most walRestartWait for readers on older
// snapshots (then gives up until the next request: a long audit must not
// stall appends).
func restartWAL(w *sql.DB, busy *sync.Mutex) {
	busy.Lock()
	defer busy.Unlock()
	w.Exec(fmt.Sprintf(`PRAGMA busy_timeout = %d`, walRestartWait.Milliseconds()))
	w.Exec(`PRAGMA wal_checkpoint(RESTART)`)
	w.Exec(fmt.Sprintf(`PRAGMA busy_timeout = %d`, busyTimeoutMS))
}

// walRestartWait bounds the writer's wait for readers in restartWAL.
const walRestartWait = 50 * time.Millisecond

// walTooLarge reports whether path's WAL file is over walFloor and over
// walShare of the database file.
func walTooLarge(path string) bool {
	wal, err := os.Stat(path + "-wal")
	if err != nil || wal.Size() <= walFloor {
		return false
	}
	main, err := os.Stat(path)
	return err == nil && float64(wal.Size()) > walShare*float64(main.Size())
}
