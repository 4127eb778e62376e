// Package ledger implements sealed's append-only, tamper-evident log: an
// RFC 6962 Merkle tree (SHA-256 leaf and node hashes, inclusion and
// consistency proofs, computed with golang.org/x/mod/sumdb/tlog) over
// entries stored as RFC 8785 canonical JSON, with tree heads published as
// C2SP tlog-checkpoint texts (c2sp.org/tlog-checkpoint) signed as C2SP
// signed notes (c2sp.org/signed-note) with Ed25519 through
// golang.org/x/mod/sumdb/note. The entry kinds, their validation and every
// format are in docs/ledger.md; docs/design.md "Ledger" is the design.
//
// # Formats and checks
//
// [ParseBody] validates an entry body; [ParseCheckpoint], [OpenCheckpoint],
// [ParseInclusionProof] and [ParseConsistencyProof] read what the log
// publishes, and [CheckInclusion] and [CheckConsistency] verify proofs
// offline with only the verifier key. None of this needs a database.
//
// # The log
//
// The log logic is written once against [Store], where a log keeps its
// rows; the stores are in ledger/sqlitestore (one SQLite file, the
// default), ledger/pgstore (PostgreSQL) and ledger/memstore (in memory),
// each passing the conformance suite ledger/storetest, and ledger/stores
// opens one by name. [Create] makes a ledger and its key pair; [Open]
// returns a [*Ledger] whose [Ledger.Append] queues entries to one
// sequencer goroutine that writes them in batched, durable transactions
// ([Store.Write], holding the log's write lock across processes) and
// signs a checkpoint at most every CheckpointInterval.
// [Ledger.ProveInclusion] and [Ledger.ProveConsistency] serve JSON proofs;
// [Ledger.Audit] re-derives everything from the entry bodies; [Copy] moves
// a ledger between stores, checking it as it goes. This package imports
// no database driver and builds without cgo.
package ledger
