package sqlitestore

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/mattn/go-sqlite3"
	"github.com/sealedhq/sealed/ledger"
	"golang.org/x/mod/sumdb/tlog"
)

// Options configure Open.
type Options struct {
	// ReadOnly opens the file for reading only: every write returns an
	// error wrapping ledger.ErrReadOnly, and nothing is written to the
	// file or its directory.
	ReadOnly bool
	// Create makes a new file, refusing an existing one; Store.Create
	// then writes the ledger into it.
	Create bool
}

// Store is a ledger.Store in one SQLite file.
type Store struct {
	path    string
	w       *sql.DB // the single writer connection; nil if read-only
	r       *sql.DB // read-only pool
	inserts insertCache

	encOnce sync.Once // the database encoding, read once (utf8)
	encUTF8 bool
	encErr  error
	// hasPlayers and hasTail say, read once, whether the file has the
	// players table (PlayerRows) and players_tail (a file opened read-only
	// may predate them).
	hasPlayers, hasTail tablePresence
	hasSeeds            tablePresence // seed_commits (migration 7)
	// writeMu is held through each Write, from BEGIN to the update of
	// tail and keys after COMMIT: the writer connection serialises the
	// transactions, but not those updates, which follow the COMMIT.
	writeMu sync.Mutex
	// tail is the writer's copy of players_tail.
	tail playersTail
	// keys is the writer's copy of lookup_tail (migration 8); hasLookup
	// whether the file has lookup and lookup_tail (a file opened
	// read-only may predate them).
	keys      lookupTail
	hasLookup tablePresence

	// scratch is the writer's working memory, reused from transaction to
	// transaction (under writeMu).
	scratch writeScratch

	walRestart atomic.Bool   // set by the WAL checkpointer: Write restarts the WAL first
	walBusy    sync.Mutex    // held through each WAL checkpoint (restartWAL)
	walStop    chan struct{} // closed by Close to stop the WAL checkpointer
	walDone    chan struct{}
}

// Open opens the SQLite ledger file at path. Errors: no file (wrapping
// fs.ErrNotExist), an existing file with opts.Create, a file that cannot
// be created (a *fs.PathError, "cannot create PATH: permission denied"),
// a file SQLite cannot open, a schema newer than this code (wrapping
// ledger.ErrSchemaTooNew).
// A file that is not a sealed ledger is reported by Meta, wrapping
// ledger.ErrNotLedger.
func Open(path string, opts Options) (*Store, error) {
	if opts.Create {
		// The file is made here, so that a directory this process may not
		// write is named as such (SQLite says "unable to open database
		// file"), and never over one that exists.
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o644)
		if errors.Is(err, fs.ErrExist) {
			return nil, fmt.Errorf("%s already exists: refusing to overwrite it", path)
		}
		var pe *fs.PathError
		if errors.As(err, &pe) {
			return nil, &fs.PathError{Op: "cannot create", Path: path, Err: pe.Err}
		}
		if err != nil {
			return nil, err
		}
		if err := f.Close(); err != nil {
			return nil, err
		}
	} else if st, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("ledger %s: %w", path, err)
	} else if st.IsDir() {
		return nil, fmt.Errorf("ledger %s is a directory: %w", path, ledger.ErrNotLedger)
	}
	s := &Store{path: path}
	fail := func(err error) (*Store, error) {
		if s.w != nil {
			s.w.Close()
		}
		if s.r != nil {
			s.r.Close()
		}
		return nil, classified(path, err)
	}
	var err error
	if !opts.ReadOnly && !opts.Create {
		// Opening for writing migrates the schema (and sets WAL mode):
		// only in a file a ledger was made in, never in another program's
		// database or an empty file.
		if err := madeByLedger(path); err != nil {
			return nil, err
		}
	}
	if !opts.ReadOnly {
		mode := "rw"
		if opts.Create {
			mode = "rwc"
		}
		if s.w, err = openWriter(path, mode); err != nil {
			return fail(notLedger(err))
		}
		if err := migrate(s.w); err != nil {
			return fail(notLedger(err))
		}
		// A writer prepares statements on the tables: altered ones are
		// the audit's finding, refused here before anything is written.
		if table, what, err := schemaCheck(context.Background(), s.w, true, true); err != nil {
			return fail(err)
		} else if table != "" {
			return fail(fmt.Errorf("%s: %s: %w", table, what, ledger.ErrTampered))
		}
		if err := s.inserts.prepare(s.w); err != nil {
			return fail(fmt.Errorf("preparing statements: %w", err))
		}
	}
	if s.r, err = openReaders(path, false); err != nil {
		return fail(err)
	}
	if opts.ReadOnly {
		// A WAL database needs its -shm file; in a directory this process
		// cannot write, that file cannot be made, so read the file as
		// immutable instead (it is a read-only copy: nobody writes it).
		if err := s.r.Ping(); err != nil || probe(s.r) != nil {
			s.r.Close()
			s.r = nil
			// The immutable flag reads the file alone: commits a WAL
			// holds (a writer killed, or one of another user running)
			// would be left out without a word.
			if held, err := walCommits(path); err != nil {
				return fail(err)
			} else if held {
				return fail(walUnreadable(path))
			}
			if s.r, err = openReaders(path, true); err != nil {
				return fail(err)
			}
		}
	}
	if !opts.ReadOnly {
		plain, err := openWriterPlain(path)
		if err != nil {
			return fail(err)
		}
		s.walStop, s.walDone = make(chan struct{}), make(chan struct{})
		go walCheckpointer(path, plain, &s.walRestart, &s.walBusy, s.walStop, s.walDone)
	}
	return s, nil
}

