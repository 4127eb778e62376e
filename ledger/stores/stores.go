package stores

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/sealedhq/sealed/ledger"
	"github.com/sealedhq/sealed/ledger/sqlitestore"
)

// IsURL reports whether name is a PostgreSQL connection URL (postgres://
// or postgresql://, any case) rather than a SQLite file path.
func IsURL(name string) bool {
	l := strings.ToLower(name)
	return strings.HasPrefix(l, "postgres://") || strings.HasPrefix(l, "postgresql://")
}

// Redact returns name fit to print: a connection URL with its password
// replaced by "xxxxx" (a password given as a query parameter too); a
// path as it is.
func Redact(name string) string {
	if !IsURL(name) {
		return name
	}
	u, err := url.Parse(name)
	if err != nil {
		return "postgres://(a connection URL that does not parse)"
	}
	q := u.Query()
	if q.Has("password") {
		q.Set("password", "xxxxx")
		u.RawQuery = q.Encode()
	}
	return u.Redacted()
}

// OpenStore opens the store named by name (see the package doc). create
// makes a new one (a new SQLite file; on PostgreSQL, the schema in an
// empty database); readOnly refuses every write.
func OpenStore(ctx context.Context, name string, readOnly, create bool) (ledger.Store, error) {
	if name == "" {
		return nil, errors.New("no ledger named: expected a SQLite file path or a postgres:// URL")
	}
	if IsURL(name) {
		return openPostgres(ctx, name, readOnly, create)
	}
	s, err := sqlitestore.Open(name, sqlitestore.Options{ReadOnly: readOnly, Create: create})
	if err != nil {
		return nil, err
	}
	return s, nil
}

// Init creates a new ledger at name with the given origin and a new key
// pair, the private key written to keyFile (ledger.Create). It refuses a
// SQLite file that exists, a PostgreSQL database that already holds a
// ledger, and an existing key file; on failure it removes the SQLite
// file it made. It returns the verifier key.
func Init(ctx context.Context, name, origin, keyFile string) (string, error) {
	if !IsURL(name) {
		ap, _ := filepath.Abs(name)
		ak, _ := filepath.Abs(keyFile)
		if ap == ak {
			return "", fmt.Errorf("the key file must be outside the database: both are %s", name)
		}
		if _, err := os.Lstat(name); err == nil {
			return "", fmt.Errorf("%s already exists: refusing to overwrite it", name)
		}
	}
	if _, err := os.Lstat(keyFile); err == nil {
		return "", fmt.Errorf("%s already exists: refusing to overwrite it", keyFile)
	}
	s, err := OpenStore(ctx, name, false, true)
	if err != nil {
		return "", err
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
