package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/sealedhq/sealed/ledger"
	"github.com/sealedhq/sealed/ledger/tiles"
	"github.com/sealedhq/sealed/ledger/tlogclient"

	"github.com/spf13/cobra"
)

func init() {
	ledgerSubcommands = append(ledgerSubcommands, newLedgerProveCmd, newLedgerConsistencyCmd)
}

// ledgerProveOptions are the inputs of `sealed ledger prove`.
type ledgerProveOptions struct {
	DB     string
	Index  int64
	Size   int64  // 0 = the latest checkpoint
	URL    string // --url: prove from a remote log's tiles
	Format string // --format: json (default) or tlog-proof
}

func newLedgerProveCmd(a *app, g *ledgerGlobal) *cobra.Command {
	return ledgerProveCmd(a, g, runLedgerProve)
}

func ledgerProveCmd(a *app, g *ledgerGlobal, runF func(*app, *ledgerProveOptions) error) *cobra.Command {
	o := &ledgerProveOptions{}
	c := &cobra.Command{
		Use:   "prove INDEX [--size S] | prove --index INDEX [--size S]",
		Short: "Print the JSON inclusion proof of an entry, with the checkpoint it is against",
		Long: `Print the inclusion proof of entry INDEX (or --index) in the tree of a signed
checkpoint (the latest, or the one of tree size --size) as JSON: the index,
the tree size, the leaf, its hash, the audit path and the signed
checkpoint. Check it anywhere with 'sealed ledger check-proof'.

--format tlog-proof writes a C2SP tlog-proof receipt instead (index,
proof lines, the checkpoint with its witness cosignatures; the leaf in the
extra line). --url URL builds the proof from the tiles of any C2SP
tlog-tiles log, against its current checkpoint, with no database.`,
		RunE: func(cmd *cobra.Command, _ []string) error {
			o.DB = g.DB
			if o.Size < 0 || (o.Size == 0 && cmd.Flags().Changed("size")) {
				// --size 0 would be the empty tree, which holds no entry
				// (0 is how the options say "the latest").
				return usageErrorf("--size %d: expected the size of a checkpoint covering the entry, above its index", o.Size).
					withHint("leave --size out to prove against the latest checkpoint")
			}
			if o.Format != "json" && o.Format != "tlog-proof" {
				return usageErrorf("--format %q: expected json or tlog-proof", o.Format)
			}
			if o.URL != "" {
				if err := checkURL(o.URL); err != nil {
					return err
				}
				if o.Size != 0 {
					return usageErrorf("--size goes with a local ledger; --url proves against the log's current checkpoint")
				}
				return runLedgerProveURL(a, o)
			}
			return runF(a, o)
		},
	}
	indexArg(c, "prove", &o.Index)
	c.Flags().Int64Var(&o.Size, "size", 0, "prove against the checkpoint of tree size `S` (default: the latest)")
	c.Flags().StringVar(&o.URL, "url", "", "prove from the tiles of the tlog-tiles log at `URL`")
	c.Flags().StringVar(&o.Format, "format", "json", "`FORMAT` of the proof: json or tlog-proof (C2SP receipt)")
	return c
}

func runLedgerProve(a *app, o *ledgerProveOptions) error {
	l, err := openLedgerRO(o.DB)
	if err != nil {
		return err
	}
	defer l.Close()
	p, err := l.ProveInclusion(o.Index, o.Size)
	if err != nil {
		// Past the end only if no signed checkpoint covers the index: an
		// entry deleted below one is altered data (proveErr, exit 1).
		if !errors.Is(err, ledger.ErrTampered) {
			if n, serr := l.Size(); serr == nil && o.Index >= n {
				return pastEnd(o.Index, n)
			}
		}
		return proveErr(err)
	}
	if o.Format == "tlog-proof" {
		// The receipt carries the checkpoint with its stored cosignatures.
		ctx := context.Background()
		cp, err := l.Store().CheckpointAt(ctx, p.Size)
		if err != nil {
			return err
		}
		note, err := tiles.WithCosignatures(ctx, l.Store(), cp)
		if errors.Is(err, ledger.ErrTampered) {
			return proveErr(err)
		} else if err != nil {
			return err
		}
		p.Checkpoint = string(note)
		_, err = a.out.Write(p.Receipt().Format())
		return err
	}
	return a.printJSON(p) // the proof is a JSON document with or without --json
}

