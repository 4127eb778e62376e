package web

import (
	"bytes"
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"
	"github.com/sealedhq/sealed/ledger"
	"github.com/sealedhq/sealed/ledger/stores"
)

// TestStoreUnavailable (newcomer trial 7a, finding 6): with the store
// gone under the site (its connections closed, as a database server
// stopped leaves them), pages and the API answer 503 with Retry-After,
// saying to try again, never 500 "internal error"; a handler's panic is
// still a 500, logged with its stack.
func TestStoreUnavailable(t *testing.T) {
	f := newFixture(t)
	r, err := stores.Open(context.Background(), f.path, ledger.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	var logged bytes.Buffer
	s := f.server(t, func(o *Options) { o.Reader, o.Writer, o.Log = r, nil, &logged })
	commitment := readVector(t, "bid").Commitment
	if w := do(s, "GET", "/api/v1/commitments/"+commitment, ""); w.Code != http.StatusOK {
		t.Fatalf("before: %d %.200s", w.Code, w.Body.String())
	}
	r.Close()
	for _, path := range []string{"/", "/entry/0", "/api/v1/entries/0", "/api/v1/checkpoint", "/api/v1/proofs/inclusion/0", "/tree"} {
		w := do(s, "GET", path, "")
		if w.Code != http.StatusServiceUnavailable || w.Header().Get("Retry-After") == "" || !strings.Contains(w.Body.String(), "try again later") {
			t.Errorf("%s with the store closed: %d (Retry-After %q) %.200s; want 503 saying to try again later", path, w.Code, w.Header().Get("Retry-After"), w.Body.String())
		}
	}
	if !strings.Contains(logged.String(), "database is closed") {
		t.Errorf("the store's error is not logged: %.500s", logged.String())
	}

	logged.Reset()
	s.e.GET("/panics", func(echo.Context) error { panic("boom") })
	if w := do(s, "GET", "/panics", ""); w.Code != http.StatusInternalServerError || !strings.Contains(w.Body.String(), "internal error") || strings.Contains(w.Body.String(), "boom") {
		t.Errorf("a handler's panic: %d %.200s; want 500 internal error, revealing nothing", w.Code, w.Body.String())
	}
	if !strings.Contains(logged.String(), "boom") || !strings.Contains(logged.String(), "goroutine") {
		t.Errorf("the panic is not logged with its stack: %.500s", logged.String())
	}
}
