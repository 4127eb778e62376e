package secret

import (
	"fmt"
	"regexp"
	"strconv"
	"time"
)

// Phase is one of the game's two weekly phases (seed 004, amended rule
// "Phases"; docs/design.md reading S5). The zero value is NoPhase, which Settings
// use to mean "any phase".
type Phase int

const (
	// NoPhase is not a phase of the calendar; in Settings it means an action
	// may be taken in any phase.
	NoPhase Phase = iota
	// Auction is the Auction Phase: Monday 00:00 to Thursday 00:00 local.
	Auction
	// Bartering is the Bartering Phase: Thursday 00:00 to Monday 00:00 local.
	Bartering
)

// String returns "auction", "bartering" or "none".
func (p Phase) String() string {
	switch p {
	case Auction:
		return "auction"
	case Bartering:
		return "bartering"
	}
	return "none"
}

// MarshalText encodes the phase as its String, for JSON output.
func (p Phase) MarshalText() ([]byte, error) { return []byte(p.String()), nil }

// Calendar is the game's weekly phase calendar in one IANA time zone (seed
// 004, rule "Phases": the Auction Phase is Monday, Tuesday and Wednesday, the
// Bartering Phase Thursday to Sunday; docs/design.md reading S5). Phases start at
// local midnight. All inputs and outputs are instants (time.Time); the zone
// is used only to find local midnights and calendar days, so daylight-saving
// changes are handled by the zone's rules.
//
// Location nil means UTC. A local date and time names the first instant at
// which the zone's clock reads it or later (Date): where a zone skips local
// midnight (a DST change at 00:00) a phase starts at the first instant of
// the new day, and where midnight happens twice (clocks turned back to
// 00:00) at the first of the two.
type Calendar struct {
	Location *time.Location
}

// Loc returns the calendar's zone: Location, or time.UTC when nil.
func (c Calendar) Loc() *time.Location {
	if c.Location == nil {
		return time.UTC
	}
	return c.Location
}

// maxOffset bounds the distance between a local wall time read as UTC and
// the instant it names: no zone's offset from UTC, local mean times of the
// nineteenth century included, reaches 16 hours (tzdata's largest is
// America/Sitka's +14:58:47 before 1867).
const maxOffset = 16 * time.Hour

// Date returns the instant a local date and time names in the calendar's
// zone: the first instant at which the zone's clock reads that date and
// time or later (reading S5, docs/secret-actions.md "Times"). Month, day,
// hour, minute, second and nanosecond may be out of range and are
// normalised as by time.Date (day 32 of January is 1 February).
//
// Most local times happen once and this is that instant. Where clocks are
// turned back, a time that happens twice names the first of the two (in
// Atlantic/Azores 2026-10-25 00:00 is 00:00Z, not 01:00Z). Where clocks jump
// forward, a time that never happens names the first instant after the jump
// (in America/Santiago Sunday 2026-09-06 00:00 is 01:00 -03, 04:00Z, the
// first instant of that Sunday; in America/New_York 2026-03-08 02:30 is
// 03:00 EDT). Unlike time.Date, whose choice in both cases is unspecified
// and depends on the zone's offset, the answer never falls on the wrong
// side of the named time: the local clock never reads it, or later, before
// the instant returned.
func (c Calendar) Date(year int, month time.Month, day, hour, min, sec, nsec int) time.Time {
	loc := c.Loc()
	// The wall time as if it were UTC: w - offset is the instant when the
	// offset is in force then.
	w := time.Date(year, month, day, hour, min, sec, nsec, time.UTC)
	// Walk the zone's periods of constant offset from well before any
	// instant the clock could read w: within a period the clock reads w or
	// later from max(period start, w - offset) on, so the first period
	// where that comes before the period's end holds the answer.
	from := w.Add(-maxOffset)
	for {
		lt := from.In(loc)
		_, off := lt.Zone()
		_, end := lt.ZoneBounds()
		at := w.Add(-time.Duration(off) * time.Second)
		if at.Before(from) {
			at = from
		}
		if end.IsZero() || at.Before(end) || !end.After(from) {
			return at.In(loc)
		}
		from = end
	}
}

// midnight returns the first instant of day (y, m, d) in the calendar's
// zone, local 00:00 as Date reads it; d may be out of range and is
// normalised.
func (c Calendar) midnight(y int, m time.Month, d int) time.Time {
	return c.Date(y, m, d, 0, 0, 0, 0)
}

// weekOf returns the Monday 00:00 that starts the week holding t, the
// Thursday 00:00 inside it and the next Monday 00:00, as instants, with
// monday <= t < next.
func (c Calendar) weekOf(t time.Time) (monday, thursday, next time.Time) {
	lt := t.In(c.Loc())
	y, m, d := lt.Date()
	d -= (int(lt.Weekday()) + 6) % 7 // back to Monday
	for {
		monday, next = c.midnight(y, m, d), c.midnight(y, m, d+7)
		switch {
		case t.Before(monday):
			d -= 7
		case !t.Before(next):
			d += 7
		default:
			return monday, c.midnight(y, m, d+3), next
		}
	}
}

