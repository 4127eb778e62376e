package main

import (
	"errors"
	"fmt"

	"github.com/sealedhq/sealed/ledger"
	"github.com/spf13/cobra"
)

func init() { ledgerSubcommands = append(ledgerSubcommands, newLedgerCheckpointCmd) }

// ledgerCheckpointOptions are the inputs of `sealed ledger checkpoint`.
type ledgerCheckpointOptions struct {
	DB   string
	Size int64 // --size: the checkpoint of that tree size; -1 = latest
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
With --size N, the checkpoint of tree size N; --size 0 is the empty
tree's, which 'sealed ledger init' signed.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			o.DB = g.DB
			if cmd.Flags().Changed("size") && o.Size < 0 {
				return usageErrorf("--size %d: expected a tree size, 0 or more", o.Size)
			}
			return runF(a, o)
		},
	}
	indexVar(c.Flags(), &o.Size, "size", "the checkpoint of tree size `N`, 0 for the empty tree's (default: the latest)")
	return c
}

func runLedgerCheckpoint(a *app, o *ledgerCheckpointOptions) error {
	l, err := openLedgerRO(o.DB)
	if err != nil {
		return err
	}
	defer l.Close()
	cp, err := l.LatestCheckpoint()
	if o.Size >= 0 {
		cp, err = l.CheckpointAt(o.Size)
		if errors.Is(err, ledger.ErrNotFound) {
			n, _ := l.Size()
			return usageErrorf("no signed checkpoint of tree size %d; the ledger has %d %s", o.Size, n, plural(int(n), "entry", "entries")).
				withHint("'sealed ledger checkpoint' prints the latest; checkpoints are signed for some sizes only")
		}
	}
	if err != nil {
		return readError(err)
	}
	if a.json {
		return a.printJSON(cp)
	}
	_, err = fmt.Fprint(a.out, cp.Note)
	return err
}