// madeByLedger checks, on a read-only connection that writes nothing, that
// the file at path holds a sealed ledger's schema_version and log_meta
// tables (otherwise the error wraps ledger.ErrNotLedger) and is not cut
// short or padded (checkFileSize; the error wraps ledger.ErrTampered).
func madeByLedger(path string) error {
	d, err := dsn(path, "ro")
	if err != nil {
		return err
	}
	db, err := sql.Open("sqlite3", d)
	if err != nil {
		return err
	}
	defer db.Close()
	var n int
	if err := db.QueryRow(`SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN ('schema_version', 'log_meta')`).Scan(&n); err != nil {
		return notLedger(err)
	}
	if n != 2 {
		return fmt.Errorf("%w (no schema_version and log_meta tables)", ledger.ErrNotLedger)
	}
	// A file cut short or padded is the audit's finding: a writer refuses
	// it before writing (CheckIntegrity).
	if err := checkFileSize(context.Background(), path, db); err != nil {
		return err
	}
	return nil
}

// probe runs a read that needs the file's schema.
func probe(db *sql.DB) error {
	var n int
	return db.QueryRow(`SELECT count(*) FROM sqlite_master`).Scan(&n)
}

// notLedger wraps SQLite's "not a database" as ledger.ErrNotLedger, and
// its "database disk image is malformed" (a damaged page: a file cut
// short or altered below the rows) as ledger.ErrTampered.
func notLedger(err error) error {
	var se sqlite3.Error
	if errors.As(err, &se) {
		switch se.Code {
		case sqlite3.ErrNotADB:
			return fmt.Errorf("%w: %v", ledger.ErrNotLedger, err)
		case sqlite3.ErrCorrupt:
			return fmt.Errorf("the SQLite file is damaged (%v): %w", err, ledger.ErrTampered)
		}
	}
	return err
}

// Path is the database file.
func (s *Store) Path() string { return s.path }

// Close implements ledger.Store: it stops the WAL checkpointer and
// copies the WAL into the database file.
func (s *Store) Close() (err error) {
	defer s.classify(&err)
	if s.walStop != nil {
		close(s.walStop)
		<-s.walDone
		s.walStop = nil
	}
	// Readers first: the last connection to close checkpoints the WAL
	// into the database file and removes it.
	err = s.r.Close()
	if s.w != nil {
		if _, cerr := s.w.Exec(`PRAGMA wal_checkpoint(TRUNCATE)`); cerr != nil && err == nil {
			err = cerr
		}
		if cerr := s.w.Close(); err == nil {
			err = cerr
		}
	}
	return err
}

func (s *Store) readOnly(what string) error {
	if s.w == nil {
		return fmt.Errorf("%s: %w", what, ledger.ErrReadOnly)
	}
	return nil
}

// Meta implements ledger.Store.
func (s *Store) Meta(ctx context.Context) (_ *ledger.Meta, err error) {
	defer s.classify(&err)
	var exists int
	if err := s.r.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_master WHERE type='table' AND name IN ('log_meta', 'schema_version')`).Scan(&exists); err != nil {
		return nil, fmt.Errorf("%s: %w", s.path, notLedger(err))
	}
	if exists != 2 {
		return nil, fmt.Errorf("%s: %w (no log_meta or schema_version table)", s.path, ledger.ErrNotLedger)
	}
	m := &ledger.Meta{}
	if err := s.r.QueryRowContext(ctx, `SELECT coalesce(max(version), 0) FROM schema_version`).Scan(&m.Schema); err != nil {
		return nil, fmt.Errorf("%s: reading schema version: %w", s.path, err)
	}
	if m.Schema > SchemaVersion() && s.w != nil {
		// A reader goes on: the audit names the schema_version rows.
		return nil, fmt.Errorf("%s: database schema version %d is newer than this version of sealed understands (%d): %w", s.path, m.Schema, SchemaVersion(), ledger.ErrSchemaTooNew)
	}
	rows, err := s.r.QueryContext(ctx, `SELECT key, value FROM log_meta`)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", s.path, err)
	}
	defer rows.Close()
	var keys []string
	for rows.Next() {
		var k, v string
		if err := rows.Scan(&k, &v); err != nil {
			return nil, fmt.Errorf("%s: log_meta: %w", s.path, err)
		}
		keys = append(keys, k)
		switch k {
		case "origin":
			m.Origin = v
		case "verifier_key":
			m.VerifierKey = v
		}
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if m.Origin == "" || m.VerifierKey == "" {
		// A ledger whose identity rows were altered (some left): the
		// audit names it. None left beside rows: a copy that did not
		// complete (ledger.Copy writes them last), or a ledger whose
		// identity rows were all deleted; neither opens.
		var rowsLeft bool
		if err := s.r.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM checkpoints) OR EXISTS (SELECT 1 FROM entries)`).Scan(&rowsLeft); err != nil {
			rowsLeft = false // a schema without those tables is not a ledger
		}
		if len(keys) > 0 {
			return nil, ledger.MissingIdentity(keys)
		}
		if rowsLeft {
			return nil, ledger.NoIdentity(s.path)
		}
		return nil, fmt.Errorf("%s: %w (no origin or verifier key)", s.path, ledger.ErrNotLedger)
	}
	return m, nil
}

