package main

import (
	"encoding/json"
	"errors"
	"fmt"
	sqlite3 "github.com/mattn/go-sqlite3"
	"io"
	"math"
	"os"
	"regexp"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"golang.org/x/term"
)

// app holds what every command shares: the standard streams and global
// flags. Commands take it in their constructor, so tests can run the whole
// tree with buffers.
type app struct {
	in     io.Reader
	out    io.Writer
	errOut io.Writer
	json   bool // --json: machine-readable output
}

// isTerminal reports whether w is a terminal (for progress bars).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// printJSON writes v as indented JSON and a newline.
func (a *app) printJSON(v any) error {
	enc := json.NewEncoder(a.out)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// subcommands are the constructors of the top-level verbs; each verb's file
// registers its constructor in init, so verbs live in files of their own.
var subcommands []func(*app) *cobra.Command

func register(f func(*app) *cobra.Command) { subcommands = append(subcommands, f) }

// newRootCmd builds the whole command tree.
func newRootCmd(a *app) *cobra.Command {
	root := &cobra.Command{
		Use:   "sealed",
		Short: "Commit-reveal for games: salted SHA-256 secrets, seed commitments, replays and a public ledger",
		Long: `sealed hashes secret actions (sealed bids, hands) for posting, verifies
reveals byte for byte, commits to and checks game-server RNG seeds,
re-simulates match replays, and keeps an append-only Merkle ledger with
signed checkpoints and proofs.

Exit codes: 0 success, 1 a check failed, 2 bad usage or input.`,
		SilenceErrors: true,
		SilenceUsage:  true,
	}
	root.SetIn(a.in)
	root.SetOut(a.out)
	root.SetErr(a.errOut)
	root.PersistentFlags().BoolVar(&a.json, "json", false, "print machine-readable JSON (errors too: a JSON object on stderr)")
	root.Version = versionString()
	root.SetVersionTemplate("sealed {{.Version}}\n")
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return withHelpHint(flagError(err), c)
	})
	for _, f := range subcommands {
		root.AddCommand(f(a))
	}
	root.InitDefaultCompletionCmd()
	rejectUnknownSubcommands(root)
	return root
}

// rejectUnknownSubcommands makes every group command (one with subcommands
// and no action of its own) fail with a usage error on an unknown verb,
// where cobra would print the help and exit 0.
func rejectUnknownSubcommands(c *cobra.Command) {
	for _, sub := range c.Commands() {
		rejectUnknownSubcommands(sub)
	}
	if !c.HasSubCommands() || c.Runnable() || !c.HasParent() {
		return
	}
	c.Args = cobra.ArbitraryArgs
	c.RunE = func(cmd *cobra.Command, args []string) error {
		if len(args) == 0 {
			return usageErrorf("%s needs a subcommand", cmd.CommandPath()).
				withHint("run '%s --help' for the list", cmd.CommandPath())
		}
		return unknownSubcommand(cmd, args[0])
	}
	// "sealed replay play chess --seed S": cobra parses the flags of the
	// group, which has none, before the group's RunE sees "chess"; the
	// unknown verb is the real mistake, so say that rather than "unknown
	// flag: --seed". pflag has already moved the words before the bad flag
	// to Args.
	// The verbs of the group inherit this function: for them (cmd != c) a
	// bad flag is only that.
	c.SetFlagErrorFunc(func(cmd *cobra.Command, err error) error {
		if args := cmd.Flags().Args(); cmd == c && len(args) > 0 {
			return unknownSubcommand(cmd, args[0])
		}
		return withHelpHint(flagError(err), cmd)
	})
}

// subcommandNouns names what the verbs of a group stand for, where that
// reads better than "command".
var subcommandNouns = map[string]string{"sealed replay play": "game"}

