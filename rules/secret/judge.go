package secret

import (
	"bytes"
	"cmp"
	"fmt"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sealedhq/sealed/commit"
)

// State is a secret action's state at an instant.
type State string

const (
	// Pending: posted, not yet matured.
	Pending State = "pending"
	// Matured: past the maturation date, not yet revealed, revelation date
	// not reached; the player must reveal now.
	Matured State = "matured"
	// Revealed: a reveal counted (right player, exact bytes, inside
	// [maturation, revelation), a declaration that parses).
	Revealed State = "revealed"
	// Failed: the action failed (see Failure).
	Failed State = "failed"
)

// Reason is why an action failed.
type Reason string

const (
	// NotRevealed: at the revelation date no reveal had counted (seed 004,
	// failure condition 1).
	NotRevealed Reason = "not revealed by the revelation date"
	// EditedBeforeMaturation: the hash's post was edited before the
	// maturation date (failure condition 2, reading S4).
	EditedBeforeMaturation Reason = "edited before maturation"
	// AttemptOutstanding: posted while an attempt of the same player and
	// type was outstanding (failure condition 3, reading S1).
	AttemptOutstanding Reason = "new attempt while another is outstanding"
	// AmbiguousDeclaration: the revealed text does not declare one action
	// unambiguously (item 1).
	AmbiguousDeclaration Reason = "ambiguous declaration"
	// NoSalt: the revealed text has no salt that can be told apart from the
	// declaration (item 2: "at least one byte of unrelated text at the end").
	NoSalt Reason = "no salt"
	// WrongChannel: the hash was not posted in the action type's channel,
	// so the action was not taken ("posting in the relevant channel").
	WrongChannel Reason = "wrong channel"
	// WrongPhase: the action type may only be taken in another phase (bids
	// and Hands "during an Auction Phase").
	WrongPhase Reason = "outside the action's phase"
)

// Failure is how and when an action failed.
type Failure struct {
	Reason Reason `json:"reason"`
	// At is the instant the action failed.
	At time.Time `json:"at"`
	// Why explains the failure: rule, reading, times.
	Why Explanation `json:"why"`
}

// FlagKind names a suspicious pattern the judge points out; flags never
// change an action's state.
type FlagKind string

const (
	// SaltReused: the player revealed the same salt for an earlier action,
	// which lets anyone who saw the earlier reveal brute-force this one.
	SaltReused FlagKind = "salt reused"
	// CopiedCommitment: another player posted the same commitment earlier
	// (a copied, hence predictable, bid).
	CopiedCommitment FlagKind = "copied commitment"
)

// Flag is one suspicious pattern on an action, naming the earlier action it
// relates to.
type Flag struct {
	Kind FlagKind `json:"kind"`
	// Earlier is the ledger index of the earlier action's post, and
	// EarlierPlayer its player.
	Earlier       int64  `json:"earlier"`
	EarlierPlayer string `json:"earlier_player"`
	Text          string `json:"text"`
}

// Action is one secret action (one posted commitment) as judged at an
// instant.
type Action struct {
	Post Post `json:"post"`
	// Posted is the time of the post and its source.
	Posted TimeUsed `json:"posted"`
	// Settings are the action type's settings used.
	Settings Settings `json:"settings"`
	// Maturation and Revelation are the action's dates; both are the zero
	// time (and absent from the JSON) for an action that was never taken
	// (Failure.Reason WrongChannel or WrongPhase; see Taken).
	Maturation time.Time `json:"maturation,omitzero"`
	Revelation time.Time `json:"revelation,omitzero"`
	State      State     `json:"state"`
	// Failure is set when State is Failed.
	Failure *Failure `json:"failure,omitempty"`
	// Reveal is the reveal that counted, when State is Revealed (or when a
	// counted reveal's declaration failed the action).
	Reveal *Reveal `json:"reveal,omitempty"`
	// Declaration is the parsed declaration of a revealed bid or Hand; nil
	// for other action types.
	Declaration *Declaration `json:"declaration,omitempty"`
	// Salt is the salt commit.SplitSalt found in the counted reveal.
	Salt string `json:"salt,omitempty"`
	// Decisions explain, in time order, every decision and warning: the
	// dates, each edit and reveal and what it did or did not do.
	Decisions []Explanation `json:"decisions"`
	// Flags are suspicious patterns (salt reuse, copied commitment).
	Flags []Flag `json:"flags,omitempty"`
}

