package memstore_test

import (
	"testing"

	"github.com/sealedhq/sealed/ledger"
	"github.com/sealedhq/sealed/ledger/memstore"
	"github.com/sealedhq/sealed/ledger/storetest"
)

func TestConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T) ledger.Store { return memstore.New() })
}
