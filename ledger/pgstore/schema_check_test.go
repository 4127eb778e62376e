package pgstore_test

import (
	"bytes"
	"context"
	"flag"
	"os"
	"testing"

	"github.com/sealedhq/sealed/internal/pgtest"
	"github.com/sealedhq/sealed/ledger/pgstore"
)

var updateCatalog = flag.Bool("update-catalog", false, "write schema_catalog.json from a fresh database")

// TestSchemaCatalog: schema_catalog.json, the reference the schema check
// compares a ledger's catalog with, is what PostgreSQL's catalog says
// right after schema.sql's migrations 1..k are applied to an empty
// database, for every k.
func TestSchemaCatalog(t *testing.T) {
	got, err := pgstore.FreshCatalogs(context.Background(), pgtest.Shared(t).NewDatabase(t))
	if err != nil {
		t.Fatal(err)
	}
	if *updateCatalog {
		if err := os.WriteFile("schema_catalog.json", got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if !bytes.Equal(got, pgstore.CatalogJSON) {
		t.Errorf("schema_catalog.json is not the catalog the migrations make in a fresh database; run go test ./ledger/pgstore -run TestSchemaCatalog -update-catalog\ngot:\n%s", got)
	}
}
