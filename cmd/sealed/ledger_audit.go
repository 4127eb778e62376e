package main

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/sealedhq/sealed/ledger"
	"github.com/sealedhq/sealed/ledger/stores"
	"github.com/sealedhq/sealed/verify"
	"github.com/spf13/cobra"
	"golang.org/x/mod/sumdb/note"
)

func init() { ledgerSubcommands = append(ledgerSubcommands, newLedgerAuditCmd) }

// ledgerAuditOptions are the inputs of `sealed ledger audit`.
type ledgerAuditOptions struct {
	DB       string
	VKey     string // --vkey KEY: the verifier key the checkpoints must verify with
	VKeyFile string // --vkey-file FILE: the same, read from FILE
	URL      string // --url URL: audit a remote tlog-tiles log instead
	Policy   policyFlags
	Report   bool // --report: list seed commitments and abandoned matches per operator
}

// ledgerAuditJSON is the --json output of ledger audit: the audit report
// and the verifier key every checkpoint signature was checked with.
type ledgerAuditJSON struct {
	*ledger.AuditReport
	VerifierKey string `json:"verifier_key"`
	// Operators is --report's list (verify.AbandonedMatches).
	Operators []verify.OperatorMatches `json:"operators,omitempty"`
}

func newLedgerAuditCmd(a *app, g *ledgerGlobal) *cobra.Command {
	return ledgerAuditCmd(a, g, runLedgerAudit)
}

func ledgerAuditCmd(a *app, g *ledgerGlobal, runF func(*app, *ledgerAuditOptions) error) *cobra.Command {
	o := &ledgerAuditOptions{}
	c := &cobra.Command{
		Use:   "audit [--vkey KEY | --vkey-file FILE] [--url URL [--witness KEY --quorum N]]",
		Short: "Re-derive the whole tree from the entries and check every stored hash and checkpoint",
		Long: `Recompute every leaf hash and stored tree hash from the entry bodies, check
the integration times, every checkpoint's signature and root, and the
consistency of each checkpoint with the next. Stops at the first problem
and names the entry (or checkpoint) and what differed: exit 1. A progress
bar is shown on a terminal.

The checkpoint signatures are checked with the verifier key given by
--vkey or --vkey-file (the one the ledger's operator published); the
audit fails (exit 1) if the key stored in the database is another one.
Without them the key stored in the database is used and printed: whoever
can write the file can replace that key and re-sign everything, so pin the
published key with --vkey.

With --url, no database is read: the log at URL (any C2SP tlog-tiles log)
is fetched, its whole tree re-derived from its entry bundles, every tile
and the checkpoint's root checked, and the checkpoint's signature checked
with --vkey (required), and its witness cosignatures with --witness and
--quorum.

A local audit checks every stored cosignature's shape, size and time
against its checkpoint; with --witness or --witnesses it also verifies
the signatures of those by the given witnesses (the witness keys are not
stored in the ledger).

--report adds, per operator (the seed-commits' operator field), how many
seeds were committed, revealed and still pending, and every abandoned
match: a seed-commit whose reveal_by passed without a seed-reveal of the
committed seed by then. A server that abandons the matches it does not
like is seen doing it. Abandoned matches do not fail the audit.`,
		Args: cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			if o.VKey != "" && o.VKeyFile != "" {
				return usageErrorf("give the verifier key once: --vkey KEY or --vkey-file FILE, not both")
			}
			o.DB = g.DB
			if o.URL != "" {
				if err := checkURL(o.URL); err != nil {
					return err
				}
				return runLedgerAuditURL(a, o)
			}
			return runF(a, o)
		},
	}
	c.Flags().StringVar(&o.VKey, "vkey", "", "check the checkpoints with the ledger's verifier `KEY` (name+hash+key)")
	c.Flags().StringVar(&o.VKeyFile, "vkey-file", "", "read the verifier key from `FILE` (- for stdin)")
	c.Flags().StringVar(&o.URL, "url", "", "audit the tlog-tiles log at `URL` (no database)")
	o.Policy.add(c)
	c.Flags().BoolVar(&o.Report, "report", false, "also list seed commitments and abandoned matches per operator")
	return c
}

// auditVerifierKey returns the verifier key given by --vkey or --vkey-file
// (white space trimmed), or "" if neither was given. A key that is not a
// note verifier key (name+hash+key) is bad usage.
func auditVerifierKey(a *app, o *ledgerAuditOptions) (string, error) {
	vkey := o.VKey
	if o.VKeyFile != "" {
		b, err := readInputFile(a, o.VKeyFile, 64<<10)
		if err != nil {
			return "", usageErrorf("reading the verifier key: %s: %v", o.VKeyFile, unwrapPathError(err))
		}
		vkey = strings.TrimSpace(string(b))
		if vkey == "" {
			return "", usageErrorf("--vkey-file %s is empty; expected the ledger's verifier key (name+hash+key)", o.VKeyFile)
		}
	}
	if vkey == "" {
		return "", nil
	}
	if err := ledger.CheckVerifierKey(vkey); err != nil {
		return "", usageErrorf("%v", err)
	}
	return vkey, nil
}

