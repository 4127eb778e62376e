// Package ledger is sealed's append-only log: an RFC 6962 Merkle tree of
// entries stored in SQLite, with C2SP signed checkpoints, inclusion and
// consistency proofs, and an audit.
package ledger
