package pgstore

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/sealedhq/sealed/internal/pgurl"
	"github.com/sealedhq/sealed/ledger"
	"golang.org/x/mod/sumdb/tlog"
)

// Options configure [Open].
type Options struct {
	// ReadOnly opens the store for reading only: every connection has
	// default_transaction_read_only=on, nothing is written (no schema
	// migration either), and every write method returns an error
	// wrapping ledger.ErrReadOnly. A read-only store may be opened on a
	// streaming replica (hot standby).
	ReadOnly bool
	// Create puts the schema into a database that has none (it must hold
	// no other table), so that [Store.Create] can then write the ledger.
	// A database already holding a ledger opens as usual and
	// Store.Create refuses it.
	Create bool
}

// Store is a ledger.Store in a PostgreSQL database, reached through a
// pool of connections (github.com/jackc/pgx/v5/pgxpool). Its methods are
// safe for concurrent use, by several processes too (see the package
// doc).
type Store struct {
	name     string // the connection string with its password redacted
	password string // scrubbed from errors that might show it
	pool     *pgxpool.Pool
	readOnly bool
}

// Open connects to the PostgreSQL database named by conn, a connection
// URL (postgres://user:password@host:port/dbname?param=value, or
// postgresql://) or a keyword=value string as pgx accepts it. Unless
// opts.ReadOnly it brings the schema up to date (forward-only
// migrations, see [SchemaVersion]), putting it into an empty database
// only if opts.Create is set.
//
// Errors, none of which shows the password: a connection string that
// does not parse, a server that cannot be reached or refuses the login,
// opts.Create with opts.ReadOnly, opts.Create on a database that holds
// other tables and no ledger, a schema newer than this code (wrapping
// [ErrSchemaTooNew]). A database without the ledger's tables opens
// without opts.Create, and [Store.Meta] then reports it, wrapping
// ledger.ErrNotLedger.
func Open(ctx context.Context, conn string, opts Options) (*Store, error) {
	// pgx parses only a lowercase scheme as a URL: any other spelling
	// would go to its keyword=value parser, which sends the whole string,
	// password included, to the server as a parameter name.
	conn = pgurl.Normalize(conn)
	s := &Store{name: redact(conn), readOnly: opts.ReadOnly}
	if opts.Create && opts.ReadOnly {
		return nil, fmt.Errorf("postgres %s: a read-only store cannot create a ledger", s.name)
	}
	cfg, err := pgxpool.ParseConfig(conn)
	if err != nil {
		// pgconn's parse errors show the connection string redacted.
		return nil, fmt.Errorf("postgres %s: %w", s.name, err)
	}
	s.password = cfg.ConnConfig.Password
	if opts.ReadOnly {
		cfg.ConnConfig.RuntimeParams["default_transaction_read_only"] = "on"
	} else {
		// A writer whose host vanished mid-transaction holds the write
		// lock until the server notices; a write transaction is never
		// idle for long, so the server ends one idle for a minute.
		if _, ok := cfg.ConnConfig.RuntimeParams["idle_in_transaction_session_timeout"]; !ok {
			cfg.ConnConfig.RuntimeParams["idle_in_transaction_session_timeout"] = "60s"
		}
		// An append is acknowledged only once its COMMIT is durable:
		// synchronous_commit may be on (or remote_write, remote_apply,
		// local: all wait for the local WAL flush), never off.
		cfg.AfterConnect = func(ctx context.Context, c *pgx.Conn) error {
			_, err := c.Exec(ctx, `SELECT set_config('synchronous_commit', 'on', false) WHERE current_setting('synchronous_commit') = 'off'`)
			return err
		}
	}
	if s.pool, err = pgxpool.NewWithConfig(ctx, cfg); err != nil {
		return nil, s.fail(err)
	}
	if err := s.pool.Ping(ctx); err != nil {
		s.pool.Close()
		return nil, s.fail(err)
	}
	if opts.ReadOnly {
		v, err := schemaVersion(ctx, s.pool)
		if errors.Is(err, ledger.ErrTampered) {
			err = nil // Meta names it, for the audit
		} else if err == nil && v > SchemaVersion() {
			err = tooNew(v)
		}
		if err != nil {
			s.pool.Close()
			return nil, s.fail(err)
		}
		return s, nil
	}
	if err := migrate(ctx, s.pool, opts.Create); err != nil {
		s.pool.Close()
		return nil, s.fail(err)
	}
	return s, nil
}

