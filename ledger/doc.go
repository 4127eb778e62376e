// Package ledger implements sealed's append-only, tamper-evident log: an
// RFC 6962 Merkle tree (SHA-256 leaf and node hashes, inclusion and
// consistency proofs, computed with golang.org/x/mod/sumdb/tlog) over
// entries stored as RFC 8785 canonical JSON in one SQLite file, with tree
// heads published as C2SP tlog-checkpoint texts (c2sp.org/tlog-checkpoint)
// signed as C2SP signed notes (c2sp.org/signed-note) with Ed25519 through
// golang.org/x/mod/sumdb/note. The entry kinds, their validation and every
// format are in docs/ledger.md; docs/design.md "Ledger" is the design.
//
// Init creates a ledger and its key pair; Open returns a *Ledger whose
// Append queues entries to one sequencer goroutine that writes them in
// batched, durable transactions (WAL, synchronous=FULL) and signs a
// checkpoint at most every CheckpointInterval. ProveInclusion and
// ProveConsistency serve JSON proofs that CheckInclusion and
// CheckConsistency verify offline with only the verifier key. Audit
// re-derives everything from the entry bodies. This is the only package of
// sealed that talks to SQLite.
package ledger
