package sqlitestore_test

import (
	"path/filepath"
	"testing"

	"github.com/sealedhq/sealed/ledger"
	"github.com/sealedhq/sealed/ledger/sqlitestore"
	"github.com/sealedhq/sealed/ledger/storetest"
)

func TestConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T) ledger.Store {
		s, err := sqlitestore.Open(filepath.Join(t.TempDir(), "t.db"), sqlitestore.Options{Create: true})
		if err != nil {
			t.Fatal(err)
		}
		return s
	})
}
