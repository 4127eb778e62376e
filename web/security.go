package web

import (
	"crypto/sha256"
	"crypto/subtle"
	"fmt"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"
	"golang.org/x/time/rate"
)

// ContentSecurityPolicy is the Content-Security-Policy of every answer:
// nothing but the site's own scripts, styles and images, no inline script
// or style, forms only to the site, no <base>, no framing. With no
// connect-src the /hash page cannot send what is typed anywhere.
const ContentSecurityPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

// securityHeaderValues are the security headers of every answer, keyed
// as net/http keeps them (canonical names). The value slices are shared
// by every answer and never written to (each is full: an append to one
// copies it).
var securityHeaderValues = [...]struct {
	key   string
	value []string
}{
	{"X-Content-Type-Options", []string{"nosniff"}[:1:1]},
	{"X-Frame-Options", []string{"DENY"}[:1:1]},
	{"Content-Security-Policy", []string{ContentSecurityPolicy}[:1:1]},
	{"Referrer-Policy", []string{"no-referrer"}[:1:1]},
}

// setSecurityHeaders sets the security headers on h, as echo's Secure
// middleware configured with them would (without allocating):
// Server.ServeHTTP sets them on every answer, errors and unknown paths
// included, before routing.
func setSecurityHeaders(h http.Header) {
	for _, kv := range securityHeaderValues {
		h[kv.key] = kv.value
	}
}

// rateLimit is echo's RateLimiter with its memory store: each client (peer
// IP address) gets perSecond requests a second with a burst of burst;
// over it the answer is 429 with Retry-After. skip, if not nil, exempts
// requests.
func rateLimit(perSecond float64, burst int, skip func(echo.Context) bool) echo.MiddlewareFunc {
	if burst <= 0 {
		burst = max(1, int(perSecond))
	}
	cfg := middleware.RateLimiterConfig{
		Store: middleware.NewRateLimiterMemoryStoreWithConfig(middleware.RateLimiterMemoryStoreConfig{
			Rate: rate.Limit(perSecond), Burst: burst, ExpiresIn: 3 * time.Minute,
		}),
		IdentifierExtractor: func(c echo.Context) (string, error) { return c.RealIP(), nil },
		DenyHandler: func(c echo.Context, _ string, _ error) error {
			c.Response().Header().Set("Retry-After", "1")
			return echo.NewHTTPError(http.StatusTooManyRequests,
				fmt.Sprintf("too many requests: at most %g a second per client (burst %d); retry later", perSecond, burst))
		},
	}
	if skip != nil {
		cfg.Skipper = skip
	}
	return middleware.RateLimiterWithConfig(cfg)
}

// writeEnabled answers 403 when the server was started without what the
// write API needs: a bearer token and a ledger opened with its signer key.
func (s *Server) writeEnabled(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		switch {
		case s.o.Token == "":
			return echo.NewHTTPError(http.StatusForbidden, "the write API is disabled: the server was started without a bearer token (sealed serve --token-file FILE)")
		case s.o.Writer == nil:
			return echo.NewHTTPError(http.StatusForbidden, "the write API is disabled: the server was started without the ledger's signer key (sealed serve --key FILE)")
		}
		return next(c)
	}
}

// bearer is echo's KeyAuth middleware checking "Authorization: Bearer
// TOKEN" against Options.Token in constant time (the SHA-256 of both are
// compared, so the token's length does not show either). A missing or
// wrong token is 401 with WWW-Authenticate.
func (s *Server) bearer() echo.MiddlewareFunc {
	want := sha256.Sum256([]byte(s.o.Token))
	return middleware.KeyAuthWithConfig(middleware.KeyAuthConfig{
		KeyLookup:  "header:" + echo.HeaderAuthorization,
		AuthScheme: "Bearer",
		Validator: func(key string, _ echo.Context) (bool, error) {
			got := sha256.Sum256([]byte(key))
			return subtle.ConstantTimeCompare(got[:], want[:]) == 1, nil
		},
		ErrorHandler: func(_ error, c echo.Context) error {
			c.Response().Header().Set(echo.HeaderWWWAuthenticate, `Bearer realm="sealed"`)
			return echo.NewHTTPError(http.StatusUnauthorized, "missing or wrong bearer token: send Authorization: Bearer TOKEN")
		},
	})
}
