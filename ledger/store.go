package ledger

import (
	"context"
	"errors"
	"fmt"

	"golang.org/x/mod/sumdb/tlog"
)

// Store is where a log keeps what it writes: entries, the stored hashes of
// the Merkle tree, signed checkpoints, the log's identity and the replay
// store. The log logic (sequencing, duplicates, references, integration
// times, checkpoint signing, proofs, audit) lives in this package and is
// written once against Store; a Store only reads and writes rows. Every
// implementation passes the conformance suite in
// [github.com/sealedhq/sealed/ledger/storetest]. The stores are
// [github.com/sealedhq/sealed/ledger/sqlitestore] (the default, one file),
// [github.com/sealedhq/sealed/ledger/pgstore] (PostgreSQL) and
// [github.com/sealedhq/sealed/ledger/memstore] (in memory, for tests).
//
// Methods are safe for concurrent use. Reads see committed data only.
// "Not found" results wrap [ErrNotFound]. A Store opened read-only returns
// an error wrapping [ErrReadOnly] from every write.
type Store interface {
	// Meta returns the log's identity and schema version. A database that
	// is not a sealed ledger returns an error wrapping ErrNotLedger.
	Meta(ctx context.Context) (*Meta, error)
	// Create makes an empty ledger: schema, the identity rows and the
	// first checkpoint (the empty tree's). It fails if the store already
	// holds a ledger, and, in the transaction that writes the identity,
	// if it holds rows (a copy's that did not complete: an error wrapping
	// ErrUnfinished) or a copy into it is under way. With first nil it
	// writes the identity rows alone,
	// over rows already stored: Copy writes them last, so that a store
	// holds no ledger (Meta: ErrNotLedger) until its copy is complete.
	Create(ctx context.Context, m *Meta, first *StoredCheckpoint) error

	// Size is the number of entries: one more than the largest index, or
	// 0 for an empty log.
	Size(ctx context.Context) (int64, error)
	// ReadHashes returns the stored hashes at the given
	// tlog.StoredHashIndex positions, in the order asked; a missing one is
	// an error wrapping ErrNotFound, a stored value that is not 32 bytes
	// (NULL among them) an error wrapping ErrTampered that starts with
	// "hashes: ".
	ReadHashes(ctx context.Context, indexes []int64) ([]tlog.Hash, error)
	// EntryRange returns the stored entries with from <= index < to, in
	// index order (missing rows are simply absent). to-from is at most
	// MaxEntries, or the caller's audit chunk size.
	EntryRange(ctx context.Context, from, to int64) ([]StoredEntry, error)
	// HashRange returns the stored hashes with from <= id < to, in id
	// order (missing rows are absent).
	HashRange(ctx context.Context, from, to int64) ([]StoredHash, error)
	// EntriesByCommitment returns the entries whose commitment column is
	// commitment (64 lowercase hex), in index order: commit entries only.
	EntriesByCommitment(ctx context.Context, commitment string) ([]StoredEntry, error)
	// EntriesByRef returns the entries whose ref column is index (the
	// reveals and edits of a commit, the seed-reveals of a seed-commit),
	// in index order.
	EntriesByRef(ctx context.Context, index int64) ([]StoredEntry, error)
	// Checkpoints returns the stored checkpoints with size <= maxSize in
	// (size, id) order.
	Checkpoints(ctx context.Context, maxSize int64) ([]StoredCheckpoint, error)
	// LatestCheckpoint returns the checkpoint of the largest size (the
	// first stored of that size); ErrNotFound if there is none.
	LatestCheckpoint(ctx context.Context) (*StoredCheckpoint, error)
	// CheckpointAt returns the first stored checkpoint of the given size;
	// ErrNotFound if there is none.
	CheckpointAt(ctx context.Context, size int64) (*StoredCheckpoint, error)
	// Replay returns the replay bytes stored under digest (64 lowercase
	// hex), unchecked; ErrNotFound if there are none.
	Replay(ctx context.Context, digest string) ([]byte, error)

	// Write runs fn in one transaction that holds the log's write lock:
	// no other writer, in this process or any other, on this host or any
	// other, appends until it ends. The transaction commits durably if fn
	// returns nil and Write returns nil only after that commit; otherwise
	// nothing fn wrote is kept.
	Write(ctx context.Context, fn func(WriteTx) error) error
	// PutCheckpoint stores a signed checkpoint (its ID is assigned by the
	// store, in storing order). Storing a note already stored at that size
	// is a no-op: two writers (processes) that sign the same tree in the
	// same second sign the same note (Ed25519 is deterministic), and the
	// audit refuses a note stored twice.
	PutCheckpoint(ctx context.Context, cp *StoredCheckpoint) error
	// PutReplay stores replay bytes under their digest (64 lowercase hex
	// SHA-256, computed by the caller); storing an existing digest again
	// is a no-op.
	PutReplay(ctx context.Context, digest string, replay []byte) error

	// PutCosignature stores a witness's cosignature of the stored
	// checkpoint c.CheckpointID (c.Size is that checkpoint's size). Storing
	// a second cosignature by the same witness name on the same checkpoint
	// is a no-op. The caller has verified it (package
	// [github.com/sealedhq/sealed/ledger/witness]).
	PutCosignature(ctx context.Context, c *StoredCosignature) error
	// Cosignatures returns the stored cosignatures of checkpoint id
	// (0: of every checkpoint) whose checkpoint size is >= minSize,
	// earliest cosignature time first, then by checkpoint id and witness
	// name; at most limit (limit <= 0: all).
	Cosignatures(ctx context.Context, id, minSize int64, limit int) ([]StoredCosignature, error)

	// PlayerBySkeleton returns the players row of skeleton (a
	// [Skeleton]); an error wrapping ErrNotFound if there is none. It is
	// one indexed lookup (the table's key), O(log n).
	PlayerBySkeleton(ctx context.Context, skeleton string) (*StoredPlayer, error)
	// SeedCommits returns the indexes of the seed-commit entries whose
	// seed_commits row holds commitment (64 lowercase hex characters), in
	// index order: one indexed lookup, O(log n) (docs/ledger.md
	// "Duplicates"). The rows are an index of the leaves, held to them by
	// the audit; a caller reads and checks the entries they name. A store
	// opened read-only whose schema predates the table
	// (Census.SeedCommitsTable false) returns an error wrapping
	// errors.ErrUnsupported.
	SeedCommits(ctx context.Context, commitment string) ([]int64, error)
	// SeedCommitsOfMatch returns the indexes of the seed-commit entries
	// whose seed_commits row names game and matchID (compared byte for
	// byte), in index order: one indexed lookup, O(log n), as
	// SeedCommits (and errors.ErrUnsupported likewise).
	SeedCommitsOfMatch(ctx context.Context, game, matchID string) ([]int64, error)
	// EachSeedCommit calls fn with every seed_commits row, in (commitment,
	// index) order (commitments compared byte for byte), stopping at fn's first error; for nothing if the store
	// has no such table (Census.SeedCommitsTable false).
	EachSeedCommit(ctx context.Context, fn func(StoredSeedCommit) error) error

	// EachPlayer calls fn with every players row, in skeleton order,
	// stopping at fn's first error. A row holding a value of the wrong
	// type is an error wrapping ErrTampered that names the table, the row
	// and the column. A store opened read-only whose schema predates the
	// table (Census.PlayersTable false) calls fn for nothing.
	EachPlayer(ctx context.Context, fn func(StoredPlayer) error) error

	// Census counts every row the store holds, whatever its index, and
	// lists the identity rows, for the audit: a row outside the log's
	// range, an unknown log_meta key or a missing schema version is a
	// finding there.
	Census(ctx context.Context) (*Census, error)
	// EachReplay calls fn with every stored replay, in digest order,
	// stopping at fn's first error.
	EachReplay(ctx context.Context, fn func(digest string, data []byte) error) error

	// Close releases the store.
	Close() error
}

