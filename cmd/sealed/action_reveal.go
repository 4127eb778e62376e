package main

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/sealedhq/sealed/ledger"
	"github.com/sealedhq/sealed/rules/secret"
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
	Zone     string // the game's IANA zone, for the reveal-window warning
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
and does not count (reading S3); so does a reveal timed before the
action's maturation date or at or after its revelation date (reading S2,
dates in --zone). Whether it counts is for 'action status'.`,
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
	f.StringVar(&o.Zone, "zone", "UTC", "the game's IANA time zone, for the reveal-window warning")
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
	loc, err := parseZone(o.Zone)
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
	ws, err := revealWindowWarnings(l, secret.Game{Calendar: secret.Calendar{Location: loc}}, o.Commit, i)
	if err != nil {
		return err
	}
	warnings = append(warnings, ws...)
	return a.printAppended(l, i, fmt.Sprintf("%s revealed %d bytes for ledger index %d; %s", o.Player, len(text), o.Commit, match), warnings)
}

// revealWindowWarnings returns a warning when the reveal entry ri of the
// commit entry ci is timed outside the action's window [maturation date,
// revelation date) in game g (seed 004, reading S2): it is recorded but
// does not count. A post never taken (wrong channel or phase) has no
// window and gets none.
func revealWindowWarnings(l *ledger.Ledger, g secret.Game, ci, ri int64) ([]string, error) {
	pe, err := l.Entry(ci)
	if err != nil {
		return nil, fmt.Errorf("reading commit entry %d: %v", ci, err)
	}
	post, err := pe.Body()
	if err != nil {
		return nil, err
	}
	re, err := l.Entry(ri)
	if err != nil {
		return nil, fmt.Errorf("reading back entry %d: %v", ri, err)
	}
	posted, _ := secret.Stamp{IntegratedAt: pe.IntegratedAt, PostedAt: pe.PostedAt}.Time()
	if r, _ := g.NotTaken(post.ActionType, post.Channel, posted); r != "" {
		return nil, nil
	}
	at, _ := secret.Stamp{IntegratedAt: re.IntegratedAt, PostedAt: re.PostedAt}.Time()
	mat := g.MaturationDate(post.ActionType, posted)
	rev := g.RevelationDate(post.ActionType, mat)
	why := secret.Explanation{Rule: secret.RuleReveal, Reading: secret.ReadingRevealWindow}.Plain()
	loc := g.Calendar.Loc()
	switch {
	case at.Before(mat):
		return []string{fmt.Sprintf("early: the reveal at %s comes before the maturation date %s (zone %s): recorded, but it does not count (%s); reveal again from %s to before %s",
			fmtTime(at, loc), fmtTime(mat, loc), loc, why, fmtTime(mat, loc), fmtTime(rev, loc))}, nil
	case !at.Before(rev):
		return []string{fmt.Sprintf("late: the reveal at %s comes at or after the revelation date %s (zone %s): recorded, but it does not count (%s)",
			fmtTime(at, loc), fmtTime(rev, loc), loc, why)}, nil
	}
	return nil, nil
}
