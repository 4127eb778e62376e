package web

import (
	"net/http"

	"github.com/labstack/echo/v4"
)

// hashPage is GET /hash: the in-browser hashing page (static/hash.js).
// Its inputs have no name attribute, so even a submission without script
// would carry none of the text.
func (s *Server) hashPage(c echo.Context) error {
	return c.Render(http.StatusOK, "hash", nil)
}
