package secret

import (
	"testing"
	"time"
)

// Local times that a zone skips (clocks jump forward) or repeats (clocks
// turned back). Reading (docs/secret-actions.md, "Times"): a local date and
// time names the first instant at which the zone's clock reads it or later,
// so a skipped midnight is the first instant of the new day and a repeated
// one the first of the two.
//
// Every expected instant comes from outside the code: from the
// transitions zdump prints (tzdata 2025b), worked by hand, and from
// Python's zoneinfo, which converts UTC to local time exactly. The script
// below scans minutes for the first UTC instant whose local time is at or
// after the target; for the midnights it agrees with zoneinfo's fold=0
// (datetime(2026,9,6,tzinfo=ZoneInfo("America/Santiago")) -> 04:00Z):
//
//	import zoneinfo, datetime as d
//	def first(zone, target):
//	    z, t = zoneinfo.ZoneInfo(zone), target.replace(tzinfo=d.timezone.utc) - d.timedelta(hours=16)
//	    while t.astimezone(z).replace(tzinfo=None) < target: t += d.timedelta(minutes=1)
//	    return t
//	first("America/Santiago", d.datetime(2026, 9, 6))  # 2026-09-06 04:00 UTC
//
//	zdump -v -c 2026,2027 America/Santiago America/Havana America/New_York Europe/Berlin
//	  America/Santiago Sun Sep  6 03:59:59 2026 UT = Sat Sep  5 23:59:59 2026 -04
//	  America/Santiago Sun Sep  6 04:00:00 2026 UT = Sun Sep  6 01:00:00 2026 -03
//	  America/Havana   Sun Mar  8 04:59:59 2026 UT = Sat Mar  7 23:59:59 2026 CST
//	  America/Havana   Sun Mar  8 05:00:00 2026 UT = Sun Mar  8 01:00:00 2026 CDT
//	  America/Havana   Sun Nov  1 04:59:59 2026 UT = Sun Nov  1 00:59:59 2026 CDT
//	  America/Havana   Sun Nov  1 05:00:00 2026 UT = Sun Nov  1 00:00:00 2026 CST
//	  America/New_York Sun Mar  8 06:59:59 2026 UT = Sun Mar  8 01:59:59 2026 EST
//	  America/New_York Sun Mar  8 07:00:00 2026 UT = Sun Mar  8 03:00:00 2026 EDT
//	  Europe/Berlin    Sun Oct 25 00:59:59 2026 UT = Sun Oct 25 02:59:59 2026 CEST
//	  Europe/Berlin    Sun Oct 25 01:00:00 2026 UT = Sun Oct 25 02:00:00 2026 CET
//	zdump -v -c 2023,2024 Antarctica/Casey Antarctica/Vostok
//	  Antarctica/Casey  Wed Mar  8 15:59:59 2023 UT = Thu Mar  9 02:59:59 2023 +11
//	  Antarctica/Casey  Wed Mar  8 16:00:00 2023 UT = Thu Mar  9 00:00:00 2023 +08
//	  Antarctica/Vostok Sun Dec 17 18:59:59 2023 UT = Mon Dec 18 01:59:59 2023 +07
//	  Antarctica/Vostok Sun Dec 17 19:00:00 2023 UT = Mon Dec 18 00:00:00 2023 +05

// needTransition skips the test when the zone database in use does not
// have the transition the expectations were worked from (zdump above):
// the offset just before at must be before and the one at at must be after.
func needTransition(t *testing.T, c Calendar, at string, before, after int) {
	t.Helper()
	i := mustTime(t, at)
	_, b := i.Add(-time.Second).In(c.Loc()).Zone()
	_, a := i.In(c.Loc()).Zone()
	if b != before || a != after {
		t.Skipf("%v: offsets %d -> %d at %s in this zone database, the expectations assume %d -> %d", c.Loc(), b, a, at, before, after)
	}
}

