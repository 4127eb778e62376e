package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/sealedhq/sealed/rules/bargain"
	"github.com/spf13/cobra"
)

func init() { replayPlaySubcommands = append(replayPlaySubcommands, newReplayPlayBargainCmd) }

// replayPlayBargainOptions are the inputs of `sealed replay play bargain`.
type replayPlayBargainOptions struct {
	Seed       string // 64 hex digits
	Matches    int    // 3 or 6
	MaxTurns   int    // even, 2..12
	Bots       string // one name, or three comma-separated names
	StopAfter  int    // 0, or a deadline after that many settled matches
	Out        string // file to write; "" or "-" for stdout
	Format     string // "sealed" (default) or "engine"
	EngineSeed int64  // --engine-seed: the engine's integer seed, -1 when not given
	Inputs     matchInputFlags
}

// newReplayPlayBargainCmd builds `sealed replay play bargain`: a whole
// Negotiation Games episode played by built-in bots, written as a replay.
func newReplayPlayBargainCmd(a *app) *cobra.Command {
	return replayPlayBargainCmd(a, runReplayPlayBargain)
}

// replayPlayBargainCmd builds `sealed replay play bargain` with runF as its
// action, so tests can check the flag parsing alone.
func replayPlayBargainCmd(a *app, runF func(*app, *replayPlayBargainOptions) error) *cobra.Command {
	opts := &replayPlayBargainOptions{}
	c := &cobra.Command{
		Use:   "bargain --seed SEED [--format sealed|engine] [--matches 3|6] [--max-turns N] [--bots greedy,fair,fair] [--out FILE]",
		Short: "Play a Negotiation Games episode with built-in bots and write its replay",
		Long: `Play a whole Negotiation Games episode (seed 002) with built-in bots and
write its negotiation.replay.v1 replay (docs/replays.md): the seed commitment,
the seed, every event and the results. Bots: greedy (holds out for 8 of 10
until its last turn) and fair (concedes from 10 to a fair 5 of 10). --bots
takes one name for every seat or three names, seat 0 first.
--stop-after K simulates the play clock running out after K settled matches
(reason "deadline"): K from 1 to --matches minus 1; 0, the default, plays
every match.

--format engine writes the replay as the Negotiation Games engine itself
writes it (docs/replays.md, "Engine replays"): "protocol", seat aliases,
an integer config.seed with the whole schedule, messages cleaned as the
engine cleans them, float64 scores. Every draw is the engine's, from its
integer seed: the one derived from --seed ('sealed seed engine'; then
'sealed replay check --seed SEED --seed-commitment C' holds the replay to
the commitment), or --engine-seed N as is (nothing then commits to it).
With --contribution and --beacon-file the engine seed is derived from the
match seed (docs/rng.md, "The match seed"); the document carries neither,
so the round's signature goes in the seed-reveal (--beacon-signature).`,
		Args: cobra.NoArgs,
		Example: `  sealed replay play bargain --seed "$(sealed seed new --json | jq -r .seed)" > r.json
  sealed replay check r.json
  sealed replay play bargain --format engine --seed "$SEED" > e.json
  sealed replay check --seed "$SEED" --seed-commitment "$COMMITMENT" e.json`,
		RunE: func(cmd *cobra.Command, _ []string) error { return runF(a, opts) },
	}
	f := c.Flags()
	f.StringVar(&opts.Seed, "seed", "", "the seed, 64 hex digits (required; make one with 'sealed seed new')")
	opts.Inputs.register(f)
	f.IntVar(&opts.Matches, "matches", bargain.DefaultMatches, "number of matches, 3 or 6")
	f.IntVar(&opts.MaxTurns, "max-turns", bargain.DefaultMaxTurns, "turn limit of each match, even, 2..12")
	f.StringVar(&opts.Bots, "bots", "greedy,fair,fair", "bots for seats 0,1,2 ("+strings.Join(bargain.BotNames, ", ")+")")
	f.IntVar(&opts.StopAfter, "stop-after", 0, "simulate a deadline after this many settled matches, 1..matches-1 (0: play all)")
	f.StringVarP(&opts.Out, "out", "o", "", "write the replay to `FILE` instead of stdout")
	f.StringVar(&opts.Format, "format", "sealed", "replay dialect: sealed (format, 256-bit seed) or engine (the engine's own document)")
	f.Int64Var(&opts.EngineSeed, "engine-seed", -1, "with --format engine: the engine's integer `N` instead of one derived from --seed")
	return c
}

// parseBots reads --bots: one name for all seats, or one per seat.
func parseBots(s string) ([bargain.Seats]bargain.Bot, error) {
	var bots [bargain.Seats]bargain.Bot
	names := strings.Split(s, ",")
	if len(names) == 1 {
		names = []string{names[0], names[0], names[0]}
	}
	if len(names) != bargain.Seats {
		return bots, fmt.Errorf("--bots has %d names; expected 1 or %d, comma-separated", len(names), bargain.Seats)
	}
	for i, n := range names {
		b, err := bargain.BotByName(strings.TrimSpace(n))
		if err != nil {
			return bots, fmt.Errorf("--bots: %v", err)
		}
		bots[i] = b
	}
	return bots, nil
}