// fail wraps err with the store's (redacted) name and removes the
// password from its message.
func (s *Store) fail(err error) error {
	return scrub(fmt.Errorf("postgres %s: %w", s.name, err), s.password)
}

// String is the connection string with its password redacted.
func (s *Store) String() string { return s.name }

// Close implements ledger.Store: it closes the connection pool, waiting
// for the connections in use to be released.
func (s *Store) Close() error {
	s.pool.Close()
	return nil
}

func (s *Store) refuseReadOnly(what string) error {
	if s.readOnly {
		return fmt.Errorf("%s: %w", what, ledger.ErrReadOnly)
	}
	return nil
}

// querier is what *pgxpool.Pool and pgx.Tx share for reads.
type querier interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// undefinedTable is SQLSTATE 42P01, a query naming a table that does
// not exist.
const undefinedTable = "42P01"

// notLedger wraps "relation does not exist" as ledger.ErrNotLedger.
func notLedger(err error) error {
	var pe *pgconn.PgError
	if errors.As(err, &pe) && pe.Code == undefinedTable {
		return fmt.Errorf("%w: %v", ledger.ErrNotLedger, err)
	}
	return err
}

// Meta implements ledger.Store. Errors: a database without the tables
// log_meta and schema_version, or with no log_meta row (wrapping
// ledger.ErrNotLedger; one with only one of the two holds another
// application's table of that name, and the error says so); log_meta
// rows without the origin or the verifier key (ledger.MissingIdentity),
// a schema_version or log_meta row holding NULL or a value of another
// type than the schema's (each wrapping ledger.ErrTampered and naming
// the table); a schema newer than this code (wrapping ErrSchemaTooNew).
func (s *Store) Meta(ctx context.Context) (_ *ledger.Meta, err error) {
	defer s.classify(&err)
	versions, meta, err := identityTables(ctx, s.pool)
	if err != nil {
		return nil, s.fail(err)
	}
	if !versions || !meta {
		return nil, s.fail(noSchema(versions, meta))
	}
	m := &ledger.Meta{}
	if m.Schema, err = schemaVersion(ctx, s.pool); errors.Is(err, ledger.ErrTampered) {
		return nil, err // names the table, for the audit
	} else if err != nil {
		return nil, s.fail(err)
	}
	if m.Schema > SchemaVersion() {
		return nil, s.fail(tooNew(m.Schema))
	}
	rows, err := s.pool.Query(ctx, `SELECT key, value FROM log_meta`)
	if err != nil {
		return nil, s.fail(notLedger(err))
	}
	defer rows.Close()
	var keys []string
	for rows.Next() {
		kv, err := rowValues(rows, 2)
		if err != nil {
			return nil, s.fail(fmt.Errorf("log_meta: %w", err))
		}
		k, ok := asText(kv[0])
		if !ok {
			return nil, fmt.Errorf("log_meta: a row's key is %s, not text: %w", describe(kv[0]), ledger.ErrTampered)
		}
		v, ok := asText(kv[1])
		if !ok {
			return nil, badValue("log_meta", fmt.Sprintf("the row of key %q", k), "value", kv[1], "text")
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
		return nil, s.fail(err)
	}
	if m.Origin == "" || m.VerifierKey == "" {
		// A ledger whose identity rows were altered (some left): the
		// audit names it. None left beside rows: a copy that did not
		// complete (ledger.Copy writes them last), or a ledger whose
		// identity rows were all deleted; neither opens.
		var rowsLeft bool
		if err := s.pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM checkpoints) OR EXISTS (SELECT 1 FROM entries)`).Scan(&rowsLeft); err != nil {
			rowsLeft = false // a schema without those tables is not a ledger
		}
		if len(keys) > 0 {
			return nil, ledger.MissingIdentity(keys)
		}
		if rowsLeft {
			return nil, ledger.NoIdentity("postgres " + s.name)
		}
		return nil, s.fail(fmt.Errorf("%w (no origin or verifier key)", ledger.ErrNotLedger))
	}
	return m, nil
}

// Create implements ledger.Store, under the write and checkpoint locks.
// Errors: a read-only store (ledger.ErrReadOnly), a database without the
// schema (opened without Options.Create; wrapping ledger.ErrNotLedger),
// a database that already holds a ledger.
func (s *Store) Create(ctx context.Context, m *ledger.Meta, first *ledger.StoredCheckpoint) (err error) {
	defer s.classify(&err)
	if err := s.refuseReadOnly("creating a ledger"); err != nil {
		return err
	}
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return s.fail(err)
	}
	defer tx.Rollback(ctx)
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1), pg_advisory_xact_lock($2)`, writeLockKey, checkpointLockKey); err != nil {
		return s.fail(fmt.Errorf("taking the write lock: %w", err))
	}
	if versions, meta, err := identityTables(ctx, tx); err != nil {
		return s.fail(err)
	} else if !versions || !meta {
		if versions || meta {
			return s.fail(noSchema(versions, meta))
		}
		return s.fail(fmt.Errorf("%w: the database has no ledger schema (open it with Options.Create to make one)", ledger.ErrNotLedger))
	}
	var n int
	if err := tx.QueryRow(ctx, `SELECT count(*) FROM log_meta`).Scan(&n); err != nil {
		return s.fail(err)
	}
	if n != 0 {
		return s.fail(errors.New("the database already holds a ledger"))
	}
	if first != nil {
		// A new ledger. A copy into this database writes its rows before
		// its identity (Create with first nil), in transactions of its
		// own, holding the copy lock throughout: under the write lock,
		// its rows or its lock are seen here, and the ledger is not made
		// over them (ledger.Create's census runs before this transaction,
		// so a copy may have begun since; trial 19).
		var copying bool
		if err := tx.QueryRow(ctx, `SELECT NOT pg_try_advisory_xact_lock($1)`, copyLockKey).Scan(&copying); err != nil {
			return s.fail(err)
		}
		if copying {
			return s.fail(errors.New("a ledger copy into this database is under way (another session holds its copy lock): a ledger is not made under it"))
		}
		var rows bool
		if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM entries) OR EXISTS (SELECT 1 FROM hashes) OR EXISTS (SELECT 1 FROM checkpoints)
			OR EXISTS (SELECT 1 FROM cosignatures) OR EXISTS (SELECT 1 FROM replays) OR EXISTS (SELECT 1 FROM players)`).Scan(&rows); err != nil {
			return s.fail(err)
		}
		if rows {
			return s.fail(ledger.ErrUnfinished)
		}
	}
	if _, err := tx.Exec(ctx, `INSERT INTO log_meta(key, value) VALUES('origin', $1), ('verifier_key', $2)`, m.Origin, m.VerifierKey); err != nil {
		return s.fail(err)
	}
	if first != nil {
		if err := insertCheckpoint(ctx, tx, first); err != nil {
			return s.fail(err)
		}
	}
	if err := tx.Commit(ctx); err != nil {
		return s.fail(err)
	}
	return nil
}

// Size implements ledger.Store.
func (s *Store) Size(ctx context.Context) (_ int64, err error) {
	defer s.classify(&err)
	var n int64
	if err := s.pool.QueryRow(ctx, `SELECT coalesce(max(idx)+1, 0) FROM entries`).Scan(&n); err != nil {
		return 0, fmt.Errorf("reading tree size: %w", notLedger(err))
	}
	return n, nil
}

// ReadHashes implements ledger.Store.
func (s *Store) ReadHashes(ctx context.Context, indexes []int64) (_ []tlog.Hash, err error) {
	defer s.classify(&err)
	return readHashes(ctx, s.pool, indexes)
}

// readHashes reads the stored hashes at indexes, in the order asked. A
// stored value that is not 32 bytes (NULL among them) is an error
// wrapping ledger.ErrTampered: the log wrote every one.
func readHashes(ctx context.Context, q querier, indexes []int64) ([]tlog.Hash, error) {
	if len(indexes) == 0 {
		return nil, nil
	}
	rows, err := q.Query(ctx, `SELECT id, hash FROM hashes WHERE id = ANY($1)`, indexes)
	if err != nil {
		return nil, fmt.Errorf("reading stored hashes: %w", err)
	}
	defer rows.Close()
	got := make(map[int64]tlog.Hash, len(indexes))
	for rows.Next() {
		h, err := hashOfRow(rows)
		if err != nil {
			return nil, err
		}
		if len(h.Hash) != tlog.HashSize {
			return nil, fmt.Errorf("hashes: stored hash %d has %d bytes, want %d: %w", h.ID, len(h.Hash), tlog.HashSize, ledger.ErrTampered)
		}
		got[h.ID] = tlog.Hash(h.Hash)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("reading stored hashes: %w", err)
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

// hashOfRow reads a row of id, hash (rowValues): a NULL or a value of
// another type is an error wrapping ledger.ErrTampered.
func hashOfRow(rows pgx.Rows) (ledger.StoredHash, error) {
	v, err := rowValues(rows, 2)
	if err != nil {
		return ledger.StoredHash{}, fmt.Errorf("reading stored hashes: %w", err)
	}
	id, ok := asInt64(v[0])
	if !ok {
		return ledger.StoredHash{}, fmt.Errorf("hashes: a row's id is %s, not an integer: %w", describe(v[0]), ledger.ErrTampered)
	}
	h, ok := asBytes(v[1])
	if !ok {
		return ledger.StoredHash{}, badValue("hashes", fmt.Sprintf("the row of id %d", id), "hash", v[1], "bytes (bytea)")
	}
	return ledger.StoredHash{ID: id, Hash: h}, nil
}

const entryColumns = `idx, kind, body, leaf_hash, integrated_at, posted_at, dedup, commitment, ref`

// queryEntries reads entries: SELECT entryColumns FROM entries where.
// Each row is read as the values its columns hold and checked
// (entryOfRow).
func (s *Store) queryEntries(ctx context.Context, where string, args ...any) ([]ledger.StoredEntry, error) {
	rows, err := s.pool.Query(ctx, `SELECT `+entryColumns+` FROM entries `+where, args...)
	if err != nil {
		return nil, fmt.Errorf("reading entries: %w", err)
	}
	defer rows.Close()
	var out []ledger.StoredEntry
	for rows.Next() {
		v, err := rowValues(rows, len(entryColumnNames))
		if err != nil {
			return nil, fmt.Errorf("reading entries: %w", err)
		}
		e, err := entryOfRow(v)
		if err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("reading entries: %w", err)
	}
	return out, nil
}

// entryOfRow converts one row of entryColumns, read as its values, to a
// StoredEntry: a NULL where the schema has NOT NULL, or a value of
// another type than the schema's, is an error wrapping
// ledger.ErrTampered naming the row and the column.
func entryOfRow(v []any) (ledger.StoredEntry, error) {
	e := ledger.StoredEntry{Ref: -1}
	idx, ok := asInt64(v[0])
	if !ok {
		return e, fmt.Errorf("entries: a row's idx is %s, not an integer: %w", describe(v[0]), ledger.ErrTampered)
	}
	e.Index = idx
	bad := func(i int, want string) error {
		return badValue("entries", fmt.Sprintf("the row at index %d", idx), entryColumnNames[i], v[i], want)
	}
	k, ok := asText(v[1])
	if !ok {
		return e, bad(1, "text")
	}
	e.Kind = ledger.Kind(k)
	if e.Leaf, ok = asBytes(v[2]); !ok {
		return e, bad(2, "bytes (bytea)")
	}
	if e.LeafHash, ok = asBytes(v[3]); !ok {
		return e, bad(3, "bytes (bytea)")
	}
	if e.IntegratedAt, ok = asInt64(v[4]); !ok {
		return e, bad(4, "an integer (Unix nanoseconds)")
	}
	if v[5] != nil {
		if e.PostedAt, ok = asInt64(v[5]); !ok {
			return e, bad(5, "an integer (Unix nanoseconds) or NULL")
		}
		e.HasPostedAt = true
	}
	if e.Dedup, ok = asBytes(v[6]); !ok {
		return e, bad(6, "bytes (bytea)")
	}
	if v[7] != nil {
		if e.Commitment, ok = asText(v[7]); !ok {
			return e, bad(7, "text or NULL")
		}
	}
	if v[8] != nil {
		if e.Ref, ok = asInt64(v[8]); !ok {
			return e, bad(8, "an integer or NULL")
		}
	}
	return e, nil
}

// EntryRange implements ledger.Store.
func (s *Store) EntryRange(ctx context.Context, from, to int64) (_ []ledger.StoredEntry, err error) {
	defer s.classify(&err)
	return s.queryEntries(ctx, `WHERE idx >= $1 AND idx < $2 ORDER BY idx`, from, to)
}

// HashRange implements ledger.Store.
func (s *Store) HashRange(ctx context.Context, from, to int64) (_ []ledger.StoredHash, err error) {
	defer s.classify(&err)
	rows, err := s.pool.Query(ctx, `SELECT id, hash FROM hashes WHERE id >= $1 AND id < $2 ORDER BY id`, from, to)
	if err != nil {
		return nil, fmt.Errorf("reading stored hashes: %w", err)
	}
	defer rows.Close()
	var out []ledger.StoredHash
	for rows.Next() {
		h, err := hashOfRow(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, h)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("reading stored hashes: %w", err)
	}
	return out, nil
}

// EntriesByCommitment implements ledger.Store (through the index
// entries_commitment).
func (s *Store) EntriesByCommitment(ctx context.Context, commitment string) (_ []ledger.StoredEntry, err error) {
	defer s.classify(&err)
	return s.queryEntries(ctx, `WHERE commitment = $1 ORDER BY idx`, commitment)
}

// EntriesByRef implements ledger.Store (through the index entries_ref).
func (s *Store) EntriesByRef(ctx context.Context, index int64) (_ []ledger.StoredEntry, err error) {
	defer s.classify(&err)
	return s.queryEntries(ctx, `WHERE ref = $1 ORDER BY idx`, index)
}

// queryCheckpoints reads checkpoints: SELECT ... FROM checkpoints where.
func (s *Store) queryCheckpoints(ctx context.Context, where string, args ...any) ([]ledger.StoredCheckpoint, error) {
	rows, err := s.pool.Query(ctx, `SELECT id, size, root, note, created_at FROM checkpoints `+where, args...)
	if err != nil {
		return nil, fmt.Errorf("reading checkpoints: %w", err)
	}
	defer rows.Close()
	var out []ledger.StoredCheckpoint
	for rows.Next() {
		v, err := rowValues(rows, 5)
		if err != nil {
			return nil, fmt.Errorf("reading checkpoints: %w", err)
		}
		c, err := checkpointOfRow(v)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("reading checkpoints: %w", err)
	}
	return out, nil
}

// checkpointOfRow converts a row of id, size, root, note, created_at,
// read as its values: a NULL or a value of another type is an error
// wrapping ledger.ErrTampered naming the row and the column.
func checkpointOfRow(v []any) (ledger.StoredCheckpoint, error) {
	var c ledger.StoredCheckpoint
	id, ok := asInt64(v[0])
	if !ok {
		return c, fmt.Errorf("checkpoints: a row's id is %s, not an integer: %w", describe(v[0]), ledger.ErrTampered)
	}
	c.ID = id
	bad := func(i int, col, want string) error {
		return badValue("checkpoints", fmt.Sprintf("the row of id %d", id), col, v[i], want)
	}
	if c.Size, ok = asInt64(v[1]); !ok {
		return c, bad(1, "size", "an integer")
	}
	if c.Root, ok = asBytes(v[2]); !ok {
		return c, bad(2, "root", "bytes (bytea)")
	}
	if c.Note, ok = asBytes(v[3]); !ok {
		return c, bad(3, "note", "bytes (bytea)")
	}
	if c.CreatedAt, ok = asInt64(v[4]); !ok {
		return c, bad(4, "created_at", "an integer (Unix nanoseconds)")
	}
	return c, nil
}

// Checkpoints implements ledger.Store.
func (s *Store) Checkpoints(ctx context.Context, maxSize int64) (_ []ledger.StoredCheckpoint, err error) {
	defer s.classify(&err)
	return s.queryCheckpoints(ctx, `WHERE size <= $1 ORDER BY size, id`, maxSize)
}

func (s *Store) oneCheckpoint(ctx context.Context, where string, args ...any) (*ledger.StoredCheckpoint, error) {
	cps, err := s.queryCheckpoints(ctx, where, args...)
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
	c, err := s.oneCheckpoint(ctx, `WHERE size = $1 ORDER BY id LIMIT 1`, size)
	if err != nil {
		return nil, fmt.Errorf("checkpoint of size %d: %w", size, err)
	}
	return c, nil
}

// Replay implements ledger.Store. A row holding NULL or a value of
// another type than bytea is an error wrapping ledger.ErrTampered.
func (s *Store) Replay(ctx context.Context, digest string) (_ []byte, err error) {
	defer s.classify(&err)
	var v any
	err = s.pool.QueryRow(ctx, `SELECT bytes FROM replays WHERE sha256 = $1`, digest).Scan(&v)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, fmt.Errorf("replay %s: %w", digest, ledger.ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("reading replay %s: %w", digest, err)
	}
	b, ok := asBytes(v)
	if !ok {
		return nil, badValue("replays", fmt.Sprintf("the row of digest %q", digest), "bytes", v, "bytes (bytea)")
	}
	if b == nil {
		b = []byte{}
	}
	return b, nil
}

// PutCheckpoint implements ledger.Store: the ID is one more than the
// largest stored, assigned under a lock of its own (checkpointLockKey) so
// that IDs have no gaps even with several processes storing checkpoints.
func (s *Store) PutCheckpoint(ctx context.Context, cp *ledger.StoredCheckpoint) (err error) {
	defer s.classify(&err)
	if err := s.refuseReadOnly("storing a checkpoint"); err != nil {
		return err
	}
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx)
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, checkpointLockKey); err != nil {
		return fmt.Errorf("taking the checkpoint lock: %w", err)
	}
	// Under the lock: a note another writer stored is not stored again.
	var dup bool
	if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM checkpoints WHERE size = $1 AND note = $2)`, cp.Size, nonNil(cp.Note)).Scan(&dup); err != nil {
		return fmt.Errorf("storing a checkpoint: %w", err)
	}
	if dup {
		return nil
	}
	if err := insertCheckpoint(ctx, tx, cp); err != nil {
		return err
	}
	if err := tx.Commit(ctx); err != nil {
		return fmt.Errorf("storing a checkpoint: %w", err)
	}
	return nil
}

