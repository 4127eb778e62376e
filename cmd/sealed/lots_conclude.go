package main

import (
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"time"

	"github.com/sealedhq/sealed/rules/lots"
	"github.com/sealedhq/sealed/rules/secret"
	"github.com/sealedhq/sealed/verify"
	"github.com/spf13/cobra"
)

func init() { lotsSubcommands = append(lotsSubcommands, newLotsConcludeCmd) }

// lotsConcludeOptions are the inputs of `sealed lots conclude`.
type lotsConcludeOptions struct {
	ledgerFlags
	Week        string
	Points      string // file
	Possessions string // file
	Prizes      string // "10,5,2"
	Lots        string // "1,2,3"
	Pricing     string // first | second
	Zone        string
	now         func() time.Time
}

// newLotsConcludeCmd builds `sealed lots conclude`.
func newLotsConcludeCmd(a *app) *cobra.Command { return lotsConcludeCmd(a, runLotsConclude) }

// lotsConcludeCmd builds `sealed lots conclude` with runF as its action.
func lotsConcludeCmd(a *app, runF func(*app, *lotsConcludeOptions) error) *cobra.Command {
	o := &lotsConcludeOptions{now: time.Now}
	c := &cobra.Command{
		Use:   "conclude --week YYYY-Www --points FILE [--possessions FILE] [--prizes LIST] [--lots LIST] [--pricing first|second] [--zone Z]",
		Short: "Conclude a week's lots and Hands from the ledger: placements, winners, prices, points",
		Long: `Conclude the bids on lots and the Hands posted in an ISO week, from the
ledger alone (seed 004, rule "Auctions"; readings S1-S8 of
docs/secret-actions.md). The week is judged at its revelation date: every
bid and Hand action posted in the week is listed with its state, and each
failure is explained. Then, in the rule's order: each player's most recent
successful Hand is checked and placed, its cards destroyed and its prize
gained; then each bid stands or fails (S6), and each lot goes to the bidder
with priority (S7) for the price (S8).

--points FILE    (required) JSON object, player to whole points before the
                 conclusion: {"alice": 50, "bob": 40}. Its keys are the
                 players: a bidder not in it has ceased to be a player
                 (bids withdrawn). - reads it from stdin.
--possessions F  JSON object (- for stdin), player to the cards they hold:
                 {"erin": ["2H","5H","8H","JH","KH","AS"]}; cards as in
                 Hands (rank 2-9, T or 10, J, Q, K, A; suit S H D C).
--prizes LIST    points gained by Hand placement 1, 2, ...: 10,5 (default
                 none).
--lots LIST      the active lots, in the order they conclude (default every
                 lot bid on, by name).

A week that has not reached its revelation date is refused (exit 2).`,
		Example: `  sealed lots conclude --week 2026-W13 --points points.json --possessions cards.json --prizes 10,5
  sealed lots conclude --week 2026-W13 --points points.json --pricing second --json`,
		Args: noArgs("lots conclude"),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if !cmd.Flags().Changed("week") {
				return usageErrorf("lots conclude needs --week, e.g. --week 2026-W13")
			}
			return runF(a, o)
		},
	}
	addLedgerFlags(c, &o.ledgerFlags, false)
	f := c.Flags()
	f.StringVar(&o.Week, "week", "", "the ISO week to conclude, `YYYY-Www` (e.g. 2026-W13)")
	f.StringVar(&o.Points, "points", "", "JSON `FILE` of each player's points before the conclusion (required; - for stdin)")
	f.StringVar(&o.Possessions, "possessions", "", "JSON `FILE` of the cards each player holds (- for stdin)")
	f.StringVar(&o.Prizes, "prizes", "", "points per Hand placement, comma-separated `LIST` (e.g. 10,5)")
	f.StringVar(&o.Lots, "lots", "", "the active lots, comma-separated `LIST` (default every lot bid on)")
	f.StringVar(&o.Pricing, "pricing", "first", "what the winner pays: first (their bid) or second (the next bid in priority)")
	f.StringVar(&o.Zone, "zone", "UTC", "the game's IANA time zone")
	return c
}

// lotsConcludeJSON is the --json output of `sealed lots conclude`.
type lotsConcludeJSON struct {
	*verify.LotsConclusion
	Zone         string           `json:"zone"`
	PointsBefore map[string]int64 `json:"points_before"`
}

