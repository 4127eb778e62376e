package web

import (
	"bytes"
	"fmt"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
)

// junk are inputs no route expects.
var junk = []string{
	"", " ", "-1", "0", "1", "007", "99999999999999999999999999", "9223372036854775807", "-9223372036854775808",
	"1e3", "0x10", "１", "ü", "\x00", "\xff\xfe", "%", "%zz", "..", "../..", "..%2f..%2fetc%2fpasswd", "/etc/passwd",
	"sha256:", "SHA256:" + strings.Repeat("g", 64), strings.Repeat("a", 63), strings.Repeat("a", 65), strings.Repeat("A", 64),
	strings.Repeat("a", 64) + "\n", "<script>alert(1)</script>", `"'><img src=x onerror=alert(1)>`, "{{.}}", "null", "[]", "{}",
	strings.Repeat("x", 4000), "a b", "a\r\nb",
}

// junkBodies are request bodies no route expects.
var junkBodies = []string{
	"", "{", "}", "null", "true", "0", "[]", `""`, "{}", `{"kind":null}`, `{"kind":"commit"}`, `{"kind":"reveal","commit":-1,"player":"p","text":"t"}`,
	`{"kind":"reveal","commit":1e30,"player":"p","text":"t"}`, `{"kind":"seed-reveal","seed_commit":0,"seed":"zz"}`,
	`{"kind":"result","game":"chess","match_id":"m","replay_sha256":"` + strings.Repeat("a", 64) + `","summary":[]}`,
	strings.Repeat("[", 5000) + strings.Repeat("]", 5000), "\xff\xfe\x00garbage", `{"commitment":"x","reveal":7}`,
	`{"commitment":"` + strings.Repeat("a", 64) + `","reveal":"x","extra":1}`, "hash=&reveal=", "hash=%zz&reveal=%",
	`{"kind":"commit","player":"\u0000","action_type":"bid","channel":"#a","commitment":"` + strings.Repeat("a", 64) + `"}`,
}

// TestJunkNeverServerError throws junk at every route, in the path, the
// query and the body, and requires an answer below 500 (bad input is the
// client's fault) with the security headers.
func TestJunkNeverServerError(t *testing.T) {
	f := newFixture(t)
	s := f.server(t, func(o *Options) { o.WriteRate, o.WriteBurst = 1e6, 1e6 })
	paths := []string{"/c/%s", "/entry/%s", "/replay/%s", "/static/%s", "/api/v1/entries/%s", "/api/v1/commitments/%s",
		"/api/v1/proofs/inclusion/%s", "/api/v1/replays/%s/report", "/%s"}
	queries := []string{"/search?q=%s", "/ledger?page=%s", "/verify?hash=%s", "/api/v1/entries?from=%s", "/api/v1/entries?n=%s",
		"/api/v1/entries?from=1&n=%s", "/api/v1/proofs/consistency?size1=%s", "/api/v1/proofs/consistency?size1=1&size2=%s",
		"/api/v1/proofs/inclusion/1?size=%s", "/?q=%s"}
	n := 0
	check := func(method, target string, body []byte, header ...string) {
		t.Helper()
		n++
		req := httptest.NewRequest(method, "/", bytes.NewReader(body))
		u, err := url.ParseRequestURI(target)
		if err != nil {
			return // not a request a client can send
		}
		req.URL, req.RequestURI = u, target
		for i := 0; i+1 < len(header); i += 2 {
			req.Header.Set(header[i], header[i+1])
		}
		w := serve(s, req)
		if w.Code >= 500 || w.Code < 200 {
			t.Errorf("%s %q: status %d: %s", method, target, w.Code, w.Body.String())
		}
		if w.Header().Get("Content-Security-Policy") == "" {
			t.Errorf("%s %q: no Content-Security-Policy", method, target)
		}
	}
	for _, j := range junk {
		for _, p := range paths {
			check("GET", fmt.Sprintf(p, url.PathEscape(j)), nil)
			check("GET", fmt.Sprintf(p, j), nil) // raw, where it parses
		}
		for _, q := range queries {
			check("GET", fmt.Sprintf(q, url.QueryEscape(j)), nil)
		}
	}
	auth := []string{"Authorization", "Bearer " + testToken, "Content-Type", "application/json"}
	formCT := []string{"Content-Type", "application/x-www-form-urlencoded"}
	for _, b := range junkBodies {
		check("POST", "/api/v1/entries", []byte(b), auth...)
		check("POST", "/api/v1/entries", []byte(b))
		check("POST", "/api/v1/verify", []byte(b))
		check("POST", "/verify", []byte(b), formCT...)
		check("POST", "/verify", []byte(b), "Content-Type", "multipart/form-data; boundary=x")
		check("PUT", "/api/v1/entries", []byte(b), auth...)
		check("POST", "/", []byte(b))
	}
	for _, j := range junk {
		check("POST", "/verify", []byte("hash="+url.QueryEscape(j)+"&reveal="+url.QueryEscape(j)), formCT...)
		check("POST", "/api/v1/verify", []byte(`{"commitment":"`+strings.ReplaceAll(j, `"`, `\"`)+`","reveal":"x"}`))
	}
	t.Logf("%d requests", n)
}
