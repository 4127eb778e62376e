package sidebyside

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"path/filepath"
	"strings"
	"time"

	_ "github.com/mattn/go-sqlite3" // the "sqlite3" driver, as sealed's SQLite store uses
	"github.com/sealedhq/sealed/ledger/stores"
	"golang.org/x/mod/sumdb/tlog"
)

// Raw batching: a batch takes whatever is queued, up to rawMaxBatch
// entries (sealed's sequencer takes up to 4,096), and inserts them with
// multi-row INSERT statements of up to rawInsertRows rows.
const (
	rawMaxBatch   = 4096
	rawInsertRows = 64
)

// rawSystem is "the limit on this disk": the rows sealed writes for each
// entry (one entries row, its lookup_tail row, tlog.StoredHashCount's
// hashes rows), inserted with plain database/sql into a ledger schema
// made by sealed's SQLite store, with the group commit sealed's writers
// see and nothing else (no duplicate lookup, no fold, no checkpoint
// signing, no body parsing).
func rawSystem() system {
	return system{
		Name: "raw",
		Options: fmt.Sprintf("go-sqlite3 via database/sql on the schema stores.Init makes, WAL, synchronous=FULL, BEGIN IMMEDIATE, wal_autocheckpoint default; "+
			"writers submit to one goroutine that takes whatever is queued (up to %d), inserts the entry rows, their lookup_tail rows and the stored-hash rows (tlog.StoredHashes, multi-row INSERTs of up to %d rows) in one transaction, commits, then answers each writer",
			rawMaxBatch, rawInsertRows),
		open: func(ctx context.Context, dir string) (appendLog, error) {
			return openRaw(ctx, filepath.Join(dir, "raw.db"), filepath.Join(dir, "raw.key"), time.Now)
		},
	}
}

// rawLog is the raw writer: one goroutine owning the connection.
type rawLog struct {
	db     *sql.DB
	now    func() time.Time
	reqs   chan *rawReq
	done   chan struct{}
	stmts  map[string]*sql.Stmt // by "table/rows"
	hashes []tlog.Hash          // every stored hash, by stored index (for tlog.StoredHashes)
	size   int64
}

type rawReq struct {
	e     *Entry
	index int64
	err   error
	done  chan struct{}
}

// openRaw makes the ledger schema at path with sealed's SQLite store
// (stores.Init), then opens it with plain database/sql on the durable
// settings and starts the writer. now gives the integration times.
func openRaw(ctx context.Context, path, keyFile string, now func() time.Time) (*rawLog, error) {
	if _, err := stores.Init(ctx, path, sealedOrigin, keyFile); err != nil {
		return nil, err
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}
	q := url.Values{"_journal_mode": {"WAL"}, "_synchronous": {"FULL"}, "_txlock": {"immediate"}, "_busy_timeout": {"10000"}}
	db, err := sql.Open("sqlite3", u.String()+"?"+q.Encode())
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1)
	db.SetMaxIdleConns(1)
	var journal string
	var syncMode int
	if err := db.QueryRow(`PRAGMA journal_mode`).Scan(&journal); err != nil {
		db.Close()
		return nil, err
	}
	if err := db.QueryRow(`PRAGMA synchronous`).Scan(&syncMode); err != nil {
		db.Close()
		return nil, err
	}
	if !strings.EqualFold(journal, "wal") || syncMode != 2 {
		db.Close()
		return nil, fmt.Errorf("raw: got journal_mode=%s synchronous=%d, want wal and 2 (FULL)", journal, syncMode)
	}
	var size int64
	if err := db.QueryRow(`SELECT count(*) FROM entries`).Scan(&size); err != nil || size != 0 {
		db.Close()
		return nil, fmt.Errorf("raw: expected an empty ledger, got %d entries (%v)", size, err)
	}
	r := &rawLog{db: db, now: now, reqs: make(chan *rawReq, rawMaxBatch), done: make(chan struct{}), stmts: map[string]*sql.Stmt{}}
	if err := r.prepare(); err != nil {
		for _, st := range r.stmts {
			st.Close()
		}
		db.Close()
		return nil, err
	}
	go r.write()
	return r, nil
}

func (r *rawLog) Append(ctx context.Context, e *Entry) (int64, error) {
	q := &rawReq{e: e, done: make(chan struct{})}
	select {
	case r.reqs <- q:
	case <-ctx.Done():
		return -1, ctx.Err()
	}
	<-q.done
	return q.index, q.err
}