func runLotsConclude(a *app, o *lotsConcludeOptions) error {
	w, err := secret.ParseWeek(o.Week)
	if err != nil {
		return usageErrorf("--week: %v", err)
	}
	loc, err := parseZone(o.Zone)
	if err != nil {
		return err
	}
	opts := verify.LotsOptions{Week: w, Now: o.now(), Game: secret.Game{Calendar: secret.Calendar{Location: loc}}}
	switch o.Pricing {
	case "first", "first-price":
		opts.Pricing = lots.FirstPrice
	case "second", "second-price", "vickrey":
		opts.Pricing = lots.SecondPrice
	default:
		return usageErrorf("--pricing %q; expected first or second", o.Pricing)
	}
	if o.Points == "" {
		return usageErrorf("lots conclude needs --points FILE, each player's points before the conclusion: without them no bid can stand").
			withHint("write them as JSON, e.g. echo '{\"alice\": 50, \"bob\": 40}' > points.json; --points - reads stdin")
	}
	if err := oneStdin([2]string{"--points", o.Points}, [2]string{"--possessions", o.Possessions}); err != nil {
		return err
	}
	if opts.Points, err = parsePoints(a, o.Points); err != nil {
		return err
	}
	if o.Possessions != "" {
		if opts.Possessions, err = parsePossessions(a, o.Possessions); err != nil {
			return err
		}
	}
	if opts.Prizes, err = parsePrizes(o.Prizes); err != nil {
		return err
	}
	if opts.Lots, err = parseLots(o.Lots); err != nil {
		return err
	}
	l, err := o.openLedger(false)
	if err != nil {
		return err
	}
	defer l.Close()
	h, err := verify.LoadHistory(l)
	if err != nil {
		return err
	}
	c, err := verify.ConcludeLots(h, opts)
	if errors.Is(err, verify.ErrWeekNotOver) {
		return usageErrorf("%v", err).withHint("conclude it after its revelation date")
	}
	var lookalike *verify.LookalikePlayerError
	if errors.As(err, &lookalike) {
		file := o.Points
		if lookalike.Field == "possessions" {
			file = o.Possessions
		}
		return usageErrorf("--%s %s: %s", lookalike.Field, file, lookalike.Detail()).
			withHint("write the name exactly as the ledger has it: %s (copy it from 'sealed ledger get %d')", strconv.Quote(lookalike.Player), lookalike.Index)
	}
	if err != nil {
		return usageErrorf("%v", err)
	}
	if a.json {
		return a.printJSON(lotsConcludeJSON{LotsConclusion: c, Zone: loc.String(), PointsBefore: opts.Points})
	}
	writeConclusion(a.out, c, opts.Points, loc)
	return nil
}

// writeConclusion prints a week's conclusion: the week's secret actions,
// the Hands, the bids, the lots and the points after.
func writeConclusion(w io.Writer, c *verify.LotsConclusion, before map[string]int64, loc *time.Location) {
	out := c.Outcome
	fmt.Fprintf(w, "week %s concluded at %s (its revelation date), zone %s, %s\n", c.Week, fmtTime(c.At, loc), loc, out.Pricing)

	fmt.Fprintf(w, "\nsecret actions posted in the week (%d):\n", len(c.Actions))
	for _, act := range c.Actions {
		p := act.Post
		fmt.Fprintf(w, "  #%d %s %s posted %s (%s): %s", p.Index, p.Player, p.ActionType, fmtTime(act.Posted.At, loc), act.Posted.Source, act.State)
		if act.Failure != nil {
			fmt.Fprintf(w, ": %s\n", act.Failure.Reason)
			writeExplanation(w, "      ", "          ", act.Failure.Why, loc)
		} else {
			fmt.Fprintln(w)
		}
		for _, f := range act.Flags {
			fmt.Fprintf(w, "      flag: %s: %s\n", f.Kind, f.Text)
		}
	}

	fmt.Fprintf(w, "\nHands (placed before lots are given out):\n")
	if len(out.Hands) == 0 {
		fmt.Fprintln(w, "  none")
	}
	for _, h := range out.Hands {
		fmt.Fprintf(w, "  #%d %s [%s]: %s", h.Index, h.Player, fmtCards(h.Cards), h.Status)
		if h.Status == lots.Placed {
			fmt.Fprintf(w, " %d (%s), prize %d", h.Place, h.Strength, h.Prize)
		}
		fmt.Fprintln(w)
		writeExplanation(w, "      ", "          ", h.Why, loc)
	}

	fmt.Fprintf(w, "\nbids:\n")
	if len(out.Bids) == 0 {
		fmt.Fprintln(w, "  none")
	}
	for _, b := range out.Bids {
		fmt.Fprintf(w, "  #%d %s %s on lot %s: %s\n", b.Index, b.Player, b.Amount, b.Lot, b.Status)
		writeExplanation(w, "      ", "          ", b.Why, loc)
	}

	fmt.Fprintf(w, "\nlots:\n")
	if len(out.Lots) == 0 {
		fmt.Fprintln(w, "  none")
	}
	for _, l := range out.Lots {
		if l.Winner != "" {
			fmt.Fprintf(w, "  lot %s: %s for %d\n", l.Lot, l.Winner, l.Price)
		} else {
			fmt.Fprintf(w, "  lot %s: no bid stood\n", l.Lot)
		}
		for i, s := range l.Priority {
			fmt.Fprintf(w, "      %d. %s %d (since %s, ledger index %d)\n", i+1, s.Player, s.Amount, fmtTime(s.Since, loc), s.Index)
		}
		writeExplanation(w, "      ", "          ", l.Why, loc)
	}

	fmt.Fprintf(w, "\npoints (before -> after):\n")
	players := sortedKeys(out.Points)
	for p := range before {
		if _, ok := out.Points[p]; !ok {
			players = append(players, p)
		}
	}
	sort.Strings(players)
	for _, p := range players {
		fmt.Fprintf(w, "  %s %d -> %d", p, before[p], out.Points[p])
		if won := out.LotsWon[p]; len(won) > 0 {
			fmt.Fprintf(w, " (won lots %v)", won)
		}
		fmt.Fprintln(w)
	}
	if len(out.Possessions) > 0 {
		fmt.Fprintf(w, "\ncards after (placed Hands destroyed):\n")
		for _, p := range sortedKeys(out.Possessions) {
			fmt.Fprintf(w, "  %s: %s\n", p, fmtCards(out.Possessions[p]))
		}
	}
}
