// Package pgtest starts a real PostgreSQL server for tests, as the project's
// standards ask: Debian's postgresql package, initdb into a temporary
// directory, and a server that listens only on a Unix socket in that
// directory.
//
// # Servers
//
// [Start] starts a private server for one test (or benchmark) and stops it
// when the test ends. [Shared] returns one server per test binary, started on
// first use; a package that uses it calls [Main] from its TestMain so the
// server is stopped after the last test:
//
//	func TestMain(m *testing.M) { pgtest.Main(m) }
//
//	func TestStore(t *testing.T) {
//		url := pgtest.Shared(t).NewDatabase(t)
//		conn, err := pgx.Connect(ctx, url)
//		...
//	}
//
// [Server.NewDatabase] creates a fresh, uniquely named database for one test
// and returns a connection URL for it, of the form
//
//	postgres:///DBNAME?host=SOCKETDIR&port=PORT&user=pgtest
//
// which pgx and libpq both accept. The database is dropped when the test
// ends. Tests that share a server therefore never see each other's tables.
//
// The cluster is created with trust authentication, the superuser [User],
// encoding UTF8 and the C locale. fsync is on unless [Options.NoFsync] is
// set, so tests that kill a client mid-write see what a production server
// would have made durable.
//
// # Binaries
//
// initdb and postgres are looked up on PATH first, then in
// /usr/lib/postgresql/VERSION/bin (the highest version), which is where
// Debian's postgresql-VERSION package puts them without adding them to PATH.
// When they are missing the test is skipped with a hint to run
// "apt-get install postgresql", unless the environment variable CI is "true":
// then the test fails, because CI must not silently skip.
//
// # Root
//
// initdb and postgres refuse to run as root. When the test binary runs as
// root, pgtest runs both as the user nobody (uid and gid 65534) and hands
// the temporary directory to that user.
package pgtest
