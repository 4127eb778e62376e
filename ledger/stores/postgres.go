package stores

import (
	"context"

	"github.com/sealedhq/sealed/ledger"
	"github.com/sealedhq/sealed/ledger/pgstore"
)

// openPostgres opens a pgstore.Store on the connection URL name.
func openPostgres(ctx context.Context, name string, readOnly, create bool) (ledger.Store, error) {
	s, err := pgstore.Open(ctx, name, pgstore.Options{ReadOnly: readOnly, Create: create})
	if err != nil {
		return nil, err
	}
	return s, nil
}