// Create implements ledger.Store.
func (s *Store) Create(ctx context.Context, m *ledger.Meta, first *ledger.StoredCheckpoint) (err error) {
	defer s.classify(&err)
	if err := s.readOnly("creating a ledger"); err != nil {
		return err
	}
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM log_meta`).Scan(&n); err != nil {
		return err
	}
	if n != 0 {
		return fmt.Errorf("%s already holds a ledger", s.path)
	}
	if first != nil {
		// A new ledger is made over no rows (a copy's that did not
		// complete would be another log's under this identity).
		var rows bool
		if err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM entries) OR EXISTS (SELECT 1 FROM hashes) OR EXISTS (SELECT 1 FROM checkpoints)
			OR EXISTS (SELECT 1 FROM cosignatures) OR EXISTS (SELECT 1 FROM replays) OR EXISTS (SELECT 1 FROM players)`).Scan(&rows); err != nil {
			return err
		}
		if rows {
			return fmt.Errorf("%s: %w", s.path, ledger.ErrUnfinished)
		}
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO log_meta(key, value) VALUES('origin', ?), ('verifier_key', ?)`, m.Origin, m.VerifierKey); err != nil {
		return err
	}
	if first != nil {
		if _, err := tx.ExecContext(ctx, `INSERT INTO checkpoints(size, root, note, created_at) VALUES(?, ?, ?, ?)`,
			first.Size, first.Root, first.Note, first.CreatedAt); err != nil {
			return err
		}
	}
	return tx.Commit()
}

// queryer is what *sql.DB and *sql.Tx share for reads.
type queryer interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// Size implements ledger.Store.
func (s *Store) Size(ctx context.Context) (_ int64, err error) {
	defer s.classify(&err)
	var n int64
	if err := s.r.QueryRowContext(ctx, `SELECT coalesce(max(idx)+1, 0) FROM entries`).Scan(&n); err != nil {
		return 0, fmt.Errorf("reading tree size: %w", err)
	}
	return n, nil
}

// ReadHashes implements ledger.Store.
func (s *Store) ReadHashes(ctx context.Context, indexes []int64) (_ []tlog.Hash, err error) {
	defer s.classify(&err)
	return readHashes(ctx, s.r, indexes)
}

// readHashes reads the stored hashes at indexes, in the order asked.
func readHashes(ctx context.Context, q queryer, indexes []int64) ([]tlog.Hash, error) {
	if len(indexes) == 0 {
		return nil, nil
	}
	rows, err := q.QueryContext(ctx, `SELECT id, hash FROM hashes WHERE id IN (`+placeholders(len(indexes))+`)`, int64Args(indexes)...)
	if err != nil {
		return nil, fmt.Errorf("reading stored hashes: %w", err)
	}
	defer rows.Close()
	got := make(map[int64]tlog.Hash, len(indexes))
	for rows.Next() {
		var id int64
		var h []byte
		if err := rows.Scan(&id, &h); err != nil {
			return nil, err
		}
		if len(h) != tlog.HashSize {
			return nil, fmt.Errorf("hashes: stored hash %d has %d bytes, want %d: %w", id, len(h), tlog.HashSize, ledger.ErrTampered)
		}
		got[id] = tlog.Hash(h)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	out := make([]tlog.Hash, len(indexes))
	for i, x := range indexes {
		h, ok := got[x]
		if !ok {
			return nil, fmt.Errorf("stored hash %d: %w", x, ledger.ErrNotFound)
		}
		out[i] = h
	}
	return out, nil
}

func placeholders(n int) string {
	return strings.TrimSuffix(strings.Repeat("?,", n), ",")
}

func int64Args(xs []int64) []any {
	args := make([]any, len(xs))
	for i, x := range xs {
		args[i] = x
	}
	return args
}

const entryColumns = `idx, kind, body, leaf_hash, integrated_at, posted_at, dedup, commitment, ref`

func (s *Store) queryEntries(ctx context.Context, q string, args ...any) ([]ledger.StoredEntry, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT `+entryColumns+` FROM entries `+q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []ledger.StoredEntry
	for rows.Next() {
		// Each column is read as whatever SQLite holds, then checked: a
		// value of the wrong type (a tampered row) is named, table, row
		// and column, as an error wrapping ledger.ErrTampered.
		var v [9]any
		if err := rows.Scan(&v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7], &v[8]); err != nil {
			return nil, fmt.Errorf("reading entries: %w", err)
		}
		e, err := entryOfRow(v)
		if err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, rows.Err()
}