// StoredCosignature is a witness's cosignature of a stored checkpoint
// (C2SP tlog-cosignature, cosignature/v1 Ed25519).
type StoredCosignature struct {
	CheckpointID int64  // the StoredCheckpoint.ID cosigned
	Size         int64  // that checkpoint's tree size
	Witness      string // the witness's key name (the signature line's name)
	Line         []byte // the whole note signature line, "— name base64\n"
	Time         int64  // the cosignature's timestamp, Unix seconds
}

// Census is what a store holds, row by row, whatever the log's size:
// see [Store.Census].
type Census struct {
	Entries      RowRange // by index
	Hashes       RowRange // by stored hash id
	Checkpoints  RowRange // by id
	Cosignatures int64    // rows
	Replays      int64    // rows
	Players      int64    // rows
	SeedCommits  int64    // rows
	// SeedCommitsTable is false for a database opened read-only whose
	// schema predates the seed_commits table (its writer adds and fills
	// it).
	SeedCommitsTable bool
	// PlayersTable is false for a database opened read-only whose schema
	// predates the players table (its writer adds and fills it); a
	// database whose schema version says it has one and has none is an
	// error wrapping ErrTampered.
	PlayersTable bool
	// MetaKeys are the keys of every log_meta row, sorted.
	MetaKeys []string
	// SchemaVersions are the versions of every schema_version row,
	// ascending; SchemaLatest is the newest version the store's code
	// knows (the rows must be 1..SchemaLatest).
	SchemaVersions []int
	SchemaLatest   int
}