// unknownSubcommand is the usage error for an unknown verb of group c.
func unknownSubcommand(c *cobra.Command, name string) error {
	noun, ok := subcommandNouns[c.CommandPath()]
	if !ok {
		e := usageErrorf("unknown command %q for %q", name, c.CommandPath()).
			withHint("run '%s --help' for the list", c.CommandPath())
		if c.SuggestionsMinimumDistance <= 0 {
			c.SuggestionsMinimumDistance = 2 // cobra's default, which only its own lookup sets
		}
		if s := c.SuggestionsFor(name); len(s) > 0 {
			e.withHint("did you mean '%s %s'?", c.CommandPath(), strings.Join(s, "' or '"+c.CommandPath()+" "))
		}
		return e
	}
	var verbs []string
	for _, sub := range c.Commands() {
		if sub.IsAvailableCommand() {
			verbs = append(verbs, sub.Name())
		}
	}
	list := strings.Join(verbs, ", ")
	if n := len(verbs); n > 1 {
		list = strings.Join(verbs[:n-1], ", ") + " or " + verbs[n-1]
	}
	return usageErrorf("unknown %s %q; expected %s", noun, name, list).
		withHint("run '%s --help' for the list", c.CommandPath())
}

// flagRangeAnnotation is the pflag annotation that holds a whole-number
// flag's valid range, "LO" and "HI", for the flag-parse error.
const flagRangeAnnotation = "sealed_range"

// setFlagRange records that the whole-number flag name takes values from
// lo to hi, so a value that does not parse says so. The verb still checks
// the range of what parses.
func setFlagRange(fs *pflag.FlagSet, name string, lo, hi int64) {
	if err := fs.SetAnnotation(name, flagRangeAnnotation, []string{strconv.FormatInt(lo, 10), strconv.FormatInt(hi, 10)}); err != nil {
		panic(err) // a programming error: no such flag
	}
}

// flagError turns a flag-parse error into a usage error in the user's
// terms. pflag reports a value it cannot parse as `invalid argument "X" for
// "--flag" flag: strconv.ParseUint: parsing "X": invalid syntax`; this says
// `--flag "X": expected a non-negative whole number` instead, and `--flag
// "X" is too large; expected ...` for a number out of the type's range
// (with the flag's own range when setFlagRange gave one). Other errors
// (unknown flag, missing value) pass through as usage errors.
func flagError(err error) *exitError {
	var ive *pflag.InvalidValueError
	if !errors.As(err, &ive) {
		return usageErrorf("%v", err)
	}
	f, v := ive.GetFlag(), ive.GetValue()
	name := "--" + f.Name
	var ne *strconv.NumError
	if !errors.As(err, &ne) {
		return usageErrorf("%s: %v", name, errors.Unwrap(ive))
	}
	want, ranged := expectedFlagValue(f)
	if !errors.Is(ne.Err, strconv.ErrRange) {
		return usageErrorf("%s %q: expected %s", name, v, want)
	}
	size := "large"
	if strings.HasPrefix(strings.TrimSpace(v), "-") {
		size = "small"
	}
	if !ranged {
		want += ", " + typeBound(f.Value.Type(), size == "small")
	}
	return usageErrorf("%s %q is too %s; expected %s", name, v, size, want)
}

// expectedFlagValue says what flag f takes, from its setFlagRange range
// (ranged true) or else its pflag type.
func expectedFlagValue(f *pflag.Flag) (want string, ranged bool) {
	if r := f.Annotations[flagRangeAnnotation]; len(r) == 2 {
		return fmt.Sprintf("a whole number from %s to %s", r[0], r[1]), true
	}
	switch t := f.Value.Type(); {
	case strings.HasPrefix(t, "int"):
		return "a whole number", false
	case strings.HasPrefix(t, "uint"):
		return "a non-negative whole number", false
	case strings.HasPrefix(t, "float"):
		return "a number", false
	case t == "bool":
		return "true or false", false
	default:
		return "a value of type " + t, false
	}
}

// typeBound says the bound of a whole-number pflag type that a value
// passed: "at most N", or "at least N" when small.
func typeBound(typ string, small bool) string {
	bits := 64
	if n, err := strconv.Atoi(strings.TrimLeft(typ, "uint")); err == nil {
		bits = n
	}
	switch {
	case strings.HasPrefix(typ, "uint"):
		return "at most " + strconv.FormatUint(math.MaxUint64>>(64-bits), 10)
	case small:
		return "at least " + strconv.FormatInt(math.MinInt64>>(64-bits), 10)
	default:
		return "at most " + strconv.FormatInt(math.MaxInt64>>(64-bits), 10)
	}
}

