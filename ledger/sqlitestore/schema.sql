-- sealed ledger schema (SQLite). Forward-only migrations: each section
-- starts with a line "-- migration N" (N = 1, 2, ...) and is applied once,
-- in order, inside one transaction that also records N in schema_version.
-- Never edit a released section; add a new one.

-- migration 1
CREATE TABLE schema_version (
	version    INTEGER NOT NULL PRIMARY KEY,
	applied_at TEXT    NOT NULL
);

-- The log's identity: origin (the checkpoint's first line and the key
-- name) and the Ed25519 verifier key (note.NewVerifier format).
CREATE TABLE log_meta (
	key   TEXT NOT NULL PRIMARY KEY,
	value TEXT NOT NULL
) WITHOUT ROWID;

-- One row per entry. body is the leaf: the RFC 8785 canonical JSON of the
-- entry with integrated_at; leaf_hash = SHA-256(0x00 || body) (RFC 6962).
-- integrated_at and posted_at are Unix nanoseconds (UTC). dedup is the
-- SHA-256 key of what makes an entry a duplicate (docs/ledger.md); it is
-- not indexed: the sequencer keeps the keys in memory, because a B-tree
-- index on a random key costs a random page write per append. commitment
-- (of commit and seed-commit entries) is not indexed either, for the same
-- reason: CommitsByCommitment keeps an in-memory map it catches up from
-- the entries in index order. ref (the index a reveal, edit or
-- seed-reveal names) is indexed: refs point at recent entries, so its
-- index grows at the right edge.
CREATE TABLE entries (
	idx           INTEGER NOT NULL PRIMARY KEY,
	kind          TEXT    NOT NULL,
	body          BLOB    NOT NULL,
	leaf_hash     BLOB    NOT NULL,
	integrated_at INTEGER NOT NULL,
	posted_at     INTEGER,
	dedup         BLOB    NOT NULL,
	commitment    TEXT,
	ref           INTEGER
);
CREATE INDEX entries_ref ON entries(ref) WHERE ref IS NOT NULL;

-- The stored hashes of the Merkle tree, id = tlog.StoredHashIndex(level, n).
CREATE TABLE hashes (
	id   INTEGER NOT NULL PRIMARY KEY,
	hash BLOB    NOT NULL
);

-- Signed checkpoints (C2SP tlog-checkpoint text in a C2SP signed note).
CREATE TABLE checkpoints (
	id         INTEGER NOT NULL PRIMARY KEY,
	size       INTEGER NOT NULL,
	root       BLOB    NOT NULL,
	note       BLOB    NOT NULL,
	created_at INTEGER NOT NULL
);
CREATE INDEX checkpoints_size ON checkpoints(size);

-- Replay documents, content-addressed by lowercase hex SHA-256.
CREATE TABLE replays (
	sha256 TEXT NOT NULL PRIMARY KEY,
	bytes  BLOB NOT NULL
) WITHOUT ROWID;

CREATE TRIGGER entries_no_update BEFORE UPDATE ON entries
BEGIN SELECT RAISE(ABORT, 'ledger entries are append-only'); END;
CREATE TRIGGER entries_no_delete BEFORE DELETE ON entries
BEGIN SELECT RAISE(ABORT, 'ledger entries are append-only'); END;
CREATE TRIGGER hashes_no_update BEFORE UPDATE ON hashes
BEGIN SELECT RAISE(ABORT, 'ledger hashes are append-only'); END;
CREATE TRIGGER hashes_no_delete BEFORE DELETE ON hashes
BEGIN SELECT RAISE(ABORT, 'ledger hashes are append-only'); END;
CREATE TRIGGER checkpoints_no_update BEFORE UPDATE ON checkpoints
BEGIN SELECT RAISE(ABORT, 'ledger checkpoints are append-only'); END;
CREATE TRIGGER checkpoints_no_delete BEFORE DELETE ON checkpoints
BEGIN SELECT RAISE(ABORT, 'ledger checkpoints are append-only'); END;
CREATE TRIGGER replays_no_update BEFORE UPDATE ON replays
BEGIN SELECT RAISE(ABORT, 'stored replays are immutable'); END;
CREATE TRIGGER replays_no_delete BEFORE DELETE ON replays
BEGIN SELECT RAISE(ABORT, 'stored replays are immutable'); END;

