package tiles_test

import (
	"errors"
	"math/big"
	"regexp"
	"strings"
	"testing"

	"golang.org/x/mod/sumdb/tlog"

	"github.com/sealedhq/sealed/ledger/tiles"
)

// tilePathGrammar is the path grammar of c2sp.org/tlog-tiles: a level
// from 0 to 63 without leading zeros, or "entries"; the index as
// zero-padded three-digit elements, all but the last beginning with x; an
// optional .p/<W>, W from 1 to 255 without leading zeros.
var tilePathGrammar = regexp.MustCompile(`^tile/(entries|[0-9]|[1-5][0-9]|6[0-3])/((?:x[0-9]{3}/)*[0-9]{3})(?:\.p/([1-9]|[1-9][0-9]|1[0-9]{2}|2[0-4][0-9]|25[0-5]))?$`)

// specIndex returns the index an index part of the grammar encodes and
// whether it is the shortest encoding (no leading x000).
func specIndex(s string) (*big.Int, bool) {
	n := new(big.Int)
	elems := strings.Split(s, "/")
	for _, e := range elems {
		v, _ := new(big.Int).SetString(strings.TrimPrefix(e, "x"), 10)
		n.Mul(n, big.NewInt(1000)).Add(n, v)
	}
	return n, len(elems) == 1 || elems[0] != "x000"
}

// checkTilePath: ParsePath accepts exactly the paths of the spec's
// grammar whose index is below 2^63 (a larger one is ErrNotCovered; any
// other refusal a *PathError), and the tile it returns is the one
// x/mod's tlog.ParseTilePath reads from the same path in its spelling
// (height 8, "data" for "entries"), and Path gives the path back.
func checkTilePath(t *testing.T, path string) {
	tile, err := tiles.ParsePath(path)
	m := tilePathGrammar.FindStringSubmatch(path)
	valid, huge := false, false
	if m != nil {
		n, shortest := specIndex(m[2])
		valid = shortest
		huge = n.Cmp(new(big.Int).Lsh(big.NewInt(1), 63)) >= 0
	}
	if err != nil {
		var pe *tiles.PathError
		switch {
		case valid && huge:
			if !errors.Is(err, tiles.ErrNotCovered) {
				t.Fatalf("ParsePath(%q): %v, want ErrNotCovered", path, err)
			}
		case valid:
			t.Fatalf("ParsePath(%q) refused a path of the spec's grammar: %v", path, err)
		case !errors.As(err, &pe):
			t.Fatalf("ParsePath(%q): %T %v, want a *PathError", path, err, err)
		}
		return
	}
	if !valid || huge {
		t.Fatalf("ParsePath(%q) accepted %+v, a path outside the spec's grammar", path, tile)
	}
	xmod := "tile/8/" + strings.Replace(strings.TrimPrefix(path, "tile/"), "entries/", "data/", 1)
	want, err := tlog.ParseTilePath(xmod)
	if err != nil {
		// x/mod refuses a full width (256) it spells without .p; the
		// grammar excludes that, so x/mod must accept.
		t.Fatalf("ParsePath(%q) = %+v; x/mod refuses %q: %v", path, tile, xmod, err)
	}
	if tile != want {
		t.Fatalf("ParsePath(%q) = %+v; x/mod reads %+v", path, tile, want)
	}
	if p := tiles.Path(tile); p != path {
		t.Fatalf("ParsePath(%q) = %+v, whose Path is %q", path, tile, p)
	}
}

// FuzzParsePath: checkTilePath on mutated paths
// (go test -run '^$' -fuzz '^FuzzParsePath$' ./ledger/tiles).
func FuzzParsePath(f *testing.F) {
	for _, p := range []string{
		"tile/0/000", "tile/63/000", "tile/8/x001/x234/067.p/255", "tile/entries/000.p/28",
		"tile/entries/x001/000", "tile/0/x009/x223/x372/x036/x854/x775/807",
		"tile/0/x009/x223/x372/x036/x854/x775/808", "tile/entries/x999/x999/x999/x999/x999/x999/999",
		"tile/64/000", "tile/00/000", "tile/data/000", "tile//000", "tile/0/x000/001",
		"tile/0/000.p/256", "tile/0/000.p/010", "tile/0/000.p/", "tile/0/+01", "tile/0/x-01/001",
		"tile/entries/x000/000", "tile/1/000.p/1/", "tile/1/x000.p/1",
	} {
		f.Add(p)
	}
	f.Fuzz(checkTilePath)
}
