package main

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/sealedhq/sealed/ledger"
	"github.com/sealedhq/sealed/verify"
	"github.com/spf13/cobra"
)

func init() { ledgerSubcommands = append(ledgerSubcommands, newLedgerCheckResultCmd) }

// ledgerCheckResultOptions are the inputs of `sealed ledger check-result`.
type ledgerCheckResultOptions struct {
	DB    string
	Index int64 // the result entry
}

// newLedgerCheckResultCmd builds `sealed ledger check-result`.
func newLedgerCheckResultCmd(a *app, g *ledgerGlobal) *cobra.Command {
	return ledgerCheckResultCmd(a, g, runLedgerCheckResult)
}

// ledgerCheckResultCmd builds `sealed ledger check-result` with runF as its
// action, so tests can check the parsing alone.
func ledgerCheckResultCmd(a *app, g *ledgerGlobal, runF func(*app, *ledgerCheckResultOptions) error) *cobra.Command {
	o := &ledgerCheckResultOptions{}
	c := &cobra.Command{
		Use:   "check-result INDEX | --index INDEX",
		Short: "Check a result entry against the ledger: seed committed before it, revealed, replay clean",
		Long: `Check the result entry at INDEX (verify.CheckResult, docs/replays.md "Tied
to the ledger"): its stored replay must carry the seed commitment recorded
for the same game and match id before the result, a seed-reveal entry must
reveal the replay's seed, the configs must agree, and the replay must
re-simulate clean. A replay that is clean on its own but whose seed was
never committed (or committed after the match) fails here, and so does
one whose seed-commit's commitment an earlier seed-commit holds: a seed
is committed once, and the earlier match's seed-reveal makes it public.

When players contributed client seeds or the seed-commit named a drand
round (docs/rng.md, "The match seed"), each contribution entry naming the
seed-commit is listed with whether it counts (after the seed-commit,
before its play_at or play_at_entry and before the result, one per seat)
or why not; the replay must take exactly the counted ones and the named
round, whose signature must verify and which must have been published
after the commitment. An engine replay carries neither: its config.seed
must be derived from the match seed of the counted contributions and the
round whose signature a seed-reveal records (beacon_signature).

Exit status: 0 tied and clean, 1 something does not hold (or the database
was altered: a result's replay is stored before the result, so one
missing is a replays row deleted, as 'sealed ledger audit' reports), 2 bad
input (no such entry, not a result, replay unreadable).`,
		Example: `  sealed ledger check-result 6 --db sealed-demo.db`,
		RunE: func(*cobra.Command, []string) error {
			o.DB = g.DB
			return runF(a, o)
		},
	}
	indexArg(c, "check-result", &o.Index)
	return c
}

func runLedgerCheckResult(a *app, o *ledgerCheckResultOptions) error {
	l, err := openLedgerRO(o.DB)
	if err != nil {
		return err
	}
	defer l.Close()
	c, err := verify.CheckResult(l, o.Index)
	if errors.Is(err, ledger.ErrTampered) {
		// Not bad input, and no verdict on the replay: the database holds
		// what the log did not write.
		return failedf("cannot check result entry %d: %v", o.Index, err).withHint("run 'sealed ledger audit' on it")
	}
	if pe := pastEndError(l, o.Index, err); pe != nil {
		return pe
	}
	if err != nil {
		return usageErrorf("%v", err)
	}
	if a.json {
		if err := printJSONNoControls(a.out, c); err != nil {
			return err
		}
	} else {
		if c.Tied() {
			fmt.Fprintf(a.out, "entry %d: tied to the ledger: seed committed at entry %d before the result, revealed at entry %d, replay's commitment and config match\n",
				c.Result, c.SeedCommit, c.SeedReveal)
		} else {
			fmt.Fprintf(a.out, "entry %d: NOT tied to the ledger:\n", c.Result)
			for _, p := range c.Problems {
				fmt.Fprintf(a.out, "  %s\n", terminalSafe(p))
			}
		}
		for _, cc := range c.Contributions {
			if cc.Counts {
				fmt.Fprintf(a.out, "contribution entry %d: seat %d, client seed %s: counts\n", cc.Entry, cc.Seat, terminalSafe(strconv.Quote(cc.ClientSeed)))
			} else {
				fmt.Fprintf(a.out, "contribution entry %d: seat %d: does not count: %s\n", cc.Entry, cc.Seat, terminalSafe(cc.Why))
			}
		}
		if b := c.BeaconNamed; b != nil {
			state := "published after the commitment, signature ok"
			switch {
			case !b.AfterCommit:
				state = "published BEFORE the commitment"
			case !b.SignatureOK && b.SignatureEntry != nil:
				state = fmt.Sprintf("published after the commitment, but the signature seed-reveal entry %d records does not verify", *b.SignatureEntry)
			case !b.SignatureOK:
				state = "published after the commitment, but the replay's signature is missing or does not verify"
			case b.SignatureEntry != nil:
				state = fmt.Sprintf("published after the commitment, signature ok (recorded at seed-reveal entry %d)", *b.SignatureEntry)
			}
			fmt.Fprintf(a.out, "beacon: drand round %d of chain %.16s... (published %s): %s\n", b.Round, b.Chain, b.Published, state)
		}
		if c.Replay.Clean() {
			fmt.Fprintf(a.out, "replay: clean: %s, %d events\n", c.Replay.Format, c.Replay.Events)
			printMatchInputs(a.out, c.Replay)
		} else {
			printDifferences(a.out, "replay", c.Replay)
		}
	}
	if !c.Clean() {
		return errSilentFailure
	}
	return nil
}