-- migration 2
-- Duplicate and commitment lookups go to the store, so that a one-shot
-- append or lookup costs O(log n) on any ledger size (formerly in-memory
-- maps rebuilt by each process).
CREATE INDEX entries_dedup ON entries(dedup);
CREATE INDEX entries_commitment ON entries(commitment) WHERE commitment IS NOT NULL;

-- migration 3
-- Witness cosignatures (C2SP tlog-cosignature) of stored checkpoints: one
-- per checkpoint and witness name. line is the whole note signature line;
-- size is the checkpoint's, time the cosignature's timestamp (Unix s).
CREATE TABLE cosignatures (
	checkpoint_id INTEGER NOT NULL REFERENCES checkpoints(id),
	witness       TEXT    NOT NULL,
	size          INTEGER NOT NULL,
	line          BLOB    NOT NULL,
	time          INTEGER NOT NULL,
	PRIMARY KEY (checkpoint_id, witness)
) WITHOUT ROWID;
CREATE INDEX cosignatures_size ON cosignatures(size, time);
CREATE TRIGGER cosignatures_no_update BEFORE UPDATE ON cosignatures
BEGIN SELECT RAISE(ABORT, 'ledger cosignatures are append-only'); END;
CREATE TRIGGER cosignatures_no_delete BEFORE DELETE ON cosignatures
BEGIN SELECT RAISE(ABORT, 'ledger cosignatures are append-only'); END;

-- migration 4
-- Players (docs/ledger.md "Player names"): for each Unicode confusable
-- skeleton (UTS #39, ledger.Skeleton) of the player names commit entries
-- carry, the name and index of the first commit entry, in index order,
-- naming a player of that skeleton. An append writes a row only for a
-- commit naming a player of a skeleton not seen before (most appends
-- write none), and admission of a new player is one lookup by the key.
-- The rows of an existing ledger are filled in, in index order, by the
-- code that applies this migration, in the same transaction.
CREATE TABLE players (
	skeleton TEXT    NOT NULL PRIMARY KEY,
	player   TEXT    NOT NULL,
	idx      INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TRIGGER players_no_update BEFORE UPDATE ON players
BEGIN SELECT RAISE(ABORT, 'ledger players are append-only'); END;
CREATE TRIGGER players_no_delete BEFORE DELETE ON players
BEGIN SELECT RAISE(ABORT, 'ledger players are append-only'); END;

-- migration 5
-- One small index for both lookups a new entry makes, in place of the two
-- of migration 2: keyed by the commitment's first 16 hex characters for a
-- commit and the duplicate key's first 8 bytes for any other entry (text
-- and blob keys never compare equal), then by the duplicate key's first 8
-- bytes. A commit's duplicates are commits with the same commitment and
-- duplicate key, so a duplicate lookup is one seek on both columns however
-- many players post the same commitment; a commitment lookup seeks the
-- first. Readers compare the whole commitment or dedup column. One random
-- insert of about 30 bytes per append instead of two of 40 and 70
-- (docs/performance.md, issue 12).
DROP INDEX entries_dedup;
DROP INDEX entries_commitment;
CREATE INDEX entries_lookup ON entries(coalesce(substr(commitment, 1, 16), substr(dedup, 1, 8)), substr(dedup, 1, 8));

-- migration 6
-- The players rows of the log's tail (docs/ledger.md "Player names",
-- "SQLite"): an append of a new player's commit writes its row here, keyed
-- by the entry's index, so the write lands at the table's right edge with
-- the entry, instead of at a random place of players' key order (a random
-- page written per new player). Once the tail holds playersFoldAt rows, the
-- append that reaches it moves them into players in key order, in its own
-- transaction. players and players_tail together are the players table a
-- Store returns (no skeleton in both); the audit re-derives them together.
CREATE TABLE players_tail (
	idx      INTEGER NOT NULL PRIMARY KEY,
	skeleton TEXT    NOT NULL,
	player   TEXT    NOT NULL
);
CREATE TRIGGER players_tail_no_update BEFORE UPDATE ON players_tail
BEGIN SELECT RAISE(ABORT, 'ledger players are append-only'); END;
-- A row leaves the tail only once players holds it, as the fold moves it.
CREATE TRIGGER players_tail_no_delete BEFORE DELETE ON players_tail
WHEN NOT EXISTS (SELECT 1 FROM players p WHERE p.skeleton = OLD.skeleton AND p.idx = OLD.idx AND p.player = OLD.player)
BEGIN SELECT RAISE(ABORT, 'ledger players are append-only: a players_tail row leaves only once players holds it'); END;

