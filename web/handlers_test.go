package web

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/sealedhq/sealed/ledger"
)

// do sends one request to s and returns the recorded answer.
func do(s http.Handler, method, target string, body string, header ...string) *httptest.ResponseRecorder {
	var r io.Reader
	if body != "" {
		r = strings.NewReader(body)
	}
	req := httptest.NewRequest(method, target, r)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	w := httptest.NewRecorder()
	s.ServeHTTP(w, req)
	return w
}

// checkSecurityHeaders asserts the headers every answer carries.
func checkSecurityHeaders(t *testing.T, w *httptest.ResponseRecorder) {
	t.Helper()
	for h, want := range map[string]string{
		"Content-Security-Policy": "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
		"X-Content-Type-Options":  "nosniff",
		"Referrer-Policy":         "no-referrer",
	} {
		if got := w.Header().Get(h); got != want {
			t.Errorf("%s = %q, want %q", h, got, want)
		}
	}
}

// TestPagesAndAPI is the handler table: status, content type and key
// content of every page and read route, bad input included. Expected
// values come from the fixture's vectors (sha256sum), the example replays
// and seed 004's calendar worked by hand (see newFixture).
func TestPagesAndAPI(t *testing.T) {
	f := newFixture(t)
	// More POSTs than the default burst; TestRateLimit checks the limit.
	s := f.server(t, func(o *Options) { o.WriteRate, o.WriteBurst = 1e6, 1e6 })
	bid, near, weak := readVector(t, "bid"), readVector(t, "nearmiss"), readVector(t, "weak")
	unknown := strings.Repeat("ab", 32)
	const html, js, jsonCT, text = "text/html", "text/javascript", "application/json", "text/plain"
	form := func(v url.Values) string { return v.Encode() }
	tests := []struct {
		name, method, target, body string
		header                     []string
		status                     int
		ctype                      string
		contains, absent           []string
	}{
		{name: "home", target: "/", status: 200, ctype: html,
			contains: []string{"Latest checkpoint", "9 entries", "mallory posted a bid commitment in #auctions", `href="/c/` + bid.Commitment + `"`}},
		{name: "commitment revealed", target: "/c/" + bid.Commitment, status: 200, ctype: html,
			contains: []string{"alice", ">revealed<", "I bid 15 on lot 3\nsalt: n5xgmzlwmvqwk2lqmv2xizlsmu", "this reveal counted",
				// Posted Monday in the Auction Phase: matures at the next phase start, Thursday 00:00;
				// revelation three days later (seed 004, reading S5).
				"2026-03-05 00:00:00 UTC", "2026-03-08 00:00:00 UTC"}},
		{name: "commitment any case with prefix", target: "/c/sha256:" + strings.ToUpper(bid.Commitment), status: 200, ctype: html, contains: []string{"alice"}},
		{name: "commitment near miss", target: "/c/" + near.Commitment, status: 200, ctype: html,
			contains: []string{"nina", "mismatch", "trailing LF removed", "not revealed by the revelation date", "it ends with a line break (LF)"}},
		{name: "commitment unknown", target: "/c/" + unknown, status: 404, ctype: html, contains: []string{"no commit entry"}},
		{name: "commitment malformed", target: "/c/xyz", status: 400, ctype: html, contains: []string{"malformed hash"}},
		{name: "commitment sha1 length", target: "/c/" + strings.Repeat("a", 40), status: 400, ctype: html, contains: []string{"malformed hash"}},
		{name: "hash page", target: "/hash", status: 200, ctype: html,
			contains: []string{`<script src="/static/hash.js" defer></script>`, "never leaves this browser", `id="declaration"`},
			absent:   []string{`name="declaration"`, `name="salt"`}},
		{name: "hash.js", target: "/static/hash.js", status: 200, ctype: js, contains: []string{"crypto.subtle.digest"}},
		{name: "style.css", target: "/static/style.css", status: 200, ctype: "text/css"},
		{name: "static missing", target: "/static/nope.js", status: 404, ctype: html},
		{name: "static dir", target: "/static/", status: 404, ctype: html},
		{name: "verify form", target: "/verify?hash=" + bid.Commitment, status: 200, ctype: html, contains: []string{`value="` + bid.Commitment + `"`}},
		{name: "verify browser CRLF", method: "POST", target: "/verify",
			body:   form(url.Values{"hash": {bid.Commitment}, "reveal": {strings.ReplaceAll(string(bid.Text), "\n", "\r\n")}}),
			header: []string{"Content-Type", "application/x-www-form-urlencoded"}, status: 200, ctype: html,
			contains: []string{"Match: the reveal hashes to the commitment", "after turning the browser", "/c/" + bid.Commitment}},
		{name: "verify kept CRLF", method: "POST", target: "/verify",
			body:   form(url.Values{"hash": {bid.Commitment}, "reveal": {strings.ReplaceAll(string(bid.Text), "\n", "\r\n")}, "newlines": {"crlf"}}),
			header: []string{"Content-Type", "application/x-www-form-urlencoded"}, status: 200, ctype: html,
			contains: []string{"Mismatch", "CRLF-&gt;LF"}},
		{name: "verify strong salt", method: "POST", target: "/verify",
			body:   form(url.Values{"hash": {near.Commitment}, "reveal": {string(near.Text)}}),
			header: []string{"Content-Type", "application/x-www-form-urlencoded"}, status: 200, ctype: html,
			contains: []string{"Match", "its page"}, absent: []string{"Weak salt"}},
		{name: "verify weak salt", method: "POST", target: "/verify",
			body:   form(url.Values{"hash": {weak.Commitment}, "reveal": {string(weak.Text)}}),
			header: []string{"Content-Type", "application/x-www-form-urlencoded"}, status: 200, ctype: html,
			contains: []string{"Match", "Weak salt"}, absent: []string{"its page"}},
		{name: "verify bad hash", method: "POST", target: "/verify", body: "hash=zz&reveal=x",
			header: []string{"Content-Type", "application/x-www-form-urlencoded"}, status: 400, ctype: html, contains: []string{"malformed hash"}},
		// Results link the stronger replay page, by the result entry (6, 7
		// and 8: fixture), never the page by digest.
		{name: "ledger", target: "/ledger", status: 200, ctype: html, contains: []string{"9 entries", `href="/entry/8"`, `href="/replay/6"`, `href="/replay/7"`, `href="/replay/8"`, "result of Blind Auction match auction"},
			absent: []string{`href="/replay/` + f.digest["auction"]}},
		{name: "entry of a result", target: "/entry/7", status: 200, ctype: html, contains: []string{`href="/replay/7"`}, absent: []string{`href="/replay/` + f.digest["bargain"]}},
		{name: "ledger page past end", target: "/ledger?page=2", status: 404, ctype: html},
		{name: "ledger page zero", target: "/ledger?page=0", status: 400, ctype: html},
		{name: "ledger page junk", target: "/ledger?page=abc", status: 400, ctype: html},
		{name: "entry", target: "/entry/0", status: 200, ctype: html, contains: []string{"Verified: the audit path", "alice posted a bid commitment", "test.sealed.invalid/web\n9\n"}},
		{name: "entry missing", target: "/entry/99", status: 404, ctype: html, contains: []string{"the ledger has 9 entries"}},
		{name: "entry negative", target: "/entry/-1", status: 400, ctype: html},
		{name: "entry junk", target: "/entry/abc", status: 400, ctype: html},
		{name: "checkpoint", target: "/checkpoint", status: 200, ctype: text, contains: []string{"test.sealed.invalid/web\n9\n", "\n— test.sealed.invalid/web "}},
		{name: "replay clean", target: "/replay/" + f.digest["auction"], status: 200, ctype: html,
			contains: []string{"Clean:", "<svg", "seat 1 (shading)", "Item 1 is worth 20 to me.",
				// titled by game and match id; the page by digest links the
				// result entry's page
				"<title>Blind Auction match auction · sealed</title>", `<a href="/replay/6">Blind Auction match auction (entry 6)</a>`},
			absent: []string{"sealed.auction.replay.v1</span></h1>"}},
		{name: "replay by result index", target: "/replay/6", status: 200, ctype: html, contains: []string{"Clean:", "<title>Blind Auction match auction · sealed</title>"}},
		{name: "replay tampered", target: "/replay/" + f.digest["tampered"], status: 200, ctype: html,
			contains: []string{"Differences", `<td class="mono">price</td><td class="mono">35</td><td class="mono">36</td>`}},
		{name: "replay bargain", target: "/replay/" + f.digest["bargain"], status: 200, ctype: html,
			contains: []string{"Negotiation Games", "Clean:", "0.7500", "1.5000", "-1.0000", "Giveaway: the mean",
				// Both worth columns in the match's seat order on every row,
				// worked by hand from testdata/replays/bargain.json: match 1
				// (seats 0 and 2, pool 1,3,1, values 1,3,0 and 7,0,3). Turn 2:
				// seat 2 asks 1,0,1 = 7+3 = 10 to seat 2, leaving 0,3,0 = 9 to
				// seat 0. Turn 3: seat 0 accepts 0,3,0 = 9; seat 2 keeps 10.
				"<th>worth to seat 0</th><th>worth to seat 2</th>",
				"<tr><td>2</td><td>2</td><td class=\"nowrap\">offer</td><td>1, 0, 1</td><td>9</td><td>10</td>",
				"<tr><td>3</td><td>0</td><td class=\"nowrap\">accept</td><td>0, 3, 0</td><td>9</td><td>10</td>",
				// Match 2 (seats 1 and 2, values 1,8,0 and 0,8,1, pool 2,1,2):
				// seat 2 asks 0,1,0 = 8 to itself, leaving 2,0,2 = 2 to seat 1.
				"<tr><td>2</td><td>2</td><td class=\"nowrap\">offer</td><td>0, 1, 0</td><td>2</td><td>8</td>"}},
		{name: "replay of a commit entry", target: "/replay/0", status: 404, ctype: html, contains: []string{"not a result entry"}},
		{name: "replay malformed", target: "/replay/zz", status: 400, ctype: html},
		{name: "replay unknown", target: "/replay/" + unknown, status: 404, ctype: html},
		{name: "search index", target: "/search?q=3", status: 303},
		{name: "search commitment", target: "/search?q=" + bid.Commitment, status: 303},
		{name: "search replay", target: "/search?q=" + f.digest["bargain"], status: 303},
		{name: "search unknown", target: "/search?q=" + unknown, status: 404, ctype: html},
		{name: "search unknown player", target: "/search?q=hello", status: 404, ctype: html, contains: []string{`no entry names the player &#34;hello&#34;`}},
		{name: "search empty", target: "/search?q=", status: 400, ctype: html},
		{name: "no such page", target: "/nope", status: 404, ctype: html},
		{name: "method not allowed", method: "DELETE", target: "/", status: 405, ctype: html},
		{name: "head", method: "HEAD", target: "/", status: 200},

		{name: "api checkpoint", target: "/api/v1/checkpoint", status: 200, ctype: jsonCT, contains: []string{`"size":9`, `"origin":"test.sealed.invalid/web"`}},
		{name: "api entry", target: "/api/v1/entries/0", status: 200, ctype: jsonCT, contains: []string{`"kind":"commit"`, bid.Commitment}},
		{name: "api entry missing", target: "/api/v1/entries/99", status: 404, ctype: jsonCT, contains: []string{`{"error":"no entry 99`}},
		{name: "api entry junk", target: "/api/v1/entries/x", status: 400, ctype: jsonCT, contains: []string{`"error"`}},
		{name: "api entries", target: "/api/v1/entries?from=2&n=2", status: 200, ctype: jsonCT, contains: []string{`"size":9`, `"index":2`, `"index":3`}, absent: []string{`"index":4`}},
		{name: "api entries n zero", target: "/api/v1/entries?n=0", status: 400, ctype: jsonCT},
		{name: "api entries past end", target: "/api/v1/entries?from=50", status: 200, ctype: jsonCT, contains: []string{`"entries":[]`}},
		{name: "api commitment", target: "/api/v1/commitments/" + bid.Commitment, status: 200, ctype: jsonCT,
			contains: []string{`"state":"revealed"`, `"player":"alice"`, `"counted":true`}},
		{name: "api commitment malformed", target: "/api/v1/commitments/abc", status: 400, ctype: jsonCT, contains: []string{`"error":"malformed hash`}},
		{name: "api commitment unknown", target: "/api/v1/commitments/" + unknown, status: 404, ctype: jsonCT},
		{name: "api inclusion", target: "/api/v1/proofs/inclusion/3", status: 200, ctype: jsonCT, contains: []string{`"index":3`, `"size":9`}},
		{name: "api inclusion missing", target: "/api/v1/proofs/inclusion/99", status: 404, ctype: jsonCT},
		{name: "api inclusion bad size", target: "/api/v1/proofs/inclusion/1?size=abc", status: 400, ctype: jsonCT},
		{name: "api inclusion no such checkpoint", target: "/api/v1/proofs/inclusion/1?size=1000", status: 404, ctype: jsonCT},
		// trial 3, finding 9: a fixed older size is never worth retrying;
		// 2^64-1 is a whole number >= 0, only too large.
		{name: "api inclusion after the size", target: "/api/v1/proofs/inclusion/5?size=3", status: 404, ctype: jsonCT,
			contains: []string{`"error":"entry 5 was appended after the checkpoint of size 3; prove it against a later size (or omit size for the latest)"`}, absent: []string{"retry"}},
		{name: "api inclusion index too large", target: "/api/v1/proofs/inclusion/18446744073709551615", status: 400, ctype: jsonCT,
			contains: []string{`is too large; expected a ledger index, a whole number from 0 to 9223372036854775807`}},
		{name: "api consistency same size", target: "/api/v1/proofs/consistency?size1=9", status: 200, ctype: jsonCT, contains: []string{`"proof":[]`}},
		{name: "api consistency no size1", target: "/api/v1/proofs/consistency", status: 400, ctype: jsonCT},
		{name: "api consistency size1 zero", target: "/api/v1/proofs/consistency?size1=0", status: 400, ctype: jsonCT},
		{name: "api consistency size1 too big", target: "/api/v1/proofs/consistency?size1=100", status: 400, ctype: jsonCT},
		{name: "api replay report", target: "/api/v1/replays/" + f.digest["auction"] + "/report", status: 200, ctype: jsonCT,
			contains: []string{`"clean":true`, `"differences":[]`}, absent: []string{`null`}},
		{name: "api replay report bargain", target: "/api/v1/replays/" + f.digest["bargain"] + "/report", status: 200, ctype: jsonCT,
			contains: []string{`"clean":true`, `"differences":[]`}, absent: []string{`null`}},
		{name: "api replay report tampered", target: "/api/v1/replays/8/report", status: 200, ctype: jsonCT,
			contains: []string{`"clean":false`, `{"event":12,"field":"price","claimed":"35","derived":"36"}`}},
		{name: "api verify", method: "POST", target: "/api/v1/verify", body: `{"commitment":"` + bid.Commitment + `","reveal":"I bid 15 on lot 3\nsalt: n5xgmzlwmvqwk2lqmv2xizlsmu"}`,
			status: 200, ctype: jsonCT, contains: []string{`"match":true`}},
		{name: "api verify near miss", method: "POST", target: "/api/v1/verify", body: `{"commitment":"` + near.Commitment + `","reveal":"I bid 40 on lot 2\nsalt: hazelnut-walnut-pecan-almond\n"}`,
			status: 200, ctype: jsonCT, contains: []string{`"match":false`, `"trailing LF removed"`}},
		{name: "api verify bad json", method: "POST", target: "/api/v1/verify", body: `{"commitment":`, status: 400, ctype: jsonCT},
		{name: "api verify no reveal", method: "POST", target: "/api/v1/verify", body: `{"commitment":"` + bid.Commitment + `"}`, status: 400, ctype: jsonCT, contains: []string{"reveal is required"}},
		// A lone surrogate escape is no Unicode text (RFC 7493 section 2.1);
		// encoding/json would have hashed U+FFFD, bytes nobody sent.
		{name: "api verify lone surrogate", method: "POST", target: "/api/v1/verify", body: `{"commitment":"` + bid.Commitment + `","reveal":"\ud800"}`,
			status: 400, ctype: jsonCT, contains: []string{"surrogate"}},
		{name: "api verify invalid UTF-8", method: "POST", target: "/api/v1/verify", body: "{\"commitment\":\"" + bid.Commitment + "\",\"reveal\":\"\xff\"}",
			status: 400, ctype: jsonCT, contains: []string{"UTF-8"}},
		{name: "api verify duplicate reveal", method: "POST", target: "/api/v1/verify",
			body:   `{"commitment":"` + bid.Commitment + `","reveal":"I bid 15 on lot 3\nsalt: n5xgmzlwmvqwk2lqmv2xizlsmu","reveal":"x"}`,
			status: 400, ctype: jsonCT, contains: []string{`duplicate`, `\"reveal\"`}},
		{name: "api verify surrogate pair", method: "POST", target: "/api/v1/verify",
			// printf '\xf0\x9f\x98\x80' | sha256sum (U+1F600, sent as the pair \ud83d\ude00)
			body:   `{"commitment":"f0443a342c5ef54783a111b51ba56c938e474c32324d90c3a60c9c8e3a37e2d9","reveal":"\ud83d\ude00"}`,
			status: 200, ctype: jsonCT, contains: []string{`"match":true`, `"bytes":4`}},
		// An empty reveal is an input like any other, as for sealed verify --text "":
		// it mismatches, and matches only the SHA-256 of no bytes (printf '' | sha256sum).
		{name: "api verify empty reveal", method: "POST", target: "/api/v1/verify", body: `{"commitment":"` + bid.Commitment + `","reveal":""}`,
			status: 200, ctype: jsonCT, contains: []string{`"match":false`, `"bytes":0`}},
		{name: "api verify empty reveal of no bytes", method: "POST", target: "/api/v1/verify",
			body:   `{"commitment":"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855","reveal":""}`,
			status: 200, ctype: jsonCT, contains: []string{`"match":true`, `"bytes":0`}},
		{name: "api verify null reveal", method: "POST", target: "/api/v1/verify", body: `{"commitment":"` + bid.Commitment + `","reveal":null}`, status: 400, ctype: jsonCT, contains: []string{"reveal is required"}},
		{name: "api verify unknown member", method: "POST", target: "/api/v1/verify", body: `{"commitment":"` + bid.Commitment + `","reveal":"x","salt":"y"}`, status: 400, ctype: jsonCT},
		{name: "api verify trailing data", method: "POST", target: "/api/v1/verify", body: `{"commitment":"` + bid.Commitment + `","reveal":"x"} {}`, status: 400, ctype: jsonCT},
		{name: "verify bogus newlines", method: "POST", target: "/verify",
			body:   form(url.Values{"hash": {bid.Commitment}, "reveal": {string(bid.Text)}, "newlines": {"bogus"}}),
			header: []string{"Content-Type", "application/x-www-form-urlencoded"}, status: 400, ctype: html,
			contains: []string{"line breaks &#34;bogus&#34;: expected lf", `name="newlines"`}, absent: []string{"Match"}},
		{name: "verify newlines lf", method: "POST", target: "/verify",
			body:   form(url.Values{"hash": {bid.Commitment}, "reveal": {string(bid.Text)}, "newlines": {"lf"}}),
			header: []string{"Content-Type", "application/x-www-form-urlencoded"}, status: 200, ctype: html, contains: []string{"Match: the reveal hashes"}},
		{name: "verify empty reveal", method: "POST", target: "/verify",
			body:   form(url.Values{"hash": {bid.Commitment}, "reveal": {""}}),
			header: []string{"Content-Type", "application/x-www-form-urlencoded"}, status: 200, ctype: html,
			contains: []string{"Mismatch", "0 bytes checked", "The reveal is empty"}},
		{name: "api consistency size1 above size2", target: "/api/v1/proofs/consistency?size1=1000&size2=999", status: 400, ctype: jsonCT,
			contains: []string{"size1 1000 is larger than size2 999"}},
		{name: "api no such route", target: "/api/v1/nope", status: 404, ctype: jsonCT, contains: []string{`"error"`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			method := tc.method
			if method == "" {
				method = "GET"
			}
			w := do(s, method, tc.target, tc.body, tc.header...)
			if w.Code != tc.status {
				t.Fatalf("%s %s: status %d, want %d; body:\n%s", method, tc.target, w.Code, tc.status, w.Body.String())
			}
			if ct := w.Header().Get("Content-Type"); !strings.HasPrefix(ct, tc.ctype) {
				t.Errorf("content type %q, want %q", ct, tc.ctype)
			}
			checkSecurityHeaders(t, w)
			body := w.Body.String()
			for _, c := range tc.contains {
				if !strings.Contains(body, c) {
					t.Errorf("body lacks %q", c)
				}
			}
			for _, c := range tc.absent {
				if strings.Contains(body, c) {
					t.Errorf("body has %q", c)
				}
			}
			if t.Failed() && len(body) < 20000 {
				t.Logf("body:\n%s", body)
			}
		})
	}
}

