package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/sealedhq/sealed/ledger"
	"github.com/sealedhq/sealed/ledger/stores"
	"github.com/spf13/cobra"
)

func init() { ledgerSubcommands = append(ledgerSubcommands, newLedgerCopyCmd) }

// ledgerCopyOptions are the inputs of `sealed ledger copy`.
type ledgerCopyOptions struct {
	From string // the source ledger: a SQLite file or a postgres:// URL
	To   string // the destination: a new SQLite file or an empty PostgreSQL database
}

func newLedgerCopyCmd(a *app, g *ledgerGlobal) *cobra.Command {
	return ledgerCopyCmd(a, g, runLedgerCopy)
}

func ledgerCopyCmd(a *app, _ *ledgerGlobal, runF func(*app, *ledgerCopyOptions) error) *cobra.Command {
	o := &ledgerCopyOptions{}
	c := &cobra.Command{
		Use:   "copy --from LEDGER --to LEDGER",
		Short: "Copy a ledger to another store (SQLite file or PostgreSQL), checking every leaf, hash and checkpoint",
		Long: `Copy every entry, stored hash, checkpoint, replay and witness cosignature
of one ledger into a new one: a SQLite file that does not exist yet, or an
empty PostgreSQL database (postgres://... or postgresql://...).

The source is audited first, as 'sealed ledger audit' audits it: a source
that does not pass (exit 1, naming the problem) is not copied, whatever
the row (a players or log_meta row, a trigger or an index: rows the copy
would not carry over). Then everything is checked as it is copied: each
leaf against its leaf hash, the stored hashes recomputed from the leaves,
each checkpoint's signature and root, each replay against its digest, each
witness cosignature against its checkpoint (a signature line of the
checkpoint's note, cosignature/v1 shaped, with the stored size and time;
the signatures themselves need the witness keys: 'ledger audit --witness
KEY' verifies them); the first thing that does not check out stops the
copy (exit 1). The copy is audited before it becomes a ledger: it holds
the same bytes and audits clean with the same roots and checkpoints.
Replays that no result entry names are not copied. No signer key is
needed: the checkpoints are copied as signed.

A copy that stops (a failed check, an error, Ctrl-C, a killed process)
leaves no ledger at --to: a SQLite copy is built in a new file beside it
(TO.copying-XXXXXXXX, removed if the copy fails) and renamed to --to only
once complete and audited; in PostgreSQL the ledger's identity rows are
written last, and what a failed copy wrote is dropped (a killed copy's
rows are dropped by the next copy into that database). A source that is
no ledger, a --to file that exists and a database that holds a ledger are
refused before anything is written (exit 2). docs/ledger.md ("Moving a
ledger") has the details.`,
		Example: `  sealed ledger copy --from sealed.db --to postgres:///sealed?host=/run/postgresql
  sealed ledger copy --from postgres://db.example/sealed --to backup.db`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := requireFlags(cmd, "ledger copy", "sealed ledger copy --from sealed.db --to copy.db", "from", "to"); err != nil {
				return err
			}
			if o.From == stdioName || o.To == stdioName {
				// - is stdin or stdout everywhere; a ledger is a database,
				// never read from or written to a stream, nor to a file
				// named "-".
				return usageErrorf("ledger copy reads and writes databases: --from and --to take a SQLite file or a postgres:// URL, not - (stdin or stdout)").
					withHint("sealed ledger copy --from sealed.db --to copy.db (a file named - is ./-)")
			}
			return runF(a, o)
		},
	}
	c.Flags().StringVar(&o.From, "from", "", "the source `LEDGER`: a SQLite file or a postgres:// URL")
	c.Flags().StringVar(&o.To, "to", "", "the destination `LEDGER`: a new SQLite file or an empty PostgreSQL database")
	return c
}

func runLedgerCopy(a *app, o *ledgerCopyOptions) error {
	// Ctrl-C or SIGTERM stops the copy, which then removes what it wrote.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	// The source must be a ledger before anything is created at --to.
	src, err := stores.OpenStore(ctx, o.From, true, false)
	if err == nil {
		if _, err = src.Meta(ctx); err != nil {
			src.Close()
		}
	}
	if err != nil {
		return copySourceError(o.From, err)
	}
	defer src.Close()
	progress, finish := copyProgress(a)
	rep, err := stores.Copy(ctx, src, o.To, progress)
	finish()
	if err != nil && ctx.Err() != nil {
		return usageErrorf("copy interrupted").withHint("no ledger was left at --to; run the copy again")
	}
	if err != nil {
		return copyError(o, err)
	}
	if a.json {
		return a.printJSON(rep)
	}
	fmt.Fprintf(a.out, "copied %d %s, %d %s, %d %s and %d witness %s from %s to %s\n",
		rep.Entries, plural(int(rep.Entries), "entry", "entries"), rep.Checkpoints, plural(rep.Checkpoints, "checkpoint", "checkpoints"),
		rep.Replays, plural(rep.Replays, "replay", "replays"), rep.Cosignatures, plural(rep.Cosignatures, "cosignature", "cosignatures"),
		stores.Redact(o.From), stores.Redact(o.To))
	fmt.Fprintf(a.out, "audit of the source: ok\naudit of the copy: ok\n")
	return nil
}

