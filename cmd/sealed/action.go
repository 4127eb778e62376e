package main

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
	_ "time/tzdata" // --zone works on systems without a tz database

	"github.com/sealedhq/sealed/ledger"
	"github.com/sealedhq/sealed/rules/secret"
	"github.com/sealedhq/sealed/verify"
	"github.com/spf13/cobra"
)

// actionSubcommands are the verbs of `sealed action`, each in its own file.
var actionSubcommands []func(*app) *cobra.Command

func init() { register(newActionCmd) }

// newActionCmd builds `sealed action`: record and judge secret actions.
func newActionCmd(a *app) *cobra.Command {
	c := &cobra.Command{
		Use:   "action",
		Short: "Record secret actions (post, edit, reveal) in the ledger and judge them (docs/secret-actions.md)",
		Long: `Record the secret actions of seed 004 in the ledger, and judge them from the
ledger alone: a player posts a commitment (post), the post may be edited
(edit), the player reveals the exact text (reveal); status says, at an
instant, whether each action is pending, matured, revealed or failed, with
the rule, the reading and the times behind every decision.`,
	}
	for _, f := range actionSubcommands {
		c.AddCommand(f(a))
	}
	return c
}

// defaultDB is the ledger database used when --db is not given.
const defaultDB = "./sealed.db"

// ledgerFlags are the flags that locate the ledger: --db, and --key for
// the verbs that append (defaults as in 'sealed ledger': ./sealed.db and
// defaultKeyFile of the --db file, ./sealed.key).
type ledgerFlags struct {
	DB  string
	Key string
}

// addLedgerFlags adds --db and, when appending, --key.
func addLedgerFlags(c *cobra.Command, lf *ledgerFlags, appending bool) {
	c.Flags().StringVar(&lf.DB, "db", defaultDB, "the ledger: a SQLite `FILE` or a postgres:// URL")
	if appending {
		c.Flags().StringVar(&lf.Key, "key", "", "the ledger's private signer key `FILE`, written by 'sealed ledger init' "+keyFileHelp)
	}
}

// openLedger opens the ledger for appending (with its signer key) or
// read-only (openLedgerRW and openLedgerRO, shared with 'sealed ledger').
func (lf *ledgerFlags) openLedger(appending bool) (*ledger.Ledger, error) {
	if !appending {
		return openLedgerRO(lf.DB)
	}
	return openLedgerRW(lf.DB, lf.Key)
}

// parseInstant parses a time flag: RFC 3339, with optional fractional
// seconds ("2026-03-23T09:00:00Z", "2026-03-23T11:00:00+02:00").
func parseInstant(flag, s string) (time.Time, error) {
	t, err := ledger.ParseTime(strings.TrimSpace(s))
	if err != nil {
		return time.Time{}, usageErrorf("--%s %v", flag, err)
	}
	return t, nil
}

// postedAtField turns a --posted-at flag into the body field (TimeLayout,
// UTC); "" stays "". A time later than now is refused.
func postedAtField(s string) (string, error) {
	if s == "" {
		return "", nil
	}
	t, err := parseInstant("posted-at", s)
	if err != nil {
		return "", err
	}
	// The ledger refuses a posted_at after its integration time; saying so
	// here also covers instants past 2262, which it cannot compare.
	if t.After(time.Now()) {
		return "", usageErrorf("--posted-at %s is later than now: a post cannot appear in the channel after it is recorded", s)
	}
	return t.UTC().Format(ledger.TimeLayout), nil
}

// parseZone loads an IANA time zone for --zone.
func parseZone(s string) (*time.Location, error) {
	loc, err := time.LoadLocation(s)
	if err != nil || s == "" || strings.EqualFold(s, "local") {
		e := usageErrorf("--zone %q is not an IANA time zone; expected e.g. UTC or Asia/Jerusalem", s)
		if strings.EqualFold(s, "utc") || strings.EqualFold(s, "z") {
			e = e.withHint("zone names are case-sensitive: write --zone UTC")
		} else if _, lerr := time.LoadLocation(strings.ToUpper(s)); err != nil && lerr == nil {
			e = e.withHint("zone names are case-sensitive: write --zone %s", strings.ToUpper(s))
		}
		return nil, e
	}
	return loc, nil
}