// TestSearchRedirects checks where /search sends each kind of query.
func TestSearchRedirects(t *testing.T) {
	f := newFixture(t)
	s := f.server(t, nil)
	bid := readVector(t, "bid")
	for q, want := range map[string]string{
		"3":                        "/entry/3",
		" 007 ":                    "/entry/7",
		"SHA256:" + bid.Commitment: "/c/" + bid.Commitment,
		// A replay goes to the stronger page, by the result entry naming it.
		f.digest["bargain"]:                  fmt.Sprintf("/replay/%d", f.idx["bargain"]),
		strings.ToUpper(f.digest["auction"]): fmt.Sprintf("/replay/%d", f.idx["auction"]),
		// Anything else is a player's name.
		"alice":   "/ledger?player=alice",
		" nina  ": "/ledger?player=nina",
	} {
		w := do(s, "GET", "/search?q="+url.QueryEscape(q), "")
		if w.Code != http.StatusSeeOther || w.Header().Get("Location") != want {
			t.Errorf("search %q: %d to %q, want 303 to %q", q, w.Code, w.Header().Get("Location"), want)
		}
	}
	// 64 hex digits that happen to be all 0-9 are a hash, never an entry
	// index: looked up as a commitment or replay, which the ledger lacks.
	for _, q := range []string{
		strings.Repeat("0", 62) + "16",
		strings.Repeat("1", 64),
		"sha256:" + strings.Repeat("9", 64),
	} {
		w := do(s, "GET", "/search?q="+url.QueryEscape(q), "")
		if w.Code != http.StatusNotFound || !strings.Contains(w.Body.String(), "no commitment, seed commitment or replay with the hash") {
			t.Errorf("search %q: %d to %q, want 404 naming the hash", q, w.Code, w.Header().Get("Location"))
		}
		w = do(s, "GET", "/replay/"+q, "")
		if w.Code != http.StatusNotFound || !strings.Contains(w.Body.String(), "no replay with the digest") {
			t.Errorf("replay %q: %d, want 404 naming the digest", q, w.Code)
		}
	}
}

