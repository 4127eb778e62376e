// Package pgurl reads PostgreSQL connection URLs the way pgx (and libpq)
// does, for the few decisions sealed makes about one before pgx sees it:
// whether a name is a URL at all ([IsURL]), the spelling pgx accepts
// ([Normalize]), whether its parts are unambiguous ([Check]), and how to
// print it without its password ([Redact]).
//
// pgx v5 parses a URL with libpq's grammar, not RFC 3986's: the user
// name and password end at the first '@' before a '/', the password at
// the first ':' of that part, and '#' has no special meaning. A URL
// whose scheme is not the lowercase "postgres://" or "postgresql://" is
// not a URL to pgx: it parses the whole string as keyword=value pairs
// and sends the unknown "keyword" (the URL, password included) to the
// default server as a startup parameter.
package pgurl

import (
	"errors"
	"net/url"
	"regexp"
	"strings"
)

// Hidden is what [Redact] prints for a URL it cannot show safely: one
// whose parts pgx may read otherwise than its writer meant (see [Check]).
const Hidden = "(a connection URL not shown)"

// schemeRE matches a URL's scheme and "://" at the start of a string
// (RFC 3986's scheme characters).
var schemeRE = regexp.MustCompile(`^([A-Za-z][A-Za-z0-9+.-]*)://`)

// Scheme returns the scheme of s, lowercased, if s starts with
// SCHEME:// (any scheme), else "".
func Scheme(s string) string {
	m := schemeRE.FindStringSubmatch(s)
	if m == nil {
		return ""
	}
	return strings.ToLower(m[1])
}

// IsURL reports whether s is a PostgreSQL connection URL: it starts with
// postgres:// or postgresql://, in any case.
func IsURL(s string) bool {
	sc := Scheme(s)
	return sc == "postgres" || sc == "postgresql"
}

// Normalize returns s with its scheme lowercased (Postgres://... becomes
// postgres://...), the only spelling pgx parses as a URL; a string
// without a scheme is returned as it is.
func Normalize(s string) string {
	m := schemeRE.FindStringSubmatchIndex(s)
	if m == nil {
		return s
	}
	return strings.ToLower(s[:m[3]]) + s[m[3]:]
}

// ErrAmbiguous is wrapped by [Check]'s error.
var ErrAmbiguous = errors.New("the connection URL is ambiguous")

// Check returns an error wrapping [ErrAmbiguous] if pgx may read the URL
// s otherwise than its writer meant, which is also when [Redact] does not
// show it: an '@' anywhere but at the end of the user name and password
// ("u:p@ss@host": pgx takes the password "p" and the host "ss@host";
// "u:pa/ss@host": the host "u" and the database "ss@host"; an '@' in a
// query parameter is written %40), a port that is not a number
// ("u:secret/db": the host "u", the port "secret"), a query parameter
// without '=' or with two, an empty password parameter ("password=&x":
// a password holding '&' is written %26). The error does not show s. A string that is not a URL
// (see [Scheme]) gives nil.
func Check(s string) error {
	if _, ok := redactURL(s); !ok {
		return ErrAmbiguous
	}
	return nil
}

// ConnStringHidden is what [Redact] prints for a keyword/value connection
// string ([IsConnString]), which may hold a password anywhere.
const ConnStringHidden = "(a keyword=value connection string, not shown)"

// connKeyRE matches a libpq connection keyword and '=' at the start of a
// string (white space allowed around them, as libpq allows it).
var connKeyRE = regexp.MustCompile(`^\s*(?:host|hostaddr|port|dbname|user|password|passfile|service|sslmode|sslpassword|sslcert|sslkey|sslrootcert|connect_timeout|application_name|options|target_session_attrs)\s*=`)

// IsConnString reports whether s reads as a libpq keyword/value connection
// string ("host=/run/postgresql dbname=sealed password=..."): it starts
// with one of libpq's connection keywords and '='. pgx and psql accept
// that form; sealed takes PostgreSQL only as a URL, and such a string is
// neither a URL nor a sensible file name.
func IsConnString(s string) bool {
	return Scheme(s) == "" && connKeyRE.MatchString(s)
}

// Redact returns s fit to print: in a URL (SCHEME://..., any scheme) the
// password of the user information (as pgx reads it) and the values of
// the password and sslpassword query parameters become "xxxxx"; a URL
// that [Check] refuses is not shown at all (SCHEME:// and [Hidden]), nor
// is a keyword/value connection string ([ConnStringHidden]). Any other
// string without a scheme is returned as it is.
func Redact(s string) string {
	if IsConnString(s) {
		return ConnStringHidden
	}
	r, ok := redactURL(s)
	if !ok {
		return s[:len(Scheme(s))+3] + Hidden
	}
	return r
}

// redactURL returns s with its passwords redacted, and false if s is a
// URL whose password cannot be told apart from its other parts. A string
// without a scheme is returned as it is, with true.
func redactURL(s string) (string, bool) {
	m := schemeRE.FindStringIndex(s)
	if m == nil {
		return s, true
	}
	var b strings.Builder
	b.WriteString(s[:m[1]])
	p := s[m[1]:]
	// User information: as pgx, up to the first '@' before a '/'.
	if i := strings.IndexAny(p, "@/"); i >= 0 && p[i] == '@' {
		user, pw, _ := strings.Cut(p[:i], ":")
		b.WriteString(user)
		if pw != "" {
			b.WriteString(":xxxxx")
		}
		b.WriteByte('@')
		p = p[i+1:]
	}
	// An '@' past the user information is part of a password pgx cut
	// short, or holding a '/' ("u:pa/ss@host": no user information to
	// pgx); a port that is not a number is a password without a host
	// ("u:secret/db").
	if strings.Contains(p, "@") {
		return "", false
	}
	rest, query, hasQuery := strings.Cut(p, "?")
	netloc, _, _ := strings.Cut(rest, "/")
	for _, h := range strings.Split(netloc, ",") {
		if strings.HasPrefix(h, "[") {
			end := strings.IndexByte(h, ']')
			if end < 0 {
				continue // pgx refuses it; nothing secret in it
			}
			h = h[end+1:]
			if h != "" && h[0] != ':' {
				continue
			}
		}
		if _, port, ok := strings.Cut(h, ":"); ok && strings.Trim(port, "0123456789") != "" {
			return "", false
		}
	}
	b.WriteString(rest)
	if !hasQuery {
		return b.String(), true
	}
	b.WriteByte('?')
	for i, pair := range strings.Split(query, "&") {
		if i > 0 {
			b.WriteByte('&')
		}
		k, v, ok := strings.Cut(pair, "=")
		if (!ok && pair != "") || strings.Contains(v, "=") {
			return "", false // pgx refuses it; part of a password?
		}
		if dk, err := url.PathUnescape(k); err == nil {
			k = dk
		}
		if l := strings.ToLower(strings.TrimSpace(k)); l == "password" || l == "sslpassword" {
			if v == "" {
				return "", false // a password holding '&'?
			}
			pair = pair[:len(pair)-len(v)] + "xxxxx"
		}
		b.WriteString(pair)
	}
	return b.String(), true
}
