package web

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"unicode/utf8"
)

// fuzzRequest turns a fuzz input into a request as the net/http server
// would read it off the wire: a GET of target, or a POST of body to one
// of the three routes that read a body (op picks which). ok is false for
// what net/http itself refuses (a target that is no request-target).
func fuzzRequest(op uint8, target, body string) (*http.Request, bool) {
	var raw string
	switch op % 4 {
	case 0:
		raw = "GET " + target + " HTTP/1.1\r\nHost: sealed.example\r\n\r\n"
	case 1:
		raw = "POST /api/v1/verify HTTP/1.1\r\nHost: sealed.example\r\nContent-Type: application/json\r\n"
	case 2:
		raw = "POST /verify HTTP/1.1\r\nHost: sealed.example\r\nContent-Type: application/x-www-form-urlencoded\r\n"
	case 3:
		raw = "POST /api/v1/entries HTTP/1.1\r\nHost: sealed.example\r\nContent-Type: application/json\r\nAuthorization: Bearer " + testToken + "\r\n"
	}
	if op%4 != 0 {
		raw += "Content-Length: " + itoa(int64(len(body))) + "\r\n\r\n" + body
	}
	req, err := http.ReadRequest(bufio.NewReader(strings.NewReader(raw)))
	if err != nil {
		return nil, false
	}
	req.RemoteAddr = "192.0.2.1:1234"
	return req, true
}

// checkAnswer: the site answers any request without a server error (the
// recover middleware turns a panic into a 500), the API in JSON that
// parses, pages in complete HTML documents.
func checkAnswer(t *testing.T, req *http.Request, w *httptest.ResponseRecorder) {
	t.Helper()
	what := req.Method + " " + req.URL.RequestURI()
	body := w.Body.Bytes()
	if w.Code >= 500 {
		t.Fatalf("%s: %d %.500s", what, w.Code, body)
	}
	ct := w.Header().Get("Content-Type")
	switch {
	case strings.HasPrefix(ct, "application/json"):
		if !json.Valid(body) {
			t.Fatalf("%s: %d %s answer that is not JSON: %.500q", what, w.Code, ct, body)
		}
	case strings.HasPrefix(ct, "text/html"):
		if !utf8.Valid(body) || !bytes.HasPrefix(bytes.TrimSpace(bytes.ToLower(body)), []byte("<!doctype html>")) ||
			!bytes.HasSuffix(bytes.TrimSpace(body), []byte("</html>")) {
			t.Fatalf("%s: %d %s answer that is not a complete HTML document: %.500q ... %.200q", what, w.Code, ct, body, body[max(0, len(body)-200):])
		}
	}
	if strings.HasPrefix(req.URL.Path, "/api/") && w.Code != http.StatusNotFound && w.Code != http.StatusMethodNotAllowed && !strings.HasPrefix(ct, "application/json") {
		t.Fatalf("%s: %d API answer in %q: %.300q", what, w.Code, ct, body)
	}
}

// FuzzSite sends GET requests to fuzzed targets and POST requests with
// fuzzed bodies to the routes that read one, on the site over the
// fixture's ledger, and checks each answer (checkAnswer)
// (go test -run '^$' -fuzz '^FuzzSite$' ./web).
func FuzzSite(f *testing.F) {
	fx := newFixture(f)
	bid := readVector(f, "bid")
	s := fx.server(f, func(o *Options) { o.WriteRate, o.WriteBurst, o.Log = 1e9, 1<<30, io.Discard })
	for _, target := range []string{
		"/", "/search?q=alice", "/search?q=" + bid.Commitment[:10], "/search?q=%ff%00", "/c/" + bid.Commitment, "/c/SHA256:" + strings.ToUpper(bid.Commitment),
		"/c/zz", "/entry/0", "/entry/8", "/entry/9", "/entry/-1", "/entry/1e3", "/entry/99999999999999999999",
		"/hash", "/verify", "/verify?hash=%fe", "/ledger?from=3", "/ledger?before=2&n=5", "/tree", "/readings", "/operators",
		"/replay/" + fx.digest["auction"], "/replay/" + fx.digest["tampered"], "/replay/6", "/replay/7?step=3",
		"/checkpoint", "/tile/0/000", "/tile/0/000.p/9", "/tile/entries/000.p/9", "/tile/1/000.p/1", "/tile/0/x000/000",
		"/api/v1/checkpoint", "/api/v1/entries?from=0&n=3", "/api/v1/entries?from=-1", "/api/v1/entries?from=8&n=99999999999", "/api/v1/entries/5",
		"/api/v1/commitments/" + bid.Commitment, "/api/v1/proofs/inclusion/3?size=9", "/api/v1/proofs/inclusion/3?size=2",
		"/api/v1/proofs/consistency?size1=2&size2=9", "/api/v1/proofs/consistency?size1=9&size2=2", "/api/v1/proofs/consistency?size1=3",
		"/api/v1/replays/" + fx.digest["bargain"] + "/report", "/static/style.css", "/static/../server.go", "//", "/%2e%2e/",
	} {
		f.Add(uint8(0), target, "")
	}
	for _, body := range []string{
		`{"commitment":"` + bid.Commitment + `","reveal":` + jsonString(string(bid.Text)) + `}`,
		`{"commitment":"` + bid.Commitment + `","reveal":"x","newlines":"crlf"}`, `{"commitment":5}`, `[]`, `{`, ``,
	} {
		f.Add(uint8(1), "", body)
	}
	for _, body := range []string{"hash=" + bid.Commitment + "&reveal=bid+5", "hash=%zz", "reveal=a&newlines=crlf", "newlines=x", ""} {
		f.Add(uint8(2), "", body)
	}
	for _, body := range []string{
		`{"kind":"commit","player":"zed","action_type":"bid","channel":"#auctions","commitment":"` + strings.Repeat("ab", 32) + `"}`,
		`{"kind":"reveal","commit":0,"player":"alice","text":"no"}`, `{"kind":"seed-reveal","seed_commit":6,"seed":"` + strings.Repeat("0", 64) + `"}`,
		`{"kind":"result","game":"auction","match_id":"m","replay_sha256":"` + fx.digest["auction"] + `","summary":{}}`, `{}`, `null`,
	} {
		f.Add(uint8(3), "", body)
	}
	f.Fuzz(func(t *testing.T, op uint8, target, body string) {
		req, ok := fuzzRequest(op, target, body)
		if !ok {
			return
		}
		w := httptest.NewRecorder()
		s.ServeHTTP(w, req)
		t.Logf("%s %s: %d", req.Method, req.URL.RequestURI(), w.Code)
		checkAnswer(t, req, w)
	})
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