// TestEscaping: a reveal holding markup is shown as text on every page
// that shows it, never as markup.
func TestEscaping(t *testing.T) {
	f := newFixture(t)
	s := f.server(t, nil)
	xss := readVector(t, "xss")
	for _, target := range []string{"/c/" + xss.Commitment, "/entry/" + "4"} {
		w := do(s, "GET", target, "")
		if w.Code != 200 {
			t.Fatalf("%s: %d", target, w.Code)
		}
		body := w.Body.String()
		for _, bad := range []string{"<script>alert(1)", "<img src=x", "onerror=alert(2)>"} {
			if strings.Contains(body, bad) {
				t.Errorf("%s: the page holds the raw markup %q", target, bad)
			}
		}
		if !strings.Contains(body, "&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;") {
			t.Errorf("%s: the escaped reveal text is missing", target)
		}
	}
	// The judge's verdict for that text (seed 004, "Secret Information"
	// item 1): it matches, but it is no bid statement of the grammar, so
	// the action fails as an ambiguous declaration.
	w := do(s, "GET", "/api/v1/commitments/"+xss.Commitment, "")
	var v commitmentView
	if err := json.Unmarshal(w.Body.Bytes(), &v); err != nil {
		t.Fatal(err)
	}
	if len(v.Actions) != 1 || v.Actions[0].State != "failed" || v.Actions[0].Failure == nil || v.Actions[0].Failure.Reason != "ambiguous declaration" ||
		len(v.Actions[0].Reveals) != 1 || !v.Actions[0].Reveals[0].Match || *v.Actions[0].Reveals[0].Text != string(xss.Text) {
		t.Fatalf("mallory's action: %s", w.Body.String())
	}
}

