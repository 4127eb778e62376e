package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/sealedhq/sealed/rules/secret"
	"github.com/spf13/cobra"
)

// lotsSubcommands are the verbs of `sealed lots`, each in its own file.
var lotsSubcommands []func(*app) *cobra.Command

func init() { register(newLotsCmd) }

// newLotsCmd builds `sealed lots`: the sealed bids on lots and the Hands of
// seed 004.
func newLotsCmd(a *app) *cobra.Command {
	c := &cobra.Command{
		Use:   "lots",
		Short: "Conclude a week's sealed bids on lots and Hands from the ledger (docs/secret-actions.md)",
	}
	for _, f := range lotsSubcommands {
		c.AddCommand(f(a))
	}
	return c
}

// maxStateFile bounds a --points or --possessions file.
const maxStateFile = 8 << 20

// readStateFile reads a small JSON file given to flag (stdin for "-").
func readStateFile(a *app, flag, path string) ([]byte, error) {
	b, err := readInputFile(a, path, maxStateFile)
	if err != nil {
		return nil, usageErrorf("--%s %s: %v", flag, path, err)
	}
	return b, nil
}

// parsePoints parses a --points file: a JSON object from player name to
// whole points >= 0, e.g. {"alice": 100, "bob": 40}. A player named twice,
// points that are not a JSON whole number ("50", 50.5, null) and a blank
// or padded player name are refused.
func parsePoints(a *app, path string) (map[string]int64, error) {
	b, err := readStateFile(a, "points", path)
	if err != nil {
		return nil, err
	}
	keys, vals, err := decodeObject(b)
	if err != nil {
		return nil, usageErrorf("--points %s: %v; expected a JSON object of player names to points, e.g. {\"alice\": 100, \"bob\": 40}", path, err)
	}
	points := map[string]int64{}
	for i, p := range keys {
		if err := checkStatePlayer("points", path, p); err != nil {
			return nil, err
		}
		n, err := strconv.ParseInt(string(vals[i]), 10, 64)
		if errors.Is(err, strconv.ErrRange) && !strings.HasPrefix(string(vals[i]), "-") {
			return nil, usageErrorf("--points %s: %q has %s points, out of range; expected a whole number of points from 0 to %d", path, p, vals[i], int64(math.MaxInt64))
		}
		if err != nil || n < 0 {
			return nil, usageErrorf("--points %s: %q has %s points; expected a whole number of points, 0 or more (a JSON number, not a string)", path, p, vals[i])
		}
		points[p] = n
	}
	return points, nil
}

// parsePossessions parses a --possessions file: a JSON object from player
// name to the cards they hold, e.g. {"erin": ["AS", "KS", "QS", "JS", "TS"]}.
// A player named twice and a card listed twice for one player (each card
// exists once) are refused.
func parsePossessions(a *app, path string) (map[string][]secret.Card, error) {
	b, err := readStateFile(a, "possessions", path)
	if err != nil {
		return nil, err
	}
	keys, vals, err := decodeObject(b)
	if err != nil {
		return nil, usageErrorf("--possessions %s: %v; expected a JSON object of player names to lists of cards, e.g. {\"erin\": [\"AS\", \"KS\", \"QS\", \"JS\", \"TS\"]}", path, err)
	}
	out := map[string][]secret.Card{}
	for i, p := range keys {
		if err := checkStatePlayer("possessions", path, p); err != nil {
			return nil, err
		}
		var cards []string
		if err := json.Unmarshal(vals[i], &cards); err != nil || cards == nil {
			return nil, usageErrorf("--possessions %s: %q holds %s; expected a list of cards such as [\"AS\", \"10H\"]", path, p, vals[i])
		}
		seen := map[secret.Card]string{}
		for _, s := range cards {
			c, err := secret.ParseCard(s)
			if err != nil {
				return nil, usageErrorf("--possessions %s: %s's card: %v", path, p, err)
			}
			if first, dup := seen[c]; dup {
				return nil, usageErrorf("--possessions %s: %s holds %q twice (as %q and %q); each card is held once", path, p, c.String(), first, s)
			}
			seen[c] = s
			out[p] = append(out[p], c)
		}
	}
	return out, nil
}

// checkStatePlayer refuses a blank player name, or one with white space
// at its start or end, as a key of a --points or --possessions file.
func checkStatePlayer(flag, path, p string) error {
	if strings.TrimSpace(p) == "" || strings.TrimSpace(p) != p {
		return usageErrorf("--%s %s: player name %q; expected a name without white space at its start or end", flag, path, p)
	}
	return nil
}

// decodeObject decodes one JSON object into its keys, in file order, and
// their raw values; a key given twice (RFC 8259 §4: names SHOULD be unique;
// encoding/json would silently keep the last), a value that is not an
// object and trailing data are errors.
func decodeObject(b []byte) ([]string, []json.RawMessage, error) {
	switch {
	case bytes.HasPrefix(b, []byte("\xef\xbb\xbf")):
		return nil, nil, fmt.Errorf("the file starts with a UTF-8 byte order mark (EF BB BF), which JSON does not allow")
	case len(bytes.TrimSpace(b)) == 0:
		return nil, nil, fmt.Errorf("the file is empty")
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, nil, fmt.Errorf("not a JSON object")
	}
	var keys []string
	var vals []json.RawMessage
	seen := map[string]bool{}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, nil, jsonObjectError(err)
		}
		k := t.(string) // object keys are strings
		if seen[k] {
			return nil, nil, fmt.Errorf("player %q is given twice", k)
		}
		seen[k] = true
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, nil, jsonObjectError(err)
		}
		keys, vals = append(keys, k), append(vals, v)
	}
	if _, err := dec.Token(); err != nil {
		return nil, nil, jsonObjectError(err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, nil, fmt.Errorf("data after the JSON object")
	}
	return keys, vals, nil
}

// jsonObjectError says why decodeObject's decoder stopped: the end of the
// input (io.EOF, io.ErrUnexpectedEOF, which the decoder's text calls
// "EOF") as a JSON object left open, anything else as invalid JSON.
func jsonObjectError(err error) error {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return fmt.Errorf("the JSON ends before the object is closed")
	}
	return fmt.Errorf("not valid JSON: %v", err)
}

func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// parsePrizes parses --prizes "10,5,2": points for placement 1, 2, ...
func parsePrizes(s string) ([]int64, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	var out []int64
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.ParseInt(strings.TrimSpace(f), 10, 64)
		if err != nil || n < 0 {
			return nil, usageErrorf("--prizes %q; expected whole points >= 0 per placement, comma-separated, e.g. 10,5,2", s)
		}
		out = append(out, n)
	}
	return out, nil
}

// parseLots parses --lots "1,2,a7": the active lots, lower-cased, without
// a leading '#'.
func parseLots(s string) ([]string, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	var out []string
	for _, f := range strings.Split(s, ",") {
		l := strings.ToLower(strings.TrimPrefix(strings.TrimSpace(f), "#"))
		if l == "" {
			return nil, usageErrorf("--lots %q has an empty lot name; expected comma-separated lot names, e.g. 1,2,3", s)
		}
		out = append(out, l)
	}
	return out, nil
}

// fmtCards writes cards as "AS KS QS".
func fmtCards(cs []secret.Card) string {
	var s []string
	for _, c := range cs {
		s = append(s, c.String())
	}
	if len(s) == 0 {
		return "(none)"
	}
	return strings.Join(s, " ")
}