// PhaseAt returns the phase that holds the instant t and that phase's start
// (inclusive) and end (exclusive), as instants.
func (c Calendar) PhaseAt(t time.Time) (p Phase, start, end time.Time) {
	monday, thursday, next := c.weekOf(t)
	if t.Before(thursday) {
		return Auction, monday, thursday
	}
	return Bartering, thursday, next
}

// NextPhaseStart returns the start of the first phase that begins strictly
// after t: the default maturation date of an action performed at t (seed
// 004, rule "Secret Information": "the beginning of the next rules-defined
// phase after the action's performance"; reading S5).
func (c Calendar) NextPhaseStart(t time.Time) time.Time {
	_, _, end := c.PhaseAt(t)
	return end
}

// NextStart returns the start of the first phase p that begins strictly
// after t: for Auction, the next Monday 00:00 local (the one after this
// week's when t is in the Auction Phase). It tells a player who posted
// outside an action's phase when they can post again (seed 004, rule
// "Phases"; reading S5). p must be Auction or Bartering; for NoPhase it
// returns t.
func (c Calendar) NextStart(p Phase, t time.Time) time.Time {
	if p != Auction && p != Bartering {
		return t
	}
	ph, _, end := c.PhaseAt(t)
	if ph != p {
		return end
	}
	_, _, end = c.PhaseAt(end) // the other phase, then p again
	return end
}

// AddDays returns the instant n calendar days after t at the same local wall
// time in the calendar's zone (so 71, 72 or 73 hours for n = 3 across a
// one-hour DST change). It implements the default revelation offset of
// reading S5. n may be negative; n = 0 gives t.
//
// Where that day has no such local time (clocks jump over it) or has it
// twice (clocks turned back), the answer is Date's: the first instant at
// which the clock reads that day and time or later. In America/Santiago,
// three days after Thursday 2026-09-03 00:00 -04 is Sunday 01:00 -03
// (2026-09-06T04:00Z), the first instant of Sunday, not Saturday 23:00 -04.
func (c Calendar) AddDays(t time.Time, n int) time.Time {
	lt := t.In(c.Loc())
	if n == 0 {
		return lt
	}
	y, m, d := lt.Date()
	return c.Date(y, m, d+n, lt.Hour(), lt.Minute(), lt.Second(), lt.Nanosecond())
}

// Week names a game week by its ISO 8601 year and week number (weeks start
// on Monday, like the game's Auction Phase), e.g. 2026-W13.
type Week struct {
	Year, Number int
}

// String formats the week as ISO 8601 "YYYY-Www", e.g. "2026-W13".
func (w Week) String() string { return fmt.Sprintf("%04d-W%02d", w.Year, w.Number) }

// ParseWeek parses "YYYY-Www" (ISO 8601 week date, week 01..53). It returns an
// error naming the expected form when s does not match or the week does not
// exist in that year.
func ParseWeek(s string) (Week, error) {
	m := weekPattern.FindStringSubmatch(s)
	if m == nil {
		return Week{}, fmt.Errorf("week %q: want ISO 8601 form YYYY-Www, e.g. 2026-W13", s)
	}
	y, _ := strconv.Atoi(m[1])
	n, _ := strconv.Atoi(m[2])
	w := Week{Year: y, Number: n}
	// The Thursday of a week fixes its ISO year: a week 53 that does not
	// exist lands in the next year's week 1.
	if n < 1 || (Calendar{}).WeekOf(Calendar{}.WeekStart(w).AddDate(0, 0, 3)) != w {
		return Week{}, fmt.Errorf("week %q: ISO year %d has no week %d", s, y, n)
	}
	return w, nil
}

var weekPattern = regexp.MustCompile(`^([0-9]{4})-W([0-9]{2})$`)

// WeekOf returns the ISO week holding t in the calendar's zone: the week
// whose start (WeekStart) is at or before t and whose next week's start is
// after t, so WeekOf agrees with PhaseAt even where clocks are turned back
// over a Monday midnight.
func (c Calendar) WeekOf(t time.Time) Week {
	monday, _, _ := c.weekOf(t)
	y, n := monday.In(c.Loc()).ISOWeek()
	return Week{Year: y, Number: n}
}

// WeekStart returns the instant the week starts: Monday 00:00 local, the
// start of its Auction Phase.
func (c Calendar) WeekStart(w Week) time.Time {
	// 4 January is always in ISO week 1.
	jan4 := time.Date(w.Year, time.January, 4, 0, 0, 0, 0, time.UTC)
	mondayOfWeek1 := 4 - (int(jan4.Weekday())+6)%7
	return c.midnight(w.Year, time.January, mondayOfWeek1+7*(w.Number-1))
}