// Judgement is the state of every secret action at an instant.
type Judgement struct {
	// At is the instant judged; entries whose time of post is after it are
	// not considered.
	At time.Time `json:"at"`
	// Actions are in order of time of post, then ledger index.
	Actions []Action `json:"actions"`
}

// Judge judges every action of h at the instant at (seed 004, rule "Secret
// Information", with readings S1-S5; docs/secret-actions.md). The time of
// each entry is its posted_at when present, else its integration time;
// entries later than at are ignored, so "at" may be any instant in the past.
// From 2,048 posts it judges several players at once, on up to GOMAXPROCS
// goroutines; the judgement is the same as on one.
//
// It returns an error, and no judgement, for a Game that fails Validate,
// two posts with one ledger index, or an edit or reveal naming a ledger
// index that is not a post.
func (g Game) Judge(h History, at time.Time) (*Judgement, error) {
	o, edits, reveals, err := g.prepare(h, at)
	if err != nil {
		return nil, err
	}
	posts := o.posts()
	j := &Judgement{At: at, Actions: make([]Action, len(posts))}
	g.judgeAll(posts, edits, reveals, at, j.Actions)
	flagCopies(j.Actions)
	flagSaltReuse(j.Actions, reveals)
	return j, nil
}

// prepare checks g and h as Judge does and returns the posts that happened
// at or before at, in time order (as an ordering of h.Posts, which it
// never writes), with the edits and reveals that happened by then, by the
// post they name.
func (g Game) prepare(h History, at time.Time) (o ordering, edits map[int64][]Edit, reveals map[int64][]Reveal, err error) {
	if err := g.Validate(); err != nil {
		return o, nil, nil, err
	}
	isPost, err := postIndexes(h.Posts)
	if err != nil {
		return o, nil, nil, err
	}
	edits = map[int64][]Edit{}
	for _, e := range h.Edits {
		if !isPost(e.Commit) {
			return o, nil, nil, fmt.Errorf("edit entry %d names entry %d, which is not a commit entry", e.Index, e.Commit)
		}
		if happened(e.Stamp, at) {
			edits[e.Commit] = append(edits[e.Commit], e)
		}
	}
	reveals = map[int64][]Reveal{}
	for _, r := range h.Reveals {
		if !isPost(r.Commit) {
			return o, nil, nil, fmt.Errorf("reveal entry %d names entry %d, which is not a commit entry", r.Index, r.Commit)
		}
		if happened(r.Stamp, at) {
			reveals[r.Commit] = append(reveals[r.Commit], r)
		}
	}
	// Posts already in time order and all at or before at (a ledger's
	// history, mostly) are taken as they are; others are ordered by a
	// permutation of their positions, not by a sorted copy of the posts
	// (which a Lazy would keep beside its actions' copies).
	o.src = h.Posts[:len(h.Posts):len(h.Posts)]
	for i := range h.Posts {
		if !happened(h.Posts[i].Stamp, at) || i > 0 && byStamp(h.Posts[i-1].Stamp, h.Posts[i].Stamp) > 0 {
			o.order = make([]int, 0, len(h.Posts))
			for k := range h.Posts {
				if happened(h.Posts[k].Stamp, at) {
					o.order = append(o.order, k)
				}
			}
			slices.SortFunc(o.order, func(a, b int) int { return byStamp(h.Posts[a].Stamp, h.Posts[b].Stamp) })
			break
		}
	}
	return o, edits, reveals, nil
}

// ordering is posts in time order: the k-th is src[order[k]], or src[k]
// when order is nil.
type ordering struct {
	src   []Post
	order []int
}

// len is the number of posts.
func (o *ordering) len() int {
	if o.order == nil {
		return len(o.src)
	}
	return len(o.order)
}

// at returns the k-th post.
func (o *ordering) at(k int) *Post {
	if o.order == nil {
		return &o.src[k]
	}
	return &o.src[o.order[k]]
}

// posts returns the posts in order: src itself when order is nil, else a
// copy.
func (o *ordering) posts() []Post {
	if o.order == nil {
		return o.src
	}
	out := make([]Post, len(o.order))
	for k, i := range o.order {
		out[k] = o.src[i]
	}
	return out
}

