package main

import (
	"fmt"
	"text/tabwriter"

	"github.com/sealedhq/sealed/rules/auction"
	"github.com/sealedhq/sealed/rules/rng"
	"github.com/spf13/cobra"
)

func init() { rngSubcommands = append(rngSubcommands, newRngValuesCmd) }

// rngValuesOptions are the inputs of `sealed rng values`.
type rngValuesOptions struct {
	Seed     string // 64 hex digits
	Players  int    // 3..8
	Items    int    // 1..auction.MaxItems
	Min, Max int    // value range, inclusive
	// Inputs are the match's contributions and drand round: the values
	// come from the match seed they give (docs/rng.md, "The match seed").
	Inputs matchInputFlags
}

// rngValuesJSON is the --json output of `sealed rng values`.
type rngValuesJSON struct {
	Seed string `json:"seed"`
	// MatchSeed is the seed the values come from, with --contribution or
	// --beacon-file (omitted without: it is Seed).
	MatchSeed string  `json:"match_seed,omitempty"`
	Label     string  `json:"label"`
	Players   int     `json:"players"`
	Items     int     `json:"items"`
	ValueMin  int     `json:"value_min"`
	ValueMax  int     `json:"value_max"`
	Values    [][]int `json:"values"` // [item-1][seat]
}

// newRngValuesCmd builds `sealed rng values`.
func newRngValuesCmd(a *app) *cobra.Command { return rngValuesCmd(a, runRngValues) }

// rngValuesCmd builds `sealed rng values` with runF as its action, so tests
// can check the parsing alone.
func rngValuesCmd(a *app, runF func(*app, *rngValuesOptions) error) *cobra.Command {
	d := auction.DefaultConfig()
	o := &rngValuesOptions{}
	c := &cobra.Command{
		Use:   "values --seed SEED [--players P] [--items N] [--min V] [--max V]",
		Short: "Print the Blind Auction private values a seed gives (seed 000)",
		Long: `Print the Blind Auction (auction-0.2) values table a seed gives: for item
1..N, for seat 0..P-1, range(min, max) drawn from the stream
auction-0.2/values (docs/rng.md). Each row is an item, each column a seat.

A match whose players contributed client seeds, or that took a drand
round, draws from its match seed, not from the server's seed: give the
same --contribution and --beacon-file as 'sealed replay play' takes
(docs/rng.md, "The match seed"), or the match seed itself as --seed.`,
		Example: `  sealed rng values --seed "$(sealed seed new --json | jq -r .seed)" --players 5
  sealed rng values --seed 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f --players 3 --items 3 --json`,
		Args: noArgs("rng values"),
		RunE: func(*cobra.Command, []string) error { return runF(a, o) },
	}
	f := c.Flags()
	f.StringVar(&o.Seed, "seed", "", "the revealed seed, 64 hex digits (required)")
	f.IntVar(&o.Players, "players", d.Players, fmt.Sprintf("number of seats, %d..%d", auction.MinPlayers, auction.MaxPlayers))
	f.IntVar(&o.Items, "items", d.Items, fmt.Sprintf("number of items, 1..%d", auction.MaxItems))
	setFlagRange(f, "players", auction.MinPlayers, auction.MaxPlayers)
	setFlagRange(f, "items", 1, auction.MaxItems)
	f.IntVar(&o.Min, "min", d.ValueMin, "smallest value")
	f.IntVar(&o.Max, "max", d.ValueMax, fmt.Sprintf("largest value, at most %d", auction.MaxValue))
	o.Inputs.register(f)
	return c
}

func runRngValues(a *app, o *rngValuesOptions) error {
	if o.Seed == "" {
		return usageErrorf("--seed is required").withHint("make one with 'sealed seed new'")
	}
	seed, err := parseSeedFlag("--seed", o.Seed)
	if err != nil {
		return err
	}
	cfg := auction.DefaultConfig()
	cfg.Players, cfg.Items, cfg.ValueMin, cfg.ValueMax = o.Players, o.Items, o.Min, o.Max
	if err := cfg.Validate(); err != nil {
		return usageErrorf("%v", err)
	}
	ms, err := o.Inputs.matchSeed(a, seed, cfg.Players)
	if err != nil {
		return err
	}
	values, err := auction.Values(ms[:], cfg)
	if err != nil {
		return usageErrorf("%v", err)
	}
	if a.json {
		j := rngValuesJSON{Seed: seed.String(), Label: rng.LabelAuctionValues, Players: cfg.Players,
			Items: cfg.Items, ValueMin: cfg.ValueMin, ValueMax: cfg.ValueMax, Values: values}
		if ms != seed {
			j.MatchSeed = ms.String()
		}
		return a.printJSON(j)
	}
	tw := tabwriter.NewWriter(a.out, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "item\t")
	for s := 0; s < cfg.Players; s++ {
		fmt.Fprintf(tw, "seat %d\t", s)
	}
	fmt.Fprintln(tw)
	for i, row := range values {
		fmt.Fprintf(tw, "%d\t", i+1)
		for _, v := range row {
			fmt.Fprintf(tw, "%d\t", v)
		}
		fmt.Fprintln(tw)
	}
	return tw.Flush()
}
