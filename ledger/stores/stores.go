package stores

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/sealedhq/sealed/internal/pgurl"
	"github.com/sealedhq/sealed/ledger"
	"github.com/sealedhq/sealed/ledger/sqlitestore"
)

// IsURL reports whether name is a PostgreSQL connection URL (postgres://
// or postgresql://, in any case) rather than a SQLite file path. It is
// the one test of URL or file: OpenStore, Init and the CLI all ask it.
func IsURL(name string) bool { return pgurl.IsURL(name) }

// Redact returns name fit to print: in a URL (postgres://..., or any
// other SCHEME://) the password, as pgx reads it from the user
// information or a password= query parameter, replaced by "xxxxx" and
// the scheme lowercased (as OpenStore gives it to pgx, so a store's
// errors name it in the same words); a URL whose password pgx may read
// otherwise than written (ErrAmbiguousURL) is not shown at all. A path
// is returned as it is, but a libpq keyword/value connection string
// ("host=... password=...", which OpenStore refuses) is not shown.
func Redact(name string) string {
	if pgurl.Scheme(name) != "" {
		name = pgurl.Normalize(name)
	}
	return pgurl.Redact(name)
}

// Errors of OpenStore, Open and Init on a name, for callers to explain
// (each wrapped, the message saying more).
var (
	// ErrNotStore: a name with a scheme (SCHEME://) that is not a
	// PostgreSQL URL, or a libpq keyword/value connection string
	// ("host=... dbname=..."), which is no file path either.
	ErrNotStore = errors.New("not a postgres:// or postgresql:// URL, nor a file path")
	// ErrAmbiguousURL: a URL pgx may read otherwise than written, such
	// as a password holding an unencoded '@' (pgurl.Check). Such a URL
	// is never given to pgx.
	ErrAmbiguousURL = pgurl.ErrAmbiguous
	// ErrConnect: the PostgreSQL server could not be reached (no server
	// on the host or socket directory and port, a timeout, TLS).
	ErrConnect = errors.New("cannot connect to the PostgreSQL server")
	// ErrLogin: the server refused the login (password authentication
	// failed, a role that does not exist, no pg_hba.conf entry).
	ErrLogin = errors.New("the PostgreSQL server refused the login")
	// ErrNoDatabase: the server has no database of the URL's name.
	ErrNoDatabase = errors.New("the PostgreSQL database does not exist")
)

// kindError is an error of OpenStore with the kind (ErrConnect, ...)
// that errors.Is finds, its message unchanged.
type kindError struct {
	err, kind error
}

func (e *kindError) Error() string   { return e.err.Error() }
func (e *kindError) Unwrap() []error { return []error{e.err, e.kind} }

// OpenStore opens the store named by name (see the package doc). create
// makes a new one (a new SQLite file; on PostgreSQL, the schema in an
// empty database); readOnly refuses every write. A URL goes to pgx with
// its scheme lowercased (pgx reads Postgres://... as keyword=value pairs
// and would send the whole URL to the server); errors on one wrap
// ErrConnect, ErrLogin or ErrNoDatabase when they are one of those, and
// never show its password. Other errors: a name with another scheme
// (ErrNotStore), an ambiguous URL (ErrAmbiguousURL), the store's.
func OpenStore(ctx context.Context, name string, readOnly, create bool) (ledger.Store, error) {
	if err := CheckName(name); err != nil {
		return nil, err
	}
	if IsURL(name) {
		return openPostgres(ctx, pgurl.Normalize(name), readOnly, create)
	}
	s, err := sqlitestore.Open(name, sqlitestore.Options{ReadOnly: readOnly, Create: create})
	if err != nil {
		return nil, err
	}
	return s, nil
}