// RowRange counts the rows of a table and their smallest and largest key
// (Min and Max are 0 when Rows is 0).
type RowRange struct {
	Rows, Min, Max int64
}

// WriteTx is the transaction [Store.Write] passes to its function: reads
// see what the transaction wrote. The slices given to its methods belong
// to the caller, which reuses them from one transaction to the next: a
// store copies what it keeps past the call (the byte slices inside the
// rows are not reused).
type WriteTx interface {
	// Tail returns the number of entries and the newest entry's
	// integration time (Unix ns); lastIntegrated is math.MinInt64 for an
	// empty log.
	Tail(ctx context.Context) (size, lastIntegrated int64, err error)
	// ReadHashes is Store.ReadHashes inside the transaction.
	ReadHashes(ctx context.Context, indexes []int64) ([]tlog.Hash, error)
	// Kinds returns the kinds of the entries at the given indexes (those
	// that exist).
	Kinds(ctx context.Context, indexes []int64) (map[int64]Kind, error)
	// Duplicates returns, for each probe whose Dedup an entry's dedup
	// column holds, that entry's index and kind (the first, if several),
	// keyed by Dedup. A store may find a commit's duplicates through
	// probe.Commitment (they share it) instead of indexing dedup.
	Duplicates(ctx context.Context, probes []DuplicateProbe) (map[[32]byte]IndexKind, error)
	// Insert adds entries (consecutive indexes) and stored hashes. A row
	// whose index or id is already present is an error wrapping
	// ErrConflict. A store checks that the database kept every row it
	// was given ([CheckRowsStored]): a trigger or rule that silently
	// drops an insert must fail the batch, never let it be acknowledged.
	Insert(ctx context.Context, entries []StoredEntry, hashes []StoredHash) error
	// Players returns the players rows stored under the given skeletons
	// (those present), by skeleton.
	Players(ctx context.Context, skeletons []string) (map[string]StoredPlayer, error)
	// InsertPlayers adds players rows. A skeleton already stored is an
	// error wrapping ErrConflict. The sequencer writes a row only for a
	// commit entry naming a player of a skeleton not seen before, so an
	// append of a known player's entry writes no players row.
	InsertPlayers(ctx context.Context, rows []StoredPlayer) error
	// SeedCommits returns, for each of commitments (64 lowercase hex
	// characters) that a seed-commit entry already stored holds, the
	// smallest such index, keyed by commitment. Insert writes the rows:
	// one per entry whose SeedCommit is set.
	SeedCommits(ctx context.Context, commitments []string) (map[string]int64, error)
}

