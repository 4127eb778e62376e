package pgstore

import (
	"net/url"
	"regexp"
	"strings"

	"github.com/sealedhq/sealed/internal/pgurl"
)

// redact returns the connection string conn fit to print: in a URL
// (postgres://user:password@host/db?password=...) the password, in the
// user information as pgx reads it or as a query parameter, becomes
// "xxxxx", and a URL whose password pgx may read otherwise than written
// is not shown (pgurl.Redact); in the keyword=value form (host=...
// password=...) the values of password and sslpassword do.
func redact(conn string) string {
	if pgurl.Scheme(conn) != "" {
		return pgurl.Redact(conn)
	}
	return dsnPassword.ReplaceAllString(conn, "${1}xxxxx")
}

// dsnPassword matches the value of password= or sslpassword= in a
// keyword=value connection string: a quoted value (with \' and \\
// escapes) or a run of non-blank characters.
var dsnPassword = regexp.MustCompile(`(?i)(\b(?:ssl)?password\s*=\s*)('(?:[^'\\]|\\.)*'|\S*)`)

// redactedError is an error whose message has the connection password
// removed; Unwrap gives the error it wraps, for errors.Is and errors.As.
type redactedError struct {
	msg string
	err error
}

func (e *redactedError) Error() string { return e.msg }
func (e *redactedError) Unwrap() error { return e.err }

// scrub returns err with every occurrence of password (if not empty, as
// it is or URL-escaped) in its message replaced by "xxxxx", keeping err
// in its chain.
func scrub(err error, password string) error {
	if err == nil || password == "" {
		return err
	}
	msg := err.Error()
	for _, p := range []string{password, url.QueryEscape(password), url.PathEscape(password)} {
		msg = strings.ReplaceAll(msg, p, "xxxxx")
	}
	if msg == err.Error() {
		return err
	}
	return &redactedError{msg: msg, err: err}
}