func runLedgerAudit(a *app, o *ledgerAuditOptions) error {
	pinned, err := auditVerifierKey(a, o)
	if err != nil {
		return err
	}
	pol, err := o.Policy.policy(a, pinned)
	if err != nil {
		return err
	}
	l, err := stores.Open(context.Background(), o.DB, ledger.Options{ReadOnly: true})
	if errors.Is(err, ledger.ErrTampered) {
		// Rows the ledger cannot even be opened without (its identity
		// rows): a finding, not bad input.
		fmt.Fprintf(a.out, "audit failed: %v\n", err)
		return errSilentFailure
	}
	if err != nil {
		return openError(o.DB, err)
	}
	defer l.Close()
	if err := notLog(pol, l.VerifierKey()); err != nil {
		return err
	}
	// Audit checks every checkpoint signature with the ledger's stored
	// key; with a pinned key, that stored key must be the pinned one, so
	// the signatures are checked with the pinned key.
	if pinned != "" && l.VerifierKey() != pinned {
		rep := &ledger.AuditReport{Problem: &ledger.AuditProblem{Index: -1, Checkpoint: -1, Table: "log_meta", What: fmt.Sprintf(
			"verifier key mismatch: the database holds %s, not the given key %s (the key was replaced, or this is another ledger)",
			terminalSafe(l.VerifierKey()), pinned)}}
		if a.json {
			if err := a.printJSON(ledgerAuditJSON{AuditReport: rep, VerifierKey: pinned}); err != nil {
				return err
			}
		} else {
			fmt.Fprintf(a.out, "audit failed: %s\n", rep.Problem)
		}
		return errSilentFailure
	}
	progress, finish := a.progress("auditing", "entries")
	defer finish()
	rep, err := l.Audit(context.Background(), progress)
	if errors.Is(err, ledger.ErrTampered) {
		// A file cut short, padded or with a damaged page: the check
		// failed (exit 1), it is no bad input.
		return failedf("audit failed: %v", err)
	}
	if err != nil {
		return err
	}
	if pol != nil && (rep.OK || rep.Problem.SchemaObject) {
		// The stored cosignatures by the policy's witnesses, verified
		// with their keys (the audit checks every row's shape alone); a
		// row found wrong is named before a trigger or index.
		var vs []note.Verifier
		for _, w := range pol.Witnesses {
			vs = append(vs, w.Verifier())
		}
		p, n, err := l.VerifyCosignatures(context.Background(), vs)
		if err != nil {
			return err
		}
		if p != nil {
			rep.OK, rep.Problem = false, p
		} else {
			fmt.Fprintf(a.errOut, "%d stored %s by the given witnesses verified\n", n, plural(n, "cosignature", "cosignatures"))
		}
	}
	var ops []verify.OperatorMatches
	if o.Report {
		if ops, err = verify.AbandonedMatches(l, time.Now()); err != nil {
			return err
		}
	}
	if a.json {
		if err := a.printJSON(ledgerAuditJSON{rep, l.VerifierKey(), ops}); err != nil {
			return err
		}
	} else {
		fmt.Fprintf(a.out, "verifier key: %s\n", terminalSafe(l.VerifierKey())) // the database's text
		if rep.OK {
			fmt.Fprintf(a.out, "ok: %d %s and %d %s audited\n", rep.Size, plural(int(rep.Size), "entry", "entries"),
				rep.Checkpoints, plural(rep.Checkpoints, "checkpoint", "checkpoints"))
		} else {
			fmt.Fprintf(a.out, "audit failed: %s\n", rep.Problem)
		}
		printUnchecked(a, rep.Unchecked)
		printOperators(a, ops)
		if pinned == "" {
			fmt.Fprintln(a.errOut, "hint: this key was read from the database itself, which whoever can write the file can replace; pin the key the operator published with --vkey KEY or --vkey-file FILE")
		}
	}
	if !rep.OK {
		return errSilentFailure
	}
	return nil
}

// printUnchecked prints, on stderr, what the store's integrity check
// could not check in this database, with a hint for amcheck.
func printUnchecked(a *app, unchecked []string) {
	amcheck := false
	for _, u := range unchecked {
		fmt.Fprintf(a.errOut, "note: not checked: %s\n", u)
		amcheck = amcheck || strings.Contains(u, "amcheck")
	}
	if amcheck {
		fmt.Fprintln(a.errOut, "hint: as a PostgreSQL superuser, run 'CREATE EXTENSION amcheck' in the ledger's database, and 'GRANT EXECUTE ON FUNCTION bt_index_check(regclass, boolean) TO ROLE' for an auditing role that is not a superuser")
	}
}

// printOperators prints --report's seed commitments per operator.
func printOperators(a *app, ops []verify.OperatorMatches) {
	for _, o := range ops {
		name := o.Operator
		if name == "" {
			name = "(no operator named)"
		}
		fmt.Fprintf(a.out, "operator %s: %d committed, %d revealed, %d pending, %d abandoned\n",
			terminalSafe(name), o.Committed, o.Revealed, o.Pending, len(o.Abandoned))
		for _, m := range o.Abandoned {
			late := ""
			if m.RevealedLate >= 0 {
				late = fmt.Sprintf(" (revealed late, at entry %d)", m.RevealedLate)
			}
			fmt.Fprintf(a.out, "  abandoned: %s match %s, seed-commit entry %d, not revealed by %s%s\n",
				m.Game, terminalSafe(m.MatchID), m.SeedCommit, m.RevealBy, late)
		}
	}
}