// postIndexes returns a function reporting whether a ledger index is a
// post's of posts, or an error if two posts have the same index. Posts in
// increasing index order (a ledger's history) are searched by bisection;
// others through a map of their indexes.
func postIndexes(posts []Post) (func(int64) bool, error) {
	increasing := true
	for i := 1; i < len(posts); i++ {
		if posts[i].Index <= posts[i-1].Index {
			increasing = false
			break
		}
	}
	if increasing {
		return func(idx int64) bool {
			_, ok := slices.BinarySearchFunc(posts, idx, func(p Post, idx int64) int { return cmp.Compare(p.Index, idx) })
			return ok
		}, nil
	}
	byIndex := make(map[int64]bool, len(posts))
	for _, p := range posts {
		if byIndex[p.Index] {
			return nil, fmt.Errorf("two commit entries with ledger index %d", p.Index)
		}
		byIndex[p.Index] = true
	}
	return func(idx int64) bool { return byIndex[idx] }, nil
}

// parallelFrom is the number of posts from which judgeAll spreads the
// players over the CPUs.
const parallelFrom = 2048

// judgeAll judges posts (in time order) into out (len(posts)). An action
// depends only on its own post, edits and reveals and on the earlier
// actions of the same player and type, so each player and type is judged
// in order on its own, and on a large ledger several are judged at once:
// out is the same as judged one by one.
func (g Game) judgeAll(posts []Post, edits map[int64][]Edit, reveals map[int64][]Reveal, at time.Time, out []Action) {
	type key struct{ player, actionType string }
	groupOf := make(map[key]int)
	var groups [][]int // each group's positions in posts, in order
	for i, p := range posts {
		k := key{p.Player, p.ActionType}
		n, ok := groupOf[k]
		if !ok {
			n = len(groups)
			groupOf[k] = n
			groups = append(groups, nil)
		}
		groups[n] = append(groups[n], i)
	}
	judgeGroup := func(group []int) {
		var live []*Action // the earlier actions that may still be outstanding
		for _, i := range group {
			p := posts[i]
			out[i] = g.judgeOne(p, edits[p.Index], reveals[p.Index], &live, at)
			live = append(live, &out[i])
		}
	}
	workers := min(runtime.GOMAXPROCS(0), len(groups))
	if len(posts) < parallelFrom || workers < 2 {
		for _, group := range groups {
			judgeGroup(group)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := next.Add(1) - 1; n < int64(len(groups)); n = next.Add(1) - 1 {
				judgeGroup(groups[n])
			}
		}()
	}
	wg.Wait()
}

// happened reports whether the entry's time of post is at or before at.
func happened(s Stamp, at time.Time) bool {
	t, _ := s.Time()
	return !t.After(at)
}

// byStamp orders entries by time of post, then ledger index.
func byStamp(a, b Stamp) int {
	ta, _ := a.Time()
	tb, _ := b.Time()
	return cmp.Or(ta.Compare(tb), cmp.Compare(a.Index, b.Index))
}

// Taken reports whether the action was taken at all: one posted in the
// wrong channel (WrongChannel) or outside its phase (WrongPhase) was never
// taken, has no maturation or revelation date, is no attempt for reading
// S1 and does not move a week's conclusion.
func (a *Action) Taken() bool {
	return a.Failure == nil || (a.Failure.Reason != WrongChannel && a.Failure.Reason != WrongPhase)
}

// outstandingAt reports whether a is outstanding at t (reading S1): an
// attempt not failed at or before t, not revealed at or before t, and whose
// revelation date is after t.
func (a *Action) outstandingAt(t time.Time) bool {
	if !a.Taken() || (a.Failure != nil && !a.Failure.At.After(t)) || !t.Before(a.Revelation) {
		return false
	}
	if a.State == Revealed {
		rt, _ := a.Reveal.Time()
		return rt.After(t)
	}
	return true
}