// appendError turns an Append error into the CLI's: bad input (exit 2),
// as 'sealed ledger append' does; a duplicate names the existing entry.
func appendError(err error) error {
	var dup *ledger.DuplicateError
	if errors.As(err, &dup) {
		e := usageErrorf("refused: the ledger already holds this %s entry at index %d", dup.Kind, dup.Index)
		// The integration time is not part of the duplicate key
		// (docs/ledger.md, "Duplicates"): a reveal or edit made again is
		// told apart by its time in the channel.
		switch dup.Kind {
		case ledger.KindReveal:
			return e.withHint("a reveal of the same bytes without --posted-at is the same entry; to record it again (a reveal before the maturation date does not count), give the time it appeared in the channel: --posted-at TIME")
		case ledger.KindEdit:
			return e.withHint("an edit without --posted-at is the same entry as the first; to record another edit of the post, give the time it was made: --posted-at TIME")
		}
		return e.withHint("'sealed action status' shows it; a new attempt needs a new commitment")
	}
	var be *ledger.BodyError
	if errors.As(err, &be) {
		return usageErrorf("%v", be)
	}
	var ce *ledger.ConfusableNameError
	if errors.As(err, &ce) {
		return usageErrorf("refused: %v", ce).withHint("%s", confusableHint(ce))
	}
	if errors.Is(err, ledger.ErrTampered) {
		// Not bad input: the database holds what the log did not write.
		return failedf("%v", err).withHint("run 'sealed ledger audit' on it")
	}
	if errors.Is(err, ledger.ErrStoreFull) {
		return usageErrorf("nothing was appended: %v", err).withHint("%s", storeHint(err))
	}
	return usageErrorf("the ledger refused the entry: %v", err)
}

// unsignedWarning is the warning of Close's error when the entries it
// appended are stored but their checkpoint could not be (ledger.ErrUnsigned),
// "" for any other.
func unsignedWarning(err error) string {
	if !errors.Is(err, ledger.ErrUnsigned) {
		return ""
	}
	return err.Error() + "; the next write to the ledger signs a checkpoint covering them (until then 'sealed ledger audit' fails a minute after)"
}

// confusableHint is the hint for a player name refused because it looks
// like another player's.
func confusableHint(ce *ledger.ConfusableNameError) string {
	return fmt.Sprintf("if you are %s, post as exactly that name (copy it from 'sealed ledger get %d'); otherwise choose a name that does not look like it", strconv.QuoteToASCII(ce.Existing), ce.Index)
}

// appendedJSON is the --json output of post, edit and reveal: the entry as
// stored, and what the verb noticed.
type appendedJSON struct {
	entryJSON
	Warnings []string `json:"warnings"`
}

// printAppended closes l, which signs the checkpoint covering the entry,
// and prints the appended entry: its index and times, then warnings on
// stderr (or in the JSON), a checkpoint that could not be stored among
// them (the entry is appended all the same).
func (a *app) printAppended(l *ledger.Ledger, index int64, what string, warnings []string) error {
	e, err := l.Entry(index)
	if err != nil {
		return fmt.Errorf("reading back entry %d: %v", index, err)
	}
	if w := unsignedWarning(l.Close()); w != "" {
		warnings = append(warnings, w)
	}
	if warnings == nil {
		warnings = []string{}
	}
	if a.json {
		return a.printJSON(appendedJSON{entryJSON: newEntryJSON(e), Warnings: warnings})
	}
	fmt.Fprintf(a.out, "%s entry %d: %s\n", e.Kind, e.Index, what)
	fmt.Fprintf(a.out, "integrated at %s\n", e.IntegratedAt.UTC().Format(time.RFC3339Nano))
	if !e.PostedAt.IsZero() {
		fmt.Fprintf(a.out, "posted at     %s (the time of record)\n", e.PostedAt.UTC().Format(time.RFC3339Nano))
	}
	for _, w := range warnings {
		fmt.Fprintf(a.errOut, "warning: %s\n", w)
	}
	return nil
}

