package tiles_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"filippo.io/torchwood"
	"github.com/sealedhq/sealed/internal/tlogtest"
	"github.com/sealedhq/sealed/ledger"
	"github.com/sealedhq/sealed/ledger/memstore"
	"github.com/sealedhq/sealed/ledger/tiles"
	"golang.org/x/mod/sumdb/tlog"
)

// TestPath: our paths are torchwood's (a peer's tlog-tiles code) and the
// spec's example ("index 1234067 will be encoded as x001/x234/067").
func TestPath(t *testing.T) {
	for _, tl := range []tlog.Tile{
		{H: 8, L: 0, N: 0, W: 256}, {H: 8, L: 0, N: 1234067, W: 256}, {H: 8, L: 2, N: 5, W: 17},
		{H: 8, L: -1, N: 1234067, W: 1}, {H: 8, L: -1, N: 999, W: 256}, {H: 8, L: 63, N: 1000, W: 255},
	} {
		got, want := tiles.Path(tl), torchwood.TilePath(tl)
		if got != want {
			t.Errorf("Path(%+v) = %q, torchwood says %q", tl, got, want)
		}
		back, err := tiles.ParsePath(got)
		if err != nil || back != tl {
			t.Errorf("ParsePath(%q) = %+v, %v", got, back, err)
		}
	}
	if p := tiles.Path(tlog.Tile{H: 8, L: 0, N: 1234067, W: 256}); p != "tile/0/x001/x234/067" {
		t.Errorf("spec example: %q", p)
	}
	for _, bad := range []string{"tile/00/000", "tile/0/0", "tile/0/001/002", "tile/0/000.p/0", "tile/0/000.p/256",
		"tile/0/000.p/010", "tile/entries/x000", "tile/8/0/000", "tile/data/000", "tile/0/-01", "checkpoint", "tile/0/000/"} {
		if tl, err := tiles.ParsePath(bad); err == nil {
			t.Errorf("ParsePath(%q) = %+v, want an error", bad, tl)
		}
	}
}

// TestCovers: the spec's example: "a tree of size 70,000 will be
// represented by 273 full level 0 tiles, one partial level 0 tile of width
// 112, one full level 1 tile, one partial level 1 tile of width 17, and one
// partial level 2 tile of width 1", and "a tree of size 256 will be
// represented by a full level 0 tile and a partial level 1 tile of width 1".
func TestCovers(t *testing.T) {
	count := func(size int64) map[string]int {
		m := map[string]int{}
		for l := 0; l < 4; l++ {
			for n := int64(0); n < 300; n++ {
				for w := 1; w <= 256; w++ {
					tl := tlog.Tile{H: 8, L: l, N: n, W: w}
					// The tiles of the tree: covered, and not extendable.
					if tiles.Covers(tl, size) && (w == 256 || !tiles.Covers(tlog.Tile{H: 8, L: l, N: n, W: w + 1}, size)) {
						key := "full"
						if w < 256 {
							key = "partial"
						}
						m[key+string(rune('0'+l))]++
						if w < 256 {
							m["w"+string(rune('0'+l))] = w
						}
					}
				}
			}
		}
		return m
	}
	m := count(70000)
	if m["full0"] != 273 || m["partial0"] != 1 || m["w0"] != 112 || m["full1"] != 1 || m["partial1"] != 1 || m["w1"] != 17 || m["partial2"] != 1 || m["w2"] != 1 || m["full2"] != 0 {
		t.Errorf("size 70000: %v", m)
	}
	m = count(256)
	if m["full0"] != 1 || m["partial0"] != 0 || m["partial1"] != 1 || m["w1"] != 1 {
		t.Errorf("size 256: %v", m)
	}
	// An index whose start index N*256 passes 2^63 is past any tree (it
	// once wrapped around to a covered tile).
	for _, n := range []int64{math.MaxInt64, math.MaxInt64 >> 8, math.MaxInt64>>8 + 1} {
		for _, l := range []int{-1, 0, 1} {
			if tl := (tlog.Tile{H: 8, L: l, N: n, W: 256}); tiles.Covers(tl, math.MaxInt64) {
				t.Errorf("Covers(%+v, 2^63-1)", tl)
			}
		}
	}
}

func get(t *testing.T, u string) (*http.Response, []byte) {
	t.Helper()
	resp, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, b
}