// StoredSeedCommit is one row of a store's seed_commits table: the
// commitment (64 lowercase hex characters), game and match_id a
// seed-commit entry's leaf holds, and that entry's index.
type StoredSeedCommit struct {
	Commitment string
	Index      int64
	Game       string
	MatchID    string
}

// Meta is a log's identity as a store keeps it.
type Meta struct {
	Origin      string // the checkpoint origin line and the key name
	VerifierKey string // note.NewVerifier format
	// Schema is the store's schema version (set by the store on Meta).
	Schema int
}

// StoredEntry is one row of a store's entries: the leaf and the lookup
// columns copied from it (which the audit checks against the leaf).
type StoredEntry struct {
	Index        int64
	Kind         Kind
	Leaf         []byte // canonical JSON leaf (docs/ledger.md)
	LeafHash     []byte // as stored: 32 bytes unless tampered with
	IntegratedAt int64  // Unix ns
	PostedAt     int64  // Unix ns; meaningful only if HasPostedAt
	HasPostedAt  bool
	Dedup        []byte // the 32-byte duplicate key
	Commitment   string // commit entries: the commitment; else ""
	// SeedCommit is a seed-commit entry's seed_commits row (its leaf's
	// commitment, game and match_id: SeedCommitOf), else nil: Insert
	// writes it to that table, not to columns of entries, and EntryRange
	// leaves it nil.
	SeedCommit *StoredSeedCommit
	Ref        int64 // reveal, edit, seed-reveal: the index named; else -1
}

// StoredHash is one stored hash of the tree: ID is its
// tlog.StoredHashIndex; Hash is 32 bytes unless tampered with.
type StoredHash struct {
	ID   int64
	Hash []byte
}

// StoredCheckpoint is one stored signed checkpoint.
type StoredCheckpoint struct {
	ID        int64  // assigned by the store: 1, 2, ... in storing order
	Size      int64  // tree size
	Root      []byte // 32 bytes
	Note      []byte // the signed note
	CreatedAt int64  // Unix ns, the signer's clock
}

// DuplicateProbe is what [WriteTx.Duplicates] looks up for one new
// entry: its duplicate key (the dedup column, docs/ledger.md
// "Duplicates") and, for a commit, its commitment (64 lowercase hex
// characters, the commitment column; "" otherwise). Every duplicate of a
// commit is a commit with the same commitment, so a store can keep one
// small index for both lookups (the SQLite store does).
type DuplicateProbe struct {
	Dedup      [32]byte
	Commitment string
}

// IndexKind is an entry's index and kind.
type IndexKind struct {
	Index int64
	Kind  Kind
}

// ErrNotLedger is returned (wrapped) by Store.Meta for a database that
// holds no sealed ledger.
var ErrNotLedger = errors.New("not a sealed ledger")

// ErrSchemaTooNew is returned (wrapped) when opening a store whose schema
// was written by a newer version of sealed.
var ErrSchemaTooNew = errors.New("schema too new")

// ErrConflict is returned (wrapped) by WriteTx.Insert when a row at the
// same index or id is already stored.
var ErrConflict = errors.New("row already stored")

// ChunkReader is an optional fast path for [Ledger.Audit]: a store that
// can read a range of rows as a few aggregates implements it. The audit
// only ever accepts what a chunk read shows; anything that does not check
// out is read again with EntryRange and HashRange, which decide what is
// reported.
type ChunkReader interface {
	// EntryChunk reads entries [from, to) into c.
	EntryChunk(ctx context.Context, from, to int64, c *EntryChunk) error
	// HashChunk reads stored hashes [from, to): the row count, the
	// shortest hash's length and the hashes concatenated in id order,
	// appended to buf[:0].
	HashChunk(ctx context.Context, from, to int64, buf []byte) (count, shortest int64, blob []byte, err error)
}

