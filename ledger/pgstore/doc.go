// Package pgstore is a [ledger.Store] in a PostgreSQL database
// (github.com/jackc/pgx/v5), for a ledger shared by several processes on
// several hosts. It passes the conformance suite of
// [github.com/sealedhq/sealed/ledger/storetest].
//
// # Format
//
// The tables are those of the SQLite store
// ([github.com/sealedhq/sealed/ledger/sqlitestore]): schema_version,
// log_meta, entries, hashes, checkpoints, replays, cosignatures and
// players (migration 3, filled from the commit entries when a ledger of
// schema 2 is opened for writing), with bytea for
// blobs, bigint for integers and text for text, and indexes on the
// entries' ref, dedup and commitment columns and on the checkpoints'
// size. They are in schema.sql, embedded and applied as numbered,
// forward-only migrations (each in a transaction, recorded in
// schema_version) when a store is opened for writing; a database written
// by a newer sealed is refused ([ErrSchemaTooNew]). Open puts the schema
// into an empty database only with [Options.Create]. Statement triggers
// (PL/pgSQL, RAISE EXCEPTION) refuse UPDATE, DELETE and TRUNCATE on every
// table; the owner can disable them, which is why the ledger's audit, not
// the triggers, is the evidence that nothing changed.
//
// # Schema check
//
// The store is a ledger.SchemaChecker: [Store.CheckSchema] and
// [Store.CheckSchemaObjects] compare the schema's catalog (tables,
// columns, indexes, constraints, triggers and whether they are enabled,
// rules, row security policies, the trigger function's body) with
// schema_catalog.json, the catalog the migrations up to the recorded
// version make, read from a fresh database (TestSchemaCatalog keeps it
// so); schema_version must list 1..k. A writer runs the same comparison
// when it opens the database, before any migration, and refuses a
// difference with an error wrapping ledger.ErrTampered. The readers the
// audit uses read each row as the values it holds and refuse a NULL or a
// value of another type with an error wrapping ledger.ErrTampered that
// names the table, the row and the column. A database holding a table of
// one of the ledger's names but not its schema (schema_version without
// log_meta, say) is another application's: Open with [Options.Create]
// refuses it, and Meta reports it as ledger.ErrNotLedger.
//
// # Durability
//
// [Store.Write] returns nil only after its COMMIT has succeeded, and
// every writing connection runs with synchronous_commit on (Open sets it
// for the session if the server or role has it off), so an acknowledged
// append is in the server's flushed write-ahead log: it survives a crash
// of the client, of the server or of its machine, provided the server
// runs with fsync on (PostgreSQL's default). With synchronous standbys
// configured, "on" also waits for them to flush.
//
// # Writers
//
// Each Write transaction first takes the transaction-level advisory lock
// pg_advisory_xact_lock(0x7365616c65640001) ("sealed" and 1) in the
// ledger's database, so only one writer batch runs at a time across all
// processes and hosts; the lock is released by the COMMIT or ROLLBACK,
// also when a writer process dies (the server ends its session and rolls
// its transaction back). Writing sessions have
// idle_in_transaction_session_timeout=60s unless the connection string
// sets it, so that a writer whose host vanished mid-batch, which the
// server cannot see at once, holds the lock for at most a minute.
//
// BEGIN, the lock and the read of the log's tail go in one round trip,
// and a batch's entries and stored hashes in one more, as two INSERT ...
// SELECT FROM unnest(arrays) statements (a batch of 256 entries or more
// goes by COPY instead); then the COMMIT. A second advisory key (...0002)
// serializes the assignment of checkpoint IDs, which run 1, 2, 3, ...
// without gaps. Schema migrations take the write lock too. A third
// (...0003), held by a session for a whole ledger copy into the database
// ([LockCopy]), keeps out a second copy; [Store.Discard] drops what a copy
// that did not complete wrote.
//
// # Readers, read-only mode and replicas
//
// Reads go through a pgxpool connection pool and see committed data only.
// With [Options.ReadOnly] every connection of the pool has
// default_transaction_read_only=on, Open writes nothing (no migration),
// and every write method returns an error wrapping ledger.ErrReadOnly.
// A read-only Store may therefore be opened on a streaming replica (hot
// standby) URL and serve the page reads (entries, proofs, checkpoints,
// replays), which lag the primary by the replication delay.
//
// # Connection strings
//
// Open takes a postgres:// or postgresql:// URL, or a keyword=value
// string, as pgx does (libpq's parameters and PG* environment
// variables). No error of this package shows the connection's password:
// Open's errors name the database with the password replaced by "xxxxx".
package pgstore
