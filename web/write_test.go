package web

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// TestWriteAPI: POST /api/v1/entries answers 201, 400, 401, 403, 409 and
// 413 as the issue specifies, and a new commitment shows at once.
func TestWriteAPI(t *testing.T) {
	f := newFixture(t)
	// More POSTs than the default burst; TestRateLimit checks the limit.
	s := f.server(t, func(o *Options) { o.BodyLimit, o.WriteRate, o.WriteBurst = 1024, 1e6, 1e6 })
	// sha256 of the empty string (`printf '' | sha256sum`), a commitment
	// nobody in the fixture posted.
	const c = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
	entry := `{"kind":"commit","player":"zoe","action_type":"bid","channel":"#auctions","commitment":"` + c + `"}`
	auth := []string{"Authorization", "Bearer " + testToken, "Content-Type", "application/json"}
	type answer struct {
		Error string `json:"error"`
		Index *int64 `json:"index"`
	}
	post := func(body string, header ...string) (int, answer, http.Header) {
		w := do(s, "POST", "/api/v1/entries", body, header...)
		var a answer
		if ct := w.Header().Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
			t.Errorf("content type %q, want application/json", ct)
		}
		if err := json.Unmarshal(w.Body.Bytes(), &a); err != nil {
			t.Errorf("answer %d is not JSON: %v: %s", w.Code, err, w.Body.String())
		}
		return w.Code, a, w.Header()
	}

	if code, a, h := post(entry); code != 401 || a.Error == "" || h.Get("WWW-Authenticate") == "" {
		t.Errorf("no token: %d %+v, want 401 with WWW-Authenticate", code, a)
	}
	if code, _, _ := post(entry, "Authorization", "Bearer wrong-token-wrong-token"); code != 401 {
		t.Errorf("wrong token: %d, want 401", code)
	}
	if code, _, _ := post(entry, "Authorization", testToken); code != 401 {
		t.Errorf("token without the Bearer scheme: %d, want 401", code)
	}
	code, a, _ := post(entry, auth...)
	if code != 201 || a.Index == nil || *a.Index != 9 {
		t.Fatalf("append: %d %+v, want 201 at index 9", code, a)
	}
	// The judgement is recomputed after the server's own append.
	if w := do(s, "GET", "/api/v1/commitments/"+c, ""); w.Code != 200 || !strings.Contains(w.Body.String(), `"player":"zoe"`) {
		t.Errorf("lookup after append: %d %s", w.Code, w.Body.String())
	}
	if code, a, _ := post(entry, auth...); code != 409 || a.Index == nil || *a.Index != 9 {
		t.Errorf("duplicate: %d %+v, want 409 naming index 9", code, a)
	}
	for name, body := range map[string]string{
		"not JSON":             `{"kind":`,
		"unknown kind":         `{"kind":"bribe"}`,
		"missing field":        `{"kind":"commit","player":"zoe"}`,
		"unknown field":        strings.Replace(entry, `"kind"`, `"colour":"red","kind"`, 1),
		"bad commitment":       strings.Replace(entry, c, "zz", 1),
		"missing commit":       `{"kind":"reveal","commit":500,"player":"zoe","text":"x"}`,
		"wrong kind ref":       `{"kind":"reveal","commit":6,"player":"zoe","text":"x"}`,
		"integrated_at":        strings.Replace(entry, `"kind"`, `"integrated_at":"2026-01-01T00:00:00Z","kind"`, 1),
		"array":                `[]`,
		"empty":                ``,
		"posted in the future": strings.Replace(entry, `"kind"`, `"posted_at":"2099-01-01T00:00:00Z","kind"`, 1),
	} {
		if code, a, _ := post(body, auth...); code != 400 || a.Error == "" {
			t.Errorf("%s: %d %+v, want 400 with an error", name, code, a)
		}
	}
	// Duplicate member names (RFC 7493 section 2.3) are refused, not
	// "last wins".
	if code, a, _ := post(strings.Replace(entry, `"kind":"commit"`, `"kind":"commit","kind":"commit"`, 1), auth...); code != 400 || !strings.Contains(a.Error, `the member "kind" appears twice`) {
		t.Errorf("duplicate member: %d %+v, want 400", code, a)
	}
	// Only application/json is an entry body (415 otherwise, with a JSON
	// error): curl -d alone sends application/x-www-form-urlencoded.
	for _, ct := range []string{"text/plain", "application/x-www-form-urlencoded", "", "application/json; charset=latin1", "application/jsonx"} {
		h := []string{"Authorization", "Bearer " + testToken}
		if ct != "" {
			h = append(h, "Content-Type", ct)
		}
		if code, a, _ := post(strings.Replace(entry, "zoe", "yves", 1), h...); code != 415 || !strings.Contains(a.Error, "expected application/json") {
			t.Errorf("Content-Type %q: %d %+v, want 415", ct, code, a)
		}
	}
	if code, a, _ := post(strings.Replace(entry, "zoe", "yves", 1), "Authorization", "Bearer "+testToken, "Content-Type", "application/json; charset=UTF-8"); code != 201 {
		t.Errorf("application/json; charset=UTF-8: %d %+v, want 201", code, a)
	}
	big := `{"kind":"commit","player":"` + strings.Repeat("z", 2000) + `"}`
	if code, a, _ := post(big, auth...); code != 413 || !strings.Contains(a.Error, "1024 bytes") {
		t.Errorf("oversize: %d %+v, want 413", code, a)
	}

	for name, change := range map[string]func(*Options){
		"no token": func(o *Options) { o.Token = "" },
		"no key":   func(o *Options) { o.Writer = nil },
	} {
		s2 := f.server(t, change)
		w := do(s2, "POST", "/api/v1/entries", entry, auth...)
		if w.Code != 403 || !strings.Contains(w.Body.String(), "the write API is disabled") {
			t.Errorf("%s: %d %s, want 403", name, w.Code, w.Body.String())
		}
	}
}

