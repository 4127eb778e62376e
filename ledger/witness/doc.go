// Package witness gives a sealed ledger witnesses: independent services
// that check each new checkpoint is consistent with the last one they saw
// and cosign it (C2SP tlog-witness, https://c2sp.org/tlog-witness), and
// checks cosigned checkpoints against a policy of witness keys and a
// quorum (C2SP tlog-cosignature, https://c2sp.org/tlog-cosignature,
// cosignature/v1 Ed25519 only).
//
// # Policy
//
// A [Policy] is a list of witnesses (name, verifier key, URL) and a
// quorum, read from a file by [ParsePolicy]:
//
//	# comment
//	witness <verifier key> [<submission URL prefix>]
//	quorum <N>
//
// [Policy.Check] verifies a checkpoint's cosignatures with
// github.com/transparency-dev/formats/note's cosignature/v1 verifier and
// golang.org/x/mod/sumdb/note, and fails with a *[QuorumError] when fewer
// than the quorum cover it.
//
// # Submitting
//
// [AddCheckpoint] is one add-checkpoint request. A [Cosigner] submits
// the log's latest checkpoint to every witness with a consistency proof
// from the size that witness last cosigned, retries once from the size a
// 409 answer gives, and stores the cosignatures it gets back with the
// checkpoint; other answers (403, 404, 422, ...) are returned, naming the
// witness, as *[RefusedError].
package witness
