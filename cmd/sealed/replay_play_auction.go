package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/cockroachdb/apd/v3"
	"github.com/sealedhq/sealed/rules/auction"
	"github.com/spf13/cobra"
)

func init() { replayPlaySubcommands = append(replayPlaySubcommands, newReplayPlayAuctionCmd) }

// replayPlayAuctionOptions are the inputs of `sealed replay play auction`.
type replayPlayAuctionOptions struct {
	Seed       string // 64 hex digits
	Players    int
	Items      int
	Pricing    string // first|second
	TalkRounds int
	Credits    int
	Min, Max   int
	Bots       string // comma-separated names, repeated over the seats
	Stake      string // decimal; "" for a free table
	Rake       string // decimal fraction
	Unit       string // decimal payout unit
	Out        string // file to write; "" or "-" for stdout
	Inputs     matchInputFlags
}

// newReplayPlayAuctionCmd builds `sealed replay play auction`.
func newReplayPlayAuctionCmd(a *app) *cobra.Command {
	return replayPlayAuctionCmd(a, runReplayPlayAuction)
}

// replayPlayAuctionCmd builds `sealed replay play auction` with runF as its
// action, so tests can check the parsing alone.
func replayPlayAuctionCmd(a *app, runF func(*app, *replayPlayAuctionOptions) error) *cobra.Command {
	d := auction.DefaultConfig()
	o := &replayPlayAuctionOptions{}
	c := &cobra.Command{
		Use:   "auction --seed SEED [--players P] [--items N] [--pricing first|second] [--bots truthful,shading,random] [--out FILE]",
		Short: "Play a Blind Auction with built-in bots and write its replay",
		Long: `Play a whole Blind Auction (auction-0.2, seed 000) with built-in bots and
write its sealed.auction.replay.v1 replay (docs/replays.md): the config, the
seed commitment, the seed, every event and the results.

Bots: truthful (says and bids its value), shading (bids 3/4 of its value),
random (talks and bids at random, drawing from the seed so a play is
reproducible), idle (misses every turn). --bots lists at most one name per
seat (more names than --players is refused); fewer are repeated over the
seats: "truthful,shading" at 5 seats is truthful, shading, truthful,
shading, truthful.

A paid table (--stake) splits the pot after --rake in proportion to positive
profit, rounded down to --unit (docs/design.md, reading B3).`,
		Example: `  sealed replay play auction --seed "$SEED" > r.json
  sealed replay play auction --seed "$SEED" --players 8 --pricing second --bots random --out r.json
  sealed replay play auction --seed "$SEED" --stake 10 --rake 0.05`,
		Args: noArgs("replay play auction"),
		RunE: func(*cobra.Command, []string) error { return runF(a, o) },
	}
	f := c.Flags()
	f.StringVar(&o.Seed, "seed", "", "the seed, 64 hex digits (required; make one with 'sealed seed new')")
	o.Inputs.register(f)
	f.IntVar(&o.Players, "players", d.Players, fmt.Sprintf("number of seats, %d..%d", auction.MinPlayers, auction.MaxPlayers))
	f.IntVar(&o.Items, "items", d.Items, "number of items")
	setFlagRange(f, "players", auction.MinPlayers, auction.MaxPlayers)
	f.StringVar(&o.Pricing, "pricing", string(d.Pricing), "first (pay your bid) or second (pay the highest other bid)")
	f.IntVar(&o.TalkRounds, "talk-rounds", d.TalkRounds, "talk turns per seat per item")
	f.IntVar(&o.Credits, "credits", d.StartingCredits, "starting credits of every seat")
	f.IntVar(&o.Min, "min", d.ValueMin, "smallest private value")
	f.IntVar(&o.Max, "max", d.ValueMax, "largest private value")
	f.StringVar(&o.Bots, "bots", "truthful,shading,random", "bot names, at most one per seat, repeated over the seats when fewer ("+strings.Join(auction.BotNames, ", ")+")")
	f.StringVar(&o.Stake, "stake", "", "make a paid table: each seat's stake, a decimal such as 10 or 2.50")
	f.StringVar(&o.Rake, "rake", "", "paid table: the house's share of the pot, a fraction such as 0.05")
	f.StringVar(&o.Unit, "unit", "", "paid table: the payout unit (default 0.01)")
	f.StringVarP(&o.Out, "out", "o", "", "write the replay to `FILE` instead of stdout")
	return c
}