func TestCalendarDateSkippedAndRepeated(t *testing.T) {
	for _, tc := range []struct {
		zone          string
		transition    string // an instant where the offset changes
		before, after int    // offsets (seconds) either side of it
		y             int
		m             time.Month
		d, hh, mm     int
		want          string
		why           string
	}{
		{"America/Santiago", "2026-09-06T04:00:00Z", -4 * 3600, -3 * 3600, 2026, 9, 6, 0, 0, "2026-09-06T04:00:00Z",
			"Sunday 00:00 skipped: the first instant of Sunday, 01:00 -03 (time.Date gave Saturday 23:00 -04)"},
		{"America/Havana", "2026-03-08T05:00:00Z", -5 * 3600, -4 * 3600, 2026, 3, 8, 0, 0, "2026-03-08T05:00:00Z",
			"Sunday 00:00 skipped: 01:00 CDT"},
		{"America/Havana", "2026-11-01T05:00:00Z", -4 * 3600, -5 * 3600, 2026, 11, 1, 0, 0, "2026-11-01T04:00:00Z",
			"Sunday 00:00 twice (00:00 CDT, then 00:00 CST): the first"},
		{"Antarctica/Casey", "2023-03-08T16:00:00Z", 11 * 3600, 8 * 3600, 2023, 3, 9, 0, 0, "2023-03-08T13:00:00Z",
			"Thursday 00:00 twice (+11, then +08, three hours later): the first"},
		{"Antarctica/Vostok", "2023-12-17T19:00:00Z", 7 * 3600, 5 * 3600, 2023, 12, 18, 0, 0, "2023-12-17T17:00:00Z",
			"Monday 00:00 twice (+07, then +05): the first"},
		{"America/New_York", "2026-03-08T07:00:00Z", -5 * 3600, -4 * 3600, 2026, 3, 8, 2, 30, "2026-03-08T07:00:00Z",
			"02:30 skipped: the clock reads 02:30 or later first at 03:00 EDT (time.Date gave 01:30 EST)"},
		{"Europe/Berlin", "2026-10-25T01:00:00Z", 2 * 3600, 1 * 3600, 2026, 10, 25, 2, 30, "2026-10-25T00:30:00Z",
			"02:30 twice: the first, 02:30 CEST (time.Date gave 02:30 CET)"},
	} {
		c := mustZone(t, tc.zone)
		t.Run(tc.zone+"/"+tc.want, func(t *testing.T) {
			needTransition(t, c, tc.transition, tc.before, tc.after)
			got := c.Date(tc.y, tc.m, tc.d, tc.hh, tc.mm, 0, 0)
			if want := mustTime(t, tc.want); !got.Equal(want) {
				t.Fatalf("Date(%d-%02d-%02d %02d:%02d) = %v (%v), want %v: %s", tc.y, tc.m, tc.d, tc.hh, tc.mm, got.UTC(), got, want, tc.why)
			}
			if got.Location() != c.Loc() {
				t.Fatalf("Date gave an instant in %v, want %v", got.Location(), c.Loc())
			}
			// The local clock never read the target, or later, before.
			civil := func(l time.Time) time.Time {
				return time.Date(l.Year(), l.Month(), l.Day(), l.Hour(), l.Minute(), l.Second(), 0, time.UTC)
			}
			if target := time.Date(tc.y, tc.m, tc.d, tc.hh, tc.mm, 0, 0, time.UTC); !civil(got.Add(-time.Second).In(c.Loc())).Before(target) {
				t.Fatalf("one second before %v the clock read %v, not before the target", got, got.Add(-time.Second).In(c.Loc()))
			}
		})
	}
	// Zones and times without a transition are what time.Date gives.
	for _, zone := range []string{"UTC", "Asia/Kolkata", "America/St_Johns", "Pacific/Chatham"} {
		c := mustZone(t, zone)
		for _, d := range []int{1, 60, 120, 200, 300} {
			want := time.Date(2026, 1, d, 13, 45, 7, 9, c.Loc())
			if got := c.Date(2026, 1, d, 13, 45, 7, 9); !got.Equal(want) {
				t.Errorf("%s day %d: Date = %v, want %v", zone, d, got, want)
			}
		}
	}
}

