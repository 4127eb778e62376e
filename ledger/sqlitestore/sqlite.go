package sqlitestore

import (
	"database/sql"
	"fmt"
	"net/url"
	"path/filepath"
	"strings"
	"time"

	"github.com/mattn/go-sqlite3" // the SQLite driver (cgo)
)

// writerDriver is go-sqlite3 with automatic WAL checkpoints turned off on
// the writer connection: a checkpoint inside a commit would copy the WAL
// into the database and fsync it while appenders wait. The ledger's
// checkpointer goroutine runs them from its own connection instead.
const writerDriver = "sqlite3-sealed-writer"

func init() {
	sql.Register(writerDriver, &sqlite3.SQLiteDriver{
		ConnectHook: func(c *sqlite3.SQLiteConn) error {
			_, err := c.Exec(`PRAGMA wal_autocheckpoint = 0`, nil)
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

// openWriterPlain opens a read-write connection with the driver's
// default automatic checkpoints, for the WAL checkpointer.
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
	return db, nil
}

// walCheckpointer runs PASSIVE WAL checkpoints (they never block the
// writer) every walInterval until stop is closed, then closes db.
func walCheckpointer(db *sql.DB, stop <-chan struct{}, done chan<- struct{}) {
	defer close(done)
	defer db.Close()
	t := time.NewTicker(walInterval)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
			db.Exec(`PRAGMA wal_checkpoint(PASSIVE)`) // best effort: the next tick retries
		}
	}
}
