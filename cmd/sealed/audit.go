package main

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/sealedhq/sealed/commit"
	"github.com/spf13/cobra"
)

func init() { register(newAuditCmd) }

// auditOptions are the inputs of `sealed audit`.
type auditOptions struct {
	// Active audit.
	Hash       string
	Template   string
	Ranges     []string // NAME=LO..HI
	Alphabet   string
	SaltLen    string   // MIN..MAX or N
	Separators []string // with \n \r \t \\ escapes
	MaxGuesses uint64
	Workers    int
	// Passive audit.
	TextFile string // "-" for stdin
}

// newAuditCmd builds `sealed audit`.
func newAuditCmd(a *app) *cobra.Command { return auditCmd(a, runAudit) }

// auditCmd builds `sealed audit` with runF as its action.
func auditCmd(a *app, runF func(*app, *auditOptions) error) *cobra.Command {
	o := &auditOptions{}
	c := &cobra.Command{
		Use:   "audit (--hash H --template T [options] | --text-file F)",
		Short: "Check whether a commitment's salt is strong enough, or brute-force a weak one (docs/commitments.md)",
		Long: `With --text-file, estimate the strength of a reveal text's salt: find the
salt (the "salt:" line, else what follows the declaration), estimate the
guesses needed to recover the declaration from its commitment, and call it
weak under 2^64.

With --hash and --template, try to recover the reveal text behind a posted
hash: every text "<template with values><separator><salt>" for the
placeholder ranges (default {n} 0..10000, {lot} 1..100, others 0..10000),
salts of --salt-len characters (default 0..2) from --alphabet (default the
95 printable ASCII characters) after each --separator (default none,
space, LF, CRLF, tab, "-", " | ", "\nsalt: "), shortest salts first, on all
cores, up to --max-guesses. A known salt can be written into the template.

Exit status: 0 no weakness found, 1 weak (text recovered, or salt weak),
2 bad input.`,
		Example: `  sealed audit --hash c48e3f1da30d4b22e40d40062337d4aa9621fd190de182e45ad755342828c114 --template 'I bid {n} on lot {lot}'
  sealed audit --hash H --template 'I bid {n} on lot {lot} | salt=walnut-tiger' --salt-len 0
  sealed audit --text-file bid.txt`,
		Args: noArgs("audit"),
		RunE: func(cmd *cobra.Command, _ []string) error {
			f := cmd.Flags()
			active := f.Changed("hash") || f.Changed("template")
			if active == f.Changed("text-file") {
				return usageErrorf("audit needs either --hash and --template (search for the text) or --text-file (rate a reveal's salt)")
			}
			if active && (!f.Changed("hash") || !f.Changed("template")) {
				return usageErrorf("the active audit needs both --hash and --template").
					withHint("sealed audit --hash H --template 'I bid {n} on lot {lot}'")
			}
			if !active {
				for _, name := range []string{"range", "alphabet", "salt-len", "separator", "max-guesses", "workers"} {
					if f.Changed(name) {
						return usageErrorf("--%s goes with --hash and --template, not --text-file", name)
					}
				}
			}
			return runF(a, o)
		},
	}
	f := c.Flags()
	f.StringVar(&o.Hash, "hash", "", "the posted commitment to attack")
	f.StringVar(&o.Template, "template", "", "declaration template with {name} placeholders, such as 'I bid {n} on lot {lot}'")
	f.StringArrayVar(&o.Ranges, "range", nil, "placeholder range `NAME=LO..HI` (repeatable)")
	f.StringVar(&o.Alphabet, "alphabet", commit.DefaultAlphabet, "salt characters to try")
	f.StringVar(&o.SaltLen, "salt-len", "0..2", "salt lengths to try, `MIN..MAX` or N")
	f.StringArrayVar(&o.Separators, "separator", nil, `separator between declaration and salt (repeatable; \n \r \t \\ escapes; default none, space, \n, \r\n, \t, -, " | ", "\nsalt: ")`)
	f.Uint64Var(&o.MaxGuesses, "max-guesses", commit.DefaultMaxGuesses, "stop after this many guesses (0: the whole space)")
	f.IntVar(&o.Workers, "workers", 0, "goroutines to use (0: one per core)")
	f.StringVar(&o.TextFile, "text-file", "", "rate the salt of the reveal text in `FILE` (- for stdin)")
	return c
}