func TestCalendarSantiagoRevelation(t *testing.T) {
	// The newcomer trial's case: a bid posted Tuesday 2026-09-01 10:00 -04
	// in America/Santiago matures Thursday 00:00 -04 (04:00Z) and must be
	// revealed three calendar days later at local midnight; Sunday 00:00
	// does not exist there (00:00 -04 -> 01:00 -03), so the revelation date
	// is the first instant of Sunday, 01:00 -03 = 2026-09-06T04:00Z: 72
	// hours. A reveal at Saturday 23:30 -04 counts.
	c := mustZone(t, "America/Santiago")
	needTransition(t, c, "2026-09-06T04:00:00Z", -4*3600, -3*3600)
	g := Game{Calendar: c}
	m := g.MaturationDate(ActionBid, mustTime(t, "2026-09-01T10:00:00-04:00"))
	if want := mustTime(t, "2026-09-03T04:00:00Z"); !m.Equal(want) {
		t.Fatalf("maturation = %v, want %v", m.UTC(), want)
	}
	r := g.RevelationDate(ActionBid, m)
	if want := mustTime(t, "2026-09-06T04:00:00Z"); !r.Equal(want) {
		t.Fatalf("revelation = %v (%v), want %v", r.UTC(), r, want)
	}
	if got := r.In(c.Loc()).Weekday(); got != time.Sunday {
		t.Fatalf("revelation falls on %v, want Sunday", got)
	}
	v := reveal(t, "alice")
	h := History{
		Posts:   []Post{post(t, 1, "2026-09-01T14:00:00Z", "chi", ActionBid, "#auctions", v.commitment)},
		Reveals: []Reveal{rev(t, 2, "2026-09-06T03:30:00Z", 1, "chi", v.text)}, // Saturday 23:30 -04
	}
	wantState(t, action(t, judge(t, g, h, "2026-09-10T00:00:00Z"), 1), Revealed, "", "")
	// Without a reveal it fails at the first instant of Sunday.
	h.Reveals = nil
	wantState(t, action(t, judge(t, g, h, "2026-09-10T00:00:00Z"), 1), Failed, NotRevealed, "2026-09-06T04:00:00Z")
}

func TestCalendarOverlapRevelation(t *testing.T) {
	// Fall-back overlap on the revelation day: in America/Havana clocks go
	// back from Sunday 2026-11-01 01:00 CDT to 00:00 CST, so Sunday 00:00
	// happens at 04:00Z and again at 05:00Z. A bid posted Tuesday
	// 2026-10-27 matures Thursday 00:00 CDT (04:00Z) and must be revealed
	// before the first Sunday 00:00, 2026-11-01T04:00Z (72 h; the second
	// would give 73 h). A reveal at 04:30Z (00:30 CDT, Sunday already)
	// is late.
	c := mustZone(t, "America/Havana")
	needTransition(t, c, "2026-11-01T05:00:00Z", -4*3600, -5*3600)
	g := Game{Calendar: c}
	m := g.MaturationDate(ActionBid, mustTime(t, "2026-10-27T12:00:00-04:00"))
	r := g.RevelationDate(ActionBid, m)
	if !m.Equal(mustTime(t, "2026-10-29T04:00:00Z")) || !r.Equal(mustTime(t, "2026-11-01T04:00:00Z")) {
		t.Fatalf("dates %v, %v; want 2026-10-29T04:00Z, 2026-11-01T04:00Z", m.UTC(), r.UTC())
	}
	v := reveal(t, "alice")
	h := History{
		Posts:   []Post{post(t, 1, "2026-10-27T16:00:00Z", "ana", ActionBid, "#auctions", v.commitment)},
		Reveals: []Reveal{rev(t, 2, "2026-11-01T04:30:00Z", 1, "ana", v.text)},
	}
	wantState(t, action(t, judge(t, g, h, "2026-11-02T00:00:00Z"), 1), Failed, NotRevealed, "2026-11-01T04:00:00Z")

	// Fall-back overlap at a phase boundary: in Antarctica/Casey clocks went
	// back from Thursday 2023-03-09 03:00 +11 to 00:00 +08. The Bartering
	// Phase starts at the first Thursday 00:00, 2023-03-08T13:00Z, so a bid
	// posted at 14:00Z (Thursday 01:00 +11) is outside the Auction Phase,
	// and one posted Tuesday matures at 13:00Z.
	c = mustZone(t, "Antarctica/Casey")
	needTransition(t, c, "2023-03-08T16:00:00Z", 11*3600, 8*3600)
	g = Game{Calendar: c}
	if p, start, _ := c.PhaseAt(mustTime(t, "2023-03-08T14:00:00Z")); p != Bartering || !start.Equal(mustTime(t, "2023-03-08T13:00:00Z")) {
		t.Fatalf("PhaseAt(Thu 01:00 +11) = %v from %v, want bartering from 2023-03-08T13:00Z", p, start.UTC())
	}
	if m := g.MaturationDate(ActionBid, mustTime(t, "2023-03-07T12:00:00+11:00")); !m.Equal(mustTime(t, "2023-03-08T13:00:00Z")) {
		t.Fatalf("maturation = %v, want 2023-03-08T13:00Z", m.UTC())
	}
	if r, _ := g.NotTaken(ActionBid, AuctionsChannel, mustTime(t, "2023-03-08T14:00:00Z")); r != WrongPhase {
		t.Fatalf("a bid on Thursday 01:00 +11: %q, want %q", r, WrongPhase)
	}
	// Vostok: Monday 2023-12-18 00:00 twice (+07, then +05); the week
	// starts at the first, 2023-12-17T17:00Z.
	c = mustZone(t, "Antarctica/Vostok")
	needTransition(t, c, "2023-12-17T19:00:00Z", 7*3600, 5*3600)
	if got := c.WeekStart(Week{2023, 51}); !got.Equal(mustTime(t, "2023-12-17T17:00:00Z")) {
		t.Fatalf("WeekStart(2023-W51) = %v, want 2023-12-17T17:00Z", got.UTC())
	}
	if got := c.WeekOf(mustTime(t, "2023-12-17T18:00:00Z")); got != (Week{2023, 51}) {
		t.Fatalf("WeekOf(Monday 01:00 +07) = %v, want 2023-W51", got)
	}
}