func runReplayPlayBargain(a *app, opts *replayPlayBargainOptions) error {
	if opts.Format != "sealed" && opts.Format != "engine" {
		return usageErrorf("--format is %q; expected sealed or engine", opts.Format)
	}
	if opts.Format == "engine" {
		return runReplayPlayEngine(a, opts)
	}
	if opts.EngineSeed != -1 {
		return usageErrorf("--engine-seed needs --format engine")
	}
	if opts.Seed == "" {
		return usageErrorf("--seed is required").withHint("make one with 'sealed seed new'")
	}
	seed, err := parseSeedFlag("--seed", opts.Seed)
	if err != nil {
		return err
	}
	cfg := bargain.Config{Matches: opts.Matches, MaxTurns: opts.MaxTurns}
	if err := cfg.Validate(); err != nil {
		return usageErrorf("%v", err)
	}
	bots, err := parseBots(opts.Bots)
	if err != nil {
		return usageErrorf("%v", err)
	}
	if opts.StopAfter < 0 || opts.StopAfter >= cfg.Matches {
		return usageErrorf("--stop-after is %d; expected 1..%d, or 0 to play every match", opts.StopAfter, cfg.Matches-1)
	}
	ms, cs, b, err := opts.Inputs.derive(a, seed, bargain.Seats)
	if err != nil {
		return err
	}
	r, err := bargain.PlayEpisode(ms[:], cfg, bots, bargain.PlayOptions{StopAfter: opts.StopAfter})
	if err != nil {
		return usageErrorf("%v", err)
	}
	r.Seed, r.SeedCommitment, r.Contributions, r.Beacon = seed.String(), seed.Commitment().String(), cs, b
	data, err := r.Encode()
	if err != nil {
		return err
	}
	if opts.Out == "" || opts.Out == "-" {
		_, err = a.out.Write(data)
		return err
	}
	if err := os.WriteFile(opts.Out, data, 0o644); err != nil {
		return usageErrorf("cannot write the replay: %s: %v", opts.Out, unwrapPathError(err))
	}
	if a.json {
		return a.printJSON(map[string]any{"out": opts.Out, "events": len(r.Events), "reason": r.Results.Reason})
	}
	_, err = fmt.Fprintf(a.errOut, "wrote %s: %d events, %d of %d matches settled, reason %s\n",
		opts.Out, len(r.Events), r.Results.MatchesPlayed, r.Results.MaxMatches, r.Results.Reason)
	return err
}

// runReplayPlayEngine is `sealed replay play bargain --format engine`.
func runReplayPlayEngine(a *app, opts *replayPlayBargainOptions) error {
	var seed int64
	switch {
	case opts.Seed != "" && opts.EngineSeed != -1:
		return usageErrorf("--seed and --engine-seed are both given; expected one").withHint("--seed derives the engine seed ('sealed seed engine')")
	case opts.Seed != "":
		s, err := parseSeedFlag("--seed", opts.Seed)
		if err != nil {
			return err
		}
		ms, _, b, err := opts.Inputs.derive(a, s, bargain.Seats)
		if err != nil {
			return err
		}
		seed, _ = bargain.EngineSeed(ms[:])
		if b != nil {
			// The engine's document cannot carry the round: the seed-reveal
			// records its signature for 'ledger check-result'.
			fmt.Fprintf(a.errOut, "note: the engine's document cannot carry drand round %d: record its signature with the seed-reveal (sealed ledger append --kind seed-reveal ... --beacon-signature %s)\n", b.Round, b.Signature)
		}
	case len(opts.Inputs.Contributions) > 0 || opts.Inputs.BeaconFile != "":
		return usageErrorf("--contribution and --beacon-file need --seed: they go into the match seed the engine seed is derived from")
	case opts.EngineSeed >= 0 && opts.EngineSeed <= bargain.MaxEngineSeed:
		seed = opts.EngineSeed
	case opts.EngineSeed != -1:
		return usageErrorf("--engine-seed is %d; expected 0..%d", opts.EngineSeed, int64(bargain.MaxEngineSeed))
	default:
		return usageErrorf("--seed or --engine-seed is required").withHint("make a seed with 'sealed seed new'")
	}
	cfg := bargain.Config{Matches: opts.Matches, MaxTurns: opts.MaxTurns}
	if err := cfg.Validate(); err != nil {
		return usageErrorf("%v", err)
	}
	bots, err := parseBots(opts.Bots)
	if err != nil {
		return usageErrorf("%v", err)
	}
	if opts.StopAfter < 0 || opts.StopAfter >= cfg.Matches {
		return usageErrorf("--stop-after is %d; expected 1..%d, or 0 to play every match", opts.StopAfter, cfg.Matches-1)
	}
	r, err := bargain.PlayEngineEpisode(seed, cfg, bots, bargain.PlayOptions{StopAfter: opts.StopAfter})
	if err != nil {
		return usageErrorf("%v", err)
	}
	data, err := r.Encode(bargain.FloatShortest)
	if err != nil {
		return err
	}
	data = append(data, '\n')
	if opts.Out == "" || opts.Out == "-" {
		_, err = a.out.Write(data)
		return err
	}
	if err := os.WriteFile(opts.Out, data, 0o644); err != nil {
		return usageErrorf("cannot write the replay: %s: %v", opts.Out, unwrapPathError(err))
	}
	if a.json {
		return a.printJSON(map[string]any{"out": opts.Out, "events": len(r.Events), "reason": r.Results.Reason, "engine_seed": seed})
	}
	_, err = fmt.Fprintf(a.errOut, "wrote %s: engine seed %d, %d events, %d of %d matches settled, reason %s\n",
		opts.Out, seed, len(r.Events), r.Results.MatchesPlayed, r.Results.MaxMatches, r.Results.Reason)
	return err
}