// withHelpHint gives the usage error e, when it has no hint, the hint to
// read the help of the command it is about (c).
func withHelpHint(e *exitError, c *cobra.Command) *exitError {
	if e.hint == "" {
		e.hint = fmt.Sprintf("run '%s --help' for usage", c.CommandPath())
	}
	return e
}

// errorJSON is what an error prints on stderr under --json: the same
// message and hint as the text form, and the exit code.
type errorJSON struct {
	Error    string `json:"error"`
	Hint     string `json:"hint,omitempty"`
	ExitCode int    `json:"exit_code"`
}

// run executes the command line and returns the exit code. Errors are one
// line on stderr starting "sealed: ", plus a "hint: " line where one helps;
// with --json, one JSON object (errorJSON) on stderr instead.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	a := &app{in: stdin, out: stdout, errOut: stderr}
	root := newRootCmd(a)
	root.SetArgs(args)
	err := root.Execute()
	if err == nil {
		return exitOK
	}
	code := exitCode(err)
	if errors.Is(err, errSilentFailure) || errors.Is(err, errSilentUsage) {
		return code
	}
	msg, hint := errorText(err)
	if a.json || jsonRequested(args) {
		enc := json.NewEncoder(stderr)
		enc.SetEscapeHTML(false)
		enc.Encode(errorJSON{Error: msg, Hint: hint, ExitCode: code})
		return code
	}
	fmt.Fprintf(stderr, "sealed: %s\n", msg)
	if hint != "" {
		fmt.Fprintf(stderr, "hint: %s\n", hint)
	}
	return code
}

// commandPathRe finds the command cobra's "unknown command X for
// \"PATH\"" names.
var commandPathRe = regexp.MustCompile(`for "([^"]+)"`)

// errorText is the one-line message and the hint of err as run prints
// them. cobra's "unknown command" error carries a "Did you mean this?"
// list on lines of its own: the first suggestion becomes the hint, on a
// line of its own. Decoder errors are worded without naming a library
// (plainDecoderError).
func errorText(err error) (msg, hint string) {
	msg = err.Error()
	var ee *exitError
	if errors.As(err, &ee) {
		hint = ee.hint
	} else {
		hint = storeHint(err)
	}
	if i := strings.Index(msg, "\n\nDid you mean this?\n"); i >= 0 {
		var suggestions []string
		for _, s := range strings.Split(msg[i+len("\n\nDid you mean this?\n"):], "\n") {
			if s = strings.TrimSpace(s); s != "" {
				suggestions = append(suggestions, s)
			}
		}
		msg = msg[:i]
		prefix := ""
		if m := commandPathRe.FindStringSubmatch(msg); m != nil {
			prefix = m[1] + " "
		}
		for j := range suggestions {
			suggestions[j] = prefix + suggestions[j]
		}
		if len(suggestions) > 0 && hint == "" {
			hint = "did you mean '" + strings.Join(suggestions, "' or '") + "'?"
		}
	}
	msg = strings.ReplaceAll(strings.TrimSpace(msg), "\n", " ")
	msg = strings.TrimPrefix(msg, "sealed: ")
	msg = plainDecoderError(msg)
	var se sqlite3.Error
	// SQLite's text for SQLITE_READONLY is matched too: some callers
	// keep the message, not the error.
	if hint == "" && (errors.As(err, &se) && se.Code == sqlite3.ErrReadonly || strings.Contains(msg, "attempt to write a readonly database")) {
		hint = "this user cannot write the database file, or the directory it is in (SQLite writes its -wal and -shm files beside it); check their owner and permissions"
	}
	if hint == "" && strings.HasPrefix(msg, "unknown command") {
		// cobra's NoArgs names the command that got the stray argument.
		path := "sealed"
		if m := commandPathRe.FindStringSubmatch(msg); m != nil {
			path = m[1]
		}
		hint = "run '" + path + " --help' for usage"
	}
	return msg, hint
}

// jsonRequested reports whether args ask for --json before the flags are
// parsed (an error in parsing them comes before a.json is set).
func jsonRequested(args []string) bool {
	for _, s := range args {
		switch s {
		case "--":
			return false
		case "--json", "--json=true", "--json=1":
			return true
		}
	}
	return false
}
