package web

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"
	"github.com/sealedhq/sealed/ledger"
)

// httpError is an answer other than 200 that a handler chose: the status,
// a message saying what was wrong and what was expected, and for a 409 the
// index of the entry already in the ledger.
type httpError struct {
	code  int
	msg   string
	index *int64
}

func (e *httpError) Error() string { return e.msg }

func errorf(code int, format string, args ...any) *httpError {
	return &httpError{code: code, msg: fmt.Sprintf(format, args...)}
}

// badRequest is a 400: the input is malformed.
func badRequest(format string, args ...any) *httpError {
	return errorf(http.StatusBadRequest, format, args...)
}

// notFound is a 404: well-formed input naming nothing the ledger holds.
func notFound(format string, args ...any) *httpError {
	return errorf(http.StatusNotFound, format, args...)
}

// apiErrorBody is the JSON of every API error: {"error": "..."}, and for a
// duplicate entry {"error": "...", "index": N}.
type apiErrorBody struct {
	Error string `json:"error"`
	Index *int64 `json:"index,omitempty"`
}

// errorPage is the data of the HTML error page.
type errorPage struct {
	Status int
	Title  string
	Msg    string
}

// handleError is echo's HTTPErrorHandler. It maps handler and middleware
// errors to their status: our httpError as chosen, echo's HTTPError (404
// unknown path, 405, 413 body limit, 429 rate limit, 401/403) as echo
// says, an error wrapping ledger.ErrTampered (a row that does not check
// out against the signed data) to 409 naming it, and anything else to 500, logged, with a message that reveals
// nothing. API paths answer JSON {"error": ...}, pages an HTML page.
func (s *Server) handleError(err error, c echo.Context) {
	if c.Response().Committed {
		return
	}
	code, msg := http.StatusInternalServerError, "internal error"
	var index *int64
	var he *httpError
	var ee *echo.HTTPError
	switch {
	case errors.As(err, &he):
		code, msg, index = he.code, he.msg, he.index
	case errors.Is(err, ledger.ErrTampered):
		// What the store holds does not check out against the signed
		// data: say so (409) rather than serve it or fail with a 500.
		code, msg = http.StatusConflict, "nothing is served from this ledger's altered data: "+err.Error()
		s.o.Log.Write([]byte("sealed serve: tampered data: " + err.Error() + "\n"))
	case errors.As(err, &ee):
		code = ee.Code
		if m, ok := ee.Message.(string); ok {
			msg = m
		} else {
			msg = http.StatusText(code)
		}
		switch code {
		case http.StatusNotFound:
			msg = "no such page: " + c.Request().URL.Path
		case http.StatusRequestEntityTooLarge:
			msg = fmt.Sprintf("request body larger than the %d bytes allowed", s.o.BodyLimit)
		case http.StatusMethodNotAllowed:
			msg = "method " + c.Request().Method + " not allowed here"
		}
		if code >= 500 {
			s.log.Printf("%s %s: %v", c.Request().Method, c.Request().URL.Path, err)
			msg = "internal error"
		}
	default:
		s.log.Printf("%s %s: %v", c.Request().Method, c.Request().URL.Path, err)
	}
	if c.Request().Method == http.MethodHead {
		c.NoContent(code)
		return
	}
	if strings.HasPrefix(c.Request().URL.Path, "/api/") {
		c.JSON(code, apiErrorBody{Error: msg, Index: index})
		return
	}
	if rerr := c.Render(code, "error", errorPage{Status: code, Title: http.StatusText(code), Msg: msg}); rerr != nil {
		s.log.Printf("rendering the error page: %v", rerr)
		c.String(code, msg)
	}
}

// readBody reads the request body under the body limit: over it the
// answer is 413 (the limit's own error), a body that cannot be read is 400.
func readBody(c echo.Context) ([]byte, error) {
	b, err := io.ReadAll(c.Request().Body)
	if err != nil {
		var ee *echo.HTTPError
		if errors.As(err, &ee) {
			return nil, ee
		}
		return nil, badRequest("cannot read the request body: %v", err)
	}
	return b, nil
}
