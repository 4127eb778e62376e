package tiles

import (
	"fmt"
	"strings"

	"golang.org/x/mod/sumdb/tlog"
)

// Height is the tile height of tlog-tiles: 256 hashes per full tile.
const Height = 8

// Path returns the tlog-tiles path of t (no leading slash), e.g.
// "tile/0/x001/234" or "tile/entries/005.p/17". t.H must be Height; t.L
// is -1 for an entry bundle.
func Path(t tlog.Tile) string {
	p := t.Path() // tile/8/L/N[.p/W], with "data" for L = -1
	p = strings.Replace(p, "tile/8/", "tile/", 1)
	return strings.Replace(p, "tile/data/", "tile/entries/", 1)
}

// ParsePath parses a tlog-tiles path (no leading slash) into a tile of
// height 8 (L = -1 for an entry bundle). It refuses what the spec does:
// a level above 63 or with leading zeros, index elements that are not
// three digits or lack the x prefix, a width outside 1..255.
func ParsePath(path string) (tlog.Tile, error) {
	rest, ok := strings.CutPrefix(path, "tile/")
	if !ok {
		return tlog.Tile{}, fmt.Errorf("tile path %q: expected tile/<L>/<N>[.p/<W>] or tile/entries/<N>[.p/<W>]", path)
	}
	if r, ok := strings.CutPrefix(rest, "entries/"); ok {
		rest = "data/" + r
	}
	t, err := tlog.ParseTilePath("tile/8/" + rest)
	if err != nil || t.H != Height || Path(t) != path {
		return tlog.Tile{}, fmt.Errorf("tile path %q: expected tile/<L>/<N>[.p/<W>] or tile/entries/<N>[.p/<W>] (C2SP tlog-tiles)", path)
	}
	return t, nil
}
