package main

import (
	"context"
	"fmt"

	"github.com/sealedhq/sealed/ledger"
	"github.com/spf13/cobra"
)

func init() { actionSubcommands = append(actionSubcommands, newActionEditCmd) }

// actionEditOptions are the inputs of `sealed action edit`.
type actionEditOptions struct {
	ledgerFlags
	Player   string
	Commit   int64
	PostedAt string
}

// newActionEditCmd builds `sealed action edit`.
func newActionEditCmd(a *app) *cobra.Command { return actionEditCmd(a, runActionEdit) }

// actionEditCmd builds `sealed action edit` with runF as its action.
func actionEditCmd(a *app, runF func(*app, *actionEditOptions) error) *cobra.Command {
	o := &actionEditOptions{}
	c := &cobra.Command{
		Use:   "edit --player P --commit N [--posted-at TIME]",
		Short: "Record that the post holding a commitment was edited (an edit entry)",
		Long: `Append an edit entry: the message of the player's commit entry N was
edited. Before the action's maturation date this fails the action at the
edit (seed 004, failure condition 2; reading S4); after, it changes
nothing. --posted-at is when the edit happened in the channel.`,
		Example: `  sealed action edit --player carol --commit 3 --posted-at 2026-03-24T12:00:00Z`,
		Args:    noArgs("action edit"),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := requireFlags(cmd, "action edit", "sealed action edit --player carol --commit 3", "player", "commit"); err != nil {
				return err
			}
			if err := requireUTF8(cmd, "player", "posted-at"); err != nil {
				return err
			}
			return runF(a, o)
		},
	}
	addLedgerFlags(c, &o.ledgerFlags, true)
	c.Flags().StringVar(&o.Player, "player", "", "the player whose post was edited")
	indexVar(c.Flags(), &o.Commit, "commit", "ledger index `N` of the commit entry whose post was edited")
	c.Flags().StringVar(&o.PostedAt, "posted-at", "", "when the edit happened in the channel, RFC 3339")
	return c
}

func runActionEdit(a *app, o *actionEditOptions) error {
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
	l, err := o.openLedger(true)
	if err != nil {
		return err
	}
	defer l.Close()
	b := &ledger.Body{Kind: ledger.KindEdit, PostedAt: postedAt, Player: o.Player, Commit: &o.Commit}
	if _, err := a.admit(l, b, nil); err != nil {
		return err
	}
	_, post, err := commitEntry(l, o.Commit)
	if err != nil {
		return err
	}
	i, err := l.AppendBody(context.Background(), b)
	if err != nil {
		return appendError(err)
	}
	return a.printAppended(l, i, fmt.Sprintf("%s's post at ledger index %d (a %s action) was edited", o.Player, o.Commit, post.ActionType), nil)
}
