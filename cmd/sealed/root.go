package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"
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
	root.PersistentFlags().BoolVar(&a.json, "json", false, "print machine-readable JSON")
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error {
		return usageErrorf("%v", err)
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
		return usageErrorf("unknown command %q for %q", args[0], cmd.CommandPath()).
			withHint("run '%s --help' for the list", cmd.CommandPath())
	}
}

// run executes the command line and returns the exit code. Errors are one
// line on stderr starting "sealed: ", plus a "hint: " line where one helps.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	a := &app{in: stdin, out: stdout, errOut: stderr}
	root := newRootCmd(a)
	root.SetArgs(args)
	err := root.Execute()
	if err == nil {
		return exitOK
	}
	if !errors.Is(err, errSilentFailure) && !errors.Is(err, errSilentUsage) {
		msg := strings.ReplaceAll(err.Error(), "\n", " ")
		msg = strings.TrimPrefix(msg, "sealed: ")
		fmt.Fprintf(stderr, "sealed: %s\n", msg)
		var ee *exitError
		if errors.As(err, &ee) && ee.hint != "" {
			fmt.Fprintf(stderr, "hint: %s\n", ee.hint)
		} else if strings.HasPrefix(err.Error(), "unknown command") || strings.Contains(err.Error(), "unknown flag") {
			fmt.Fprintf(stderr, "hint: run 'sealed --help' for usage\n")
		}
	}
	return exitCode(err)
}
