package web

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"
	"github.com/sealedhq/sealed/commit"
	"github.com/sealedhq/sealed/ledger"
	"github.com/sealedhq/sealed/rules/secret"
	"github.com/sealedhq/sealed/verify"
)

// TestCommitmentAnswersMatchReference: the answers of GET
// /api/v1/commitments/{c} and GET /c/{c}, built in pooled views reused
// from one commitment to the next (fewer or more actions, reveals and
// edits than the view held before) with the phase help remembered per
// judgement instant, are byte for byte json.Marshal of a view built
// afresh (viewOf) and the template's page of it, with the Content-Length
// of those bytes; for every commitment of the fixture (with bids and a
// Hand posted in the Bartering Phase: phase help) and of a generated
// ledger, at three instants, in shuffled orders.
func TestCommitmentAnswersMatchReference(t *testing.T) {
	r, err := newRenderer()
	if err != nil {
		t.Fatal(err)
	}
	n, helps := 0, 0
	wrong := newFixture(t)
	for i, p := range []struct{ name, when, player, typ string }{
		{"late-bid-1", "2026-03-07T13:00:00Z", "alice", secret.ActionBid},
		{"late-bid-2", "2026-03-07T14:00:00Z", "bob", secret.ActionBid},
		{"late-hand", "2026-03-07T15:00:00Z", "alice", secret.ActionHand},
	} {
		c := commit.Sum([]byte(fmt.Sprintf("late %d\nsalt: wrong-phase", i)))
		wrong.add(t, p.name, p.when, &ledger.Body{Kind: ledger.KindCommit, Player: p.player, ActionType: p.typ, Channel: "#auctions", Commitment: hex.EncodeToString(c[:])})
	}
	for _, f := range []*fixture{wrong, genFixture(t, 4)} {
		h, err := verify.LoadHistory(f.r)
		if err != nil {
			t.Fatal(err)
		}
		var cs []commit.Commitment
		for _, p := range h.Posts {
			cs = append(cs, p.Commitment)
		}
		now := at(t, "2026-03-04T12:00:00Z")
		s := f.server(t, func(o *Options) { o.Now = func() time.Time { return now } })
		rng := rand.New(rand.NewPCG(3, 3))
		for _, when := range []string{"2026-03-04T12:00:00Z", "2026-03-08T12:00:00Z", "2026-03-09T12:00:00Z", "2026-03-08T12:00:00Z"} {
			now = at(t, when)
			s.judge.invalidate()
			for range 2 {
				rng.Shuffle(len(cs), func(i, j int) { cs[i], cs[j] = cs[j], cs[i] })
				for _, c := range cs {
					jd, idx, err := s.judge.lookup(c)
					if err != nil {
						t.Fatal(err)
					}
					if len(idx) == 0 {
						continue // posted after now
					}
					ref := viewOf(jd, idx, c, s.o.Game)
					wantJSON, err := json.Marshal(ref)
					if err != nil {
						t.Fatal(err)
					}
					wantPage := templatePage(t, r, ref)
					for _, a := range ref.Actions {
						if a.PhaseHelp != "" {
							helps++
						}
					}
					for _, x := range []struct{ path, want, ct string }{
						{"/api/v1/commitments/" + c.String(), string(wantJSON), "application/json"},
						{"/c/" + c.String(), wantPage, "text/html; charset=UTF-8"},
					} {
						w := do(s, http.MethodGet, x.path, "")
						if w.Code != http.StatusOK {
							t.Fatalf("GET %s: %d %s", x.path, w.Code, w.Body)
						}
						if got := w.Body.String(); got != x.want {
							t.Errorf("GET %s at %s:\n got %s\nwant %s", x.path, when, got, x.want)
						}
						if got := w.Header().Get("Content-Length"); got != strconv.Itoa(len(x.want)) {
							t.Errorf("GET %s: Content-Length %s, want %d", x.path, got, len(x.want))
						}
						if got := w.Header().Get("Content-Type"); got != x.ct {
							t.Errorf("GET %s: Content-Type %q, want %q", x.path, got, x.ct)
						}
						checkSecurityHeaders(t, w)
						n++
					}
				}
			}
		}
	}
	if helps == 0 {
		t.Error("no view had phase help")
	}
	t.Logf("%d answers compared, %d actions with phase help", n, helps)
}