// copyProgress draws a progress bar for each stage of the copy in turn
// (a.progress: on a terminal only).
func copyProgress(a *app) (update func(ledger.CopyStage, int64, int64), finish func()) {
	var stage ledger.CopyStage
	var bar func(done, total int64)
	end := func() {}
	update = func(s ledger.CopyStage, done, total int64) {
		if s != stage {
			end()
			stage = s
			bar, end = a.progress(string(s), "entries")
		}
		if bar != nil {
			bar(done, total)
		}
	}
	return update, func() { end() }
}

// copyHint is the hint for a destination that is refused.
const copyHint = "--to must be a new SQLite file or an empty PostgreSQL database"

// copySourceError is the CLI error for a --from that cannot be copied
// from: bad input (exit 2) unless it is a ledger that fails a check
// (exit 1).
func copySourceError(from string, err error) *exitError {
	name := stores.Redact(from)
	hint := "--from takes a ledger: a SQLite file made by 'sealed ledger init' or the postgres:// URL of a database holding one"
	if isNameError(err) { // a server not reached, a login refused, a URL refused
		return openFlagError("--from", from, err)
	}
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return usageErrorf("--from %s: no ledger there", name).withHint("%s", hint)
	case errors.Is(err, ledger.ErrNotLedger):
		return usageErrorf("--from %s is not a sealed ledger%s", name, notLedgerDetail(err)).withHint("%s", hint)
	case errors.Is(err, ledger.ErrSchemaTooNew):
		return usageErrorf("--from %s: %v", name, err).withHint("this ledger was written by a newer sealed: upgrade sealed")
	case errors.Is(err, ledger.ErrTampered):
		return failedf("copy stopped: the source %s fails its audit: %v", name, err).
			withHint("nothing was copied; 'sealed ledger audit --db %s' shows the finding", name)
	}
	return usageErrorf("cannot open the ledger %s: %v", name, err).withHint("%s", hint)
}

// notLedgerDetail is what an ErrNotLedger error says beyond "not a sealed
// ledger" (": file is not a database", " (no log_meta ... table)"), as
// ": ..." or "".
func notLedgerDetail(err error) string {
	msg := err.Error()
	i := strings.Index(msg, ledger.ErrNotLedger.Error())
	if i < 0 {
		return ": " + msg
	}
	d := strings.TrimSpace(strings.TrimLeft(msg[i+len(ledger.ErrNotLedger.Error()):], ":"))
	d = strings.TrimSuffix(strings.TrimPrefix(d, "("), ")")
	if d == "" {
		return ""
	}
	return ": " + d
}

// copyError is the CLI error for a copy that stopped: exit 1 for a check
// that failed, exit 2 for a destination that cannot take the copy and
// other errors. A copy that stopped left no ledger at --to
// (stores.Copy).
func copyError(o *ledgerCopyOptions, err error) *exitError {
	to, from := stores.Redact(o.To), stores.Redact(o.From)
	var pe *fs.PathError
	switch {
	case isNameError(err): // a server not reached, a login refused, a URL refused
		return openFlagError("--to", o.To, err)
	case errors.Is(err, ledger.ErrUnfinished):
		return usageErrorf("--to %s holds rows but no ledger identity: what a ledger copy that did not complete leaves, or a ledger whose identity rows were all deleted", to).
			withHint("a copy never drops rows it did not write: if they are a stopped copy's, drop them (DROP DATABASE, or DROP OWNED as their owner) and copy again")
	case errors.Is(err, ledger.ErrTampered):
		e := failedf("copy stopped: %v", err)
		if strings.HasPrefix(err.Error(), "source") {
			return e.withHint("no ledger was left at --to; 'sealed ledger audit --db %s' shows the source's finding", from)
		}
		return e.withHint("no ledger was left at --to")
	case errors.Is(err, fs.ErrExist):
		return usageErrorf("--to %s already exists: refusing to overwrite it", to).withHint(copyHint)
	case errors.Is(err, ledger.ErrHoldsLedger):
		return usageErrorf("--to %s %s", to, strings.TrimPrefix(err.Error(), "destination: ")).withHint(copyHint)
	case errors.As(err, &pe) && pe.Path == o.To:
		// The file could not be made (the copy is built beside it).
		return copyCreateError(o.To, pe)
	case errors.Is(err, ledger.ErrStoreFull):
		return usageErrorf("copy stopped: %v", err).withHint("no ledger was left at --to; free space where --to is stored, then copy again")
	}
	return usageErrorf("copy stopped: %v", err).withHint("no ledger was left at --to; %s", copyHint)
}

// copyCreateError is the CLI error for a --to file that could not be
// made (pe), such as one in a directory the user may not write: what is
// wrong, and a hint about the directory.
func copyCreateError(to string, pe *fs.PathError) *exitError {
	e := usageErrorf("cannot create %s: %v", to, pe.Err)
	if errors.Is(pe.Err, fs.ErrNotExist) {
		return e.withHint("the directory %s does not exist", filepath.Dir(to))
	}
	return e.withHint("the copy is made in the directory of --to, which must let you create files: choose another directory")
}
