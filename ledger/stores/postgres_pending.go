package stores

import (
	"context"
	"errors"

	"github.com/sealedhq/sealed/ledger"
)

// TEMPORARY until ledger/pgstore lands.
func openPostgres(ctx context.Context, name string, readOnly, create bool) (ledger.Store, error) {
	return nil, errors.New("postgres: not built yet")
}
