package verify

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/sealedhq/sealed/commit"
	"github.com/sealedhq/sealed/ledger"
	"github.com/sealedhq/sealed/rules/lots"
	"github.com/sealedhq/sealed/rules/secret"
)

// LoadHistory reads every "commit", "reveal" and "edit" entry of the ledger
// into a secret.History (seed 004, rule "Secret Information";
// docs/secret-actions.md), each with its ledger index, integration time and
// posted_at (zero when the entry has none). Reveals carry the revealed bytes
// exactly as stored (text, or text_base64 decoded). Other kinds of entry
// are skipped. It returns an error when the ledger cannot be read or holds
// an entry that does not decode (the audit, ledger.Audit, says more).
func LoadHistory(l *ledger.Ledger) (secret.History, error) {
	return LoadHistoryTo(l, -1)
}

// LoadHistoryTo is LoadHistory over the entries below size only (all of
// them when size < 0): the web site passes the size it has verified
// against a signed checkpoint (ledger.VerifiedSize), so its verdicts rest
// on signed leaves only.
func LoadHistoryTo(l *ledger.Ledger, size int64) (secret.History, error) {
	var h secret.History
	err := LoadHistoryRange(l, &h, 0, size)
	return h, err
}

// LoadHistoryRange adds to h the secret-action entries with from <= index
// < size (all from on when size < 0), in index order, as LoadHistory
// reads them.
func LoadHistoryRange(l *ledger.Ledger, h *secret.History, from, size int64) error {
	for size < 0 || from < size {
		n := int64(ledger.MaxEntries)
		if size >= 0 {
			n = min(n, size-from)
		}
		es, err := l.Entries(from, int(n))
		if err != nil {
			return fmt.Errorf("reading the ledger from index %d: %w", from, err)
		}
		for i := range es {
			if err := addEntry(h, &es[i]); err != nil {
				return err
			}
		}
		if int64(len(es)) < n {
			return nil
		}
		from += int64(len(es))
	}
	return nil
}

// AddEntry adds one ledger entry to h if it is a "commit", "reveal" or
// "edit" entry, as LoadHistory does (other kinds are skipped); an entry of
// those kinds that does not decode is an error. Callers that read entries
// themselves (ledger.Ledger.VerifiedSizeEach) build a history with it.
func AddEntry(h *secret.History, e *ledger.Entry) error { return addEntry(h, e) }

// addEntry adds one ledger entry to h if it is a secret-action entry: a
// leaf in the ledger's own form through the fast path (addEntryFast),
// any other through encoding/json (addEntryJSON), which decides.
func addEntry(h *secret.History, e *ledger.Entry) error {
	if addEntryFast(h, e) {
		return nil
	}
	return addEntryJSON(h, e)
}

// addEntryJSON is addEntry decoding the leaf with encoding/json
// (ledger.Entry.Body).
func addEntryJSON(h *secret.History, e *ledger.Entry) error {
	switch e.Kind {
	case ledger.KindCommit, ledger.KindReveal, ledger.KindEdit:
	default:
		return nil
	}
	b, err := e.Body()
	if err != nil {
		return fmt.Errorf("ledger entry %d: %w", e.Index, err)
	}
	st := secret.Stamp{Index: e.Index, IntegratedAt: e.IntegratedAt, PostedAt: e.PostedAt}
	switch e.Kind {
	case ledger.KindCommit:
		c, err := commit.ParseCommitment(b.Commitment)
		if err != nil {
			return fmt.Errorf("ledger entry %d: commitment: %w", e.Index, err)
		}
		h.Posts = append(h.Posts, secret.Post{Stamp: st, Player: b.Player, ActionType: b.ActionType, Channel: b.Channel, Commitment: c})
	case ledger.KindReveal:
		if b.Commit == nil {
			return fmt.Errorf("ledger entry %d: a reveal without the index of its commit entry", e.Index)
		}
		text, err := b.RevealedBytes()
		if err != nil {
			return fmt.Errorf("ledger entry %d: %w", e.Index, err)
		}
		h.Reveals = append(h.Reveals, secret.Reveal{Stamp: st, Commit: *b.Commit, Player: b.Player, Text: text})
	case ledger.KindEdit:
		if b.Commit == nil {
			return fmt.Errorf("ledger entry %d: an edit without the index of its commit entry", e.Index)
		}
		h.Edits = append(h.Edits, secret.Edit{Stamp: st, Commit: *b.Commit, Player: b.Player})
	}
	return nil
}