// entryColumnNames name the columns of entryColumns, in order.
var entryColumnNames = [9]string{"idx", "kind", "body", "leaf_hash", "integrated_at", "posted_at", "dedup", "commitment", "ref"}

// entryOfRow converts one row of entryColumns, read as SQLite's own
// values, to a StoredEntry, refusing a value of the wrong type.
func entryOfRow(v [9]any) (ledger.StoredEntry, error) {
	e := ledger.StoredEntry{Ref: -1}
	idx, ok := v[0].(int64)
	if !ok {
		return e, fmt.Errorf("entries: a row's idx is %s, not an integer: %w", describe(v[0]), ledger.ErrTampered)
	}
	e.Index = idx
	bad := func(i int, want string) error {
		return fmt.Errorf("entries: the row at index %d holds %s in column %s; expected %s: %w", idx, describe(v[i]), entryColumnNames[i], want, ledger.ErrTampered)
	}
	text := func(i int) (string, bool) {
		switch x := v[i].(type) {
		case string:
			return x, true
		case []byte:
			return string(x), true
		}
		return "", false
	}
	blob := func(i int) ([]byte, bool) {
		switch x := v[i].(type) {
		case []byte:
			return x, true
		case string:
			return []byte(x), true
		}
		return nil, false
	}
	k, ok := text(1)
	if !ok {
		return e, bad(1, "text")
	}
	e.Kind = ledger.Kind(k)
	if e.Leaf, ok = blob(2); !ok {
		return e, bad(2, "a blob")
	}
	if e.LeafHash, ok = blob(3); !ok {
		return e, bad(3, "a blob")
	}
	if e.IntegratedAt, ok = v[4].(int64); !ok {
		return e, bad(4, "an integer (Unix nanoseconds)")
	}
	switch x := v[5].(type) {
	case nil:
	case int64:
		e.PostedAt, e.HasPostedAt = x, true
	default:
		return e, bad(5, "an integer (Unix nanoseconds) or NULL")
	}
	if e.Dedup, ok = blob(6); !ok {
		return e, bad(6, "a blob")
	}
	if v[7] != nil {
		if e.Commitment, ok = text(7); !ok {
			return e, bad(7, "text or NULL")
		}
	}
	switch x := v[8].(type) {
	case nil:
	case int64:
		e.Ref = x
	default:
		return e, bad(8, "an integer or NULL")
	}
	return e, nil
}

// describe says what a value read from SQLite is, for an error.
func describe(v any) string {
	switch x := v.(type) {
	case nil:
		return "NULL"
	case string:
		return fmt.Sprintf("the text %q", x)
	case []byte:
		return fmt.Sprintf("a blob of %d bytes", len(x))
	case float64:
		return fmt.Sprintf("the real number %v", x)
	}
	return fmt.Sprintf("%v", v)
}

// EntryRange implements ledger.Store.
func (s *Store) EntryRange(ctx context.Context, from, to int64) (_ []ledger.StoredEntry, err error) {
	defer s.classify(&err)
	return s.queryEntries(ctx, `WHERE idx >= ? AND idx < ? ORDER BY idx`, from, to)
}

// HashRange implements ledger.Store.
func (s *Store) HashRange(ctx context.Context, from, to int64) (_ []ledger.StoredHash, err error) {
	defer s.classify(&err)
	rows, err := s.r.QueryContext(ctx, `SELECT id, hash FROM hashes WHERE id >= ? AND id < ? ORDER BY id`, from, to)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []ledger.StoredHash
	for rows.Next() {
		var h ledger.StoredHash
		if err := rows.Scan(&h.ID, &h.Hash); err != nil {
			return nil, fmt.Errorf("reading stored hashes: %w", err)
		}
		out = append(out, h)
	}
	return out, rows.Err()
}