// judgeOne judges post p given its edits and reveals and live, the earlier
// actions of the same player and type (in time order) that may still be
// outstanding. Posts come in time order and an action no longer
// outstanding at one instant is not outstanding at any later one
// (Action.outstandingAt), so judgeOne drops from live those it finds not
// outstanding: each earlier action is looked at until it stops being
// outstanding, not once per later post.
func (g Game) judgeOne(p Post, edits []Edit, reveals []Reveal, live *[]*Action, at time.Time) Action {
	thr := g.gapThreshold()
	s := g.SettingsFor(p.ActionType)
	posted := entryTime("post", p.Stamp, thr)
	a := Action{Post: p, Posted: posted, Settings: s}
	note := func(rule, reading, text string, times ...TimeUsed) {
		a.Decisions = append(a.Decisions, Explanation{Rule: rule, Reading: reading, Text: text, Times: times})
	}
	fail := func(r Reason, t time.Time, rule, reading, text string, times ...TimeUsed) {
		a.State = Failed
		a.Failure = &Failure{Reason: r, At: t, Why: Explanation{Rule: rule, Reading: reading, Text: text, Times: times}}
		note(rule, reading, "fails: "+text, times...)
	}
	// The texts every post gets are concatenated, not formatted with fmt:
	// they are most of the judge's time on a large ledger.
	src := "posted at " + posted.At.UTC().Format(time.RFC3339) + " (" + string(posted.Source) + ")"
	if posted.Gap != 0 {
		src += "; the ledger integrated it " + FormatGap(posted.Gap) + " later"
	}

	// Not taken at all: wrong channel or phase. Such an action has no
	// maturation or revelation date, and its edits and reveals are moot.
	if r, text := g.NotTaken(p.ActionType, p.Channel, posted.At); r != "" {
		rule, reading := RuleChannel, ""
		if r == WrongPhase {
			rule, reading = RulePhases, ReadingCalendar
		}
		note(rule, reading, src+"; never taken, so it has no maturation or revelation date", posted)
		fail(r, posted.At, rule, reading, text, posted)
		return a
	}

	a.Maturation = g.MaturationDate(p.ActionType, posted.At)
	a.Revelation = g.RevelationDate(p.ActionType, a.Maturation)
	mat, rev := derivedTime("maturation date", a.Maturation), derivedTime("revelation date", a.Revelation)
	note(RuleMaturation, ReadingCalendar, src+"; matures "+a.Maturation.UTC().Format(time.RFC3339)+
		", revelation date "+a.Revelation.UTC().Format(time.RFC3339), posted, mat, rev)

	// S1: the new attempt fails while one of the same player and type is
	// outstanding.
	for k, q := range *live {
		if !q.outstandingAt(posted.At) {
			continue
		}
		*live = (*live)[k:] // those before q are outstanding no more
		fail(AttemptOutstanding, posted.At, RuleNewAttempt, ReadingNewAttemptFails,
			p.Player+"'s "+p.ActionType+" action posted at ledger index "+strconv.FormatInt(q.Post.Index, 10)+
				" was still outstanding (not failed, not revealed, revelation date "+q.Revelation.UTC().Format(time.RFC3339)+" not passed)",
			posted, q.Posted, derivedTime("revelation date of the outstanding attempt", q.Revelation))
		return a
	}
	*live = (*live)[:0]

	// Edits and reveals in time order; an edit before maturation fails the
	// action at the edit (S4).
	type event struct {
		st   Stamp
		edit *Edit
		rev  *Reveal
	}
	var evs []event
	for i := range edits {
		evs = append(evs, event{st: edits[i].Stamp, edit: &edits[i]})
	}
	for i := range reveals {
		evs = append(evs, event{st: reveals[i].Stamp, rev: &reveals[i]})
	}
	slices.SortFunc(evs, func(x, y event) int { return byStamp(x.st, y.st) })
	var uncounted []string // reveals that did not count, for the failure text
	for _, ev := range evs {
		t := entryTime("edit", ev.st, thr)
		if ev.rev != nil {
			t.What = "reveal"
		}
		// An edit or reveal stamped before the post it names cannot have
		// happened (a mistyped posted_at): it is ignored, with a warning.
		if t.At.Before(posted.At) {
			rule := RuleEdited
			if ev.rev != nil {
				rule = RuleReveal
			}
			note(rule, "", fmt.Sprintf("warning: %s at ledger index %d is timed %s, before the post it names (%s): it cannot have happened before the post, so it is ignored",
				t.What, ev.st.Index, t.At.UTC().Format(time.RFC3339), posted.At.UTC().Format(time.RFC3339)), t, posted)
			if ev.rev != nil {
				uncounted = append(uncounted, a.Decisions[len(a.Decisions)-1].Text)
			}
			continue
		}
		if ev.edit != nil {
			switch {
			case ev.edit.Player != p.Player:
				// Only the message's author can edit it: an edit entry
				// naming someone else's post is a mistake or an attack on
				// their action, and changes nothing.
				note(RuleEdited, ReadingEditBeforeMature, fmt.Sprintf("warning: edit at ledger index %d is by %s, but the post is %s's: only its author can edit a message, so it changes nothing", ev.st.Index, ev.edit.Player, p.Player), t)
			case a.State == Failed || a.State == Revealed:
				note(RuleEdited, ReadingEditBeforeMature, fmt.Sprintf("edit at ledger index %d after the action was %s: changes nothing", ev.st.Index, a.State), t)
			case t.At.Before(a.Maturation):
				fail(EditedBeforeMaturation, t.At, RuleEdited, ReadingEditBeforeMature, fmt.Sprintf("the post holding the hash was edited (ledger index %d) before its maturation date", ev.st.Index), t, mat)
			default:
				note(RuleEdited, ReadingEditBeforeMature, fmt.Sprintf("edit at ledger index %d on or after the maturation date: changes nothing", ev.st.Index), t, mat)
			}
			continue
		}
		r := ev.rev
		res := commit.Verify(p.Commitment, r.Text)
		switch {
		case a.State == Failed || a.State == Revealed:
			note(RuleReveal, "", fmt.Sprintf("reveal at ledger index %d after the action was %s: does not count", r.Index, a.State), t)
		case r.Player != p.Player:
			note(RuleReveal, "", fmt.Sprintf("reveal at ledger index %d is by %s, not by %s who took the action: does not count", r.Index, r.Player, p.Player), t)
			uncounted = append(uncounted, a.Decisions[len(a.Decisions)-1].Text)
		case !res.Match:
			text := fmt.Sprintf("reveal at ledger index %d does not hash to the commitment (it hashes to %s): does not count", r.Index, res.Got)
			if len(res.Hints) > 0 {
				var names []string
				for _, h := range res.Hints {
					names = append(names, h.Name)
				}
				text += "; it would have matched with: " + strings.Join(names, "; ")
			}
			note(RuleReveal, ReadingRevealMustMatch, text, t)
			uncounted = append(uncounted, a.Decisions[len(a.Decisions)-1].Text)
		case t.At.Before(a.Maturation):
			note(RuleReveal, ReadingRevealWindow, fmt.Sprintf("warning: reveal at ledger index %d came before the maturation date: logged, does not count; reveal again between maturation and revelation date", r.Index), t, mat)
			uncounted = append(uncounted, a.Decisions[len(a.Decisions)-1].Text)
		case !t.At.Before(a.Revelation):
			note(RuleReveal, ReadingRevealWindow, fmt.Sprintf("reveal at ledger index %d came at or after the revelation date: late, does not count", r.Index), t, rev)
			uncounted = append(uncounted, a.Decisions[len(a.Decisions)-1].Text)
		default:
			a.Reveal = r
			a.State = Revealed
			note(RuleReveal, ReadingRevealWindow, fmt.Sprintf("reveal at ledger index %d matches the commitment and came between maturation and revelation date: counts", r.Index), t, mat, rev)
			g.readDeclaration(&a, r, t, fail, note)
		}
	}
	if a.State == "" && !at.Before(a.Revelation) {
		text := p.Player + " had not revealed the text at the revelation date"
		if len(uncounted) > 0 {
			text += "; reveals that did not count: " + strings.Join(uncounted, "; ")
		}
		fail(NotRevealed, a.Revelation, RuleNotRevealed, ReadingRevealWindow, text, rev, derivedTime("at", at))
	}
	if a.State == "" {
		a.State = Pending
		if !at.Before(a.Maturation) {
			a.State = Matured
		}
	}
	return a
}

