package main

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/sealedhq/sealed/ledger"
	"github.com/spf13/cobra"
)

func init() { actionSubcommands = append(actionSubcommands, newActionRevealCmd) }

// actionRevealOptions are the inputs of `sealed action reveal`.
type actionRevealOptions struct {
	ledgerFlags
	Player   string
	Commit   int64
	File     string // --file; "-" is stdin
	Text     string // --text
	TextSet  bool
	PostedAt string
}

// newActionRevealCmd builds `sealed action reveal`.
func newActionRevealCmd(a *app) *cobra.Command { return actionRevealCmd(a, runActionReveal) }

// actionRevealCmd builds `sealed action reveal` with runF as its action.
func actionRevealCmd(a *app, runF func(*app, *actionRevealOptions) error) *cobra.Command {
	o := &actionRevealOptions{}
	c := &cobra.Command{
		Use:   "reveal --player P --commit N (--file F | --text T | < F) [--posted-at TIME]",
		Short: "Record a player's reveal of the text behind a commitment (a reveal entry)",
		Long: `Append a reveal entry: the player posted the unhashed text of the action
posted at ledger index N. The text is stored exactly, byte for byte: from
--file (- for stdin), from --text, or from stdin when neither is given;
nothing is trimmed or normalised (a trailing newline is part of the text).
The reveal is recorded whatever it holds; a text that does not hash to the
commitment draws a warning naming the near-misses that would have matched,
and does not count (reading S3). Whether it counts is for 'action status'.`,
		Example: `  sealed action reveal --player alice --commit 0 --file alice-bid.txt
  printf 'bid 15 on lot 1\nsalt: a1x' | sealed action reveal --player alice --commit 0`,
		Args: noArgs("action reveal"),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := requireFlags(cmd, "action reveal", "sealed action reveal --player alice --commit 0 --file bid.txt", "player", "commit"); err != nil {
				return err
			}
			if err := requireUTF8(cmd, "player", "posted-at"); err != nil {
				return err
			}
			o.TextSet = cmd.Flags().Changed("text")
			if o.TextSet && o.File != "" {
				return usageErrorf("give the revealed text once: --file or --text, not both")
			}
			return runF(a, o)
		},
	}
	addLedgerFlags(c, &o.ledgerFlags, true)
	f := c.Flags()
	f.StringVar(&o.Player, "player", "", "the player who revealed")
	indexVar(f, &o.Commit, "commit", "ledger index `N` of the commit entry revealed")
	f.StringVar(&o.File, "file", "", "read the revealed bytes from `FILE` (- for stdin)")
	f.StringVar(&o.Text, "text", "", "the revealed text")
	f.StringVar(&o.PostedAt, "posted-at", "", "when the reveal appeared in the channel, RFC 3339")
	return c
}

// revealedBytes reads the revealed text from the flag, the file or stdin,
// at most ledger.MaxBodySize bytes.
func (o *actionRevealOptions) revealedBytes(stdin io.Reader) ([]byte, error) {
	if o.TextSet {
		if o.Text == "" {
			return nil, usageErrorf("--text is empty; expected the exact text whose SHA-256 was posted")
		}
		return []byte(o.Text), nil
	}
	r, name := stdin, "stdin"
	if o.File != "" && o.File != "-" {
		f, err := os.Open(o.File)
		if err != nil {
			return nil, usageErrorf("cannot read the revealed text: %v", err)
		}
		defer f.Close()
		r, name = f, o.File
	}
	b, err := io.ReadAll(io.LimitReader(r, ledger.MaxBodySize+1))
	if err != nil {
		return nil, usageErrorf("cannot read the revealed text from %s: %v", name, err)
	}
	if len(b) > ledger.MaxBodySize {
		return nil, usageErrorf("the revealed text in %s is longer than %d bytes; expected a short reveal text", name, ledger.MaxBodySize)
	}
	if len(b) == 0 {
		return nil, usageErrorf("the revealed text from %s is empty; expected the exact text whose SHA-256 was posted", name)
	}
	return b, nil
}

func runActionReveal(a *app, o *actionRevealOptions) error {
	postedAt, err := postedAtField(o.PostedAt)
	if err != nil {
		return err
	}
	if o.Commit < 0 {
		return usageErrorf("--commit %d; expected the ledger index of a commit entry (0 or more)", o.Commit)
	}
	if err := checkPlayer("player", o.Player); err != nil {
		return err
	}
	text, err := o.revealedBytes(a.in)
	if err != nil {
		return err
	}
	l, err := o.openLedger(true)
	if err != nil {
		return err
	}
	defer l.Close()
	b := &ledger.Body{Kind: ledger.KindReveal, PostedAt: postedAt, Player: o.Player, Commit: &o.Commit}
	setRevealText(b, text)
	warnings, err := a.admit(l, b, nil)
	if err != nil {
		return err
	}
	i, err := l.AppendBody(context.Background(), b)
	if err != nil {
		return appendError(err)
	}
	match := "it hashes to the commitment"
	if len(warnings) > 0 {
		match = "it does NOT hash to the commitment"
	}
	return a.printAppended(l, i, fmt.Sprintf("%s revealed %d bytes for ledger index %d; %s", o.Player, len(text), o.Commit, match), warnings)
}
