package main

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"time"

	"github.com/sealedhq/sealed/beacon"
	"github.com/spf13/cobra"
)

func init() { register(newBeaconCmd) }

// newBeaconCmd builds `sealed beacon`: drand public randomness rounds.
func newBeaconCmd(a *app) *cobra.Command {
	c := &cobra.Command{
		Use:   "beacon",
		Short: "Fetch and verify drand beacon rounds (docs/rng.md, \"The beacon\")",
		Long: `A drand network publishes a round of public randomness every period,
signed by a threshold of the League of Entropy. A seed-commit may name a
round published after it; the match seed then takes that round's
randomness, so the server could not choose its seed against it.`,
	}
	c.AddCommand(beaconGetCmd(a, runBeaconGet))
	return c
}

// beaconGetOptions are the inputs of `sealed beacon get`.
type beaconGetOptions struct {
	Round   uint64
	Chain   string
	Relay   string
	Timeout time.Duration
}

// beaconGetCmd builds `sealed beacon get` with runF as its action.
func beaconGetCmd(a *app, runF func(*app, *beaconGetOptions) error) *cobra.Command {
	o := &beaconGetOptions{}
	var round int64
	c := &cobra.Command{
		Use:   "get --round R [--chain HASH] [--relay URL]",
		Short: "Fetch a round from a drand HTTP relay, verify it and print it",
		Long: `Fetch round R from a drand HTTP relay (GET <relay>/<chain hash>/public/<R>),
verify its BLS signature offline with the network's public key, and
print it as JSON: chain, round, published (genesis + (R-1) * period),
randomness (SHA-256 of the signature) and signature. The output is what
'sealed replay play --beacon-file' reads. Only quicknet
(` + beacon.Quicknet.Hash + `) is known.

Exit 0 with a verified round; 1 when the relay's round does not verify;
2 for bad flags, an unreachable relay or a round not yet published.`,
		Example: `  sealed beacon get --round 657413 > round.json
  sealed beacon get --round 657413 --relay http://localhost:8080`,
		Args: noArgs("beacon get"),
		RunE: func(cmd *cobra.Command, _ []string) error {
			hint := fmt.Sprintf("the round published at time T is 1 + (T - genesis) / period; quicknet: genesis %d, period 3s", beacon.Quicknet.Genesis)
			if !cmd.Flags().Changed("round") {
				return usageErrorf("beacon get needs --round R (R >= 1)").withHint("%s", hint)
			}
			if round < 1 {
				return usageErrorf("--round %d: expected a drand round number >= 1", round).withHint("%s", hint)
			}
			o.Round = uint64(round)
			if !strings.HasPrefix(o.Relay, "http://") && !strings.HasPrefix(o.Relay, "https://") {
				return usageErrorf("--relay %q: expected a drand relay's http:// or https:// URL", o.Relay).
					withHint("such as %s, or a relay of your own", beacon.DefaultRelay)
			}
			return runF(a, o)
		},
	}
	// An int64 flag, so that -1 is refused as a round below 1, as 0 is.
	c.Flags().Int64Var(&round, "round", 0, "the drand `ROUND` to fetch (>= 1)")
	c.Flags().StringVar(&o.Chain, "chain", beacon.Quicknet.Hash, "the network's chain `HASH`")
	c.Flags().StringVar(&o.Relay, "relay", beacon.DefaultRelay, "the drand HTTP relay's base `URL`")
	c.Flags().DurationVar(&o.Timeout, "timeout", 20*time.Second, "give up after this long")
	return c
}

// beaconRoundJSON is the output of `sealed beacon get`, and what
// --beacon-file reads.
type beaconRoundJSON struct {
	Chain      string `json:"chain"`
	Round      uint64 `json:"round"`
	Published  string `json:"published"`
	Randomness string `json:"randomness"`
	Signature  string `json:"signature"`
}

func runBeaconGet(a *app, o *beaconGetOptions) error {
	chain, err := beacon.LookupChain(o.Chain)
	if err != nil {
		return usageErrorf("--chain: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), o.Timeout)
	defer cancel()
	r, err := (&beacon.Client{BaseURL: o.Relay}).Get(ctx, chain, o.Round)
	var se *beacon.SignatureError
	if errors.As(err, &se) {
		return failedf("%v", err).withHint("the relay served a round that does not verify: try another relay")
	}
	if err != nil {
		return usageErrorf("%v", err).withHint("check --relay (a drand HTTP relay such as %s) and that round %d is due by now (%s)",
			beacon.DefaultRelay, o.Round, chain.RoundTime(o.Round).Format(time.RFC3339))
	}
	// A round always prints as JSON: it is the input of --beacon-file.
	return a.printJSON(beaconRoundJSON{Chain: chain.Hash, Round: r.Round, Published: chain.RoundTime(r.Round).Format(time.RFC3339),
		Randomness: r.Randomness, Signature: r.Signature})
}
