package web

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"unicode/utf8"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"
	"github.com/sealedhq/sealed/ledger"
)

// httpError is an answer other than 200 that a handler chose: the status,
// a message saying what was wrong and what was expected, and for a 409 the
// index of the entry already in the ledger.
type httpError struct {
	code  int
	msg   string
	index *int64
	// link, with its text linkText, is a page the message points to (an
	// HTML error page shows it; the API's JSON leaves it out).
	link, linkText string
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
	Status         int
	Title          string
	Msg            string
	Link, LinkText string // a page the message points to, or ""
}

// handleError is echo's HTTPErrorHandler. It maps handler and middleware
// errors to their status: our httpError as chosen, echo's HTTPError (404
// unknown path, 405, 413 body limit, 429 rate limit, 401/403) as echo
// says, an error wrapping ledger.ErrTampered (a row that does not check
// out against the signed data) to 409 naming it, a handler's panic
// (panicked, from the Recover middleware) to 500, and any other error
// (the store could not be read or written: a database down or
// unreachable, a disk full) to 503
// with Retry-After; 500 and 503 are logged and their message reveals
// nothing. API paths answer JSON {"error": ...}, pages an HTML page.
func (s *Server) handleError(err error, c echo.Context) {
	if c.Response().Committed {
		return
	}
	code, msg := http.StatusInternalServerError, "internal error"
	var index *int64
	var link, linkText string
	var he *httpError
	var ee *echo.HTTPError
	switch {
	case errors.As(err, &he):
		code, msg, index, link, linkText = he.code, he.msg, he.index, he.link, he.linkText
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
			// The path as the client spelt it when it is not UTF-8 (a
			// page is UTF-8: raw bytes would be echoed into it).
			p := c.Request().URL.Path
			if !utf8.ValidString(p) {
				p = c.Request().URL.EscapedPath()
			}
			msg = "no such page: " + p
		case http.StatusRequestEntityTooLarge:
			msg = fmt.Sprintf("request body larger than the %d bytes allowed", s.o.BodyLimit)
		case http.StatusMethodNotAllowed:
			msg = "method " + c.Request().Method + " not allowed here"
		}
		if code >= 500 {
			s.log.Printf("%s %s: %v", c.Request().Method, c.Request().URL.Path, err)
			msg = "internal error"
		}
	case errors.As(err, new(panicked)):
		// Already logged with its stack by the Recover middleware.
	default:
		// What is left is the store failing to answer (every handler
		// error that is the request's fault is an httpError): the site
		// is unavailable for now, not broken.
		s.log.Printf("%s %s: %v", c.Request().Method, c.Request().URL.Path, err)
		code, msg = http.StatusServiceUnavailable, "the ledger's store could not be read or written just now; try again later"
		c.Response().Header().Set("Retry-After", "5")
	}
	if c.Request().Method == http.MethodHead {
		c.NoContent(code)
		return
	}
	if strings.HasPrefix(c.Request().URL.Path, "/api/") {
		c.JSON(code, apiErrorBody{Error: msg, Index: index})
		return
	}
	if rerr := c.Render(code, "error", errorPage{Status: code, Title: http.StatusText(code), Msg: msg, Link: link, LinkText: linkText}); rerr != nil {
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

// panicked is a handler's panic as the Recover middleware hands it to
// handleError (500: a fault of the server, not of the store).
type panicked struct{ err error }

func (p panicked) Error() string { return "panic: " + p.err.Error() }

// recoverConfig is the Recover middleware's: a panic is logged with its
// stack on log and answered 500 (panicked).
func recoverConfig(log interface{ Printf(string, ...any) }) middleware.RecoverConfig {
	return middleware.RecoverConfig{
		LogErrorFunc: func(c echo.Context, err error, stack []byte) error {
			log.Printf("%s %s: panic: %v\n%s", c.Request().Method, c.Request().URL.Path, err, stack)
			return panicked{err}
		},
	}
}