// readDeclaration splits the counted reveal into declaration and salt and,
// for bids and Hands, parses the declaration; an action whose text has no
// salt or does not parse unambiguously fails at the reveal.
func (g Game) readDeclaration(a *Action, r *Reveal, t TimeUsed,
	fail func(Reason, time.Time, string, string, string, ...TimeUsed), note func(string, string, string, ...TimeUsed)) {
	decl, salt, ok := commit.SplitSalt(r.Text)
	if ok {
		a.Salt = string(salt)
	}
	typ := a.Post.ActionType
	if typ != ActionBid && typ != ActionHand {
		if !ok {
			note(RuleDeclaration, "", fmt.Sprintf("warning: no salt can be told apart in the text; the declaration of %s %q action is not interpreted", strings.TrimSuffix(withArticle(typ), " "+typ), typ), t)
		}
		return
	}
	d, err := ParseDeclaration(typ, decl)
	if err != nil {
		fail(AmbiguousDeclaration, t.At, RuleDeclaration, "", err.Error(), t)
		return
	}
	if !ok {
		fail(NoSalt, t.At, RuleDeclaration, "", "the text declares the action but no salt follows it (want e.g. a last line \"salt: ...\")", t)
		return
	}
	// Text read as salt that is itself a statement makes the text ambiguous:
	// "bid 5 on lot 1\nbid 7 on lot 2\nxyz" declares one bid or two.
	for _, line := range bytes.Split(salt, []byte("\n")) {
		if _, err := ParseDeclaration(typ, line); err == nil {
			fail(AmbiguousDeclaration, t.At, RuleDeclaration, "", fmt.Sprintf(
				"ambiguous declaration: %q follows the declaration as salt but reads as a statement too; put the salt on a last line \"salt: ...\"", bytes.TrimSpace(line)), t)
			return
		}
	}
	a.Declaration = &d
}

