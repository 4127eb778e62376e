package tiles_test

import (
	"context"
	"crypto/sha256"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sealedhq/sealed/internal/tamper"
	"github.com/sealedhq/sealed/ledger"
	"github.com/sealedhq/sealed/ledger/stores"
	"github.com/sealedhq/sealed/ledger/tiles"
	"golang.org/x/mod/sumdb/tlog"
)

// TestHandlerVerifiesTiles: with Check set (as the web site mounts it), a
// tile whose stored bytes are not what the signed tree holds, or that can
// only be authenticated through such a tile, is answered 409 naming the
// tile, never served: a level-0 hash changed, an interior hash (a level-1
// tile's), a body changed (its bundle). The other tiles are served, and,
// without Check, the handler serves the stored bytes as they are. Every change is made with the triggers dropped and created
// again.
func TestHandlerVerifiesTiles(t *testing.T) {
	ctx := context.Background()
	base := commitLedger(t, "example.com/verify", 600)
	paths := []string{"tile/0/000", "tile/0/001", "tile/0/002.p/88", "tile/1/000.p/2", "tile/entries/000", "tile/entries/001", "tile/entries/002.p/88"}
	for _, c := range []struct {
		name    string
		stmt    string
		refused []string
	}{
		{"intact", "", nil},
		// The bundle of entries 256..511 is authenticated through the
		// level-0 tile holding their hashes.
		{"leaf hash of entry 300", fmt.Sprintf(`UPDATE hashes SET hash = zeroblob(32) WHERE id = %d`, tlog.StoredHashIndex(0, 300)), []string{"tile/0/001", "tile/entries/001"}},
		// Every level-0 tile is authenticated through the level-1 tile,
		// which holds the changed hash: nothing can be served.
		{"level-8 hash of entries 256..511", fmt.Sprintf(`UPDATE hashes SET hash = zeroblob(32) WHERE id = %d`, tlog.StoredHashIndex(8, 1)), paths},
		{"body of entry 10", `UPDATE entries SET body = replace(body, '"p10"', '"q10"') WHERE idx = 10`, []string{"tile/entries/000"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			db := copyFile(t, base)
			if c.stmt != "" {
				if err := tamper.Restoring(db, c.stmt); err != nil {
					t.Fatal(err)
				}
			}
			ro, err := stores.Open(ctx, db, ledger.Options{ReadOnly: true})
			if err != nil {
				t.Fatal(err)
			}
			defer ro.Close()
			checked := httptest.NewServer(&tiles.Handler{Store: ro.Store(), Check: func(cp *ledger.StoredCheckpoint) error {
				_, err := ro.VerifyCheckpoint(cp)
				return err
			}})
			defer checked.Close()
			plain := httptest.NewServer(&tiles.Handler{Store: ro.Store()})
			defer plain.Close()
			for _, p := range paths {
				refused := false
				for _, r := range c.refused {
					refused = refused || r == p
				}
				resp, err := http.Get(checked.URL + "/" + p)
				if err != nil {
					t.Fatal(err)
				}
				body, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				switch {
				case refused && (resp.StatusCode != http.StatusConflict || !strings.Contains(string(body), "tile "+p)):
					t.Errorf("%s: %d %q; want 409 naming the tile", p, resp.StatusCode, body)
				case !refused && resp.StatusCode != http.StatusOK:
					t.Errorf("%s: %d %q; want 200", p, resp.StatusCode, body)
				}
				if resp, err := http.Get(plain.URL + "/" + p); err != nil || resp.StatusCode != http.StatusOK {
					t.Errorf("%s without Check: %v %v; want 200", p, resp, err)
				} else {
					resp.Body.Close()
				}
			}
		})
	}
}

// TestHandlerRefusesMissingRows: an entry row or a stored leaf hash
// deleted below the latest checkpoint (which signed it) is altered data,
// not a store that is unavailable: the tile that would hold it is
// answered 409 naming it, with or without Check (503 is for a store that
// cannot be read), and the other tiles are served.
func TestHandlerRefusesMissingRows(t *testing.T) {
	ctx := context.Background()
	base := commitLedger(t, "example.com/missing", 300)
	// 300 entries: tiles 000 (full) and 001.p/44 (entries 256..299).
	for _, c := range []struct {
		name, stmt, refused string
	}{
		{"entry 299", `DELETE FROM entries WHERE idx = 299`, "tile/entries/001.p/44"},
		{"leaf hash of entry 299", fmt.Sprintf(`DELETE FROM hashes WHERE id = %d`, tlog.StoredHashIndex(0, 299)), "tile/0/001.p/44"},
	} {
		t.Run(c.name, func(t *testing.T) {
			db := copyFile(t, base)
			if err := tamper.Restoring(db, c.stmt); err != nil {
				t.Fatal(err)
			}
			ro, err := stores.Open(ctx, db, ledger.Options{ReadOnly: true})
			if err != nil {
				t.Fatal(err)
			}
			defer ro.Close()
			srv := httptest.NewServer(&tiles.Handler{Store: ro.Store()})
			defer srv.Close()
			for _, p := range []string{"tile/0/000", "tile/entries/000", c.refused} {
				resp, err := http.Get(srv.URL + "/" + p)
				if err != nil {
					t.Fatal(err)
				}
				body, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				want := http.StatusOK
				if p == c.refused {
					want = http.StatusConflict
				}
				if resp.StatusCode != want || (want == http.StatusConflict && !strings.Contains(string(body), "tile "+p)) {
					t.Errorf("%s: %d %q; want %d", p, resp.StatusCode, body, want)
				}
			}
		})
	}
}

// commitLedger makes a SQLite ledger of origin with n commit entries, each
// by its own player (p0, p1, ...) with the commitment SHA-256 of the
// decimal index, closed, and returns its path.
func commitLedger(t *testing.T, origin string, n int) string {
	t.Helper()
	ctx := context.Background()
	dir := t.TempDir()
	base, key := filepath.Join(dir, "l.db"), filepath.Join(dir, "l.key")
	if _, err := stores.Init(ctx, base, origin, key); err != nil {
		t.Fatal(err)
	}
	l, err := stores.Open(ctx, base, ledger.Options{KeyFile: key})
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		if _, err := l.Append(ctx, []byte(fmt.Sprintf(`{"kind":"commit","player":"p%d","action_type":"bid","channel":"#a","commitment":"%x"}`, i, sha256.Sum256([]byte(fmt.Sprint(i)))))); err != nil {
			t.Fatal(err)
		}
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	return base
}

// copyFile copies the file at path into a new temporary directory and
// returns the copy's path.
func copyFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	cp := filepath.Join(t.TempDir(), filepath.Base(path))
	if err := os.WriteFile(cp, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return cp
}
