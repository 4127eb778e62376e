package pgstore

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
)

// Setting returns the value of the run-time parameter name on one of the
// store's pooled connections (SHOW), for tests of the session settings.
func Setting(s *Store, name string) (string, error) {
	var v string
	err := s.pool.QueryRow(context.Background(), `SELECT current_setting($1)`, name).Scan(&v)
	return v, err
}

// FreshCatalogs applies the migrations of schema.sql one at a time to
// the empty database at url and returns the catalog read after each
// (readCatalog), encoded as schema_catalog.json holds them.
func FreshCatalogs(ctx context.Context, url string) ([]byte, error) {
	ms, err := schemaMigrations()
	if err != nil {
		return nil, err
	}
	c, err := pgx.Connect(ctx, url)
	if err != nil {
		return nil, err
	}
	defer c.Close(ctx)
	cs := map[int]*catalog{}
	for _, m := range ms {
		if _, err := c.Exec(ctx, m.SQL); err != nil {
			return nil, fmt.Errorf("migration %d: %w", m.Version, err)
		}
		if cs[m.Version], err = readCatalog(ctx, c); err != nil {
			return nil, err
		}
	}
	return marshalCatalogs(cs)
}

// CatalogJSON is schema_catalog.json as embedded.
var CatalogJSON = catalogJSON