func runAudit(a *app, o *auditOptions) error {
	if o.TextFile != "" {
		return runSaltAudit(a, o.TextFile)
	}
	c, err := commit.ParseCommitment(o.Hash)
	if err != nil {
		return usageErrorf("--hash: %v", err)
	}
	ao, err := o.activeOptions()
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	var bar *progressbar.ProgressBar
	if isTerminal(a.errOut) {
		ao.Progress = func(done, total uint64) {
			if bar == nil {
				bar = progressbar.NewOptions64(int64(total),
					progressbar.OptionSetWriter(a.errOut),
					progressbar.OptionSetDescription("guesses"),
					progressbar.OptionShowCount(),
					progressbar.OptionShowIts(),
					progressbar.OptionSetItsString("guesses"),
					progressbar.OptionThrottle(200*time.Millisecond),
					progressbar.OptionClearOnFinish())
			}
			bar.Set64(int64(done))
		}
	}
	r, err := commit.ActiveAudit(ctx, c, ao)
	if bar != nil {
		bar.Finish()
	}
	if errors.Is(err, context.Canceled) {
		return usageErrorf("%s", interruptedText(r, o.MaxGuesses))
	}
	if err != nil {
		return usageErrorf("%v", err)
	}
	if a.json {
		if err := a.printJSON(struct {
			Weak bool `json:"weak"`
			commit.ActiveAuditResult
		}{r.Found, r}); err != nil {
			return err
		}
	} else if r.Found {
		fmt.Fprintf(a.out, "weak: recovered the reveal text after %s:\n%s\n", guessCount(r.Guesses), r.Reveal)
		if r.Salt != "" {
			fmt.Fprintf(a.out, "(declaration, then separator %q and salt %q)\n", r.Separator, r.Salt)
		}
	} else if r.Complete {
		fmt.Fprintf(a.out, "not found: searched the whole space of %s\n", guessCount(r.Space))
	} else {
		fmt.Fprintf(a.out, "not found in %d of %s (stopped at --max-guesses); the commitment may still be weak\n", r.Guesses, guessCount(r.Space))
	}
	if r.Found {
		return errSilentFailure
	}
	return nil
}

// guessCount writes n guesses, "1 guess" or "N guesses".
func guessCount(n uint64) string {
	if n == 1 {
		return "1 guess"
	}
	return fmt.Sprintf("%d guesses", n)
}

// interruptedText is the error of an active audit stopped by Ctrl-C: how
// far it got of where it would have stopped, the --max-guesses bound
// (maxGuesses, 0 for none) when that is smaller than the whole space.
func interruptedText(r commit.ActiveAuditResult, maxGuesses uint64) string {
	if maxGuesses == 0 || maxGuesses >= r.Space {
		return fmt.Sprintf("interrupted after %d of %s (the whole space); not found so far", r.Guesses, guessCount(r.Space))
	}
	return fmt.Sprintf("interrupted after %d of at most %s (the --max-guesses bound; the whole space is %d); not found so far",
		r.Guesses, guessCount(maxGuesses), r.Space)
}

// activeOptions turns the flags into commit.ActiveAuditOptions.
func (o *auditOptions) activeOptions() (commit.ActiveAuditOptions, error) {
	ao := commit.DefaultActiveAuditOptions(o.Template)
	ao.Alphabet, ao.MaxGuesses, ao.Workers = o.Alphabet, o.MaxGuesses, o.Workers
	if o.Workers < 0 {
		return ao, usageErrorf("--workers %d; expected 0 (one per core) or more", o.Workers)
	}
	if len(o.Ranges) > 0 {
		ao.Ranges = map[string]commit.Range{}
	}
	for _, s := range o.Ranges {
		name, r, err := parseNamedRange(s)
		if err != nil {
			return ao, err
		}
		ao.Ranges[name] = r
	}
	lo, hi, err := parseIntRange(o.SaltLen)
	if rev := (*reversedRange)(nil); errors.As(err, &rev) {
		return ao, usageErrorf("--salt-len %q: MIN %d is more than MAX %d; expected MIN..MAX with MIN <= MAX, from 0 to 16, such as %d..%d", o.SaltLen, rev.lo, rev.hi, rev.hi, rev.lo)
	}
	if err != nil || lo < 0 || hi > 16 {
		return ao, usageErrorf("--salt-len %q; expected MIN..MAX or N, from 0 to 16", o.SaltLen)
	}
	ao.MinSaltLen, ao.MaxSaltLen = int(lo), int(hi)
	if o.Separators != nil {
		ao.Separators = nil
		for _, s := range o.Separators {
			ao.Separators = append(ao.Separators, unescapeSeparator(s))
		}
	}
	return ao, nil
}