-- migration 7
-- Seed-commits (docs/ledger.md "Duplicates"): one row per seed-commit
-- entry, the commitment, game and match_id its leaf holds and its index,
-- so that one indexed lookup, O(log n), finds the seed-commits holding a
-- commitment (a seed is committed once: the sequencer refuses another
-- under the write lock) and those of a match (a result's seed-commit, for
-- its admission and check-result). A seed-commit is one per match, so
-- the random inserts are rare. The rows of an existing ledger are filled
-- in from the leaves here; the audit re-derives the table from the leaves.
CREATE TABLE seed_commits (
	commitment TEXT    NOT NULL,
	idx        INTEGER NOT NULL,
	game       TEXT    NOT NULL,
	match_id   TEXT    NOT NULL,
	PRIMARY KEY (commitment, idx)
) WITHOUT ROWID;
CREATE INDEX seed_commits_match ON seed_commits(game, match_id, idx);
CREATE TRIGGER seed_commits_no_update BEFORE UPDATE ON seed_commits
BEGIN SELECT RAISE(ABORT, 'ledger seed commitments are append-only'); END;
CREATE TRIGGER seed_commits_no_delete BEFORE DELETE ON seed_commits
BEGIN SELECT RAISE(ABORT, 'ledger seed commitments are append-only'); END;
INSERT INTO seed_commits(commitment, idx, game, match_id)
	SELECT json_extract(CAST(body AS TEXT), '$.commitment'), idx,
		json_extract(CAST(body AS TEXT), '$.game'), json_extract(CAST(body AS TEXT), '$.match_id')
	FROM entries
	WHERE kind = 'seed-commit' AND json_valid(CAST(body AS TEXT))
	AND json_type(CAST(body AS TEXT), '$.commitment') = 'text'
	AND json_type(CAST(body AS TEXT), '$.game') = 'text'
	AND json_type(CAST(body AS TEXT), '$.match_id') = 'text';

-- migration 8
-- The lookup keys of migration 5's index, kept in two tables instead of
-- an index on entries (docs/ledger.md "SQLite", docs/performance.md):
-- lookup_tail holds the keys of the newest entries, keyed by index, so
-- an append writes its row at the table's right edge beside the entry;
-- once the tail holds lookupFoldAt rows, the append that reaches it
-- moves them into lookup, in key order (each page of lookup it touches
-- written once), and deletes them from the tail, in the same
-- transaction. The random-key index wrote one random page per append:
-- on this project's machine it bounded 64 writers to a third of what the
-- same rows reach without it. k is the commitment's first 16 hex
-- characters (text) for a commit, the duplicate key's first 8 bytes
-- (blob) for any other entry; d the duplicate key's first 8 bytes
-- (entries_lookup's two expressions). Every entry has one row in one of
-- the two tables; the audit holds them to the entries.
CREATE TABLE lookup (
	k   BLOB    NOT NULL,
	d   BLOB    NOT NULL,
	idx INTEGER NOT NULL,
	PRIMARY KEY (k, d, idx)
) WITHOUT ROWID;
CREATE TABLE lookup_tail (
	idx INTEGER NOT NULL PRIMARY KEY,
	k   BLOB    NOT NULL,
	d   BLOB    NOT NULL
);
CREATE TRIGGER lookup_no_update BEFORE UPDATE ON lookup
BEGIN SELECT RAISE(ABORT, 'ledger lookup keys are append-only'); END;
CREATE TRIGGER lookup_no_delete BEFORE DELETE ON lookup
BEGIN SELECT RAISE(ABORT, 'ledger lookup keys are append-only'); END;
CREATE TRIGGER lookup_tail_no_update BEFORE UPDATE ON lookup_tail
BEGIN SELECT RAISE(ABORT, 'ledger lookup keys are append-only'); END;
-- A row leaves the tail only once lookup holds it, as the fold moves it.
CREATE TRIGGER lookup_tail_no_delete BEFORE DELETE ON lookup_tail
WHEN NOT EXISTS (SELECT 1 FROM lookup l WHERE l.k = OLD.k AND l.d = OLD.d AND l.idx = OLD.idx)
BEGIN SELECT RAISE(ABORT, 'ledger lookup keys are append-only: a lookup_tail row leaves only once lookup holds it'); END;
INSERT INTO lookup(k, d, idx)
	SELECT coalesce(substr(commitment, 1, 16), substr(dedup, 1, 8)), substr(dedup, 1, 8), idx
	FROM entries WHERE true ORDER BY 1, 2, 3;
DROP INDEX entries_lookup;
