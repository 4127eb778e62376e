package main

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
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

// readStateFile reads a small JSON file given to flag.
func readStateFile(flag, path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, usageErrorf("--%s: %v", flag, err)
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxStateFile+1))
	if err != nil {
		return nil, usageErrorf("--%s: %v", flag, err)
	}
	if len(b) > maxStateFile {
		return nil, usageErrorf("--%s %s is larger than %d bytes", flag, path, maxStateFile)
	}
	return b, nil
}

// parsePoints parses a --points file: a JSON object from player name to
// whole points >= 0, e.g. {"alice": 100, "bob": 40}.
func parsePoints(path string) (map[string]int64, error) {
	b, err := readStateFile("points", path)
	if err != nil {
		return nil, err
	}
	var raw map[string]json.Number
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&raw); err != nil || raw == nil || dec.More() {
		return nil, usageErrorf("--points %s is not a JSON object of player names to points; expected e.g. {\"alice\": 100, \"bob\": 40}", path)
	}
	points := map[string]int64{}
	for _, p := range sortedKeys(raw) {
		n, err := strconv.ParseInt(raw[p].String(), 10, 64)
		if err != nil || n < 0 || strings.TrimSpace(p) == "" {
			return nil, usageErrorf("--points %s: %q has %s points; expected a player name and a whole number of points, 0 or more", path, p, raw[p])
		}
		points[p] = n
	}
	return points, nil
}

// parsePossessions parses a --possessions file: a JSON object from player
// name to the cards they hold, e.g. {"erin": ["AS", "KS", "QS", "JS", "TS"]}.
func parsePossessions(path string) (map[string][]secret.Card, error) {
	b, err := readStateFile("possessions", path)
	if err != nil {
		return nil, err
	}
	var raw map[string][]string
	dec := json.NewDecoder(bytes.NewReader(b))
	if err := dec.Decode(&raw); err != nil || raw == nil || dec.More() {
		return nil, usageErrorf("--possessions %s is not a JSON object of player names to lists of cards; expected e.g. {\"erin\": [\"AS\", \"KS\", \"QS\", \"JS\", \"TS\"]}", path)
	}
	out := map[string][]secret.Card{}
	for _, p := range sortedKeys(raw) {
		for _, s := range raw[p] {
			c, err := secret.ParseCard(s)
			if err != nil {
				return nil, usageErrorf("--possessions %s: %s's card: %v", path, p, err)
			}
			out[p] = append(out[p], c)
		}
	}
	return out, nil
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
