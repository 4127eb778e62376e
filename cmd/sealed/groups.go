package main

import "github.com/spf13/cobra"

// Group commands whose verbs are written in files of their own: each verb's
// file registers its constructor with the group in init.
var (
	rngSubcommands        []func(*app) *cobra.Command // sealed rng ...
	replaySubcommands     []func(*app) *cobra.Command // sealed replay ...
	replayPlaySubcommands []func(*app) *cobra.Command // sealed replay play ...
)

func init() {
	register(newRngCmd)
	register(newReplayCmd)
}

// newRngCmd builds `sealed rng`, the derived tables of a seed.
func newRngCmd(a *app) *cobra.Command {
	c := &cobra.Command{
		Use:   "rng",
		Short: "Derive the private values and pools a seed gives (docs/rng.md)",
	}
	for _, f := range rngSubcommands {
		c.AddCommand(f(a))
	}
	return c
}

// newReplayCmd builds `sealed replay`: check and play match replays.
func newReplayCmd(a *app) *cobra.Command {
	c := &cobra.Command{
		Use:   "replay",
		Short: "Re-simulate match replays, or play a match with built-in bots (docs/replays.md)",
	}
	for _, f := range replaySubcommands {
		c.AddCommand(f(a))
	}
	play := &cobra.Command{
		Use:   "play",
		Short: "Play a whole match with built-in bots and write its replay",
	}
	for _, f := range replayPlaySubcommands {
		play.AddCommand(f(a))
	}
	c.AddCommand(play)
	return c
}