// EntriesByCommitment implements ledger.Store: lookup's key and the
// small lookup_tail (migration 8) in one statement (commitmentQuery);
// on a file opened read-only that predates them, the index
// entries_lookup (migration 5).
func (s *Store) EntriesByCommitment(ctx context.Context, commitment string) (_ []ledger.StoredEntry, err error) {
	defer s.classify(&err)
	q := commitmentQueryOld
	if ok, err := s.hasLookup.check(ctx, s, "lookup_tail"); err != nil {
		return nil, fmt.Errorf("reading lookup: %w", err)
	} else if ok {
		q = commitmentQuery
	}
	// Sorted here: the statement reads two tables (and, on an older
	// file, an ORDER BY idx made the index's seek several times slower).
	es, err := s.queryEntries(ctx, q, lookupKey(ledger.DuplicateProbe{Commitment: commitment}), commitment)
	slices.SortFunc(es, func(a, b ledger.StoredEntry) int { return cmp.Compare(a.Index, b.Index) })
	return es, err
}

// EntriesByRef implements ledger.Store (through the index entries_ref).
func (s *Store) EntriesByRef(ctx context.Context, index int64) (_ []ledger.StoredEntry, err error) {
	defer s.classify(&err)
	return s.queryEntries(ctx, `WHERE ref = ? ORDER BY idx`, index)
}