// flagCopies flags each post whose commitment another player posted earlier.
func flagCopies(actions []Action) {
	// commitment -> the first action of each player who posted it, in
	// time order (one, nearly always)
	first := make(map[commit.Commitment][]int, len(actions))
	for i := range actions {
		a := &actions[i]
		firsts := first[a.Post.Commitment]
		// The flag names the earliest other player's post: firsts is in
		// time order, as actions are.
		seen, flagged := false, false
		for _, j := range firsts {
			if actions[j].Post.Player == a.Post.Player {
				seen = true
				continue
			}
			if !flagged {
				flagged = true
				a.Flags = append(a.Flags, copyFlag(&a.Post, &actions[j].Post))
			}
		}
		if !seen {
			first[a.Post.Commitment] = append(firsts, i)
		}
	}
}

// copyFlag is the flag of post p, whose commitment earlier, another
// player's post, has.
func copyFlag(p, earlier *Post) Flag {
	return Flag{Kind: CopiedCommitment, Earlier: earlier.Index, EarlierPlayer: earlier.Player, Text: fmt.Sprintf(
		"%s posted the same commitment %s at ledger index %d", earlier.Player, p.Commitment, earlier.Index)}
}

// flagSaltReuse flags each action whose revealed salt the same player
// revealed for an earlier action. Any reveal whose bytes hash to the
// commitment makes the salt public, counted or not.
func flagSaltReuse(actions []Action, reveals map[int64][]Reveal) {
	type key struct{ player, salt string }
	seen := map[key]int{}
	for i := range actions {
		a := &actions[i]
		salt, ok := revealedSalt(a, reveals)
		if !ok {
			continue
		}
		k := key{a.Post.Player, salt}
		if j, dup := seen[k]; dup {
			a.Flags = append(a.Flags, saltFlag(a, &actions[j], salt))
			continue
		}
		seen[k] = i
	}
}

// revealedSalt is the salt action a made public: its counted reveal's,
// else that of the first reveal hashing to its commitment that has one.
func revealedSalt(a *Action, reveals map[int64][]Reveal) (string, bool) {
	if a.Salt != "" {
		return a.Salt, true
	}
	for _, r := range reveals[a.Post.Index] {
		if commit.Sum(r.Text) == a.Post.Commitment {
			if _, s, found := commit.SplitSalt(r.Text); found {
				return string(s), true
			}
		}
	}
	return "", false
}

// saltFlag is the flag of action a, which reuses the salt of earlier, the
// same player's action.
func saltFlag(a, earlier *Action, salt string) Flag {
	return Flag{Kind: SaltReused, Earlier: earlier.Post.Index, EarlierPlayer: earlier.Post.Player, Text: fmt.Sprintf(
		"%s reuses the salt %q revealed for the action posted at ledger index %d: anyone who saw that reveal can brute-force this commitment",
		a.Post.Player, salt, earlier.Post.Index)}
}
