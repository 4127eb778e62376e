package web

import (
	"bufio"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// TestAppendHalfClose: a client that sends its POST and half-closes its
// side of the connection (shutdown(SHUT_WR), as `curl` through some
// proxies or a script with `nc -N` does) gets the entry's real outcome:
// 201 with its index, 30 times out of 30, and each entry is in the
// ledger. Before, the closed read side cancelled the request's context
// and the answer was 503 although the entry had been appended.
func TestAppendHalfClose(t *testing.T) {
	f := newFixture(t)
	s := f.server(t, func(o *Options) { o.WriteRate, o.WriteBurst = 1000, 1000 })
	ts := httptest.NewServer(s)
	defer ts.Close()
	addr := strings.TrimPrefix(ts.URL, "http://")
	for i := range 30 {
		body := fmt.Sprintf(`{"kind":"commit","player":"hc%d","action_type":"bid","channel":"#auctions","commitment":"%064x"}`, i, 1000+i)
		conn, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		req := fmt.Sprintf("POST /api/v1/entries HTTP/1.1\r\nHost: %s\r\nAuthorization: Bearer %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s",
			addr, testToken, len(body), body)
		if _, err := conn.Write([]byte(req)); err != nil {
			t.Fatal(err)
		}
		if err := conn.(*net.TCPConn).CloseWrite(); err != nil {
			t.Fatal(err)
		}
		conn.SetReadDeadline(time.Now().Add(60 * time.Second))
		resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			t.Fatalf("request %d: %v", i, err)
		}
		resp.Body.Close()
		conn.Close()
		if resp.StatusCode != http.StatusCreated {
			t.Errorf("request %d: %d, want 201", i, resp.StatusCode)
		}
	}
	size, err := f.r.Size()
	if err != nil || size != 9+30 {
		t.Errorf("ledger size %d, %v; want 39", size, err)
	}
}
