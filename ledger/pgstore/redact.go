package pgstore

import (
	"net/url"
	"regexp"
	"strings"
)

// redact returns the connection string conn fit to print: in a URL
// (postgres://user:password@host/db?password=...) the password, in the
// userinfo or as a query parameter, becomes "xxxxx"; in the keyword=value
// form (host=... password=...) the password value does. A URL that does
// not parse is not shown at all.
func redact(conn string) string {
	l := strings.ToLower(conn)
	if !strings.HasPrefix(l, "postgres://") && !strings.HasPrefix(l, "postgresql://") {
		return dsnPassword.ReplaceAllString(conn, "${1}xxxxx")
	}
	u, err := url.Parse(conn)
	if err != nil {
		return "postgres://(a connection URL that does not parse)"
	}
	q := u.Query()
	if q.Has("password") {
		q.Set("password", "xxxxx")
		u.RawQuery = q.Encode()
	}
	return u.Redacted()
}

// dsnPassword matches the value of password= in a keyword=value
// connection string: a quoted value (with \' and \\ escapes) or a run of
// non-blank characters.
var dsnPassword = regexp.MustCompile(`(?i)(\bpassword\s*=\s*)('(?:[^'\\]|\\.)*'|\S*)`)

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
