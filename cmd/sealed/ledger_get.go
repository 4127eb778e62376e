package main

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/sealedhq/sealed/ledger"
	"github.com/spf13/cobra"
)

func init() {
	ledgerSubcommands = append(ledgerSubcommands, newLedgerGetCmd, newLedgerListCmd)
}

// ledgerGetOptions are the inputs of `sealed ledger get`.
type ledgerGetOptions struct {
	DB    string
	Index int64
}

func newLedgerGetCmd(a *app, g *ledgerGlobal) *cobra.Command {
	return ledgerGetCmd(a, g, runLedgerGet)
}

func ledgerGetCmd(a *app, g *ledgerGlobal, runF func(*app, *ledgerGetOptions) error) *cobra.Command {
	o := &ledgerGetOptions{}
	c := &cobra.Command{
		Use:   "get INDEX | --index INDEX",
		Short: "Print one entry: its leaf (canonical JSON), or all details with --json",
		Long: `Print the leaf of the entry at INDEX: its canonical JSON (RFC 8785, with
integrated_at), followed by a newline that is not part of the leaf. The
leaf hash is SHA-256 of a 0x00 byte and the leaf's bytes (RFC 6962).

With --json: index, kind, leaf (the exact leaf as a JSON string),
leaf_base64 (the same bytes in base64), leaf_hash (base64),
integrated_at and posted_at written as the leaf writes them.

An entry no signed checkpoint covers yet (one appended in the last
moments, or past a checkpoint that was deleted) is printed with a warning
on stderr: it is read as stored, not proved in a signed tree.`,
		Example: `  sealed ledger get 3
  sealed ledger get --index 3 --json | jq -r .leaf_base64 | base64 -d | sha256sum`,
		RunE: func(*cobra.Command, []string) error {
			o.DB = g.DB
			return runF(a, o)
		},
	}
	indexArg(c, "get", &o.Index)
	return c
}

func runLedgerGet(a *app, o *ledgerGetOptions) error {
	l, err := openLedgerRO(o.DB)
	if err != nil {
		return err
	}
	defer l.Close()
	e, err := l.Entry(o.Index)
	if err != nil {
		if pe := pastEndError(l, o.Index, err); pe != nil {
			return pe
		}
		return readError(err)
	}
	warnUncovered(a, l, e.Index, e.Index)
	if a.json {
		j := newEntryJSON(e)
		w, err := l.WitnessedBy(context.Background(), e.Index)
		if err != nil {
			return err
		}
		if w != nil {
			j.WitnessedBy, j.WitnessedAt = w.Witness, w.Time.Format(time.RFC3339)
		}
		return a.printJSON(j)
	}
	_, err = fmt.Fprintf(a.out, "%s\n", e.Leaf)
	return err
}

// ledgerListOptions are the inputs of `sealed ledger list`.
type ledgerListOptions struct {
	DB         string
	From       int64
	Limit      int
	Commitment string // --commitment: commit entries carrying it
	References int64  // --references: entries naming this index; -1 if not given
}

func newLedgerListCmd(a *app, g *ledgerGlobal) *cobra.Command {
	return ledgerListCmd(a, g, runLedgerList)
}

func ledgerListCmd(a *app, g *ledgerGlobal, runF func(*app, *ledgerListOptions) error) *cobra.Command {
	o := &ledgerListOptions{}
	c := &cobra.Command{
		Use:   "list [--from N] [--limit N] [--commitment H | --references N]",
		Short: "List entries: index, kind, integration time and leaf, one per line",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			o.DB = g.DB
			if !cmd.Flags().Changed("references") {
				o.References = -1
			}
			if o.From < 0 || o.Limit < 0 {
				return usageErrorf("--from and --limit must be >= 0")
			}
			return runF(a, o)
		},
	}
	c.Flags().Int64Var(&o.From, "from", 0, "first `INDEX`")
	c.Flags().IntVar(&o.Limit, "limit", 100, fmt.Sprintf("at most `N` entries (up to %d)", ledger.MaxEntries))
	setFlagRange(c.Flags(), "limit", 0, ledger.MaxEntries)
	c.Flags().StringVar(&o.Commitment, "commitment", "", "only the commit entries carrying this `HASH` (copies by other players included)")
	indexVar(c.Flags(), &o.References, "references", "only the entries naming `INDEX` (reveals and edits of a commit, seed-reveals)")
	return c
}

func runLedgerList(a *app, o *ledgerListOptions) error {
	l, err := openLedgerRO(o.DB)
	if err != nil {
		return err
	}
	defer l.Close()
	var es []ledger.Entry
	switch {
	case o.Commitment != "" && o.References >= 0:
		return usageErrorf("give --commitment or --references, not both")
	case o.Commitment != "":
		es, err = l.CommitsByCommitment(o.Commitment)
	case o.References >= 0:
		es, err = l.EntriesReferencing(o.References)
	default:
		es, err = l.Entries(o.From, o.Limit)
	}
	if err != nil {
		return readError(err)
	}
	if len(es) > 0 {
		first, last := es[0].Index, es[0].Index
		for _, e := range es[1:] {
			first, last = min(first, e.Index), max(last, e.Index)
		}
		warnUncovered(a, l, first, last)
	}
	if a.json {
		return a.printJSON(entriesJSON(es))
	}
	for _, e := range es {
		if _, err := fmt.Fprintf(a.out, "%d\t%s\t%s\t%s\n", e.Index, e.Kind, e.IntegratedAt.Format(ledger.TimeLayout), e.Leaf); err != nil {
			return err
		}
	}
	return nil
}

// readError is the CLI error of a failed read of entries: exit 1 with the
// audit hint when the database does not check out against the signed
// checkpoint (not bad input), exit 2 otherwise.
func readError(err error) error {
	if errors.Is(err, ledger.ErrTampered) {
		return failedf("%v", err).withHint("run 'sealed ledger audit' on it")
	}
	return usageErrorf("%v", err)
}

// warnUncovered warns on stderr when entries among first..last are past
// the latest signed checkpoint: readers prove each entry in the latest
// signed tree (docs/ledger.md, "What a reader checks"), and these have
// no signed tree to be proved in yet, so they are printed as stored.
func warnUncovered(a *app, l *ledger.Ledger, first, last int64) {
	cp, err := l.LatestCheckpoint()
	if err != nil || last < cp.Size {
		return
	}
	if first >= cp.Size && first == last {
		fmt.Fprintf(a.errOut, "warning: entry %d is not covered by a signed checkpoint yet (the latest has size %d): it is printed as stored, not proved in a signed tree\n", first, cp.Size)
		return
	}
	fmt.Fprintf(a.errOut, "warning: the entries from %d on are not covered by a signed checkpoint yet (the latest has size %d): they are printed as stored, not proved in a signed tree\n", max(first, cp.Size), cp.Size)
}
