package tiles_test

import (
	"errors"

	"github.com/sealedhq/sealed/ledger"
	"github.com/sealedhq/sealed/ledger/tiles"
)

func asBodyError(err error, be **ledger.BodyError) bool   { return errors.As(err, be) }
func asLeaf(err error, le **tiles.LeafTooLargeError) bool { return errors.As(err, le) }
