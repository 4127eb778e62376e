-- sealed ledger schema (PostgreSQL). Forward-only migrations: each section
-- starts with a line "-- migration N" (N = 1, 2, ...) and is applied once,
-- in order, inside one transaction that also records N in schema_version.
-- Never edit a released section; add a new one. The tables and columns are
-- those of the SQLite store (ledger/sqlitestore/schema.sql): bytea for
-- blobs, bigint for integers, text for text.

-- migration 1
CREATE TABLE schema_version (
	version    bigint NOT NULL PRIMARY KEY,
	applied_at text   NOT NULL
);

-- The log's identity: origin (the checkpoint's first line and the key
-- name) and the Ed25519 verifier key (note.NewVerifier format).
CREATE TABLE log_meta (
	key   text NOT NULL PRIMARY KEY,
	value text NOT NULL
);

-- One row per entry. body is the leaf: the RFC 8785 canonical JSON of the
-- entry with integrated_at; leaf_hash = SHA-256(0x00 || body) (RFC 6962).
-- integrated_at and posted_at are Unix nanoseconds (UTC). dedup is the
-- SHA-256 key of what makes an entry a duplicate (docs/ledger.md);
-- commitment is set on commit entries; ref is the index a reveal, edit or
-- seed-reveal names.
CREATE TABLE entries (
	idx           bigint NOT NULL PRIMARY KEY,
	kind          text   NOT NULL,
	body          bytea  NOT NULL,
	leaf_hash     bytea  NOT NULL,
	integrated_at bigint NOT NULL,
	posted_at     bigint,
	dedup         bytea  NOT NULL,
	commitment    text,
	ref           bigint
);
CREATE INDEX entries_ref ON entries(ref) WHERE ref IS NOT NULL;
CREATE INDEX entries_dedup ON entries(dedup);
CREATE INDEX entries_commitment ON entries(commitment) WHERE commitment IS NOT NULL;

-- The stored hashes of the Merkle tree, id = tlog.StoredHashIndex(level, n).
CREATE TABLE hashes (
	id   bigint NOT NULL PRIMARY KEY,
	hash bytea  NOT NULL
);

-- Signed checkpoints (C2SP tlog-checkpoint text in a C2SP signed note).
-- id is 1, 2, ... in storing order (assigned under a lock: no gaps).
CREATE TABLE checkpoints (
	id         bigint NOT NULL PRIMARY KEY,
	size       bigint NOT NULL,
	root       bytea  NOT NULL,
	note       bytea  NOT NULL,
	created_at bigint NOT NULL
);
CREATE INDEX checkpoints_size ON checkpoints(size);

-- Replay documents, content-addressed by lowercase hex SHA-256.
CREATE TABLE replays (
	sha256 text  NOT NULL PRIMARY KEY,
	bytes  bytea NOT NULL
);

-- Every table is append-only: UPDATE, DELETE and TRUNCATE raise an error.
-- (A superuser or the owner can still disable the triggers: the audit, not
-- the triggers, is what shows that nothing changed.)
CREATE FUNCTION sealed_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	RAISE EXCEPTION '%: % refused', TG_ARGV[0], TG_OP
		USING ERRCODE = 'restrict_violation';
END
$$;

CREATE TRIGGER schema_version_append_only BEFORE UPDATE OR DELETE OR TRUNCATE ON schema_version
	FOR EACH STATEMENT EXECUTE FUNCTION sealed_append_only('the schema versions are append-only');
CREATE TRIGGER log_meta_append_only BEFORE UPDATE OR DELETE OR TRUNCATE ON log_meta
	FOR EACH STATEMENT EXECUTE FUNCTION sealed_append_only('the ledger identity is immutable');
CREATE TRIGGER entries_append_only BEFORE UPDATE OR DELETE OR TRUNCATE ON entries
	FOR EACH STATEMENT EXECUTE FUNCTION sealed_append_only('ledger entries are append-only');
CREATE TRIGGER hashes_append_only BEFORE UPDATE OR DELETE OR TRUNCATE ON hashes
	FOR EACH STATEMENT EXECUTE FUNCTION sealed_append_only('ledger hashes are append-only');
CREATE TRIGGER checkpoints_append_only BEFORE UPDATE OR DELETE OR TRUNCATE ON checkpoints
	FOR EACH STATEMENT EXECUTE FUNCTION sealed_append_only('ledger checkpoints are append-only');
CREATE TRIGGER replays_append_only BEFORE UPDATE OR DELETE OR TRUNCATE ON replays
	FOR EACH STATEMENT EXECUTE FUNCTION sealed_append_only('stored replays are immutable');

-- migration 2
-- Witness cosignatures (C2SP tlog-cosignature) of stored checkpoints, as
-- in the SQLite store's migration 3: one per checkpoint and witness name.
CREATE TABLE cosignatures (
	checkpoint_id bigint NOT NULL REFERENCES checkpoints(id),
	witness       text   NOT NULL,
	size          bigint NOT NULL,
	line          bytea  NOT NULL,
	time          bigint NOT NULL,
	PRIMARY KEY (checkpoint_id, witness)
);
CREATE INDEX cosignatures_size ON cosignatures(size, time);
CREATE TRIGGER cosignatures_append_only BEFORE UPDATE OR DELETE OR TRUNCATE ON cosignatures
	FOR EACH STATEMENT EXECUTE FUNCTION sealed_append_only('ledger cosignatures are append-only');

-- migration 3
-- Players, as in the SQLite store's migration 4 (docs/ledger.md "Player
-- names"): for each Unicode confusable skeleton (UTS #39,
-- ledger.Skeleton) of the player names commit entries carry, the name
-- and index of the first commit entry naming a player of that skeleton.
-- An append writes a row only for a commit naming a player of a new
-- skeleton; the rows of an existing ledger are filled in, in index
-- order, by the code that applies this migration, in its transaction.
CREATE TABLE players (
	skeleton text   NOT NULL PRIMARY KEY,
	player   text   NOT NULL,
	idx      bigint NOT NULL
);
CREATE TRIGGER players_append_only BEFORE UPDATE OR DELETE OR TRUNCATE ON players
	FOR EACH STATEMENT EXECUTE FUNCTION sealed_append_only('ledger players are append-only');

-- migration 4
-- Seed-commits, as in the SQLite store's migration 7 (docs/ledger.md
-- "Duplicates"): one row per seed-commit entry, the commitment, game and
-- match_id its leaf holds and its index, for one indexed lookup of the
-- seed-commits holding a commitment, or of a match. The rows of an
-- existing ledger are filled in from the leaves by the code that applies
-- this migration, in its transaction.
CREATE TABLE seed_commits (
	commitment text   NOT NULL,
	idx        bigint NOT NULL,
	game       text   NOT NULL,
	match_id   text   NOT NULL,
	PRIMARY KEY (commitment, idx)
);
CREATE INDEX seed_commits_match ON seed_commits(game, match_id, idx);
CREATE TRIGGER seed_commits_append_only BEFORE UPDATE OR DELETE OR TRUNCATE ON seed_commits
	FOR EACH STATEMENT EXECUTE FUNCTION sealed_append_only('ledger seed commitments are append-only');