// auctionBots reads --bots: names repeated over the seats.
func auctionBots(list string, seed []byte, players int) ([]auction.Bot, error) {
	names := strings.Split(list, ",")
	if len(names) > players {
		return nil, fmt.Errorf("--bots has %d names for %d seats; expected at most one per seat", len(names), players)
	}
	bots := make([]auction.Bot, players)
	for s := range bots {
		b, err := auction.NewBot(strings.TrimSpace(names[s%len(names)]), seed, s)
		if err != nil {
			return nil, fmt.Errorf("--bots: %v", err)
		}
		bots[s] = b
	}
	return bots, nil
}

// parseDecimal reads an optional decimal flag; "" gives nil.
func parseDecimal(flag, s string) (*apd.Decimal, error) {
	if s == "" {
		return nil, nil
	}
	d, _, err := apd.NewFromString(s)
	if err != nil || d.Form != apd.Finite {
		return nil, fmt.Errorf("--%s is %q; expected a decimal number such as 0.05", flag, s)
	}
	return d, nil
}

// auctionConfig builds the table's config from the options.
func (o *replayPlayAuctionOptions) auctionConfig() (auction.Config, error) {
	cfg := auction.Config{Players: o.Players, Items: o.Items, StartingCredits: o.Credits, ValueMin: o.Min,
		ValueMax: o.Max, TalkRounds: o.TalkRounds, Pricing: auction.Pricing(o.Pricing)}
	var err error
	if cfg.Stake, err = parseDecimal("stake", o.Stake); err != nil {
		return cfg, err
	}
	if cfg.Rake, err = parseDecimal("rake", o.Rake); err != nil {
		return cfg, err
	}
	if cfg.PayoutUnit, err = parseDecimal("unit", o.Unit); err != nil {
		return cfg, err
	}
	if cfg.Stake == nil && (cfg.Rake != nil || cfg.PayoutUnit != nil) {
		return cfg, fmt.Errorf("--rake and --unit need --stake (they only apply to a paid table)")
	}
	return cfg, cfg.Validate()
}

func runReplayPlayAuction(a *app, o *replayPlayAuctionOptions) error {
	if o.Seed == "" {
		return usageErrorf("--seed is required").withHint("make one with 'sealed seed new'")
	}
	seed, err := parseSeedFlag("--seed", o.Seed)
	if err != nil {
		return err
	}
	cfg, err := o.auctionConfig()
	if err != nil {
		return usageErrorf("%v", err)
	}
	ms, cs, b, err := o.Inputs.derive(a, seed, cfg.Players)
	if err != nil {
		return err
	}
	bots, err := auctionBots(o.Bots, ms[:], cfg.Players)
	if err != nil {
		return usageErrorf("%v", err)
	}
	r, err := auction.Play(ms[:], cfg, bots)
	if err != nil {
		return usageErrorf("%v", err)
	}
	r.Seed, r.SeedCommitment, r.Contributions, r.Beacon = seed.String(), seed.Commitment().String(), cs, b
	data, err := r.Encode()
	if err != nil {
		return err
	}
	if o.Out == "" || o.Out == "-" {
		_, err = a.out.Write(data)
		return err
	}
	if err := os.WriteFile(o.Out, data, 0o644); err != nil {
		return usageErrorf("cannot write the replay: %s: %v", o.Out, unwrapPathError(err))
	}
	if a.json {
		return a.printJSON(map[string]any{"out": o.Out, "events": len(r.Events), "seed_commitment": r.SeedCommitment})
	}
	_, err = fmt.Fprintf(a.errOut, "wrote %s: %d events, %d items, seed commitment %s\n", o.Out, len(r.Events), cfg.Items, r.SeedCommitment)
	return err
}
