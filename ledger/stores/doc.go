// Package stores opens a ledger by name: a PostgreSQL connection URL
// (postgres:// or postgresql://, the scheme in any case: [IsURL] is the
// one test) opens a [pgstore.Store], anything else is the path of a
// SQLite file ([sqlitestore.Store]). A name with another scheme
// (postgre://...) is refused rather than taken for a file, and so is a
// URL pgx may read otherwise than written (an unencoded '@' in its
// password). [Redact] prints a name without its password. [Copy] copies
// a ledger into a new one of either kind, leaving none if it fails. It
// is the one place that knows every store, so that package ledger stays
// free of database drivers and cgo. docs/ledger.md ("Stores") describes
// each store.
package stores
