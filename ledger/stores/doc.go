// Package stores opens a ledger by name: a PostgreSQL connection URL
// (postgres:// or postgresql://) opens a [pgstore.Store], anything else
// is the path of a SQLite file ([sqlitestore.Store]); [Copy] copies a
// ledger into a new one of either kind, leaving none if it fails. It is
// the one place that knows every store, so that package ledger stays
// free of database drivers and cgo. docs/ledger.md ("Stores") describes
// each store.
package stores