// TestProofsVerifyOffline checks the API's proofs with the ledger's
// offline checkers and the log's verifier key, as an auditor would.
func TestProofsVerifyOffline(t *testing.T) {
	f := newFixture(t)
	s := f.server(t, nil)
	vkey := f.r.VerifierKey()
	for n := range 9 {
		w := do(s, "GET", "/api/v1/proofs/inclusion/"+string(rune('0'+n)), "")
		p, err := ledger.ParseInclusionProof(w.Body.Bytes())
		if err != nil {
			t.Fatalf("entry %d: %v: %s", n, err, w.Body.String())
		}
		if _, err := ledger.CheckInclusion(vkey, nil, p); err != nil {
			t.Errorf("entry %d: %v", n, err)
		}
	}
	// A consistency proof from every older checkpoint the ledger signed.
	found := 0
	for size := int64(1); size < 9; size++ {
		if _, err := f.r.CheckpointAt(size); err != nil {
			continue
		}
		found++
		w := do(s, "GET", "/api/v1/proofs/consistency?size1="+string(rune('0'+size))+"&size2=9", "")
		p, err := ledger.ParseConsistencyProof(w.Body.Bytes())
		if err != nil {
			t.Fatalf("size %d: %v: %s", size, err, w.Body.String())
		}
		if err := ledger.CheckConsistency(vkey, nil, nil, p); err != nil {
			t.Errorf("size %d to 9: %v", size, err)
		}
	}
	if found == 0 {
		t.Log("no checkpoint older than the latest was signed; consistency checked only at equal sizes")
	}
	w := do(s, "GET", "/api/v1/proofs/consistency?size1=1&size2=1000", "")
	if w.Code != 404 {
		t.Errorf("consistency to a size without checkpoint: %d, want 404", w.Code)
	}
}