// EntryChunk is a range of entries as aggregates: Count rows, Times of
// them with an integration time, MinLeafHash the shortest stored leaf
// hash; Bodies and LeafHashes concatenated in index order, Lengths the
// body lengths and Instants the integration times as comma-separated
// decimals; the duplicate keys likewise.
type EntryChunk struct {
	Count, Times, MinLeafHash             int64
	Bodies, LeafHashes, Lengths, Instants []byte
	// MinDedup is the shortest stored duplicate key; Dedups the keys
	// concatenated in index order.
	MinDedup int64
	Dedups   []byte
	// Leaves is set by a caller that checks the leaves and the ref
	// column only ([Ledger.VerifiedSizeEach]; Columns unset): the store
	// may then leave MinDedup, Dedups and the other lookup columns
	// empty, and reads the ref column into Refs (as with Columns) and
	// the storage class of its maximum into RefType ("integer" or "null"
	// when every ref is a number or NULL), and sets HasRefs.
	Leaves  bool
	RefType string
	HasRefs bool

	// Columns is set by the caller to ask for the lookup columns too; a
	// store that fills them sets HasColumns. KindRows and CommitmentRows
	// count the rows whose kind and commitment are not NULL; Types is the
	// storage classes (SQLite's typeof, or what the store's engine
	// reports alike) of min(kind), max(kind), max(posted_at), max(ref),
	// min(commitment) and max(commitment) over the range,
	// space-separated (in SQLite's order NULL < numbers < text < blob, so
	// "text text integer null text text" shows every kind and commitment
	// text and every posted_at and ref a number or NULL); Kinds,
	// PostedAts, Refs and Commitments are the columns comma-separated in
	// index order, a NULL as the empty string, integers in decimal.
	Columns, HasColumns      bool
	KindRows, CommitmentRows int64
	Types                    string
	Kinds, PostedAts, Refs   []byte
	Commitments              []byte
}

// SeedLeafReader is an optional fast path for [Ledger.CheckSeedCommits]:
// a store that selects inside the database the entries whose leaf holds
// SeedLeafNeedle sends only those (SQLite and PostgreSQL do), instead of
// every leaf.
type SeedLeafReader interface {
	// SeedLeafCandidates returns the entries with from <= index < to
	// whose leaf holds SeedLeafNeedle's bytes (every seed-commit's leaf
	// does; another leaf may, in a string), in index order.
	SeedLeafCandidates(ctx context.Context, from, to int64) ([]StoredEntry, error)
}

// SeedLeafNeedle is the member every seed-commit's canonical leaf holds
// (RFC 8785 writes it so): what CheckSeedCommits looks for in chunks of
// leaves before reading them row by row.
const SeedLeafNeedle = `"kind":"seed-commit"`

// ColumnChecker is an optional fast path for [Ledger.Audit]: a store that
// can compare its lookup columns with the leaves itself implements it.
type ColumnChecker interface {
	// CheckColumns returns the first index in [from, to) whose kind,
	// posted_at, ref or commitment column differs from the leaf's
	// top-level member, and what differs; -1 if none.
	CheckColumns(ctx context.Context, from, to int64) (int64, string, error)
}

// PlayerReader is an optional fast path for [Ledger.Audit]'s
// re-derivation of the players table: a store that can look up the rows
// of many skeletons at once implements it. As with ChunkReader, the audit
// only ever accepts what it shows; anything that does not check out
// sends the audit back to reading every row with EachPlayer, which
// decides what is reported.
type PlayerReader interface {
	// PlayerRows looks up the players row of each of skeletons (by the
	// table's key, compared byte for byte) into c, in the order given.
	// ok is false if the store has no players table.
	PlayerRows(ctx context.Context, skeletons []string, c *PlayerChunk) (ok bool, err error)
}

// PlayerChunk is the players rows of a list of skeletons as aggregates:
// Count skeletons looked up, Found of them with a row, Typed of those
// whose player is text and idx an integer; Indexes the idx of each row
// found as comma-separated decimals, Players the players concatenated
// (UTF-8 bytes) and Lengths their lengths in bytes, comma-separated, all
// in the order of the skeletons.
type PlayerChunk struct {
	Count, Found, Typed       int64
	Indexes, Players, Lengths []byte
}