// parseNamedRange parses NAME=LO..HI or NAME=N.
func parseNamedRange(s string) (string, commit.Range, error) {
	name, val, ok := strings.Cut(s, "=")
	lo, hi, err := parseIntRange(val)
	if ne := (*strconv.NumError)(nil); ok && errors.As(err, &ne) && errors.Is(ne.Err, strconv.ErrRange) {
		size := "large"
		if strings.HasPrefix(ne.Num, "-") {
			size = "small"
		}
		return "", commit.Range{}, usageErrorf("--range %q: %s is too %s; expected NAME=LO..HI with whole numbers from %d to %d", s, ne.Num, size, int64(math.MinInt64), int64(math.MaxInt64))
	}
	if rev := (*reversedRange)(nil); ok && name != "" && errors.As(err, &rev) {
		return "", commit.Range{}, usageErrorf("--range %q: LO %d is more than HI %d; expected NAME=LO..HI with LO <= HI, such as %s=%d..%d", s, rev.lo, rev.hi, name, rev.hi, rev.lo)
	}
	if !ok || name == "" || err != nil {
		return "", commit.Range{}, usageErrorf("--range %q; expected NAME=LO..HI such as n=0..10000", s)
	}
	return strings.Trim(name, "{}"), commit.Range{Lo: lo, Hi: hi}, nil
}

// parseIntRange parses "LO..HI" or "N" (N..N); LO <= HI.
func parseIntRange(s string) (int64, int64, error) {
	los, his, found := strings.Cut(s, "..")
	if !found {
		his = los
	}
	lo, err := strconv.ParseInt(strings.TrimSpace(los), 10, 64)
	if err != nil {
		return 0, 0, err
	}
	hi, err := strconv.ParseInt(strings.TrimSpace(his), 10, 64)
	if err != nil {
		return 0, 0, err
	}
	if lo > hi {
		return 0, 0, &reversedRange{lo, hi}
	}
	return lo, hi, nil
}

// reversedRange is parseIntRange's error for a range "LO..HI" whose LO is
// more than its HI.
type reversedRange struct{ lo, hi int64 }

func (e *reversedRange) Error() string { return fmt.Sprintf("%d > %d", e.lo, e.hi) }

// unescapeSeparator turns the escapes \n \r \t \\ into their characters.
func unescapeSeparator(s string) string {
	return strings.NewReplacer(`\\`, `\`, `\n`, "\n", `\r`, "\r", `\t`, "\t").Replace(s)
}

// runSaltAudit rates the salt of a reveal text.
func runSaltAudit(a *app, path string) error {
	var in revealInput
	var err error
	name := path
	if path == "-" {
		name = "stdin"
		in, err = readReveal(a.in)
	} else {
		in, err = readRevealFile(path)
	}
	if err != nil {
		return usageErrorf("cannot read the reveal: %s: %v", name, err)
	}
	if in.complete && len(in.data) == 0 {
		return usageErrorf("the reveal on %s is empty; expected a reveal text (a declaration and a salt)", name)
	}
	if !in.complete {
		return usageErrorf("the reveal on %s is larger than %d bytes; expected a reveal text (a declaration and a salt)", name, maxHintBytes)
	}
	sa := commit.AuditSalt(in.data)
	if a.json {
		if err := a.printJSON(sa); err != nil {
			return err
		}
	} else {
		fmt.Fprintf(a.out, "declaration: %q\n", sa.Declaration)
		if sa.SaltFound {
			n := len([]rune(sa.Salt))
			fmt.Fprintf(a.out, "salt: %q (%d %s from an alphabet of about %d: %.1f bits)\n", sa.Salt, n, plural(n, "character", "characters"), sa.Alphabet, sa.SaltBits)
		} else {
			fmt.Fprintln(a.out, "salt: none found (no \"salt:\" line and nothing after the declaration)")
		}
		fmt.Fprintf(a.out, "plausible declarations: about 2^%.1f\n", sa.DeclarationBits)
		if sa.Weak {
			fmt.Fprintf(a.out, "weak: about %s guesses recover this text from its commitment (under 2^%d); use a salt of 128 random bits, as sealed commit draws\n", guessesText(sa.GuessesLog2), commit.WeakBits)
		} else {
			fmt.Fprintf(a.out, "ok: about %s guesses needed (at least 2^%d)\n", guessesText(sa.GuessesLog2), commit.WeakBits)
		}
	}
	if sa.Weak {
		return errSilentFailure
	}
	return nil
}
