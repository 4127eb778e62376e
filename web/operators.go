package web

import (
	"net/http"

	"github.com/labstack/echo/v4"
	"github.com/sealedhq/sealed/verify"
)

// operatorsView is the /operators page: seed commitments per operator and
// the matches each abandoned (verify.AbandonedMatches at Options.Now).
type operatorsView struct {
	Operators []verify.OperatorMatches
}

// operatorsPage serves /operators. It reads the whole ledger (O(n)).
func (s *Server) operatorsPage(c echo.Context) error {
	ops, err := verify.AbandonedMatches(s.o.Reader, s.o.Now())
	if err != nil {
		return err
	}
	return c.Render(http.StatusOK, "operators", operatorsView{Operators: ops})
}
