package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/sealedhq/sealed/ledger"
	"github.com/sealedhq/sealed/ledger/tlogclient"
	"github.com/spf13/cobra"
)

func init() { ledgerSubcommands = append(ledgerSubcommands, newLedgerWatchCmd) }

// ledgerWatchOptions are the inputs of `sealed ledger watch`.
type ledgerWatchOptions struct {
	URL      string
	VKey     string
	VKeyFile string
	State    string
	Policy   policyFlags
}

func newLedgerWatchCmd(a *app, g *ledgerGlobal) *cobra.Command {
	o := &ledgerWatchOptions{}
	c := &cobra.Command{
		Use:   "watch --url URL (--vkey KEY | --vkey-file FILE) --state FILE",
		Short: "Monitor a tlog-tiles log: check its new checkpoint extends the last one seen",
		Long: `Fetch the log's checkpoint from URL (C2SP tlog-tiles), check its signature
(and the witness policy, if given), and check it is consistent with the
checkpoint saved in the state FILE by the previous run, with a consistency
proof built from the log's own tiles. On success the new checkpoint is
saved and the exit is 0; on a rollback (a smaller tree) or a fork (another
root) both checkpoints and the failing proof are printed and the exit is
1, and the state file is left as it was. Run it from cron.`,
		Args: cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			if o.URL == "" || o.State == "" {
				return usageErrorf("watch needs --url URL and --state FILE")
			}
			if o.State == stdioName {
				return usageErrorf("--state takes a FILE, not -: watch reads the last checkpoint seen from it and writes the new one back").
					withHint("give --state a file kept between runs, e.g. --state log.checkpoint")
			}
			if err := checkURL(o.URL); err != nil {
				return err
			}
			return runLedgerWatch(a, o)
		},
	}
	c.Flags().StringVar(&o.URL, "url", "", "the log's tlog-tiles `URL` prefix")
	c.Flags().StringVar(&o.VKey, "vkey", "", "the log's verifier `KEY`")
	c.Flags().StringVar(&o.VKeyFile, "vkey-file", "", "read the verifier key from `FILE`")
	c.Flags().StringVar(&o.State, "state", "", "the `FILE` holding the last checkpoint seen (created on the first run)")
	o.Policy.add(c)
	return c
}

func runLedgerWatch(a *app, o *ledgerWatchOptions) error {
	vkey, err := auditVerifierKey(a, &ledgerAuditOptions{VKey: o.VKey, VKeyFile: o.VKeyFile})
	if err != nil {
		return err
	}
	if vkey == "" {
		return usageErrorf("watch needs the log's verifier key: --vkey KEY or --vkey-file FILE")
	}
	pol, err := o.Policy.policy(a, vkey)
	if err != nil {
		return err
	}
	old, err := os.ReadFile(o.State)
	if errors.Is(err, os.ErrNotExist) {
		old = nil
	} else if err != nil {
		return usageErrorf("reading --state %s: %v", o.State, unwrapPathError(err))
	}
	if old != nil {
		// The state is this machine's own record: one that does not open
		// with the key is bad input, not the log's failure.
		if _, err := ledger.OpenCheckpoint(vkey, old); err != nil {
			return usageErrorf("--state %s does not hold a checkpoint of this log: %v", o.State, err).
				withHint("give --state the file an earlier watch of this log (this --vkey) saved, or a new FILE to start watching afresh")
		}
	}
	c := &tlogclient.Client{URL: o.URL, VerifierKey: vkey, Policy: pol}
	cp, err := c.Watch(context.Background(), old)
	var we *tlogclient.WatchError
	if errors.As(err, &we) {
		// Line by line: terminalSafe quotes a string holding newlines.
		for _, line := range strings.Split(strings.TrimSuffix(we.Error(), "\n"), "\n") {
			fmt.Fprintf(a.out, "%s\n", terminalSafe(line))
		}
		return failedf("watch: %s detected", we.What)
	}
	if err != nil {
		return remoteErr("watch", err)
	}
	if err := os.WriteFile(o.State+".tmp", []byte(cp.Note), 0o644); err != nil {
		return usageErrorf("writing --state: %v", unwrapPathError(err))
	}
	if err := os.Rename(o.State+".tmp", o.State); err != nil {
		return usageErrorf("writing --state: %v", unwrapPathError(err))
	}
	if old == nil {
		_, err = fmt.Fprintf(a.out, "ok: first checkpoint seen, size %d, saved in %s\n", cp.Size, o.State)
	} else {
		_, err = fmt.Fprintf(a.out, "ok: the checkpoint of size %d extends the one seen before\n", cp.Size)
	}
	return err
}