// CheckName returns the error OpenStore gives for a name that names no
// store, before it opens anything: an empty name, "-" (stdin or stdout on
// a command line; wrapping ErrNotStore), a name with a scheme
// other than PostgreSQL's or a libpq keyword/value connection string
// ("host=... dbname=...", not shown; both wrapping ErrNotStore), an
// ambiguous URL
// (wrapping ErrAmbiguousURL); nil for a PostgreSQL URL or a path.
func CheckName(name string) error {
	if name == "" {
		return errors.New("no ledger named: expected a SQLite file path or a postgres:// URL")
	}
	if name == "-" {
		// - is stdin or stdout everywhere else on the command line.
		return fmt.Errorf("-: %w (- is stdin or stdout; a file named - is ./-)", ErrNotStore)
	}
	if IsURL(name) {
		if err := pgurl.Check(name); err != nil {
			return fmt.Errorf("%s: %w: pgx may read its password otherwise than written (an '@' past the user name and password, a port that is not a number)", Redact(name), err)
		}
		return nil
	}
	if sc := pgurl.Scheme(name); sc != "" {
		return fmt.Errorf("%s: the scheme %s:// is %w", Redact(name), sc, ErrNotStore)
	}
	if pgurl.IsConnString(name) {
		// pgx would take it, but as a path it would name a SQLite file
		// holding the password in its name.
		return fmt.Errorf("%s: %w; write it as a URL: postgres://USER:PASSWORD@HOST:PORT/DBNAME, or postgres:///DBNAME?host=/SOCKET/DIR (a SQLite file of that name: write it as ./NAME)", Redact(name), ErrNotStore)
	}
	return nil
}

// existsError is an error wrapping fs.ErrExist with a message of its own.
type existsError struct{ msg string }

func (e *existsError) Error() string { return e.msg }
func (e *existsError) Unwrap() error { return fs.ErrExist }

// fileExists is the error for a file that exists where a new one is
// made.
func fileExists(path string) error {
	return &existsError{fmt.Sprintf("%s already exists: refusing to overwrite it", path)}
}

// Init creates a new ledger at name with the given origin and a new key
// pair, the private key written to keyFile (ledger.Create). It refuses a
// SQLite file that exists, a PostgreSQL database that already holds a
// ledger, and an existing key file (errors wrapping fs.ErrExist), and a
// key file whose directory does not exist, before it touches the
// database; on failure it removes the SQLite file it made. It returns
// the verifier key.
func Init(ctx context.Context, name, origin, keyFile string) (string, error) {
	if err := CheckName(name); err != nil {
		return "", err
	}
	if !IsURL(name) {
		ap, _ := filepath.Abs(name)
		ak, _ := filepath.Abs(keyFile)
		if ap == ak {
			return "", fmt.Errorf("the key file must be outside the database: both are %s", name)
		}
		if _, err := os.Lstat(name); err == nil {
			return "", fileExists(name)
		}
	}
	if _, err := os.Lstat(keyFile); err == nil {
		return "", fileExists(keyFile)
	}
	// The key file's directory, before the database is touched (a
	// schema made in a PostgreSQL database would stay).
	if st, err := os.Stat(filepath.Dir(keyFile)); err != nil {
		return "", fmt.Errorf("creating the key file %s: %w", keyFile, err)
	} else if !st.IsDir() {
		return "", fmt.Errorf("creating the key file %s: %s is not a directory", keyFile, filepath.Dir(keyFile))
	}
	s, err := OpenStore(ctx, name, false, true)
	if err != nil {
		return "", err
	}
	if IsURL(name) {
		if m, err := s.Meta(ctx); err == nil {
			s.Close()
			return "", &existsError{fmt.Sprintf("the database %s already holds a ledger (origin %s)", Redact(name), m.Origin)}
		}
	}
	vkey, err := ledger.Create(ctx, s, origin, keyFile)
	if cerr := s.Close(); err == nil && cerr != nil {
		err = cerr
	}
	if err != nil && !IsURL(name) {
		for _, suffix := range []string{"", "-wal", "-shm"} {
			os.Remove(name + suffix)
		}
	}
	return vkey, err
}

// Open opens the ledger at name (ledger.Open over OpenStore). Closing the
// ledger closes the store.
func Open(ctx context.Context, name string, opts ledger.Options) (*ledger.Ledger, error) {
	s, err := OpenStore(ctx, name, opts.ReadOnly, false)
	if err != nil {
		return nil, err
	}
	l, err := ledger.Open(ctx, s, opts)
	if err != nil {
		s.Close()
		return nil, err
	}
	return l, nil
}