// TestHandler: content types and caching as the spec says, bundles
// byte for byte (each leaf behind a big-endian uint16 length), level-0
// tiles the leaf hashes (SHA-256 of 0x00 and the leaf), tiles past the
// checkpoint 404, malformed paths 400, and the export writes the same
// bytes. (http.Get asks for gzip and decompresses: bundles come through
// Content-Encoding: gzip here, TestGzip looks at the encoding itself.)
func TestHandler(t *testing.T) {
	log := tlogtest.NewLog(t, "example.com/tiles")
	cp := log.Fill(t, 300, "h")
	srv := httptest.NewServer(&tiles.Handler{Store: log.Store})
	defer srv.Close()
	resp, b := get(t, srv.URL+"/checkpoint")
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/plain; charset=utf-8" || string(b) != cp.Note ||
		!strings.Contains(resp.Header.Get("Cache-Control"), "max-age=5") {
		t.Errorf("/checkpoint: %d %v %q", resp.StatusCode, resp.Header, b)
	}
	var bundle, hashes []byte
	for i := range int64(256) {
		e, _ := log.Entry(i)
		bundle = append(bundle, byte(len(e.Leaf)>>8), byte(len(e.Leaf)))
		bundle = append(bundle, e.Leaf...)
		h := sha256sum(append([]byte{0}, e.Leaf...))
		hashes = append(hashes, h...)
	}
	dir := t.TempDir()
	rep, err := tiles.Export(context.Background(), log.Store, dir, nil)
	if err != nil || rep.Size != 300 {
		t.Fatalf("Export: %+v, %v", rep, err)
	}
	for _, tc := range []struct {
		path string
		want []byte
	}{
		{"tile/entries/000", bundle}, {"tile/0/000", hashes}, {"tile/0/001.p/44", nil}, {"tile/entries/001.p/44", nil}, {"tile/1/000.p/1", nil},
	} {
		resp, b := get(t, srv.URL+"/"+tc.path)
		if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/octet-stream" || !strings.Contains(resp.Header.Get("Cache-Control"), "immutable") {
			t.Errorf("%s: %d %v", tc.path, resp.StatusCode, resp.Header)
		}
		if tc.want != nil && !bytes.Equal(b, tc.want) {
			t.Errorf("%s: %d bytes, not the ones the spec defines", tc.path, len(b))
		}
		f, err := os.ReadFile(filepath.Join(dir, tc.path))
		if err != nil || !bytes.Equal(f, b) {
			t.Errorf("exported %s differs from the served one: %v", tc.path, err)
		}
	}
	if n := binary.BigEndian.Uint16(bundle); int(n) > len(bundle) {
		t.Fatal("bad bundle")
	}
	for _, p := range []string{"tile/0/001", "tile/0/001.p/45", "tile/entries/001.p/45", "tile/1/000", "tile/2/000.p/1", "tile/63/000", "nothing"} {
		if resp, _ := get(t, srv.URL+"/"+p); resp.StatusCode != 404 {
			t.Errorf("%s: %d, want 404", p, resp.StatusCode)
		}
	}
	for _, p := range []string{"tile/0/000.p/0", "tile/x", "tile/64/000"} {
		if resp, _ := get(t, srv.URL+"/"+p); resp.StatusCode != 400 {
			t.Errorf("%s: %d, want 400", p, resp.StatusCode)
		}
	}
	// Incremental: a second export keeps the full tiles.
	log.Fill(t, 520, "h")
	rep, err = tiles.Export(context.Background(), log.Store, dir, nil)
	if err != nil || rep.Kept != 2 || rep.Written != 2+2+1 {
		t.Errorf("second export: %+v, %v", rep, err)
	}
}

func sha256sum(b []byte) []byte {
	h := sha256.Sum256(b)
	return h[:]
}

// TestLeafTooLarge: a store holding a leaf over 65,535 bytes (a ledger
// written before the limit) is named, index and size, when its bundle is
// asked for; the ledger refuses new ones.
func TestLeafTooLarge(t *testing.T) {
	log := tlogtest.NewLog(t, "example.com/big")
	big := `{"kind":"result","game":"auction","match_id":"m","replay_sha256":"` + strings.Repeat("a", 64) + `","summary":{"x":"` + strings.Repeat("y", 70000) + `"}}`
	_, err := log.Append(context.Background(), []byte(big))
	var be *ledger.BodyError
	if !asBodyError(err, &be) || !strings.Contains(err.Error(), "65535") {
		t.Errorf("append of a 70 kB leaf: %v", err)
	}
	// An old store with such a leaf, written directly.
	s := memstore.New()
	s.Create(context.Background(), &ledger.Meta{Origin: "o", VerifierKey: "o+00000000+AA"}, &ledger.StoredCheckpoint{Root: make([]byte, 32), Note: []byte("n\n")})
	leaf := bytes.Repeat([]byte("z"), 70000)
	rh := tlog.RecordHash(leaf)
	s.Write(context.Background(), func(tx ledger.WriteTx) error {
		return tx.Insert(context.Background(), []ledger.StoredEntry{{Index: 0, Kind: "commit", Leaf: leaf, LeafHash: rh[:], Dedup: make([]byte, 32), Ref: -1}},
			[]ledger.StoredHash{{ID: 0, Hash: rh[:]}})
	})
	s.PutCheckpoint(context.Background(), &ledger.StoredCheckpoint{Size: 1, Root: rh[:], Note: []byte("n1\n")})
	_, err = tiles.ReadTile(context.Background(), s, tlog.Tile{H: 8, L: -1, N: 0, W: 1}, 1)
	var lt *tiles.LeafTooLargeError
	if !asLeaf(err, &lt) || lt.Index != 0 || lt.Size != 70000 || !strings.Contains(err.Error(), "entry 0") || !strings.Contains(err.Error(), "70000 bytes") {
		t.Errorf("bundle with a 70000-byte leaf: %v", err)
	}
	if _, err := tiles.Export(context.Background(), s, t.TempDir(), nil); !asLeaf(err, &lt) {
		t.Errorf("export: %v", err)
	}
}