// TestRateLimit: past its burst a client gets 429 with Retry-After, on the
// write API and on /verify; reads stay unlimited by default.
func TestRateLimit(t *testing.T) {
	f := newFixture(t)
	s := f.server(t, func(o *Options) { o.WriteRate, o.WriteBurst = 0.001, 2 })
	auth := []string{"Authorization", "Bearer " + testToken, "Content-Type", "application/json"}
	var codes []int
	for range 3 {
		codes = append(codes, do(s, "POST", "/api/v1/entries", `{"kind":"bribe"}`, auth...).Code)
	}
	if codes[0] != 400 || codes[1] != 400 || codes[2] != 429 {
		t.Errorf("three writes with a burst of 2: %v, want [400 400 429]", codes)
	}
	w := do(s, "POST", "/verify", "hash=x&reveal=y", "Content-Type", "application/x-www-form-urlencoded")
	if w.Code != 429 || w.Header().Get("Retry-After") == "" {
		t.Errorf("/verify over the limit: %d, Retry-After %q", w.Code, w.Header().Get("Retry-After"))
	}
	for range 50 {
		if w := do(s, "GET", "/api/v1/checkpoint", ""); w.Code != 200 {
			t.Fatalf("read: %d", w.Code)
		}
	}
	// Another client has its own budget.
	req := httptestRequest("POST", "/api/v1/entries", `{"kind":"bribe"}`, "192.0.2.7:1234", auth...)
	if code := serve(s, req).Code; code != 400 {
		t.Errorf("another client: %d, want 400", code)
	}

	s2 := f.server(t, func(o *Options) { o.ReadRate, o.ReadBurst = 0.001, 1 })
	if a, b := do(s2, "GET", "/", "").Code, do(s2, "GET", "/", "").Code; a != 200 || b != 429 {
		t.Errorf("read limit 1: %d then %d, want 200 then 429", a, b)
	}
}
