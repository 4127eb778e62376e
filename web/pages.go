package web

import (
	"net/http"

	"github.com/labstack/echo/v4"
	"github.com/sealedhq/sealed/rules/secret"
)

// hashView is the /hash page's data.
type hashView struct {
	// PhaseNote says when a bid counts (PhaseNote for "bid" at the
	// server's now): a hash posted outside the Auction Phase fails.
	PhaseNote string
}

// hashPage is GET /hash: the in-browser hashing page (static/hash.js).
// Its inputs have no name attribute, so even a submission without script
// would carry none of the text. It says when a bid counts (PhaseNote).
func (s *Server) hashPage(c echo.Context) error {
	return c.Render(http.StatusOK, "hash", hashView{PhaseNote: PhaseNote(s.o.Game, secret.ActionBid, s.o.Now())})
}