// insertCheckpoint stores cp with the next ID; the caller holds the
// checkpoint lock.
func insertCheckpoint(ctx context.Context, tx pgx.Tx, cp *ledger.StoredCheckpoint) error {
	tag, err := tx.Exec(ctx, `INSERT INTO checkpoints(id, size, root, note, created_at)
		SELECT coalesce(max(id), 0) + 1, $1, $2, $3, $4 FROM checkpoints`,
		cp.Size, nonNil(cp.Root), nonNil(cp.Note), cp.CreatedAt)
	if err != nil {
		return fmt.Errorf("storing a checkpoint: %w", err)
	}
	return ledger.CheckRowsStored("checkpoints", rowsOf(tag), 1)
}

// nonNil is b, or an empty slice for nil (which pgx would send as NULL).
func nonNil(b []byte) []byte {
	if b == nil {
		return []byte{}
	}
	return b
}

// PutReplay implements ledger.Store.
func (s *Store) PutReplay(ctx context.Context, digest string, replay []byte) (err error) {
	defer s.classify(&err)
	if err := s.refuseReadOnly("storing a replay"); err != nil {
		return err
	}
	tag, err := s.pool.Exec(ctx, `INSERT INTO replays(sha256, bytes) VALUES($1, $2) ON CONFLICT(sha256) DO NOTHING`, digest, nonNil(replay))
	if err != nil {
		return fmt.Errorf("storing replay %s: %w", digest, err)
	}
	if tag.RowsAffected() == 0 { // stored before, or dropped by a rule or trigger
		var one int
		err := s.pool.QueryRow(ctx, `SELECT 1 FROM replays WHERE sha256 = $1`, digest).Scan(&one)
		if errors.Is(err, pgx.ErrNoRows) {
			return ledger.CheckRowsStored("replays", rowsOf(tag), 1)
		}
		if err != nil {
			return fmt.Errorf("storing replay %s: %w", digest, err)
		}
	}
	return nil
}
