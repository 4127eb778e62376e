package tiles_test

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"

	"github.com/sealedhq/sealed/internal/tlogtest"
	"github.com/sealedhq/sealed/ledger/tiles"
)

// rawGet sends method to u with Accept-Encoding ae (none if empty) on a
// transport that neither asks for nor decodes gzip itself, and returns
// the answer and its body as sent.
func rawGet(t *testing.T, method, u, ae string) (*http.Response, []byte) {
	t.Helper()
	req, _ := http.NewRequest(method, u, nil)
	if ae != "" {
		req.Header.Set("Accept-Encoding", ae)
	}
	c := &http.Client{Transport: &http.Transport{DisableCompression: true}}
	defer c.CloseIdleConnections()
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, b
}

// bundleOf builds the entry bundle of entries [from, to) of log from its
// entries' leaves, as the spec defines it (each leaf behind its length as
// a big-endian uint16).
func bundleOf(t *testing.T, log *tlogtest.Log, from, to int64) []byte {
	t.Helper()
	var b []byte
	for i := from; i < to; i++ {
		e, err := log.Entry(i)
		if err != nil {
			t.Fatal(err)
		}
		b = binary.BigEndian.AppendUint16(b, uint16(len(e.Leaf)))
		b = append(b, e.Leaf...)
	}
	return b
}

// TestGzip: c2sp.org/tlog-tiles, "Entry bundles SHOULD be compressed at
// the HTTP layer. Logs MAY use Content-Encoding: gzip with no
// negotiation, or any compression algorithm requested by the client with
// Accept-Encoding." An entry bundle goes gzip-compressed (with Vary:
// Accept-Encoding) exactly when the request accepts gzip, from the second
// such request on (the first gets it as it is: a bundle read once costs
// no compression), and gunzips to the bundle built from the entries; a
// small bundle, a hash tile and an error answer are never compressed.
func TestGzip(t *testing.T) {
	log := tlogtest.NewLog(t, "example.com/gzip")
	log.Fill(t, 257, "g")
	srv := httptest.NewServer(&tiles.Handler{Store: log.Store})
	defer srv.Close()
	full := bundleOf(t, log, 0, 256)
	if len(full) < tiles.GzipMinSize {
		t.Fatalf("a full bundle of %d bytes", len(full))
	}
	gunzip := func(b []byte) []byte {
		zr, err := gzip.NewReader(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("not gzip: %v", err)
		}
		out, err := io.ReadAll(zr)
		if err != nil {
			t.Fatalf("gunzip: %v", err)
		}
		return out
	}
	// The first request accepting gzip: the bundle as it is.
	if resp, b := rawGet(t, "GET", srv.URL+"/tile/entries/000", "gzip"); resp.StatusCode != 200 || resp.Header.Get("Content-Encoding") != "" ||
		resp.Header.Get("Vary") != "Accept-Encoding" || !bytes.Equal(b, full) {
		t.Errorf("first request with gzip: %d %v, %d bytes; want the %d-byte bundle uncompressed", resp.StatusCode, resp.Header, len(b), len(full))
	}
	var first []byte
	for _, tc := range []struct {
		ae   string
		gzip bool
	}{
		{"gzip", true}, {"gzip, identity", true}, {"deflate, gzip, br, zstd", true}, {"GZIP;q=0.5, br", true}, {"x-gzip", true},
		{"*", true}, {"br;q=1, *;q=0.1", true}, {"gzip", true},
		{"", false}, {"identity", false}, {"br, zstd", false}, {"gzip;q=0", false}, {"gzip;q=0, *", false}, {"*;q=0", false}, {"gzip;q=x", false},
	} {
		resp, b := rawGet(t, "GET", srv.URL+"/tile/entries/000", tc.ae)
		if resp.StatusCode != 200 || resp.Header.Get("Vary") != "Accept-Encoding" || resp.Header.Get("Content-Type") != "application/octet-stream" {
			t.Errorf("Accept-Encoding %q: %d %v", tc.ae, resp.StatusCode, resp.Header)
			continue
		}
		if resp.Header.Get("Content-Length") != strconv.Itoa(len(b)) {
			t.Errorf("Accept-Encoding %q: Content-Length %s, body of %d bytes", tc.ae, resp.Header.Get("Content-Length"), len(b))
		}
		if !tc.gzip {
			if ce := resp.Header.Get("Content-Encoding"); ce != "" || !bytes.Equal(b, full) {
				t.Errorf("Accept-Encoding %q: Content-Encoding %q, %d bytes, want the %d-byte bundle uncompressed", tc.ae, ce, len(b), len(full))
			}
			continue
		}
		if ce := resp.Header.Get("Content-Encoding"); ce != "gzip" {
			t.Errorf("Accept-Encoding %q: Content-Encoding %q, want gzip", tc.ae, ce)
			continue
		}
		if len(b) >= len(full)/2 {
			t.Errorf("Accept-Encoding %q: %d bytes compressed from %d", tc.ae, len(b), len(full))
		}
		if got := gunzip(b); !bytes.Equal(got, full) {
			t.Errorf("Accept-Encoding %q: gunzips to %d bytes that are not the bundle", tc.ae, len(got))
		}
		if first == nil {
			first = b
		} else if !bytes.Equal(b, first) {
			t.Errorf("Accept-Encoding %q: the compressed bundle differs from the first one sent", tc.ae)
		}
	}
	// HEAD: the headers of the GET, no body.
	resp, b := rawGet(t, "HEAD", srv.URL+"/tile/entries/000", "gzip")
	if resp.StatusCode != 200 || resp.Header.Get("Content-Encoding") != "gzip" || resp.Header.Get("Content-Length") != strconv.Itoa(len(first)) || len(b) != 0 {
		t.Errorf("HEAD with gzip: %d %v, %d bytes", resp.StatusCode, resp.Header, len(b))
	}
	// A one-entry partial bundle is under GzipMinSize: sent as it is.
	small := bundleOf(t, log, 256, 257)
	if len(small) >= tiles.GzipMinSize {
		t.Fatalf("a one-entry bundle of %d bytes", len(small))
	}
	resp, b = rawGet(t, "GET", srv.URL+"/tile/entries/001.p/1", "gzip")
	if resp.StatusCode != 200 || resp.Header.Get("Content-Encoding") != "" || !bytes.Equal(b, small) {
		t.Errorf("small bundle with gzip: %d %v, %d bytes", resp.StatusCode, resp.Header, len(b))
	}
	// Hash tiles and error answers are not compressed.
	for _, tc := range []struct {
		path string
		code int
	}{{"/tile/0/000", 200}, {"/tile/1/000.p/1", 200}, {"/tile/entries/002", 404}, {"/tile/entries/0", 400}, {"/checkpoint", 200}} {
		resp, _ := rawGet(t, "GET", srv.URL+tc.path, "gzip")
		if resp.StatusCode != tc.code || resp.Header.Get("Content-Encoding") != "" || resp.Header.Get("Vary") != "" {
			t.Errorf("%s with gzip: %d %v, want %d uncompressed", tc.path, resp.StatusCode, resp.Header, tc.code)
		}
	}
}
