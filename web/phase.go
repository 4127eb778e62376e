package web

import (
	"fmt"
	"time"

	"github.com/sealedhq/sealed/rules/secret"
)

// phaseWindow names a phase's weekly span (seed 004, amended rule
// "Phases"; docs/design.md, reading S5): the Auction Phase is Monday 00:00 to
// Thursday 00:00, the Bartering Phase Thursday 00:00 to Monday 00:00, local
// time in the calendar's zone.
func phaseWindow(p secret.Phase) (name, span string) {
	if p == secret.Auction {
		return "Auction Phase", "Monday 00:00 to Thursday 00:00"
	}
	return "Bartering Phase", "Thursday 00:00 to Monday 00:00"
}

// nextPhase returns whether the calendar is in phase p at t and, if so, when
// that phase ends; if not, when p next starts. Instants, exclusive ends.
func nextPhase(cal secret.Calendar, p secret.Phase, t time.Time) (now bool, at time.Time) {
	cur, _, end := cal.PhaseAt(t)
	if cur == p {
		return true, end
	}
	for at = end; ; at = cal.NextPhaseStart(at) { // two phases a week: at most one step
		if q, _, _ := cal.PhaseAt(at); q == p {
			return false, at
		}
	}
}

// localTime formats t in the calendar's zone, weekday first, to the minute:
// "Monday 2026-03-16 00:00 UTC".
func localTime(cal secret.Calendar, t time.Time) string {
	return t.In(cal.Loc()).Format("Monday 2006-01-02 15:04 MST")
}

// PhaseNote says, in one or two sentences, in which phase an action of
// actionType counts under g (seed 004, rule "Secret Information": an action
// taken outside its phase fails, reason secret.WrongPhase; bids and Hands
// belong to the Auction Phase) and where the calendar stands at now: the
// phase's end if it is on, else when it next starts, in the calendar's
// zone. For example, for a bid on Friday 2026-03-13 in UTC: "A bid counts
// only when its commitment is posted in the Auction Phase, Monday 00:00 to
// Thursday 00:00 UTC. It is the Bartering Phase now; the next Auction Phase
// starts Monday 2026-03-16 00:00 UTC." It returns "" for an action type
// allowed in any phase.
func PhaseNote(g secret.Game, actionType string, now time.Time) string {
	p := g.SettingsFor(actionType).Phase
	if p == secret.NoPhase {
		return ""
	}
	cal := g.Calendar
	name, span := phaseWindow(p)
	rule := fmt.Sprintf("A %s counts only when its commitment is posted in the %s, %s %s.", actionType, name, span, cal.Loc())
	on, at := nextPhase(cal, p, now)
	if on {
		return fmt.Sprintf("%s It is the %s now, until %s.", rule, name, localTime(cal, at))
	}
	cur, _, _ := cal.PhaseAt(now)
	curName, _ := phaseWindow(cur)
	return fmt.Sprintf("%s It is the %s now; the next %s starts %s.", rule, curName, name, localTime(cal, at))
}

// wrongPhaseHelp explains a failure for secret.WrongPhase to the player:
// the phase the action type needs and, as of now, when that phase next
// starts (or until when it runs), so a new commitment can be posted in it.
// "" for any other failure.
func wrongPhaseHelp(g secret.Game, a *secret.Action, now time.Time) string {
	if a.Failure == nil || a.Failure.Reason != secret.WrongPhase {
		return ""
	}
	p := g.SettingsFor(a.Post.ActionType).Phase
	if p == secret.NoPhase {
		return ""
	}
	cal := g.Calendar
	name, span := phaseWindow(p)
	on, at := nextPhase(cal, p, now)
	when := fmt.Sprintf("The next %s starts %s: post a new commitment then.", name, localTime(cal, at))
	if on {
		when = fmt.Sprintf("It is the %s now, until %s: post a new commitment now.", name, localTime(cal, at))
	}
	return fmt.Sprintf("A %s counts only when posted in the %s (%s %s); this one was posted outside it and cannot count. %s",
		a.Post.ActionType, name, span, cal.Loc(), when)
}

// phaseHelps remembers wrongPhaseHelp's text per action type for one
// judgement instant: the text depends only on the action type's phase, the
// calendar and that instant, so the commitments of a judgement share it
// instead of formatting it anew for each answer. A phaseHelps is never
// changed once published (Server.helps): a text not yet in it makes a
// copy with it added, so readers take no lock. At most maxPhaseHelps
// action types are remembered (the ones with a phase are the game's
// configured types); others are formatted each time.
type phaseHelps struct {
	at time.Time
	m  map[string]string
}

// maxPhaseHelps bounds a phaseHelps.
const maxPhaseHelps = 64

// phaseHelp is wrongPhaseHelp(s.o.Game, a, jd.at), remembered per action
// type for jd's instant.
func (s *Server) phaseHelp(jd *judgement, a *secret.Action) string {
	if a.Failure == nil || a.Failure.Reason != secret.WrongPhase {
		return ""
	}
	ph := s.helps.Load()
	if ph != nil && ph.at.Equal(jd.at) {
		if h, ok := ph.m[a.Post.ActionType]; ok {
			return h
		}
	}
	h := wrongPhaseHelp(s.o.Game, a, jd.at)
	next := &phaseHelps{at: jd.at, m: map[string]string{a.Post.ActionType: h}}
	if ph != nil && ph.at.Equal(jd.at) {
		if len(ph.m) >= maxPhaseHelps {
			return h
		}
		for k, v := range ph.m {
			next.m[k] = v
		}
	}
	s.helps.CompareAndSwap(ph, next) // lost to another answer: the next one adds it
	return h
}
