package main

import (
	"fmt"
	"text/tabwriter"

	"github.com/sealedhq/sealed/rules/bargain"
	"github.com/spf13/cobra"
)

func init() { rngSubcommands = append(rngSubcommands, newRngPoolsCmd) }

// rngPoolsOptions are the inputs of `sealed rng pools`.
type rngPoolsOptions struct {
	Seed    string // 64 hex digits
	Matches int    // how many matches to derive, 1..maxPoolMatches
	// Inputs are the episode's contributions and drand round: the draws
	// come from the match seed they give (docs/rng.md, "The match seed").
	Inputs matchInputFlags
}

// maxPoolMatches bounds --matches of `rng pools`.
const maxPoolMatches = 1000

// poolRow is one match of `sealed rng pools --json`.
type poolRow struct {
	Match  int               `json:"match"`
	Seats  [2]int            `json:"seats"`
	Opener int               `json:"opener"`
	Pool   bargain.Vector    `json:"pool"`
	Values [2]bargain.Vector `json:"values"`
}

// newRngPoolsCmd builds `sealed rng pools`: the Negotiation Games pools and
// valuations a seed gives.
func newRngPoolsCmd(a *app) *cobra.Command { return rngPoolsCmd(a, runRngPools) }

// rngPoolsCmd builds `sealed rng pools` with runF as its action, so tests
// can check the flag parsing alone.
func rngPoolsCmd(a *app, runF func(*app, *rngPoolsOptions) error) *cobra.Command {
	opts := &rngPoolsOptions{}
	c := &cobra.Command{
		Use:   "pools --seed SEED [--matches M]",
		Short: "Print the Negotiation Games pools and valuations a seed gives (seed 002)",
		Long: `Print, for matches 0..M-1, the seats (A, B), the opener, the pool
(books, hats, balls) and both seats' private values that the seed gives, drawn
from the streams bargaining/match/<m> (docs/rng.md, docs/replays.md).

An episode whose players contributed client seeds, or that took a drand
round, draws from its match seed, not from the server's seed: give the
same --contribution and --beacon-file as 'sealed replay play' takes
(docs/rng.md, "The match seed"), or the match seed itself as --seed.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runF(a, opts) },
	}
	c.Flags().StringVar(&opts.Seed, "seed", "", "the revealed seed, 64 hex digits (required)")
	c.Flags().IntVar(&opts.Matches, "matches", bargain.DefaultMatches, fmt.Sprintf("how many matches to derive, 1..%d", maxPoolMatches))
	setFlagRange(c.Flags(), "matches", 1, maxPoolMatches)
	opts.Inputs.register(c.Flags())
	return c
}

func runRngPools(a *app, opts *rngPoolsOptions) error {
	if opts.Seed == "" {
		return usageErrorf("--seed is required").withHint("make one with 'sealed seed new'")
	}
	seed, err := parseSeedFlag("--seed", opts.Seed)
	if err != nil {
		return err
	}
	if opts.Matches < 1 || opts.Matches > maxPoolMatches {
		return usageErrorf("--matches is %d; expected 1..%d", opts.Matches, maxPoolMatches)
	}
	ms, err := opts.Inputs.matchSeed(a, seed, bargain.Seats)
	if err != nil {
		return err
	}
	plans, err := bargain.DrawSchedule(ms[:], opts.Matches)
	if err != nil {
		return usageErrorf("%v", err)
	}
	if a.json {
		rows := make([]poolRow, len(plans))
		for i, p := range plans {
			rows[i] = poolRow{p.Match, p.Seats, p.Opener, p.Pool, p.Values}
		}
		return a.printJSON(rows)
	}
	tw := tabwriter.NewWriter(a.out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "match\tseats\topener\tpool\tvalues A\tvalues B")
	for _, p := range plans {
		fmt.Fprintf(tw, "%d\t%d,%d\t%d\t%s\t%s\t%s\n", p.Match, p.Seats[0], p.Seats[1], p.Opener,
			triple(p.Pool), triple(p.Values[0]), triple(p.Values[1]))
	}
	fmt.Fprintln(tw, "(pool and values in the order books, hats, balls; A and B are the seats in that order)")
	return tw.Flush()
}

// triple prints a vector as "c0 c1 c2".
func triple(v bargain.Vector) string { return fmt.Sprintf("%d %d %d", v[0], v[1], v[2]) }