// httptestRequest is a request from the client at remote (host:port).
func httptestRequest(method, target, body, remote string, header ...string) *http.Request {
	var r io.Reader
	if body != "" {
		r = strings.NewReader(body)
	}
	req := httptest.NewRequest(method, target, r)
	req.RemoteAddr = remote
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	return req
}

func serve(s http.Handler, req *http.Request) *httptest.ResponseRecorder {
	w := httptest.NewRecorder()
	s.ServeHTTP(w, req)
	return w
}

// The leaf served by GET /api/v1/entries/{n} is the leaf's exact bytes:
// for mallory's reveal, whose text holds "<", ">" and "&", RFC 6962's
// SHA-256(0x00 || leaf) equals the served leaf hash (echo's default
// serializer escaped them as \u003c and broke this).
func TestEntryLeafServedExactly(t *testing.T) {
	f := newFixture(t)
	s := f.server(t, nil)
	n := f.idx["mallory-reveal"]
	w := do(s, "GET", fmt.Sprintf("/api/v1/entries/%d", n), "")
	var got struct {
		Leaf     json.RawMessage `json:"leaf"`
		LeafHash []byte          `json:"leaf_hash"`
	}
	if err := json.Unmarshal(w.Body.Bytes(), &got); err != nil {
		t.Fatalf("%v: %s", err, w.Body.String())
	}
	if !bytes.Contains(got.Leaf, []byte("<script>")) {
		t.Fatalf("leaf %s does not hold the text as posted", got.Leaf)
	}
	sum := sha256.Sum256(append([]byte{0}, got.Leaf...))
	if !bytes.Equal(sum[:], got.LeafHash) {
		t.Fatalf("SHA-256(0x00 || served leaf) = %x, served leaf hash %x", sum, got.LeafHash)
	}
}

