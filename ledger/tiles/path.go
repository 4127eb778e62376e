package tiles

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"golang.org/x/mod/sumdb/tlog"
)

// Height is the tile height of tlog-tiles: 256 hashes per full tile.
const Height = 8

// MaxLevel is the highest tile level a tlog-tiles path may name ("<L> ...
// MUST be a decimal ASCII integer between 0 and 63").
const MaxLevel = 63

// Path returns the tlog-tiles path of t (no leading slash), e.g.
// "tile/0/x001/234" or "tile/entries/005.p/17". t.H must be Height; t.L
// is -1 for an entry bundle.
func Path(t tlog.Tile) string {
	p := t.Path() // tile/8/L/N[.p/W], with "data" for L = -1
	p = strings.Replace(p, "tile/8/", "tile/", 1)
	return strings.Replace(p, "tile/data/", "tile/entries/", 1)
}

// PathError is a malformed tlog-tiles path, one the spec does not allow
// (c2sp.org/tlog-tiles, "Merkle Tree" and "Log entries"): Reason says
// which element is wrong and what was expected there.
type PathError struct {
	Path   string
	Reason string
}

// Error names the path, what is wrong with it and the grammar expected.
func (e *PathError) Error() string {
	return fmt.Sprintf("malformed tile path %q: %s (C2SP tlog-tiles: tile/<L>/<N>[.p/<W>] or tile/entries/<N>[.p/<W>])", e.Path, e.Reason)
}

// indexExample is the spec's own example of an index's encoding.
const indexExample = "e.g. 000, or x001/x234/067 for 1234067"

// ParsePath parses a tlog-tiles path (no leading slash) into a tile of
// height 8 (L = -1 for an entry bundle). A path the spec does not allow
// is a *PathError saying what is wrong: a level that is not "entries" or
// a decimal from 0 to MaxLevel without leading zeros; an index that is
// missing, has an element that is not three digits, lacks the x on an
// element before the last (or has one on the last), or begins with x000;
// a width that is not a decimal from 1 to 255 without leading zeros. A
// well-formed index too large for any tree (2^63 or more) is an error
// wrapping ErrNotCovered. The tile is then tlog.ParseTilePath's, and Path
// of it gives back path.
func ParsePath(path string) (tlog.Tile, error) {
	bad := func(format string, args ...any) (tlog.Tile, error) {
		return tlog.Tile{}, &PathError{Path: path, Reason: fmt.Sprintf(format, args...)}
	}
	rest, ok := strings.CutPrefix(path, "tile/")
	if !ok {
		return bad("expected it to begin with tile/")
	}
	f := strings.Split(rest, "/")
	level, f := f[0], f[1:]
	switch {
	case level == "entries":
	case level == "":
		return bad("the level is empty; expected a decimal from 0 to %d, or entries for an entry bundle", MaxLevel)
	case !digits(level):
		return bad("level %q is not a decimal number; expected 0 to %d, or entries for an entry bundle", level, MaxLevel)
	case len(level) > 1 && level[0] == '0':
		return bad("level %s has a leading zero; expected a decimal from 0 to %d without leading zeros", level, MaxLevel)
	default:
		if l, err := strconv.Atoi(level); err != nil || l > MaxLevel {
			return bad("level %s is out of range; expected 0 to %d", level, MaxLevel)
		}
	}
	if len(f) >= 2 && strings.HasSuffix(f[len(f)-2], ".p") {
		w := f[len(f)-1]
		switch {
		case w == "":
			return bad("the partial tile's width is empty; expected .p/<W> with W from 1 to 255")
		case !digits(w):
			return bad("width %q is not a decimal number; expected 1 to 255", w)
		case len(w) > 1 && w[0] == '0':
			return bad("width %s has a leading zero; expected a decimal from 1 to 255 without leading zeros", w)
		}
		if n, err := strconv.Atoi(w); err != nil || n < 1 || n > 255 {
			return bad("width %s is out of range; expected 1 to 255 (a full tile has no .p/<W>)", w)
		}
		f = f[:len(f)-1]
		f[len(f)-1] = strings.TrimSuffix(f[len(f)-1], ".p")
	} else if len(f) >= 1 && strings.HasSuffix(f[len(f)-1], ".p") {
		return bad("a partial tile without its width; expected .p/<W> with W from 1 to 255")
	}
	if len(f) == 0 || len(f) == 1 && f[0] == "" {
		return bad("the index is missing; expected it as three-digit elements (%s)", indexExample)
	}
	var n int64
	overflow := false
	for i, e := range f {
		last := i == len(f)-1
		d, hasX := strings.CutPrefix(e, "x")
		switch {
		case !last && !hasX:
			return bad("index element %q is not the last one, so expected x and three digits (%s)", e, indexExample)
		case last && hasX:
			return bad("the last index element %q begins with x; expected three digits without it (%s)", e, indexExample)
		case len(d) != 3 || !digits(d):
			return bad("index element %q; expected three digits, zero-padded (%s)", e, indexExample)
		case i == 0 && !last && d == "000":
			return bad("the index begins with x000; expected no leading x000 elements (%s)", indexExample)
		}
		v, _ := strconv.ParseInt(d, 10, 64)
		if n > (math.MaxInt64-v)/1000 {
			overflow = true
		}
		n = n*1000 + v
	}
	if overflow {
		return tlog.Tile{}, fmt.Errorf("%s: index 2^63 or more, past any tree: %w", path, ErrNotCovered)
	}
	// The syntax is the spec's: tlog parses it (height element added,
	// "entries" spelt "data").
	tp := "tile/8/" + rest
	if level == "entries" {
		tp = "tile/8/data/" + strings.TrimPrefix(rest, "entries/")
	}
	t, err := tlog.ParseTilePath(tp)
	if err != nil || t.H != Height || Path(t) != path {
		return bad("not in the canonical encoding")
	}
	return t, nil
}

// digits reports whether s is a non-empty run of ASCII digits.
func digits(s string) bool {
	for _, c := range []byte(s) {
		if c < '0' || c > '9' {
			return false
		}
	}
	return s != ""
}
