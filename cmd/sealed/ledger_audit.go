package main

import (
	"context"
	"fmt"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
)

func init() { ledgerSubcommands = append(ledgerSubcommands, newLedgerAuditCmd) }

// ledgerAuditOptions are the inputs of `sealed ledger audit`.
type ledgerAuditOptions struct {
	DB string
}

func newLedgerAuditCmd(a *app, g *ledgerGlobal) *cobra.Command {
	return ledgerAuditCmd(a, g, runLedgerAudit)
}

func ledgerAuditCmd(a *app, g *ledgerGlobal, runF func(*app, *ledgerAuditOptions) error) *cobra.Command {
	o := &ledgerAuditOptions{}
	return &cobra.Command{
		Use:   "audit",
		Short: "Re-derive the whole tree from the entries and check every stored hash and checkpoint",
		Long: `Recompute every leaf hash and stored tree hash from the entry bodies, check
the integration times, every checkpoint's signature and root, and the
consistency of each checkpoint with the next. Stops at the first problem
and names the entry (or checkpoint) and what differed: exit 1. A progress
bar is shown on a terminal.`,
		Args: cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			o.DB = g.DB
			return runF(a, o)
		},
	}
}

func runLedgerAudit(a *app, o *ledgerAuditOptions) error {
	l, err := openLedgerRO(o.DB)
	if err != nil {
		return err
	}
	defer l.Close()
	var progress func(done, total int64)
	if isTerminal(a.errOut) {
		var bar *progressbar.ProgressBar
		progress = func(done, total int64) {
			if bar == nil {
				bar = progressbar.NewOptions64(total, progressbar.OptionSetWriter(a.errOut),
					progressbar.OptionSetDescription("auditing"), progressbar.OptionShowCount(),
					progressbar.OptionShowIts(), progressbar.OptionSetItsString("entries"),
					progressbar.OptionClearOnFinish())
			}
			bar.Set64(done)
		}
		defer func() {
			if bar != nil {
				bar.Finish()
			}
		}()
	}
	rep, err := l.Audit(context.Background(), progress)
	if err != nil {
		return err
	}
	if a.json {
		if err := a.printJSON(rep); err != nil {
			return err
		}
	} else if rep.OK {
		fmt.Fprintf(a.out, "ok: %d %s and %d %s audited\n", rep.Size, plural(int(rep.Size), "entry", "entries"),
			rep.Checkpoints, plural(rep.Checkpoints, "checkpoint", "checkpoints"))
	} else {
		fmt.Fprintf(a.out, "audit failed: %s\n", rep.Problem)
	}
	if !rep.OK {
		return errSilentFailure
	}
	return nil
}