// JudgeActions reads the ledger's secret-action entries (LoadHistory) and
// judges every action at the instant at with g (secret.Game.Judge: seed
// 004, rule "Secret Information", readings S1-S5). g carries the game's
// zone and per-type settings. Entries whose time of post is after at are
// not considered. It returns the history with the judgement, so callers
// can audit it further (AuditReusedSalts); errors are LoadHistory's and
// Judge's (a Game that does not validate).
func JudgeActions(l *ledger.Ledger, g secret.Game, at time.Time) (secret.History, *secret.Judgement, error) {
	return JudgeActionsTo(l, g, at, -1)
}

// JudgeActionsTo is JudgeActions over the entries below size only
// (LoadHistoryTo).
func JudgeActionsTo(l *ledger.Ledger, g secret.Game, at time.Time, size int64) (secret.History, *secret.Judgement, error) {
	h, err := LoadHistoryTo(l, size)
	if err != nil {
		return h, nil, err
	}
	j, err := g.Judge(h, at)
	if err != nil {
		return h, nil, err
	}
	return h, j, nil
}

// SaltRecovery is one search of the active audit for an unrevealed
// action's text, from a salt its player revealed for an earlier action.
type SaltRecovery struct {
	// Action is the ledger index of the unrevealed action's post; Player
	// its player.
	Action int64  `json:"action"`
	Player string `json:"player"`
	// Earlier is the ledger index of the earlier action whose reveal made
	// the salt public, and Salt that salt.
	Earlier int64  `json:"earlier"`
	Salt    string `json:"salt"`
	// Template is the commit.Template searched: the earlier reveal with
	// each number of its declaration made a placeholder.
	Template string `json:"template"`
	// Found is true when the search recovered the text: the player reused
	// the salt. Reveal is then the recovered text.
	Found  bool   `json:"found"`
	Reveal string `json:"reveal,omitempty"`
	// Guesses is the number of texts hashed, Space the size of the search,
	// Complete whether the whole space was searched without a match.
	Guesses  uint64 `json:"guesses"`
	Space    uint64 `json:"space"`
	Complete bool   `json:"complete"`
}

// SaltAuditOptions bound AuditReusedSalts.
type SaltAuditOptions struct {
	// MaxGuesses bounds each search (one unrevealed action against one
	// earlier salt); 0 means DefaultSaltReuseGuesses.
	MaxGuesses uint64
	// Workers is the number of goroutines of each search; 0 means one per
	// core (commit.ActiveAuditOptions.Workers).
	Workers int
}

// DefaultSaltReuseGuesses is the default bound of one salt-reuse search:
// 2^24 guesses, enough for a declaration with one bid (10,001 amounts x 100
// lots) with room to spare.
const DefaultSaltReuseGuesses = 1 << 24

// digitRun finds the numbers of a declaration; lotBefore tells a lot number
// ("lot 3", "lot #3") from an amount.
var (
	digitRun  = regexp.MustCompile(`[0-9]+`)
	lotBefore = regexp.MustCompile(`(?i)lot\s*#?\s*$`)
)