// write is the writer goroutine: take one request, then whatever else is
// queued, write them in one transaction, answer each.
func (r *rawLog) write() {
	defer close(r.done)
	batch := make([]*rawReq, 0, rawMaxBatch)
	for q := range r.reqs {
		batch = append(batch[:0], q)
	drain:
		for len(batch) < rawMaxBatch {
			select {
			case q, ok := <-r.reqs:
				if !ok {
					break drain
				}
				batch = append(batch, q)
			default:
				break drain
			}
		}
		err := r.writeBatch(batch)
		for i, q := range batch {
			q.index, q.err = r.size-int64(len(batch))+int64(i), err
			if err != nil {
				q.index = -1
			}
			close(q.done)
		}
	}
}

// ReadHashes serves tlog.StoredHashes from the hashes written so far.
func (r *rawLog) ReadHashes(indexes []int64) ([]tlog.Hash, error) {
	out := make([]tlog.Hash, len(indexes))
	for i, x := range indexes {
		if x < 0 || x >= int64(len(r.hashes)) {
			return nil, fmt.Errorf("raw: stored hash %d not written yet", x)
		}
		out[i] = r.hashes[x]
	}
	return out, nil
}

func (r *rawLog) writeBatch(batch []*rawReq) error {
	now := r.now()
	nowNS := now.UnixNano()
	savedSize, savedHashes := r.size, len(r.hashes)
	entryArgs := make([]any, 0, 9*len(batch))
	keyArgs := make([]any, 0, 3*len(batch))
	hashArgs := make([]any, 0, 2*2*len(batch))
	for _, q := range batch {
		leaf := q.e.Leaf(now)
		lh := tlog.RecordHash(leaf)
		hs, err := tlog.StoredHashesForRecordHash(r.size, lh, r)
		if err != nil {
			r.size, r.hashes = savedSize, r.hashes[:savedHashes]
			return err
		}
		for _, h := range hs {
			hashArgs = append(hashArgs, int64(len(r.hashes)), h[:])
			r.hashes = append(r.hashes, h)
		}
		dedup := q.e.Dedup()
		entryArgs = append(entryArgs, r.size, "commit", leaf, lh[:], nowNS, nil, dedup[:], q.e.Commitment, nil)
		keyArgs = append(keyArgs, r.size, q.e.Commitment[:16], dedup[:8])
		r.size++
	}
	err := r.commit(entryArgs, keyArgs, hashArgs)
	if err != nil {
		r.size, r.hashes = savedSize, r.hashes[:savedHashes]
	}
	return err
}

func (r *rawLog) commit(args ...[]any) error {
	tx, err := r.db.Begin()
	if err != nil {
		return err
	}
	for i, t := range rawTables {
		if err := r.insert(tx, t.table, t.cols, args[i]); err != nil {
			tx.Rollback()
			return err
		}
	}
	return tx.Commit()
}

// rawTables are the tables raw writes, in the order of commit's
// arguments: name with its columns, and the column count. A lookup_tail
// row holds the entry's lookup keys (sealed's SQLite schema, migration
// 8): the commitment's first 16 characters and the duplicate key's first
// 8 bytes.
var rawTables = []struct {
	table string
	cols  int
}{
	{"entries(idx, kind, body, leaf_hash, integrated_at, posted_at, dedup, commitment, ref)", 9},
	{"lookup_tail(idx, k, d)", 3},
	{"hashes(id, hash)", 2},
}

// prepare prepares the multi-row INSERT of 1..rawInsertRows rows of each
// table (before the writer starts: the one connection is the writer's).
func (r *rawLog) prepare() error {
	for _, t := range rawTables {
		row := "(" + strings.TrimSuffix(strings.Repeat("?,", t.cols), ",") + ")"
		for rows := 1; rows <= rawInsertRows; rows++ {
			st, err := r.db.Prepare("INSERT INTO " + t.table + " VALUES" + strings.TrimSuffix(strings.Repeat(row+",", rows), ","))
			if err != nil {
				return err
			}
			r.stmts[fmt.Sprintf("%s/%d", t.table, rows)] = st
		}
	}
	return nil
}

// insert writes args (cols values a row) into table in multi-row INSERTs
// of up to rawInsertRows rows.
func (r *rawLog) insert(tx *sql.Tx, table string, cols int, args []any) error {
	for len(args) > 0 {
		rows := min(len(args)/cols, rawInsertRows)
		if _, err := tx.Stmt(r.stmts[fmt.Sprintf("%s/%d", table, rows)]).Exec(args[:rows*cols]...); err != nil {
			return err
		}
		args = args[rows*cols:]
	}
	return nil
}

func (r *rawLog) Size(ctx context.Context) (int64, error) {
	var n int64
	err := r.db.QueryRowContext(ctx, `SELECT count(*) FROM entries`).Scan(&n)
	return n, err
}

// Close stops the writer (after the queued requests) and closes the
// database.
func (r *rawLog) Close() error {
	close(r.reqs)
	<-r.done
	var err error
	for _, st := range r.stmts {
		err = errors.Join(err, st.Close())
	}
	return errors.Join(err, r.db.Close())
}
