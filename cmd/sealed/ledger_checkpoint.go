package main

import (
	"fmt"

	"github.com/spf13/cobra"
)

func init() { ledgerSubcommands = append(ledgerSubcommands, newLedgerCheckpointCmd) }

// ledgerCheckpointOptions are the inputs of `sealed ledger checkpoint`.
type ledgerCheckpointOptions struct {
	DB   string
	Size int64 // --size: the checkpoint of that tree size; 0 = latest
}

func newLedgerCheckpointCmd(a *app, g *ledgerGlobal) *cobra.Command {
	return ledgerCheckpointCmd(a, g, runLedgerCheckpoint)
}

func ledgerCheckpointCmd(a *app, g *ledgerGlobal, runF func(*app, *ledgerCheckpointOptions) error) *cobra.Command {
	o := &ledgerCheckpointOptions{}
	c := &cobra.Command{
		Use:   "checkpoint [--size N]",
		Short: "Print the latest signed checkpoint (C2SP tlog-checkpoint signed note)",
		Long: `Print the latest signed checkpoint exactly as signed: the origin, the tree
size, the base64 root hash, a blank line and the Ed25519 signature line.
With --size, the checkpoint of that tree size.`,
		Args: cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			o.DB = g.DB
			if o.Size < 0 {
				return usageErrorf("--size must be >= 0")
			}
			return runF(a, o)
		},
	}
	c.Flags().Int64Var(&o.Size, "size", 0, "the checkpoint of tree size `N` (default: the latest)")
	return c
}

func runLedgerCheckpoint(a *app, o *ledgerCheckpointOptions) error {
	l, err := openLedgerRO(o.DB)
	if err != nil {
		return err
	}
	defer l.Close()
	cp, err := l.LatestCheckpoint()
	if o.Size > 0 {
		cp, err = l.CheckpointAt(o.Size)
	}
	if err != nil {
		return usageErrorf("%v", err)
	}
	if a.json {
		return a.printJSON(cp)
	}
	_, err = fmt.Fprint(a.out, cp.Note)
	return err
}
