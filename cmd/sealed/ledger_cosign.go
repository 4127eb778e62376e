package main

import (
	"context"
	"fmt"
	"log/slog"
	"strings"

	"github.com/sealedhq/sealed/ledger/stores"
	"github.com/sealedhq/sealed/ledger/witness"
	"github.com/spf13/cobra"
)

func init() { ledgerSubcommands = append(ledgerSubcommands, newLedgerCosignCmd) }

// ledgerCosignOptions are the inputs of `sealed ledger cosign`.
type ledgerCosignOptions struct {
	DB        string
	Witnesses string // --witnesses FILE
}

func newLedgerCosignCmd(a *app, g *ledgerGlobal) *cobra.Command {
	o := &ledgerCosignOptions{}
	c := &cobra.Command{
		Use:   "cosign --witnesses FILE",
		Short: "Submit the latest checkpoint to the witnesses (C2SP tlog-witness) and store their cosignatures",
		Long: `Submit the ledger's latest checkpoint to every witness in FILE (lines
"witness VKEY URL" and "quorum N") with add-checkpoint and a consistency
proof from the size that witness last cosigned, and store the cosignatures
with the checkpoint; /checkpoint and 'ledger tiles' then serve them.
'sealed serve --witnesses FILE' does this after every checkpoint. A
witness that refuses is named with its answer; exit 1 if fewer witnesses
than the quorum have cosigned the checkpoint.`,
		Args: cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			if o.Witnesses == "" {
				return usageErrorf("cosign needs --witnesses FILE")
			}
			o.DB = g.DB
			return runLedgerCosign(a, o)
		},
	}
	c.Flags().StringVar(&o.Witnesses, "witnesses", "", "the witness policy `FILE`")
	return c
}

func runLedgerCosign(a *app, o *ledgerCosignOptions) error {
	b, err := readInput(a, o.Witnesses, 1<<20)
	if err != nil {
		return err
	}
	pol, err := witness.ParsePolicy(b)
	if err != nil {
		return usageErrorf("%s: %v", o.Witnesses, err)
	}
	ctx := context.Background()
	st, err := stores.OpenStore(ctx, o.DB, false, false)
	if err != nil {
		return openError(o.DB, err)
	}
	defer st.Close()
	m, err := st.Meta(ctx)
	if err != nil {
		return openError(o.DB, err)
	}
	if err := notLog(pol, m.VerifierKey); err != nil {
		return err
	}
	cs := &witness.Cosigner{Store: st, Policy: pol, Log: slog.New(slog.DiscardHandler)}
	res, err := cs.Cosign(ctx)
	if err != nil {
		return err
	}
	for _, r := range res {
		if r.Err != nil {
			fmt.Fprintf(a.errOut, "sealed: %s\n", terminalSafe(r.Err.Error()))
		} else {
			fmt.Fprintf(a.out, "cosigned by %s at size %d\n", r.Witness, r.Size)
		}
	}
	cp, err := st.LatestCheckpoint(ctx)
	if err != nil {
		return err
	}
	have, err := st.Cosignatures(ctx, cp.ID, 0, 0)
	if err != nil {
		return err
	}
	var names []string // the policy's witnesses that cosigned it
	for _, h := range have {
		for _, w := range pol.Witnesses {
			if w.Name == h.Witness {
				names = append(names, terminalSafe(h.Witness))
			}
		}
	}
	valid := len(names)
	if valid < pol.Quorum {
		return failedf("the checkpoint of size %d has %d cosignature(s), fewer than the quorum of %d", cp.Size, valid, pol.Quorum)
	}
	if len(res) == 0 {
		// Nothing was submitted: say why, rather than print nothing.
		by := "no witness of the policy"
		if valid > 0 {
			by = strings.Join(names, ", ")
		}
		_, err = fmt.Fprintf(a.out, "the checkpoint of size %d is already cosigned by %s (quorum %d met); nothing to submit\n", cp.Size, by, pol.Quorum)
		return err
	}
	return nil
}