// SaltReuseTemplate turns an earlier reveal text into an active-audit
// template (commit.Template) that keeps its wording, separator and salt and
// makes each number of its declaration a placeholder: {lotK} (range 1..100,
// commit.DefaultRange("lot")) for a number after "lot", {nK} (0..10000)
// for any other, K counting from 1. For `I bid 12 on lot 1 |
// salt=walnut-tiger` it gives `I bid {n1} on lot {lot1} |
// salt=walnut-tiger`. ok is false when the text has no salt
// (commit.SplitSalt).
func SaltReuseTemplate(reveal []byte) (template string, ranges map[string]commit.Range, salt string, ok bool) {
	_, s, found := commit.SplitSalt(reveal)
	if !found || len(s) == 0 {
		return "", nil, "", false
	}
	cut := bytes.LastIndex(reveal, s)
	head, tail := string(reveal[:cut]), string(reveal[cut:])
	// Only numbers before the salt become placeholders; the salt, and any
	// number in it, stays literal.
	ranges = map[string]commit.Range{}
	var b strings.Builder
	last, nLot, nNum := 0, 0, 0
	for _, m := range digitRun.FindAllStringIndex(head, -1) {
		b.WriteString(escapeTemplate(head[last:m[0]]))
		var name string
		if lotBefore.MatchString(head[:m[0]]) {
			nLot++
			name = "lot" + strconv.Itoa(nLot)
			ranges[name] = commit.DefaultRange("lot")
		} else {
			nNum++
			name = "n" + strconv.Itoa(nNum)
			ranges[name] = commit.DefaultRange("n")
		}
		b.WriteString("{" + name + "}")
		last = m[1]
	}
	b.WriteString(escapeTemplate(head[last:]))
	b.WriteString(escapeTemplate(tail))
	return b.String(), ranges, string(s), true
}

// escapeTemplate writes literal braces as a commit.Template expects.
func escapeTemplate(s string) string {
	return strings.NewReplacer("{", "{{", "}", "}}").Replace(s)
}

// AuditReusedSalts looks for salts a player reuses across actions (seed
// 004, rule "Secret Information", item 2: the salt must keep the
// declaration secret; docs/secret-actions.md, "Flags"). The judge already
// flags a reused salt once both actions are revealed; this finds it while
// the later action is still secret: for every action of j that is pending
// or matured (outstanding, so its secret still matters), and every distinct
// salt its player revealed earlier (a reveal in h, at or before j.At, that
// hashes to the earlier action's commitment), it runs commit.ActiveAudit
// over SaltReuseTemplate of that earlier reveal with no further salt.
//
// Each search that recovers the text adds a secret.SaltReused flag to the
// action in j (naming the earlier action and the recovered text). It
// returns every search made, found or not, in the order of j's actions.
// Errors: ctx's error if it ends first, or a template the audit refuses.
func AuditReusedSalts(ctx context.Context, h secret.History, j *secret.Judgement, o SaltAuditOptions) ([]SaltRecovery, error) {
	if o.MaxGuesses == 0 {
		o.MaxGuesses = DefaultSaltReuseGuesses
	}
	posts := map[int64]secret.Post{}
	for _, p := range h.Posts {
		posts[p.Index] = p
	}
	// The salts each player made public, in order of reveal.
	type public struct {
		earlier int64
		text    []byte
	}
	reveals := slices.Clone(h.Reveals)
	slices.SortFunc(reveals, func(a, b secret.Reveal) int {
		ta, _ := a.Time()
		tb, _ := b.Time()
		if c := ta.Compare(tb); c != 0 {
			return c
		}
		return cmp.Compare(a.Index, b.Index)
	})
	salts := map[string]map[string]public{} // player -> salt -> first reveal
	for _, r := range reveals {
		if t, _ := r.Time(); t.After(j.At) {
			continue
		}
		p, ok := posts[r.Commit]
		if !ok || commit.Sum(r.Text) != p.Commitment {
			continue
		}
		_, s, found := commit.SplitSalt(r.Text)
		if !found {
			continue
		}
		if salts[p.Player] == nil {
			salts[p.Player] = map[string]public{}
		}
		if _, seen := salts[p.Player][string(s)]; !seen {
			salts[p.Player][string(s)] = public{earlier: p.Index, text: r.Text}
		}
	}
	var out []SaltRecovery
	for i := range j.Actions {
		a := &j.Actions[i]
		if a.State != secret.Pending && a.State != secret.Matured {
			continue
		}
		known := salts[a.Post.Player]
		for _, s := range slices.Sorted(maps.Keys(known)) {
			pub := known[s]
			if pub.earlier == a.Post.Index {
				continue
			}
			tmpl, ranges, _, _ := SaltReuseTemplate(pub.text)
			ao := commit.ActiveAuditOptions{Template: tmpl, Ranges: ranges, MaxGuesses: o.MaxGuesses, Workers: o.Workers}
			res, err := commit.ActiveAudit(ctx, a.Post.Commitment, ao)
			if err != nil {
				if errors.Is(err, ctx.Err()) {
					return out, err
				}
				return out, fmt.Errorf("salt-reuse audit of ledger index %d with the salt of index %d: %w", a.Post.Index, pub.earlier, err)
			}
			rec := SaltRecovery{Action: a.Post.Index, Player: a.Post.Player, Earlier: pub.earlier, Salt: s, Template: tmpl,
				Found: res.Found, Reveal: res.Reveal, Guesses: res.Guesses, Space: res.Space, Complete: res.Complete}
			out = append(out, rec)
			if res.Found {
				a.Flags = append(a.Flags, secret.Flag{Kind: secret.SaltReused, Earlier: pub.earlier, EarlierPlayer: a.Post.Player, Text: fmt.Sprintf(
					"%s reuses the salt %q revealed for the action posted at ledger index %d: the active audit recovered this action's text %q in %d guesses",
					a.Post.Player, s, pub.earlier, res.Reveal, res.Guesses)})
				break
			}
		}
	}
	return out, nil
}

