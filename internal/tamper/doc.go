// Package tamper changes a sealed SQLite ledger file the way an attacker
// with the file would, for tests of tamper evidence: plain SQL on the
// file, with the append-only triggers dropped for the change and created
// again after it, so that only the rows differ and the schema looks
// untouched ([Restoring]).
package tamper