// ledgerConsistencyOptions are the inputs of `sealed ledger consistency`.
type ledgerConsistencyOptions struct {
	DB           string
	Size1, Size2 int64 // Size2 0 = the latest checkpoint
}

func newLedgerConsistencyCmd(a *app, g *ledgerGlobal) *cobra.Command {
	return ledgerConsistencyCmd(a, g, runLedgerConsistency)
}

func ledgerConsistencyCmd(a *app, g *ledgerGlobal, runF func(*app, *ledgerConsistencyOptions) error) *cobra.Command {
	o := &ledgerConsistencyOptions{}
	c := &cobra.Command{
		Use:   "consistency --size1 A [--size2 B]",
		Short: "Print the JSON consistency proof between two signed checkpoints",
		Long: `Print the proof that the tree of the checkpoint of size --size2 (default:
the latest) extends the tree of the checkpoint of size --size1, with both
signed checkpoints, as JSON. Check it with 'sealed ledger check-proof'.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			o.DB = g.DB
			if o.Size1 < 1 || o.Size2 < 0 || (o.Size2 == 0 && cmd.Flags().Changed("size2")) {
				return usageErrorf("consistency needs --size1 A >= 1 (and --size2 B >= A, or the latest)")
			}
			return runF(a, o)
		},
	}
	c.Flags().Int64Var(&o.Size1, "size1", 0, "the older checkpoint's tree size `A`")
	c.Flags().Int64Var(&o.Size2, "size2", 0, "the newer checkpoint's tree size `B` (default: the latest)")
	return c
}

func runLedgerConsistency(a *app, o *ledgerConsistencyOptions) error {
	l, err := openLedgerRO(o.DB)
	if err != nil {
		return err
	}
	defer l.Close()
	p, err := l.ProveConsistency(o.Size1, o.Size2)
	if err != nil {
		return proveErr(err)
	}
	return a.printJSON(p)
}

// pastEnd is the CLI error (exit 2) of index, at or past the end of a
// ledger of n entries: every verb that takes an entry index (get, prove,
// check-result) says it this way, with the ledger's size.
func pastEnd(index, n int64) *exitError {
	return usageErrorf("entry %d does not exist: the ledger has %d %s%s", index, n, plural(int(n), "entry", "entries"), indexRange(n))
}

// pastEndError returns pastEnd for err, an error of reading entry index of
// l, when err wraps ledger.ErrNotFound because index is at or past the
// end of l; nil otherwise (another missing thing, such as a replay).
func pastEndError(l *ledger.Ledger, index int64, err error) error {
	if !errors.Is(err, ledger.ErrNotFound) {
		return nil
	}
	n, serr := l.Size()
	if serr != nil || index < n {
		return nil
	}
	return pastEnd(index, n)
}

// indexRange writes the valid indexes of a ledger of n entries, " (0..n-1)",
// or "" when it is empty.
func indexRange(n int64) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprintf(" (indexes 0..%d)", n-1)
}

// runLedgerProveURL builds an inclusion proof from a remote log's tiles
// (prove --url). The proof is not checked against a key here: check it
// with check-proof and the log's published key.
func runLedgerProveURL(a *app, o *ledgerProveOptions) error {
	c := &tlogclient.Client{URL: o.URL, VerifierKey: ""}
	p, err := c.ProveInclusion(context.Background(), o.Index)
	if err != nil {
		return remoteErr("proving entry "+fmt.Sprint(o.Index)+" from "+o.URL, err)
	}
	if o.Format == "tlog-proof" {
		_, err = a.out.Write(p.Receipt().Format())
		return err
	}
	return a.printJSON(p)
}

// proveErr is the CLI error of a proof the ledger did not give: a database
// whose stored rows refute the signed checkpoints is a check that failed
// (exit 1); anything else is the request (exit 2).
func proveErr(err error) error {
	if errors.Is(err, ledger.ErrTampered) {
		return failedf("%v", err).withHint("run 'sealed ledger audit' on it")
	}
	if errors.Is(err, ledger.ErrNotFound) {
		return usageErrorf("%v", err).withHint("not every size has a checkpoint (one is signed at most about once a second): 'sealed ledger checkpoint --size N' shows a stored one")
	}
	return usageErrorf("%v", err)
}
