// Package sqlitestore is the default [ledger.Store]: the whole ledger in
// one SQLite file (github.com/mattn/go-sqlite3, cgo), in WAL mode with
// synchronous=FULL, so an append is acknowledged only once it is durable.
//
// # Format
//
// The tables are in schema.sql, embedded and applied as numbered,
// forward-only migrations when a ledger is opened for writing; a file
// written by an older sealed opens unchanged and is brought up to date.
// Triggers refuse UPDATE and DELETE on every table. docs/ledger.md
// ("Stores") describes what the store guarantees.
//
// # Writers and readers
//
// One writer connection takes SQLite's write lock with BEGIN IMMEDIATE
// for each batch, so several processes may append to one file; readers
// use a pool of read-only connections. A file in a directory this
// process cannot write is read with SQLite's immutable flag, unless a
// WAL beside it holds commits that SQLite cannot read there (its -shm
// file gone): that is refused with [ErrWALUnreadable], not read as the
// older ledger the file alone holds.
//
// The store implements [ledger.ChunkReader], [ledger.PlayerReader] and
// [ledger.ColumnChecker], the audit's fast paths: a range of rows (with
// their lookup columns) read as a few aggregates, the players rows of a
// chunk's skeletons looked up in one query, and the lookup columns
// compared with the leaves by json_extract inside SQLite when the audit's
// own comparison does not check out.
package sqlitestore
