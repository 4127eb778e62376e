package tiles_test

import (
	"errors"
	"net/http/httptest"
	"strings"
	"testing"

	"filippo.io/torchwood"
	"github.com/sealedhq/sealed/internal/tlogtest"
	"github.com/sealedhq/sealed/ledger/tiles"
)

// TestMalformedPath: a path c2sp.org/tlog-tiles does not allow ("<L> ...
// MUST be a decimal ASCII integer between 0 and 63, with no additional
// leading zeroes"; "<N> ... zero-padded 3-digit path elements. All but
// the last path element MUST begin with an x"; "<W> ... a decimal ASCII
// integer between 1 and 255, with no additional leading zeroes") is a
// *PathError naming the element and what was expected, answered 400 with
// that text; a well-formed path past the tree, even past any tree, is
// 404.
func TestMalformedPath(t *testing.T) {
	log := tlogtest.NewLog(t, "example.com/paths")
	log.Fill(t, 27, "p")
	srv := httptest.NewServer(&tiles.Handler{Store: log.Store})
	defer srv.Close()
	for _, tc := range []struct{ path, want string }{
		{"tile/64/000", "level 64 is out of range; expected 0 to 63"},
		{"tile/255/000", "level 255 is out of range"},
		{"tile/99999999999999999999/000", "out of range"},
		{"tile/-1/000", `level "-1" is not a decimal number; expected 0 to 63, or entries`},
		{"tile/00/000", "level 00 has a leading zero"},
		{"tile/data/000", `level "data" is not a decimal number`},
		{"tile//000", "the level is empty"},
		{"tile/..", `level ".." is not a decimal number`},
		{"tile/0", "the index is missing"},
		{"tile/0/", "the index is missing"},
		{"tile/entries", "the index is missing"},
		{"tile/0/abc", `index element "abc"; expected three digits`},
		{"tile/0/0", `index element "0"; expected three digits`},
		{"tile/0/0000", `index element "0000"; expected three digits`},
		{"tile/0/-01", `index element "-01"`},
		{"tile/0/001/002", `index element "001" is not the last one, so expected x`},
		{"tile/0/x001", `the last index element "x001" begins with x`},
		{"tile/0/x000/001", "the index begins with x000"},
		{"tile/entries/x000/x001/002", "the index begins with x000"},
		{"tile/0/000/", `index element "000" is not the last one`},
		{"tile/0/000.p", "a partial tile without its width"},
		{"tile/0/000.p/", "the partial tile's width is empty"},
		{"tile/0/000.p/0", "width 0 is out of range; expected 1 to 255"},
		{"tile/0/000.p/256", "width 256 is out of range"},
		{"tile/entries/000.p/010", "width 010 has a leading zero"},
		{"tile/0/000.p/-5", `width "-5" is not a decimal number`},
		{"tile/0/000.p/a", `width "a" is not a decimal number`},
	} {
		_, err := tiles.ParsePath(tc.path)
		var pe *tiles.PathError
		if !errors.As(err, &pe) || pe.Path != tc.path || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParsePath(%q) = %v, want a PathError saying %q", tc.path, err, tc.want)
		}
		resp, b := get(t, srv.URL+"/"+tc.path)
		if resp.StatusCode != 400 || !strings.Contains(string(b), tc.want) || !strings.Contains(string(b), "tile/<L>/<N>[.p/<W>]") {
			t.Errorf("GET /%s: %d %.300q, want 400 saying %q", tc.path, resp.StatusCode, b, tc.want)
		}
	}
	for _, p := range []string{
		"tile/63/000", "tile/8/000", "tile/0/001", "tile/entries/000.p/28", "tile/entries/x001/000",
		"tile/0/x009/x223/x372/x036/x854/x775/807",       // 2^63-1
		"tile/0/x009/x223/x372/x036/x854/x775/808",       // 2^63
		"tile/entries/x999/x999/x999/x999/x999/x999/999", // past 2^63
	} {
		resp, b := get(t, srv.URL+"/"+p)
		if resp.StatusCode != 404 || !strings.Contains(string(b), "not covered") {
			t.Errorf("GET /%s: %d %.200q, want 404 not covered", p, resp.StatusCode, b)
		}
		// The paths are torchwood's too (but for the last two, past
		// what a tlog.Tile holds).
		if tl, err := tiles.ParsePath(p); err == nil {
			if tw, err := torchwood.ParseTilePath(p); err != nil || tw != tl {
				t.Errorf("%s: ParsePath %+v, torchwood %+v %v", p, tl, tw, err)
			}
		}
	}
}