// A replay's table talk with a right-to-left override (U+202E) and a
// zero-width space (U+200B), and a claimed field that differs, is shown on
// the replay page with visible marks, never the raw characters, which
// would make the text read differently from what it is.
func TestReplayPageMarksHiddenCharacters(t *testing.T) {
	f := newFixture(t)
	data, err := os.ReadFile(filepath.Join("testdata", "replays", "auction.json"))
	if err != nil {
		t.Fatal(err)
	}
	evil := bytes.Replace(data, []byte(`"Item 1 is worth 20 to me."`), []byte(`"Item 1 is worth \u202e02\u200b to me."`), 1)
	if bytes.Equal(evil, data) {
		t.Fatal("the talk message to alter was not found")
	}
	d, err := f.w.PutReplay(evil)
	if err != nil {
		t.Fatal(err)
	}
	s := f.server(t, nil)
	w := do(s, "GET", "/replay/"+d, "")
	body := w.Body.String()
	if w.Code != 200 {
		t.Fatalf("status %d: %s", w.Code, body)
	}
	if strings.ContainsRune(body, '\u202e') || strings.ContainsRune(body, '\u200b') {
		t.Fatal("the page holds a raw U+202E or U+200B")
	}
	// The marks read "<U+202E>" once the HTML is decoded (html/template
	// writes "+" as &#43;).
	text := html.UnescapeString(body)
	for _, want := range []string{">Item 1 is worth <span", "><U+202E></span>02<span", "><U+200B></span> to me."} {
		if !strings.Contains(text, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
}

// TestTreePage: the navigation's "Checkpoint" goes to /tree, which
// explains the latest checkpoint (origin, size, root, time, the log's
// signature checked) and links the raw note, still served as text/plain at
// /checkpoint (tlog-tiles needs /checkpoint to be the note itself). The
// root shown is the one the raw note carries on its third line (C2SP
// tlog-checkpoint).
func TestTreePage(t *testing.T) {
	f := newFixture(t)
	s := f.server(t, nil)
	raw := do(s, "GET", "/checkpoint", "")
	if raw.Code != 200 || !strings.HasPrefix(raw.Header().Get("Content-Type"), "text/plain") {
		t.Fatalf("/checkpoint: %d %s", raw.Code, raw.Header().Get("Content-Type"))
	}
	lines := strings.Split(raw.Body.String(), "\n")
	w := do(s, "GET", "/tree", "")
	body := strings.ReplaceAll(w.Body.String(), "&#43;", "+") // html/template writes base64's + so
	if w.Code != 200 || !strings.HasPrefix(w.Header().Get("Content-Type"), "text/html") {
		t.Fatalf("/tree: %d %s", w.Code, w.Header().Get("Content-Type"))
	}
	for _, want := range []string{
		`<td class="mono hash">` + lines[0] + `</td>`, // origin
		"<td>" + lines[1] + " entries</td>",           // size
		`<td class="mono hash">` + lines[2] + `</td>`, // root, base64
		`<span class="ok">verified</span> with the log's key`,
		`<a href="/checkpoint">the raw note</a>`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("/tree lacks %q", want)
		}
	}
	if strings.Contains(body, "cosignatures") {
		t.Error("/tree lists cosignatures; the fixture's note has none")
	}
	for _, page := range []string{"/", "/ledger", "/hash", "/tree"} {
		if b := do(s, "GET", page, "").Body.String(); !strings.Contains(b, `<a href="/tree">Checkpoint</a>`) || strings.Contains(b, `<nav><a href="/hash">Hash a bid</a><a href="/verify">Verify a reveal</a><a href="/ledger">Ledger</a><a href="/checkpoint">`) {
			t.Errorf("%s: the navigation's Checkpoint does not go to /tree", page)
		}
	}
}

// TestRulesInPlayersWords: a commitment page says which rule decided in
// the words players use, the reading's name linked to its explanation on
// /readings; the rules' shorthand (seed 004, failure condition N, reading
// SN) stays in the details lines and the JSON.
func TestRulesInPlayersWords(t *testing.T) {
	f := newFixture(t)
	s := f.server(t, func(o *Options) { o.Now = func() time.Time { return at(t, "2026-03-20T00:00:00Z") } })
	details := regexp.MustCompile(`<span class="muted details">[^<]*</span>`)
	sawFailure := false
	for _, name := range []string{"alice", "mallory", "nina"} {
		e, err := f.r.Entry(f.idx[name])
		if err != nil {
			t.Fatal(err)
		}
		b, err := e.Body()
		if err != nil {
			t.Fatal(err)
		}
		w := do(s, "GET", "/c/"+b.Commitment, "")
		body := w.Body.String()
		if w.Code != 200 {
			t.Fatalf("/c/%s: %d", b.Commitment, w.Code)
		}
		if !strings.Contains(body, "details: seed 004, rule &#34;Secret Information&#34;") {
			t.Errorf("%s: the shorthand is not in the details", name)
		}
		plain := details.ReplaceAllString(body, "")
		for _, bad := range []string{"seed 004", "reading S", "failure condition", "docs/secret-actions.md"} {
			if strings.Contains(plain, bad) {
				t.Errorf("%s: %q outside the details", name, bad)
			}
		}
		if m := regexp.MustCompile(`<p class="failure">.*</p>`).FindString(body); m != "" {
			sawFailure = true
			if !strings.Contains(m, `<span class="muted">(rule Secret Information: `) {
				t.Errorf("%s: the failure is not cited in players' words: %s", name, m)
			}
		}
		if strings.Contains(body, "matches the commitment and came between maturation and revelation date: counts") && !strings.Contains(body, `(rule Secret Information: revealed between the maturation and revelation dates; reading <a href="/readings#S2">the reveal window</a>)`) {
			t.Errorf("%s: the reveal decision does not link its reading by name", name)
		}
		api := do(s, "GET", "/api/v1/commitments/"+b.Commitment, "").Body.String()
		if !strings.Contains(api, `"rule":"seed 004, rule \"Secret Information\"`) {
			t.Errorf("%s: the JSON lost the shorthand: %s", name, api)
		}
	}
	if !sawFailure {
		t.Error("no failed action among the fixture's commitments: the failure wording went untested")
	}
	w := do(s, "GET", "/readings", "")
	if body := w.Body.String(); w.Code != 200 || !strings.Contains(body, `<dt id="S2">the reveal window <span class="muted">(S2)</span></dt>`) {
		t.Errorf("/readings: %d\n%s", w.Code, body)
	}
}
