// Package sidebyside measures sealed side by side with its anchors, in one
// run on one machine, so that every figure comes with a baseline measured
// under the same load (issue 12, docs/performance.md "Side by side"):
//
//   - appends: sealed's ledger (SQLite store, durable defaults), Tessera's
//     POSIX driver (github.com/transparency-dev/tessera v1.0.4,
//     storage/posix) and raw go-sqlite3 batched inserts of the same rows
//     into the same schema (the limit on this disk), interleaved round by
//     round at 1, 8 and 64 concurrent writers each waiting for its index;
//   - the audit: ledger.Audit of an N-entry ledger against a one-core
//     SHA-256 pass over the same leaves held in memory;
//   - the site: `sealed serve` (the binary built from the working tree, run
//     as a child process) on a 50,000-entry ledger against a trivial
//     net/http server answering 1 KB of JSON, under the same HTTP load
//     generator (wrk when it is on PATH, else a Go one) at 64 connections.
//
// Run prints the machine (CPU model, Go version, `uptime` before and after),
// the medians over the rounds and the ratios. The command is
// bench/cmd/sidebyside; the package is its own module so that Tessera is
// never a dependency of sealed.
package sidebyside
