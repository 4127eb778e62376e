package web

import (
	"errors"

	"github.com/labstack/echo/v4"
	"github.com/sealedhq/sealed/ledger"
)

// verifiedCheckpoint serves the tlog-tiles checkpoint (h) only when the
// stored latest checkpoint verifies under the ledger's key and matches its
// row (ledger.Ledger.LatestCheckpoint checks both, remembering notes it
// has verified): an altered note is a 409 naming it, never served.
func (s *Server) verifiedCheckpoint(h echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if _, err := s.o.Reader.LatestCheckpoint(); err != nil && !errors.Is(err, ledger.ErrNotFound) {
			return err
		}
		return h(c)
	}
}