func TestCalendarAddDaysAnyTime(t *testing.T) {
	// A maturation a fixed delay after the post can be any local time.
	// New York: Thursday 2026-03-05 02:30 EST (07:30Z) + 3 days is Sunday
	// 02:30, which clocks skip (01:59:59 EST -> 03:00 EDT): the deadline is
	// 03:00 EDT, 07:00Z (71.5 h), when the clock first reads 02:30 or later.
	c := mustZone(t, "America/New_York")
	needTransition(t, c, "2026-03-08T07:00:00Z", -5*3600, -4*3600)
	if got := c.AddDays(mustTime(t, "2026-03-05T07:30:00Z"), 3); !got.Equal(mustTime(t, "2026-03-08T07:00:00Z")) {
		t.Fatalf("AddDays(Thu 02:30 EST, 3) = %v (%v), want 2026-03-08T07:00Z", got.UTC(), got)
	}
	// Berlin: Thursday 2026-10-22 02:30 CEST (00:30Z) + 3 days is Sunday
	// 02:30, which happens twice (CEST, then CET): the first, 00:30Z (72 h).
	c = mustZone(t, "Europe/Berlin")
	needTransition(t, c, "2026-10-25T01:00:00Z", 2*3600, 1*3600)
	if got := c.AddDays(mustTime(t, "2026-10-22T00:30:00Z"), 3); !got.Equal(mustTime(t, "2026-10-25T00:30:00Z")) {
		t.Fatalf("AddDays(Thu 02:30 CEST, 3) = %v (%v), want 2026-10-25T00:30Z", got.UTC(), got)
	}
	// Through Game: a type maturing 1 h after its post, the revelation
	// three days later.
	g := Game{Calendar: c, Settings: map[string]Settings{"vote": {Maturation: MatureAfterDelay, MaturationDelay: time.Hour}}}
	m := g.MaturationDate("vote", mustTime(t, "2026-10-21T23:30:00Z"))
	if r := g.RevelationDate("vote", m); !r.Equal(mustTime(t, "2026-10-25T00:30:00Z")) {
		t.Fatalf("revelation = %v, want 2026-10-25T00:30Z", r.UTC())
	}
	// n = 0 is t itself, even the second of two equal local times.
	second := mustTime(t, "2026-10-25T01:30:00Z") // 02:30 CET
	if got := c.AddDays(second, 0); !got.Equal(second) {
		t.Fatalf("AddDays(t, 0) = %v, want %v", got.UTC(), second)
	}
}