// TestCommitmentAnswerSpellings: a commitment asked for in uppercase or
// with a "sha256:" prefix gets the status, every header but none other
// and the bytes of the lowercase answer (the view names the commitment
// in lowercase), for each commitment of the fixture, JSON and page; HEAD
// gets GET's status and headers (net/http drops the body it writes); a hash that is not 64 hex
// digits is 400 and a commitment the ledger lacks 404, with the security
// headers; and the read rate limit holds for the answers (429).
func TestCommitmentAnswerSpellings(t *testing.T) {
	f := newFixture(t)
	now := at(t, "2026-03-09T12:00:00Z")
	s := f.server(t, func(o *Options) { o.Now = func() time.Time { return now } })
	h, err := verify.LoadHistory(f.r)
	if err != nil {
		t.Fatal(err)
	}
	same := func(method, path, refPath string) {
		t.Helper()
		a, b := do(s, method, path, ""), do(s, http.MethodGet, refPath, "")
		if b.Code != http.StatusOK {
			t.Fatalf("GET %s: %d %s", refPath, b.Code, b.Body)
		}
		want := b.Body.String()
		if a.Code != b.Code || a.Body.String() != want {
			t.Errorf("%s %s: %d %q, want %d %q (GET %s)", method, path, a.Code, a.Body, b.Code, want, refPath)
		}
		if ah, bh := a.Header().Clone(), b.Header().Clone(); !reflect.DeepEqual(ah, bh) {
			t.Errorf("%s %s: headers %v, GET %s's %v", method, path, ah, refPath, bh)
		}
	}
	n := 0
	for _, p := range h.Posts {
		if p.IntegratedAt.After(now) {
			continue
		}
		lower := p.Commitment.String()
		for _, route := range []string{"/api/v1/commitments/", "/c/"} {
			same(http.MethodGet, route+strings.ToUpper(lower), route+lower)
			same(http.MethodGet, route+"sha256:"+lower, route+lower)
			same(http.MethodHead, route+lower, route+lower)
			same(http.MethodHead, route+strings.ToUpper(lower), route+lower)
		}
		n++
	}
	if n == 0 {
		t.Fatal("no commitment compared")
	}
	c := h.Posts[0].Commitment.String()
	for path, code := range map[string]int{
		"/c/" + c[:63]:                                   http.StatusBadRequest,
		"/c/" + strings.Repeat("0", 64):                  http.StatusNotFound,
		"/api/v1/commitments/" + c[:10] + "g" + c[11:]:   http.StatusBadRequest,
		"/api/v1/commitments/" + strings.Repeat("0", 64): http.StatusNotFound,
	} {
		w := do(s, http.MethodGet, path, "")
		if w.Code != code {
			t.Errorf("GET %s: %d, want %d", path, w.Code, code)
		}
		checkSecurityHeaders(t, w)
	}
	rl := f.server(t, func(o *Options) { o.Now = func() time.Time { return now }; o.ReadRate, o.ReadBurst = 0.001, 1 })
	if w := do(rl, http.MethodGet, "/c/"+c, ""); w.Code != http.StatusOK {
		t.Fatalf("first read: %d", w.Code)
	}
	if w := do(rl, http.MethodGet, "/api/v1/commitments/"+c, ""); w.Code != http.StatusTooManyRequests {
		t.Errorf("second read past a burst of 1: %d, want 429", w.Code)
	}
}

// TestSecurityHeadersAsEchoSecure: the security headers are those echo's
// Secure middleware sets configured with them, on the answer and on
// errors.
func TestSecurityHeadersAsEchoSecure(t *testing.T) {
	e := echo.New()
	e.Pre(middleware.SecureWithConfig(middleware.SecureConfig{
		ContentTypeNosniff:    "nosniff",
		XFrameOptions:         "DENY",
		ContentSecurityPolicy: ContentSecurityPolicy,
		ReferrerPolicy:        "no-referrer",
	}))
	want := do(e, http.MethodGet, "/nowhere", "").Header()
	got := http.Header{}
	setSecurityHeaders(got)
	delete(want, echo.HeaderContentType)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("security headers %v, echo's Secure %v", got, want)
	}
	s := newFixture(t).server(t, nil)
	for _, path := range []string{"/", "/nowhere", "/c/xyz", "/api/v1/commitments/" + strings.Repeat("0", 64)} {
		w := do(s, http.MethodGet, path, "")
		for k, v := range want {
			if !reflect.DeepEqual(w.Header()[k], v) {
				t.Errorf("GET %s: %s %q, want %q", path, k, w.Header()[k], v)
			}
		}
	}
}

// TestContentLength: the shared Content-Length values are the lengths,
// made once, below the table's size and past it.
func TestContentLength(t *testing.T) {
	for _, n := range []int{0, 1, 1487, len(contentLengths) - 1, len(contentLengths), 1 << 20} {
		for range 2 {
			if v := contentLength(n); len(v) != 1 || v[0] != strconv.Itoa(n) {
				t.Errorf("contentLength(%d) = %q", n, v)
			}
		}
	}
}