// LotsOptions are the inputs of ConcludeLots besides the ledger history:
// the game, the week and the state of the game at its conclusion.
type LotsOptions struct {
	// Game is the phase calendar (zone) and per-type settings.
	Game secret.Game
	// Week is the week whose bids and Hands conclude (ISO week in the
	// game's zone, e.g. 2026-W13).
	Week secret.Week
	// Now is the current instant: a week whose conclusion is after Now is
	// refused (its reveals may still come).
	Now time.Time
	// Points, Players, Possessions, Prizes, Lots, Pricing and Ranker are
	// as in lots.Input: points before the conclusion (whole numbers >= 0;
	// the players are its keys when Players is nil), the cards each player
	// holds, the points per Hand placement, the active lots (nil: every lot
	// bid on), first- or second-price, and the Hand ranker (nil: Poker).
	Points      map[string]int64
	Players     []string
	Possessions map[string][]secret.Card
	Prizes      []int64
	Lots        []string
	Pricing     lots.Pricing
	Ranker      lots.Ranker
}

// LotsConclusion is the conclusion of a week's lots, with every secret
// action that took part.
type LotsConclusion struct {
	// Week is the week concluded; At the conclusion instant, the latest
	// revelation date of the week's bid and Hand actions that were taken
	// (secret.Action.Taken: not in the wrong channel or phase; the default
	// revelation date of a bid posted at the week's start when there are
	// none).
	Week string    `json:"week"`
	At   time.Time `json:"at"`
	// Actions are the bid and Hand actions posted in the week, as judged
	// at LotsOptions.Now (their states are those at At, since each was
	// decided by its revelation date; judging later also lists reveals that
	// came too late; the instant each decision names as "at" is At): the
	// revealed ones reach the conclusion, the others say why they failed.
	Actions []secret.Action `json:"actions"`
	// Outcome is the conclusion (rules/lots): Hands placed first, then
	// each bid and lot, and the points and possessions after.
	Outcome *lots.Outcome `json:"outcome"`
}

// ErrWeekNotOver is returned (wrapped) by ConcludeLots when the week's
// conclusion instant is after LotsOptions.Now.
var ErrWeekNotOver = errors.New("the week has not concluded yet")