// commitEntry returns the commit entry at index and its body, or a usage
// error saying what is there instead.
func commitEntry(l *ledger.Ledger, index int64) (*ledger.Entry, *ledger.Body, error) {
	e, err := l.Entry(index)
	if err != nil {
		return nil, nil, usageErrorf("--commit %d: no such ledger entry", index)
	}
	if e.Kind != ledger.KindCommit {
		return nil, nil, usageErrorf("--commit %d: entry %d is %s entry; expected the commit entry of the action", index, index, e.Kind.Article())
	}
	b, err := e.Body()
	if err != nil {
		return nil, nil, fmt.Errorf("entry %d: %v", index, err)
	}
	return e, b, nil
}

// admit runs the write admission every writer shares (verify.Admit)
// before an append: a refused entry is bad input (exit 2); the warnings
// (recorded, but will not count) go to stderr as "warning: ..." lines and
// are returned for the command's own output.
func (a *app) admit(l *ledger.Ledger, b *ledger.Body, replay []byte) ([]string, error) {
	warnings, err := verify.Admit(l, b, replay, time.Now())
	if e := admissionError(b, err); e != nil {
		return nil, e
	}
	return warnings, err
}

// admissionError is the CLI error (exit 2, with its hint) of err, a
// *verify.AdmissionError refusing b; nil for any other error.
func admissionError(b *ledger.Body, err error) *exitError {
	var ae *verify.AdmissionError
	if errors.As(err, &ae) {
		e := usageErrorf("%v", ae)
		var ce *ledger.ConfusableNameError
		if errors.As(err, &ce) {
			return e.withHint("%s", confusableHint(ce))
		}
		switch ae.Field {
		case "posted_at":
			e = e.withHint("give the time the %s appeared in the channel, at or after the post", b.Kind)
		case "replay_sha256":
			e = e.withHint("store the replay with the entry: sealed ledger append --kind result --replay FILE ...")
		case "replay":
			e = e.withHint("'sealed replay check FILE' says what is wrong with a replay")
		case "commitment":
			var de *ledger.DuplicateError
			if errors.As(err, &de) {
				e = e.withHint("draw a new seed for every match with 'sealed seed new'; see the earlier one with 'sealed ledger get %d'", de.Index)
			}
		case "config", "rules_version":
			if b.Kind == ledger.KindSeedCommit {
				e = e.withHint("docs/ledger.md (\"seed-commit\") lists the rules versions and config keys of each game; 'sealed replay play %s --help' shows the defaults", b.Game)
			}
		}
		return e
	}
	return nil
}

// fmtTime writes an instant in the game's zone, RFC 3339, with the
// fraction of a second when it has one: verdicts compare instants to the
// nanosecond, so an instant cut to the second could be one at which the
// verdict differs.
func fmtTime(t time.Time, loc *time.Location) string {
	return t.In(loc).Format(time.RFC3339Nano)
}

// writeExplanation prints one decision: its text, rule and reading after
// first, then the instants it compared, each on a line after indent.
func writeExplanation(w io.Writer, first, indent string, e secret.Explanation, loc *time.Location) {
	fmt.Fprintf(w, "%s%s (%s)\n", first, e.Text, e.Plain())
	fmt.Fprintf(w, "%sdetails: %s\n", indent, e.Shorthand())
	for _, t := range e.Times {
		fmt.Fprintf(w, "%s%s %s", indent, t.What, fmtTime(t.At, loc))
		switch {
		case t.Index >= 0 && t.Source != "":
			fmt.Fprintf(w, " (ledger index %d, %s", t.Index, t.Source)
			if t.Gap != 0 {
				fmt.Fprintf(w, "; %s before its integration", secret.FormatGap(t.Gap))
			}
			fmt.Fprint(w, ")")
		case t.Index >= 0:
			fmt.Fprintf(w, " (ledger index %d)", t.Index)
		}
		fmt.Fprintln(w)
	}
}
