package web

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"io"
	"strings"
	"testing"
)

// TestTiles: the tlog-tiles routes through the whole site (echo, the
// security headers, tiles.Handler with the checkpoint check). The entry
// bundle goes gzip-compressed to a client that accepts gzip and gunzips
// to the bundle built from the ledger's leaves (c2sp.org/tlog-tiles:
// "Entry bundles SHOULD be compressed at the HTTP layer"), uncompressed
// to one that does not; a malformed tile path is 400 with a text body
// saying what was expected, a well-formed one past the tree 404.
func TestTiles(t *testing.T) {
	f := newFixture(t)
	s := f.server(t, nil)
	var bundle []byte
	for i := range int64(9) {
		e, err := f.r.Entry(i)
		if err != nil {
			t.Fatal(err)
		}
		bundle = binary.BigEndian.AppendUint16(bundle, uint16(len(e.Leaf)))
		bundle = append(bundle, e.Leaf...)
	}
	// The first request accepting gzip gets the bundle as it is, the
	// next ones gzip (ledger/tiles: compressed from the second on).
	w := do(s, "GET", "/tile/entries/000.p/9", "", "Accept-Encoding", "gzip")
	if w.Code != 200 || w.Header().Get("Content-Encoding") != "" || !bytes.Equal(w.Body.Bytes(), bundle) {
		t.Fatalf("first bundle request with gzip: %d %v, %d bytes (the bundle has %d)", w.Code, w.Header(), w.Body.Len(), len(bundle))
	}
	w = do(s, "GET", "/tile/entries/000.p/9", "", "Accept-Encoding", "gzip")
	checkSecurityHeaders(t, w)
	if w.Code != 200 || w.Header().Get("Content-Encoding") != "gzip" || w.Header().Get("Vary") != "Accept-Encoding" || w.Body.Len() >= len(bundle) {
		t.Fatalf("bundle with gzip: %d %v, %d bytes (the bundle has %d)", w.Code, w.Header(), w.Body.Len(), len(bundle))
	}
	zr, err := gzip.NewReader(w.Body)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := io.ReadAll(zr); err != nil || !bytes.Equal(got, bundle) {
		t.Errorf("the compressed bundle gunzips to %d bytes (%v), not the ledger's %d-byte bundle", len(got), err, len(bundle))
	}
	w = do(s, "GET", "/tile/entries/000.p/9", "")
	if w.Code != 200 || w.Header().Get("Content-Encoding") != "" || !bytes.Equal(w.Body.Bytes(), bundle) {
		t.Errorf("bundle without Accept-Encoding: %d %v, %d bytes", w.Code, w.Header(), w.Body.Len())
	}
	if w := do(s, "GET", "/tile/0/000.p/9", "", "Accept-Encoding", "gzip"); w.Code != 200 || w.Header().Get("Content-Encoding") != "" || w.Body.Len() != 9*32 {
		t.Errorf("hash tile with gzip: %d %v, %d bytes", w.Code, w.Header(), w.Body.Len())
	}
	for _, tc := range []struct {
		path string
		code int
		want string
	}{
		{"/tile/64/000", 400, "level 64 is out of range; expected 0 to 63"},
		{"/tile/0/abc", 400, `index element "abc"; expected three digits`},
		{"/tile/0/000.p/256", 400, "width 256 is out of range; expected 1 to 255"},
		{"/tile/entries/000.p/10", 404, "not covered by the checkpoint"},
		{"/tile/63/000", 404, "not covered by the checkpoint"},
	} {
		w := do(s, "GET", tc.path, "", "Accept-Encoding", "gzip")
		checkSecurityHeaders(t, w)
		if w.Code != tc.code || !strings.HasPrefix(w.Header().Get("Content-Type"), "text/plain") || w.Header().Get("Content-Encoding") != "" || !strings.Contains(w.Body.String(), tc.want) {
			t.Errorf("%s: %d %v %q, want %d saying %q", tc.path, w.Code, w.Header(), w.Body.String(), tc.code, tc.want)
		}
	}
}