// ConcludeLots concludes week o.Week from the ledger's secret-action
// history h (seed 004, rule "Auctions", subrules "Bidding", "Submitting a
// Hand" and "Prizes", with readings S1-S8; docs/secret-actions.md). It
// judges h at the week's conclusion instant (the latest revelation date of
// the bid and Hand actions posted and taken in the week; one in the wrong
// channel or phase was never taken and does not count), takes the revealed ones
// (lots.FromJudgement) and concludes them with lots.Conclude.
//
// Errors: a Game that does not validate; ErrWeekNotOver (wrapped, naming
// the instant) when that instant is after o.Now; lots.Conclude's errors
// for impossible input (negative points or prizes, a lot listed twice);
// a *LookalikePlayerError for a name in Points, Players or Possessions
// that is no player of h but renders like one.
func ConcludeLots(h secret.History, o LotsOptions) (*LotsConclusion, error) {
	if err := checkLookalikes(h, o); err != nil {
		return nil, err
	}
	g, cal := o.Game, o.Game.Calendar
	start := cal.WeekStart(o.Week)
	end := cal.WeekStart(nextWeek(cal, o.Week))
	at := g.RevelationDate(secret.ActionBid, g.MaturationDate(secret.ActionBid, start))
	if hat := g.RevelationDate(secret.ActionHand, g.MaturationDate(secret.ActionHand, start)); hat.After(at) {
		at = hat
	}
	// Judged with every entry in, the week's actions give their own
	// revelation dates (settings may move them past the default).
	all, err := g.Judge(h, end)
	if err != nil {
		return nil, err
	}
	for _, a := range all.Actions {
		// An action never taken (wrong channel or phase) has no revelation
		// date and does not move the conclusion.
		if inWeek(cal, a, o.Week) && a.Taken() && a.Revelation.After(at) {
			at = a.Revelation
		}
	}
	if at.After(o.Now) {
		return nil, fmt.Errorf("%w: week %s concludes at %s, after now (%s)", ErrWeekNotOver, o.Week, at.UTC().Format(time.RFC3339), o.Now.UTC().Format(time.RFC3339))
	}
	j, err := g.Judge(h, at)
	if err != nil {
		return nil, err
	}
	// The week's actions are listed as judged now: their states are those
	// at the conclusion (all were decided by their revelation dates), and
	// reveals that came too late are shown too.
	shown, err := g.Judge(h, o.Now)
	if err != nil {
		return nil, err
	}
	c := &LotsConclusion{Week: o.Week.String(), At: at, Actions: []secret.Action{}}
	for _, a := range shown.Actions {
		if inWeek(cal, a, o.Week) {
			judgedAt(&a, at)
			c.Actions = append(c.Actions, a)
		}
	}
	bids, hands := lots.FromJudgement(j, cal, o.Week)
	c.Outcome, err = lots.Conclude(lots.Input{
		Lots: o.Lots, Players: o.Players, Points: o.Points, Possessions: o.Possessions, Prizes: o.Prizes,
		Bids: bids, Hands: hands, Pricing: o.Pricing, Ranker: o.Ranker,
	})
	if err != nil {
		return nil, err
	}
	return c, nil
}

// judgedAt sets the instant each of a's decisions was judged at (the
// derived "at" time) to the conclusion instant: the states shown are those
// at the conclusion, whatever the instant ConcludeLots ran.
func judgedAt(a *secret.Action, at time.Time) {
	set := func(ts []secret.TimeUsed) {
		for i := range ts {
			if ts[i].What == "at" && ts[i].Index < 0 {
				ts[i].At = at
			}
		}
	}
	for i := range a.Decisions {
		set(a.Decisions[i].Times)
	}
	if a.Failure != nil {
		set(a.Failure.Why.Times)
	}
}

// inWeek reports whether a is a bid or Hand action posted in week w.
func inWeek(cal secret.Calendar, a secret.Action, w secret.Week) bool {
	t := a.Post.ActionType
	return (t == secret.ActionBid || t == secret.ActionHand) && cal.WeekOf(a.Posted.At) == w
}

// nextWeek returns the week after w.
func nextWeek(cal secret.Calendar, w secret.Week) secret.Week {
	return cal.WeekOf(cal.AddDays(cal.WeekStart(w), 7))
}