// SchemaChecker is an optional check of [Ledger.Audit]: a store whose
// tables have a declared schema compares it with the one its code writes.
type SchemaChecker interface {
	// CheckSchema returns the first table whose columns differ from the
	// schema the store's migrations make (a column missing or renamed,
	// declared with another type or key), and what differs; table "" if
	// none does. err is only for failures to read.
	CheckSchema(ctx context.Context) (table, what string, err error)
	// CheckSchemaObjects returns the table of the first trigger or index
	// (or, as a store declares them, rule, constraint, function or other
	// schema object) that differs from those the store's migrations make
	// (one dropped, changed, disabled or added: the append-only triggers
	// are what refuses an UPDATE or DELETE), and what differs; table ""
	// if none does. The audit asks last, so that rows changed with the
	// triggers dropped are named first. err is only for failures to
	// read.
	CheckSchemaObjects(ctx context.Context) (table, what string, err error)
}

// LookupChecker is an optional check of a store that keeps lookup keys
// of its own, derived from the entries' columns, in tables rather than in
// its engine's indexes (the SQLite store's lookup and lookup_tail), which
// no engine check relates to the rows: CheckLookup returns the table of
// the first key row that does not match the entries 0..n-1 (one
// missing, changed or added: a writer would admit a duplicate the key no
// longer finds), or that names no entry at all, and what differs; table
// "" if every entry below n has its keys. Rows of entries at n or past
// it, which another writer may append during the audit, are held only to
// exist. A store whose keys come in key order may also report, as table
// "entries", two entries with the same duplicate key: a duplicate the
// log holds, which a writer admitted while a key row was missing. The
// audit asks once every row has checked out, with n its tree size, so
// that a changed column is named as such first. err is only for failures
// to read.
type LookupChecker interface {
	CheckLookup(ctx context.Context, n int64) (table, what string, err error)
}

// IntegrityChecker is an optional check a store runs before an audit: a
// database its engine cannot read whole (a file cut short, a damaged
// page) is an error saying so, rather than rows that vanish or a driver's
// scan error halfway through.
//
// A check the store cannot run where it is (a PostgreSQL database
// without the amcheck extension, or a role that may not run it) is a
// *NotCheckedError: the audit goes on and lists it in
// [AuditReport.Unchecked].
type IntegrityChecker interface {
	CheckIntegrity(ctx context.Context) error
}

// NotCheckedError is returned by a store's CheckIntegrity when a part of
// its check could not run in this database: What was not checked (e.g.
// "the indexes against their tables"), Why not, and Extension the
// database extension that would check it, if any ("amcheck"). It is no
// finding: the audit reports the parts it could check, and What in
// [AuditReport.Unchecked].
type NotCheckedError struct {
	What      string
	Why       string
	Extension string
}

// Error is "not checked: WHAT: WHY".
func (e *NotCheckedError) Error() string { return "not checked: " + e.What + ": " + e.Why }

// CheckRowsStored is how a store checks that an INSERT of want rows into
// table stored them all: affected is the driver's count of rows the
// statement stored (sql.Result.RowsAffected, a PostgreSQL command tag's
// count). Fewer rows (a trigger answering RAISE(IGNORE) or returning
// NULL, a DO INSTEAD NOTHING rule: objects a sealed schema does not
// have) is an error wrapping [ErrTampered], so the batch is rolled back
// and nothing is acknowledged that is not stored. An error from affected
// is returned as it is.
func CheckRowsStored(table string, affected func() (int64, error), want int) error {
	n, err := affected()
	if err != nil {
		return fmt.Errorf("%s: counting the rows stored: %w", table, err)
	}
	if n != int64(want) {
		return fmt.Errorf("%s: the database stored %d of the %d rows inserted (a trigger or rule that is not in sealed's schema changed the insert; nothing was appended): %w", table, n, want, ErrTampered)
	}
	return nil
}