func (s *Store) queryCheckpoints(ctx context.Context, q string, args ...any) ([]ledger.StoredCheckpoint, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT id, size, root, note, created_at FROM checkpoints `+q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []ledger.StoredCheckpoint
	for rows.Next() {
		var c ledger.StoredCheckpoint
		if err := rows.Scan(&c.ID, &c.Size, &c.Root, &c.Note, &c.CreatedAt); err != nil {
			return nil, fmt.Errorf("reading checkpoints: %w", err)
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

// Checkpoints implements ledger.Store.
func (s *Store) Checkpoints(ctx context.Context, maxSize int64) (_ []ledger.StoredCheckpoint, err error) {
	defer s.classify(&err)
	return s.queryCheckpoints(ctx, `WHERE size <= ? ORDER BY size, id`, maxSize)
}

func (s *Store) oneCheckpoint(ctx context.Context, q string, args ...any) (*ledger.StoredCheckpoint, error) {
	cps, err := s.queryCheckpoints(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	if len(cps) == 0 {
		return nil, ledger.ErrNotFound
	}
	return &cps[0], nil
}

// LatestCheckpoint implements ledger.Store.
func (s *Store) LatestCheckpoint(ctx context.Context) (_ *ledger.StoredCheckpoint, err error) {
	defer s.classify(&err)
	return s.oneCheckpoint(ctx, `ORDER BY size DESC, id ASC LIMIT 1`)
}

// CheckpointAt implements ledger.Store.
func (s *Store) CheckpointAt(ctx context.Context, size int64) (_ *ledger.StoredCheckpoint, err error) {
	defer s.classify(&err)
	c, err := s.oneCheckpoint(ctx, `WHERE size = ? ORDER BY id LIMIT 1`, size)
	if err != nil {
		return nil, fmt.Errorf("size %d: %w", size, err)
	}
	return c, nil
}

// Replay implements ledger.Store.
func (s *Store) Replay(ctx context.Context, digest string) (_ []byte, err error) {
	defer s.classify(&err)
	var b []byte
	err = s.r.QueryRowContext(ctx, `SELECT bytes FROM replays WHERE sha256 = ?`, digest).Scan(&b)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ledger.ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	if b == nil {
		b = []byte{}
	}
	return b, nil
}

// PutCheckpoint implements ledger.Store.
func (s *Store) PutCheckpoint(ctx context.Context, cp *ledger.StoredCheckpoint) (err error) {
	defer s.classify(&err)
	if err := s.readOnly("storing a checkpoint"); err != nil {
		return err
	}
	// One statement, so the check and the insert hold the write lock
	// together.
	res, err := s.w.ExecContext(ctx, `INSERT INTO checkpoints(size, root, note, created_at) SELECT ?1, ?2, ?3, ?4
		WHERE NOT EXISTS (SELECT 1 FROM checkpoints WHERE size = ?1 AND note = ?3)`,
		cp.Size, cp.Root, cp.Note, cp.CreatedAt)
	if err != nil {
		return err
	}
	return s.storedOrPresent(ctx, "checkpoints", res, `SELECT 1 FROM checkpoints WHERE size = ? AND note = ?`, cp.Size, cp.Note)
}

// storedOrPresent checks an insert that may rightly store nothing (the
// row is already there): one row stored, or none and the row found by
// query. Neither is an error wrapping ledger.ErrTampered: a trigger the
// schema does not have dropped the insert.
func (s *Store) storedOrPresent(ctx context.Context, table string, res sql.Result, query string, args ...any) error {
	n, err := res.RowsAffected()
	if err != nil || n == 1 {
		return err
	}
	var one int
	switch err := s.w.QueryRowContext(ctx, query, args...).Scan(&one); {
	case errors.Is(err, sql.ErrNoRows):
		return ledger.CheckRowsStored(table, func() (int64, error) { return n, nil }, 1)
	case err != nil:
		return err
	}
	return nil
}

// PutReplay implements ledger.Store.
func (s *Store) PutReplay(ctx context.Context, digest string, replay []byte) (err error) {
	defer s.classify(&err)
	if err := s.readOnly("storing a replay"); err != nil {
		return err
	}
	if replay == nil {
		replay = []byte{}
	}
	res, err := s.w.ExecContext(ctx, `INSERT INTO replays(sha256, bytes) VALUES(?, ?) ON CONFLICT(sha256) DO NOTHING`, digest, replay)
	if err != nil {
		return err
	}
	return s.storedOrPresent(ctx, "replays", res, `SELECT 1 FROM replays WHERE sha256 = ?`, digest)
}

// Write implements ledger.Store: one BEGIN IMMEDIATE transaction on the
// writer connection (SQLite's write lock, across processes).
func (s *Store) Write(ctx context.Context, fn func(ledger.WriteTx) error) (err error) {
	defer s.classify(&err)
	if err := s.readOnly("writing entries"); err != nil {
		return err
	}
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	if s.walRestart.CompareAndSwap(true, false) {
		restartWAL(s.w, &s.walBusy)
	}
	// Statements the transactions needed twice are prepared on the
	// connection once this one has ended (deferred before its Rollback,
	// so run after it, still holding writeMu).
	defer s.inserts.promote(s.w)
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	t := s.scratch.tx(s, tx)
	defer s.scratch.keep(t)
	if err := fn(t); err != nil {
		s.tail.valid, s.keys.valid = false, false
		return err
	}
	folded, err := s.tail.fold(ctx, tx, len(t.stagedRows))
	keysFolded := false
	if err == nil && t.keysSynced {
		keysFolded, err = s.keys.fold(ctx, tx, len(t.stagedEntries))
	}
	if err == nil {
		err = tx.Commit()
	}
	switch {
	case err != nil || folded:
		s.tail.valid = false // read again by the next transaction
	case t.tailSynced:
		s.tail.added(t.stagedRows)
	}
	switch {
	case err != nil || keysFolded:
		s.keys.valid = false
	case t.keysSynced:
		s.keys.added(t.stagedEntries)
	}
	// A transaction that did not read the tail wrote no row to it; what
	// another process wrote shows in the bounds the next sync compares.
	return err
}

// writeTx is a ledger.WriteTx on a SQLite transaction.
type writeTx struct {
	s  *Store
	tx *sql.Tx
	// tailSynced: s.tail was checked against players_tail in this
	// transaction; staged and stagedRows are the rows InsertPlayers
	// added; absent, the skeletons Players found nowhere.
	tailSynced bool
	staged     map[string]ledger.StoredPlayer
	stagedRows []ledger.StoredPlayer
	absent     map[string]bool
	// keysSynced: s.keys was checked against lookup_tail in this
	// transaction; stagedEntries are the entries Insert added (their
	// lookup_tail rows with them).
	keysSynced    bool
	stagedEntries []ledger.StoredEntry
}

func (t *writeTx) Tail(ctx context.Context) (size, last int64, err error) {
	err = t.tx.Stmt(t.s.inserts.tail).QueryRowContext(ctx).Scan(&size, &last)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, math.MinInt64, nil
	}
	return size, last, err
}

func (t *writeTx) ReadHashes(ctx context.Context, indexes []int64) ([]tlog.Hash, error) {
	return readHashes(ctx, t.tx, indexes)
}

func (t *writeTx) Kinds(ctx context.Context, indexes []int64) (map[int64]ledger.Kind, error) {
	out := make(map[int64]ledger.Kind, len(indexes))
	err := t.entriesIn(ctx, indexes, func(i int64, k ledger.Kind, _ []byte) { out[i] = k })
	if err != nil {
		return nil, err
	}
	return out, nil
}

// entriesIn calls fn with the index, kind and duplicate key of each entry
// of indexes that exists, by primary key, up to insertChunk to a
// statement (kindsIn).
func (t *writeTx) entriesIn(ctx context.Context, indexes []int64, fn func(int64, ledger.Kind, []byte)) error {
	args := int64Args(indexes)
	for len(args) > 0 {
		st, filled, used, err := t.s.inserts.lookup(ctx, t.tx, kindsIn, args, 1)
		if err != nil {
			return err
		}
		rows, err := st.QueryContext(ctx, filled...)
		if err != nil {
			return err
		}
		for rows.Next() {
			var i int64
			var k string
			var d []byte
			if err := rows.Scan(&i, &k, &d); err != nil {
				rows.Close()
				return err
			}
			fn(i, ledger.Kind(k), d)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		args = args[used:]
	}
	return nil
}

// Duplicates implements ledger.WriteTx: each probe's keys in the
// writer's copy of lookup_tail (the newest entries) and in lookup
// (migration 8), one seek per probe, up to insertChunk probes to a
// statement (dupsUnion, lookupSizes); the entries found (a duplicate, or
// rarely another entry sharing the keys' 16 bytes) are read by index and
// their whole dedup column compared. The smallest index of each.
func (t *writeTx) Duplicates(ctx context.Context, probes []ledger.DuplicateProbe) (map[[32]byte]ledger.IndexKind, error) {
	if err := t.syncKeys(ctx); err != nil {
		return nil, err
	}
	out := map[[32]byte]ledger.IndexKind{}
	want := t.s.scratch.want
	clear(want)
	args := t.s.scratch.args[:0]
	keep := func(d [32]byte, ik ledger.IndexKind) {
		if prev, ok := out[d]; !ok || ik.Index < prev.Index {
			out[d] = ik
		}
	}
	var found []int64
	var buf [2 + 16 + 8]byte
	for _, p := range probes {
		if !want[p.Dedup] {
			want[p.Dedup] = true
			k, d := lookupKeys(p.Commitment, p.Dedup[:])
			args = append(args, k, d)
			found = t.s.keys.appendIndexes(found, appendEntryKey(buf[:0], p.Commitment, p.Dedup[:]))
		}
	}
	defer t.s.scratch.keepArgs(args)
	// The entries this transaction inserted (their key rows are not yet
	// in the copy of the tail, which follows commits).
	for _, e := range t.stagedEntries {
		if len(e.Dedup) == 32 && want[[32]byte(e.Dedup)] {
			keep([32]byte(e.Dedup), ledger.IndexKind{Index: e.Index, Kind: e.Kind})
		}
	}
	for len(args) > 0 {
		st, filled, used, err := t.s.inserts.lookup(ctx, t.tx, dupsUnion, args, 2)
		if err != nil {
			return nil, err
		}
		rows, err := st.QueryContext(ctx, filled...)
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			var i int64
			if err := rows.Scan(&i); err != nil {
				rows.Close()
				return nil, err
			}
			found = append(found, i)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
		args = args[used:]
	}
	err := t.entriesIn(ctx, found, func(i int64, k ledger.Kind, d []byte) {
		if len(d) == 32 && want[[32]byte(d)] {
			keep([32]byte(d), ledger.IndexKind{Index: i, Kind: k})
		}
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// syncKeys brings the writer's copy of lookup_tail up to date, once per
// transaction.
func (t *writeTx) syncKeys(ctx context.Context) error {
	if t.keysSynced {
		return nil
	}
	if err := t.s.keys.sync(ctx, t.tx, t.s.inserts.lookupBounds); err != nil {
		return err
	}
	t.keysSynced = true
	return nil
}

// Insert implements ledger.WriteTx: the entries rows, their lookup_tail
// rows (migration 8), the stored hashes and the seed_commits rows.
func (t *writeTx) Insert(ctx context.Context, entries []ledger.StoredEntry, hashes []ledger.StoredHash) error {
	// The copy of the tail decides the fold: it is read before the
	// tail grows.
	if err := t.syncKeys(ctx); err != nil {
		return err
	}
	ea := t.s.inserts.entryArgs[:0]
	var at any // the integration time, boxed once (a batch's entries share it)
	for i, e := range entries {
		if i == 0 || e.IntegratedAt != entries[i-1].IntegratedAt {
			at = e.IntegratedAt
		}
		var posted, commitment, ref any
		if e.HasPostedAt {
			posted = e.PostedAt
		}
		if e.Commitment != "" {
			commitment = e.Commitment
		}
		if e.Ref >= 0 {
			ref = e.Ref
		}
		ea = append(ea, e.Index, kindValue(e.Kind), e.Leaf, e.LeafHash, at, posted, e.Dedup, commitment, ref)
	}
	defer func() {
		clear(ea)
		t.s.inserts.entryArgs = ea[:0]
	}()
	if err := t.s.inserts.exec(ctx, t.tx, insertEntries, ea); err != nil {
		return conflict(err)
	}
	if err := t.insertKeys(ctx, entries); err != nil {
		// (entries is not empty: a statement ran.)
		if err := conflict(err); errors.Is(err, ledger.ErrConflict) {
			return fmt.Errorf("lookup_tail: a row is already stored at an index of entries %d..%d: %w", entries[0].Index, entries[len(entries)-1].Index, err)
		}
		return err
	}
	t.stagedEntries = append(t.stagedEntries, entries...)
	if err := t.insertHashes(ctx, hashes); err != nil {
		return conflict(err)
	}
	return t.insertSeedCommits(ctx, entries)
}

// kindValues are the kinds' names as statement arguments, boxed once
// (kindValue; a kind not listed is boxed at each use).
var kindValues = func() map[ledger.Kind]any {
	m := map[ledger.Kind]any{}
	for _, k := range []ledger.Kind{ledger.KindCommit, ledger.KindReveal, ledger.KindEdit, ledger.KindSeedCommit,
		ledger.KindSeedReveal, ledger.KindResult, ledger.KindContribution} {
		m[k] = string(k)
	}
	return m
}()

// kindValue is k's name as a statement argument: boxed once for the
// kinds the ledger knows.
func kindValue(k ledger.Kind) any {
	if v, ok := kindValues[k]; ok {
		return v
	}
	return string(k)
}

// writeScratch is the writer's working memory for one transaction, kept
// between transactions so that a batch allocates little.
type writeScratch struct {
	entries []ledger.StoredEntry
	rows    []ledger.StoredPlayer
	staged  map[string]ledger.StoredPlayer
	absent  map[string]bool
	want    map[[32]byte]bool
	asked   map[string]bool
	found   map[string]bool
	args    []any
}

// maxScratchKeys is the most keys a scratch map keeps its memory for.
const maxScratchKeys = 1024

// tx returns a writeTx on tx whose staged rows use the kept memory.
func (w *writeScratch) tx(s *Store, tx *sql.Tx) *writeTx {
	if w.staged == nil || len(w.staged) > maxScratchKeys || len(w.absent) > maxScratchKeys ||
		len(w.want) > maxScratchKeys || len(w.asked) > maxScratchKeys || len(w.found) > maxScratchKeys {
		w.staged, w.absent = map[string]ledger.StoredPlayer{}, map[string]bool{}
		w.want, w.asked, w.found = map[[32]byte]bool{}, map[string]bool{}, map[string]bool{}
	}
	clear(w.staged)
	clear(w.absent)
	return &writeTx{s: s, tx: tx, staged: w.staged, absent: w.absent,
		stagedEntries: w.entries[:0], stagedRows: w.rows[:0]}
}

// keepArgs takes back an argument buffer (its values dropped) for the
// next lookup.
func (w *writeScratch) keepArgs(args []any) {
	clear(args)
	w.args = args[:0]
}

// keep takes back the memory t used (its rows' byte slices dropped).
func (w *writeScratch) keep(t *writeTx) {
	clear(t.stagedEntries)
	clear(t.stagedRows)
	w.entries, w.rows = t.stagedEntries[:0], t.stagedRows[:0]
}

// insertKeys writes the lookup_tail rows of entries: computed from the
// entries rows just written, by one statement, when the indexes are
// consecutive (as Insert's contract has them), else row by row.
func (t *writeTx) insertKeys(ctx context.Context, entries []ledger.StoredEntry) error {
	if !entryRun(entries) {
		ka := t.s.inserts.keyArgs[:0]
		for _, e := range entries {
			k, d := lookupKeys(e.Commitment, e.Dedup)
			ka = append(ka, e.Index, k, d)
		}
		defer func() { clear(ka); t.s.inserts.keyArgs = ka[:0] }()
		return t.s.inserts.exec(ctx, t.tx, insertLookupTail, ka)
	}
	res, err := t.tx.StmtContext(ctx, t.s.inserts.keyRange).ExecContext(ctx, entries[0].Index, entries[len(entries)-1].Index)
	if err != nil {
		return err
	}
	return ledger.CheckRowsStored(insertLookupTail.name, res.RowsAffected, len(entries))
}

// insertHashes writes hashes: a run of consecutive ids of 32 bytes, as
// a batch's are, by one statement from one blob, else row by row.
func (t *writeTx) insertHashes(ctx context.Context, hashes []ledger.StoredHash) error {
	if len(hashes) == 0 {
		return nil
	}
	if !hashRun(hashes) {
		ha := t.s.inserts.hashArgs[:0]
		for _, h := range hashes {
			ha = append(ha, h.ID, h.Hash)
		}
		defer func() { clear(ha); t.s.inserts.hashArgs = ha[:0] }()
		return t.s.inserts.exec(ctx, t.tx, insertHashes, ha)
	}
	blob := t.s.inserts.hashBlob[:0]
	for _, h := range hashes {
		blob = append(blob, h.Hash...)
	}
	t.s.inserts.hashBlob = blob
	res, err := t.tx.StmtContext(ctx, t.s.inserts.hashRun).ExecContext(ctx, hashes[0].ID, len(hashes), blob)
	if err != nil {
		return err
	}
	return ledger.CheckRowsStored(insertHashes.name, res.RowsAffected, len(hashes))
}

// conflict wraps a primary key violation as ledger.ErrConflict.
func conflict(err error) error {
	var se sqlite3.Error
	if errors.As(err, &se) && se.Code == sqlite3.ErrConstraint {
		return fmt.Errorf("%w: %v", ledger.ErrConflict, err)
	}
	return err
}

// tailQuery reads the tree size and the newest entry's integration time
// (Unix ns); no row when the ledger is empty.
const tailQuery = `SELECT idx+1, integrated_at FROM entries ORDER BY idx DESC LIMIT 1`
