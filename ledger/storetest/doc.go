// Package storetest is the conformance suite of [ledger.Store], in the
// manner of golang.org/x/mod/sumdb/storage's TestStorage: every store
// (memstore, sqlitestore, pgstore) runs [Run] in its tests, so the log
// logic in package ledger can rely on the documented behaviour of each
// method whatever the backend.
package storetest
