package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"time"

	"github.com/sealedhq/sealed/ledger"
	"github.com/sealedhq/sealed/rules/secret"
	"github.com/sealedhq/sealed/verify"
	"github.com/spf13/cobra"
)

func init() { actionSubcommands = append(actionSubcommands, newActionStatusCmd) }

// actionStatusOptions are the inputs of `sealed action status`.
type actionStatusOptions struct {
	ledgerFlags
	Player     string // "" means every player
	At         string // RFC 3339; "" means now
	Zone       string
	SaltAudit  bool
	MaxGuesses uint64
	Verbose    bool // --verbose: every decision with its times and the rules' shorthand
	now        func() time.Time
}

// newActionStatusCmd builds `sealed action status`.
func newActionStatusCmd(a *app) *cobra.Command { return actionStatusCmd(a, runActionStatus) }

// actionStatusCmd builds `sealed action status` with runF as its action.
func actionStatusCmd(a *app, runF func(*app, *actionStatusOptions) error) *cobra.Command {
	o := &actionStatusOptions{now: time.Now}
	c := &cobra.Command{
		Use:   "status [--player P] [--at TIME] [--zone Z] [--verbose]",
		Short: "Judge every secret action in the ledger at an instant, each decision explained",
		Long: `Judge the secret actions recorded in the ledger at an instant (--at, default
now; the output says which instant was used), from the ledger alone (seed
004, "Secret Information", readings S1-S5 of docs/secret-actions.md). Each
action is pending, matured, revealed or failed, on one line with the
date that matters next or why it failed and the rule it failed under;
flags (a copied commitment, a salt the player reuses) follow on lines of
their own. --verbose gives the full reasoning: every decision with the
rule, the reading and the times it compared (posted_at or integration
time, with the gap when it is large), and the rules' shorthand (seed 004,
failure condition N, reading SN) in a details line; --json has it all. For each pending or matured action whose player revealed
a salt before, the active audit tries to recover the text from that salt
(--salt-audit=false to skip; --max-guesses bounds each search).

--zone is the game's IANA time zone (default UTC): the weekly phases and
calendar days follow it. Exit status 0 whatever the states; 2 for bad input.`,
		Example: `  sealed action status
  sealed action status --player alice --at 2026-03-29T00:00:00Z --zone Asia/Jerusalem --json`,
		Args: noArgs("action status"),
		RunE: func(_ *cobra.Command, _ []string) error { return runF(a, o) },
	}
	addLedgerFlags(c, &o.ledgerFlags, false)
	f := c.Flags()
	f.StringVar(&o.Player, "player", "", "show only this player's actions (all are judged)")
	f.StringVar(&o.At, "at", "", "judge at this instant, RFC 3339 (default now)")
	f.StringVar(&o.Zone, "zone", "UTC", "the game's IANA time zone")
	f.BoolVar(&o.SaltAudit, "salt-audit", true, "search unrevealed actions for salts their player revealed before")
	f.Uint64Var(&o.MaxGuesses, "max-guesses", verify.DefaultSaltReuseGuesses, "bound of each salt-reuse search")
	f.BoolVarP(&o.Verbose, "verbose", "v", false, "print every decision of each action, with its times and the rules' shorthand")
	return c
}

// actionStatusJSON is the --json output of `sealed action status`.
type actionStatusJSON struct {
	At          time.Time             `json:"at"`
	AtSource    string                `json:"at_source"` // "--at" or "now"
	Zone        string                `json:"zone"`
	Player      string                `json:"player,omitempty"`
	Actions     []secret.Action       `json:"actions"`
	SaltAudits  []verify.SaltRecovery `json:"salt_audits"`
	Interrupted bool                  `json:"interrupted,omitempty"`
}

