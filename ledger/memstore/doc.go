// Package memstore is an in-memory [ledger.Store], for tests and for
// trying the log logic without a database. It keeps everything in the
// process: nothing survives Close. It passes the conformance suite of
// [github.com/sealedhq/sealed/ledger/storetest].
package memstore
