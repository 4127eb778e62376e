package stores

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/sealedhq/sealed/ledger"
	"github.com/sealedhq/sealed/ledger/pgstore"
)

// openPostgres opens a pgstore.Store on the connection URL name (its
// scheme lowercased), its errors of connection, login and missing
// database wrapping ErrConnect, ErrLogin and ErrNoDatabase.
func openPostgres(ctx context.Context, name string, readOnly, create bool) (ledger.Store, error) {
	s, err := pgstore.Open(ctx, name, pgstore.Options{ReadOnly: readOnly, Create: create})
	if err != nil {
		return nil, classify(err)
	}
	return s, nil
}

// classify returns err wrapping the kind of a connection failure, if it
// is one (see ErrConnect), or err.
func classify(err error) error {
	var pe *pgconn.PgError
	var ce *pgconn.ConnectError
	switch {
	case errors.As(err, &pe) && pe.Code == "3D000": // invalid_catalog_name
		return &kindError{err, ErrNoDatabase}
	case errors.As(err, &pe) && len(pe.Code) == 5 && pe.Code[:2] == "28": // invalid_authorization_specification, invalid_password
		return &kindError{err, ErrLogin}
	case errors.As(err, &ce):
		return &kindError{err, ErrConnect}
	}
	return err
}