func runActionStatus(a *app, o *actionStatusOptions) error {
	loc, err := parseZone(o.Zone)
	if err != nil {
		return err
	}
	at, atSource := o.now(), "now"
	if o.At != "" {
		if at, err = parseInstant("at", o.At); err != nil {
			return err
		}
		atSource = "--at"
	}
	l, err := o.openLedger(false)
	if err != nil {
		return err
	}
	defer l.Close()
	g := secret.Game{Calendar: secret.Calendar{Location: loc}}
	h, j, err := verify.JudgeActions(l, g, at)
	if err != nil {
		return err
	}
	out := actionStatusJSON{At: at, AtSource: atSource, Zone: loc.String(), Player: o.Player, Actions: []secret.Action{}, SaltAudits: []verify.SaltRecovery{}}
	if o.SaltAudit {
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
		recs, err := verify.AuditReusedSalts(ctx, h, j, verify.SaltAuditOptions{MaxGuesses: o.MaxGuesses})
		stop()
		if errors.Is(err, context.Canceled) {
			out.Interrupted = true
		} else if err != nil {
			return err
		}
		for _, r := range recs {
			if o.Player == "" || r.Player == o.Player {
				out.SaltAudits = append(out.SaltAudits, r)
			}
		}
	}
	for _, act := range j.Actions {
		if o.Player == "" || act.Post.Player == o.Player {
			out.Actions = append(out.Actions, act)
		}
	}
	if o.Player != "" && len(out.Actions) == 0 {
		// A name that renders like a player's but is other characters
		// (the NFD form of "Zo\u00eb", a Cyrillic letter) matches
		// nothing: say which player it looks like.
		if p, err := l.PlayerLike(o.Player); err == nil && p.Player != o.Player {
			fmt.Fprintf(a.errOut, "warning: no action of the player %q, written %s; it looks like the player %q, written %s, first named by commit entry %d (the same Unicode confusable skeleton): give --player exactly as the ledger has it\n",
				o.Player, strconv.QuoteToASCII(o.Player), p.Player, strconv.QuoteToASCII(p.Player), p.Index)
		} else if err != nil && !errors.Is(err, ledger.ErrNotFound) {
			return err
		}
	}
	if a.json {
		return a.printJSON(out)
	}
	noun := "actions"
	if len(out.Actions) == 1 {
		noun = "action"
	}
	fmt.Fprintf(a.out, "judged at %s (%s), zone %s: %d %s\n", fmtTime(at, loc), atSource, loc, len(out.Actions), noun)
	if out.Interrupted {
		fmt.Fprintln(a.out, "salt-reuse audit interrupted: its results are partial")
	}
	for _, act := range out.Actions {
		if o.Verbose {
			fmt.Fprintln(a.out)
			writeAction(a.out, act, loc)
		} else {
			writeActionLine(a.out, act, loc)
		}
	}
	if !o.Verbose && len(out.Actions) > 0 {
		fmt.Fprintln(a.out, "(--verbose for every decision, its times and the rules' shorthand)")
	}
	return nil
}

// writeActionLine prints one judged action on one line: its state and
// what comes next, or why it failed in players' words; then its flags, one
// line each.
func writeActionLine(w io.Writer, act secret.Action, loc *time.Location) {
	p := act.Post
	fmt.Fprintf(w, "#%d %s %s in %s: %s", p.Index, p.Player, p.ActionType, p.Channel, act.State)
	switch {
	case act.Failure != nil:
		fmt.Fprintf(w, ": %s at %s (%s)", act.Failure.Reason, fmtTime(act.Failure.At, loc), act.Failure.Why.Plain())
	case !act.Taken():
		fmt.Fprint(w, ": never taken")
	case act.State == secret.Pending:
		fmt.Fprintf(w, ": matures %s, reveal before %s", fmtTime(act.Maturation, loc), fmtTime(act.Revelation, loc))
	case act.State == secret.Matured:
		fmt.Fprintf(w, ": reveal before %s (the revelation date)", fmtTime(act.Revelation, loc))
	case act.Declaration != nil:
		fmt.Fprintf(w, ": %s", declarationText(act.Declaration))
	}
	fmt.Fprintln(w)
	for _, f := range act.Flags {
		fmt.Fprintf(w, "  flag: %s: %s\n", f.Kind, f.Text)
	}
}

// writeAction prints one judged action: its state and why, its dates, and
// every decision.
func writeAction(w io.Writer, act secret.Action, loc *time.Location) {
	p := act.Post
	fmt.Fprintf(w, "#%d %s %s in %s: %s", p.Index, p.Player, p.ActionType, p.Channel, act.State)
	if act.Failure != nil {
		fmt.Fprintf(w, ": %s at %s", act.Failure.Reason, fmtTime(act.Failure.At, loc))
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "  commitment %s\n", p.Commitment)
	fmt.Fprintf(w, "  posted %s (%s", fmtTime(act.Posted.At, loc), act.Posted.Source)
	if act.Posted.Gap != 0 {
		fmt.Fprintf(w, "; %s before its integration at %s", secret.FormatGap(act.Posted.Gap), fmtTime(p.IntegratedAt, loc))
	}
	fmt.Fprintln(w, ")")
	if act.Taken() {
		fmt.Fprintf(w, "  matures %s, revelation date %s\n", fmtTime(act.Maturation, loc), fmtTime(act.Revelation, loc))
	} else {
		fmt.Fprintln(w, "  never taken: no maturation or revelation date")
	}
	if d := act.Declaration; d != nil {
		fmt.Fprintf(w, "  declares: %s\n", declarationText(d))
	}
	if act.Failure != nil {
		writeExplanation(w, "  why: ", "      ", act.Failure.Why, loc)
	}
	for _, f := range act.Flags {
		fmt.Fprintf(w, "  flag: %s: %s\n", f.Kind, f.Text)
	}
	fmt.Fprintln(w, "  decisions:")
	for _, d := range act.Decisions {
		writeExplanation(w, "  - ", "      ", d, loc)
	}
}

// declarationText writes a parsed declaration on one line.
func declarationText(d *secret.Declaration) string {
	var parts []string
	for _, b := range d.Bids {
		parts = append(parts, fmt.Sprintf("bid %s on lot %s", b.Amount, b.Lot))
	}
	if d.Hand != nil {
		var cs []string
		for _, c := range d.Hand {
			cs = append(cs, c.String())
		}
		parts = append(parts, "hand "+strings.Join(cs, " "))
	}
	return strings.Join(parts, "; ")
}
