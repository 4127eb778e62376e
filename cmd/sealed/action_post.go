package main

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/sealedhq/sealed/commit"
	"github.com/sealedhq/sealed/ledger"
	"github.com/sealedhq/sealed/rules/secret"
	"github.com/spf13/cobra"
)

func init() { actionSubcommands = append(actionSubcommands, newActionPostCmd) }

// actionPostOptions are the inputs of `sealed action post`.
type actionPostOptions struct {
	ledgerFlags
	Player     string
	Type       string
	Channel    string // "" means the type's default channel
	Commitment string
	PostedAt   string // RFC 3339, or ""
	Zone       string // the game's IANA zone, for the phase warning
	Receipt    string // --receipt FILE: write a C2SP tlog-proof of the entry
	Witnesses  string // --witnesses FILE: have the receipt's checkpoint cosigned first
}

// newActionPostCmd builds `sealed action post`.
func newActionPostCmd(a *app) *cobra.Command { return actionPostCmd(a, runActionPost) }

// actionPostCmd builds `sealed action post` with runF as its action.
func actionPostCmd(a *app, runF func(*app, *actionPostOptions) error) *cobra.Command {
	o := &actionPostOptions{}
	c := &cobra.Command{
		Use:   "post --player P --type T --commitment H [--channel C] [--posted-at TIME]",
		Short: "Record a player's posted commitment (a secret action) as a commit entry",
		Long: `Append a commit entry: the player posted the SHA-256 commitment of a secret
action of the given type in a channel (seed 004, "Secret Information").
The channel defaults to the type's (#auctions for bid, #game-actions for
hand and others). --posted-at is when the post appeared in the game's
channel, for a referee importing a chat log; it must not be later than now
(the ledger's integration time). A commitment another player already posted
is recorded and flagged as a copied commitment. A post in the wrong channel,
or outside the action type's phase (bids and Hands: the Auction Phase,
Monday to Wednesday in --zone), is recorded with a warning: the action was
never taken (the ledger records what happened).`,
		Example: `  sealed action post --player alice --type bid --commitment fa5ff666c15e621e5e85affe3c20ca2e8e824d3654e0c67f1503272a3f0c1500
  sealed action post --player erin --type hand --commitment H --posted-at 2026-03-25T08:00:00Z`,
		Args: noArgs("action post"),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := requireFlags(cmd, "action post", "sealed action post --player alice --type bid --commitment H", "player", "type", "commitment"); err != nil {
				return err
			}
			if err := requireUTF8(cmd, "player", "type", "channel", "commitment", "posted-at"); err != nil {
				return err
			}
			return runF(a, o)
		},
	}
	addLedgerFlags(c, &o.ledgerFlags, true)
	f := c.Flags()
	f.StringVar(&o.Player, "player", "", "the player who posted")
	f.StringVar(&o.Type, "type", "", "the action type: bid or hand (any case; stored lowercase), or another the game defines")
	f.StringVar(&o.Channel, "channel", "", "the channel it was posted in (default: the type's channel)")
	f.StringVar(&o.Commitment, "commitment", "", "the posted SHA-256, 64 hex digits (any case, optional sha256: prefix)")
	f.StringVar(&o.PostedAt, "posted-at", "", "when the post appeared in the channel, RFC 3339 (default: none, the integration time counts)")
	f.StringVar(&o.Zone, "zone", "UTC", "the game's IANA time zone, for the phase warning")
	f.StringVar(&o.Receipt, "receipt", "", "once a checkpoint covers the entry, write its C2SP tlog-proof receipt to `FILE` (for the player)")
	f.StringVar(&o.Witnesses, "witnesses", "", "with --receipt, submit that checkpoint to the witnesses in `FILE` first, so the receipt is cosigned")
	return c
}

func runActionPost(a *app, o *actionPostOptions) error {
	if o.Receipt == stdioName {
		// - is stdout, where the post says what it recorded: the receipt
		// would be mixed into those lines, or a file named "-".
		return usageErrorf("--receipt takes a FILE, not - (stdout carries what the post recorded)").
			withHint("give --receipt a file, e.g. --receipt bid.receipt, and pass it on from there")
	}
	if err := checkPlayer("player", o.Player); err != nil {
		return err
	}
	if strings.TrimSpace(o.Type) == "" {
		return usageErrorf("--type must not be empty")
	}
	var warnings []string
	actionType, warning := canonicalActionType(o.Type)
	if warning != "" {
		warnings = append(warnings, warning)
	}
	c, err := commit.ParseCommitment(o.Commitment)
	if err != nil {
		return usageErrorf("--commitment: %v", err)
	}
	channel := o.Channel
	if channel == "" {
		channel = secret.DefaultSettings(actionType).Channel
	}
	postedAt, err := postedAtField(o.PostedAt)
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
	i, err := l.AppendBody(context.Background(), &ledger.Body{Kind: ledger.KindCommit, PostedAt: postedAt,
		Player: o.Player, ActionType: actionType, Channel: channel, Commitment: c.String()})
	if err != nil {
		return appendError(err)
	}
	awaitCheckpoint(l, i)
	same, err := l.CommitsByCommitment(c.String())
	if err != nil {
		return err
	}
	for _, e := range same {
		if b, err := e.Body(); err == nil && e.Index != i && b.Player != o.Player {
			warnings = append(warnings, fmt.Sprintf("copied commitment: %s posted the same commitment at ledger index %d", b.Player, e.Index))
		}
	}
	e, err := l.Entry(i)
	if err != nil {
		return fmt.Errorf("reading back entry %d: %v", i, err)
	}
	at, _ := secret.Stamp{IntegratedAt: e.IntegratedAt, PostedAt: e.PostedAt}.Time()
	warnings = append(warnings, notTakenWarnings(secret.Game{Calendar: secret.Calendar{Location: loc}}, actionType, channel, at)...)
	if o.Receipt != "" {
		if err := writeReceipt(a, l, i, o.Receipt, o.Witnesses); err != nil {
			return err
		}
	}
	return a.printAppended(l, i, fmt.Sprintf("%s posted %s action in %s, commitment %s", o.Player, ledger.WithArticle(actionType), channel, c), warnings)
}

// notTakenWarnings returns the warnings of a post that was never taken
// (secret.Game.NotTaken): in the wrong channel, and outside the type's
// phase with the start of the next one in the game's zone.
func notTakenWarnings(g secret.Game, actionType, channel string, at time.Time) []string {
	var ws []string
	s := g.SettingsFor(actionType)
	if r, text := g.NotTaken(actionType, channel, at); r == secret.WrongChannel {
		ws = append(ws, fmt.Sprintf("%s: %s (%s): recorded, but the action is not taken; post a new commitment in %s",
			r, text, secret.PlainRule(secret.RuleChannel), s.Channel))
	}
	if r, text := g.NotTaken(actionType, s.Channel, at); r == secret.WrongPhase {
		ws = append(ws, fmt.Sprintf("%s: %s (%s, zone %s): recorded, but the action is not taken; the next %s phase starts %s",
			r, text, secret.Explanation{Rule: secret.RulePhases, Reading: secret.ReadingCalendar}.Plain(), g.Calendar.Loc(), s.Phase, fmtTime(g.Calendar.NextStart(s.Phase, at), g.Calendar.Loc())))
	}
	return ws
}
