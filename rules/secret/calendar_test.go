package secret

import (
	"testing"
	"time"
	_ "time/tzdata" // zones on a machine without a zoneinfo database
)

// The instants below were worked by hand and checked with GNU date and
// zdump, e.g.
//
//	date -d 2021-06-22 +%A                       # Tuesday
//	TZ=Asia/Jerusalem date -d '2026-03-26 00:00' +%s | xargs -I@ date -u -d @@ +%FT%TZ
//	                                             # 2026-03-25T22:00:00Z
//	zdump -v -c 2026,2027 Asia/Jerusalem Asia/Beirut
//	  Asia/Jerusalem  Fri Mar 27 00:00:00 2026 UT = Fri Mar 27 03:00:00 2026 IDT
//	  Asia/Beirut     Sat Oct 24 21:00:00 2026 UT = Sat Oct 24 23:00:00 2026 EET

func mustTime(t *testing.T, s string) time.Time {
	t.Helper()
	v, err := time.Parse(time.RFC3339, s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func mustZone(t *testing.T, name string) Calendar {
	t.Helper()
	loc, err := time.LoadLocation(name)
	if err != nil {
		t.Fatal(err)
	}
	return Calendar{Location: loc}
}

func TestCalendarDefaultUTC(t *testing.T) {
	var c Calendar                                // zero value: UTC
	posted := mustTime(t, "2021-06-22T23:30:00Z") // Tuesday 23:30
	p, start, end := c.PhaseAt(posted)
	if p != Auction || !start.Equal(mustTime(t, "2021-06-21T00:00:00Z")) || !end.Equal(mustTime(t, "2021-06-24T00:00:00Z")) {
		t.Fatalf("PhaseAt(Tue 23:30) = %v [%v, %v), want auction [Mon 2021-06-21, Thu 2021-06-24)", p, start, end)
	}
	g := Game{}
	m := g.MaturationDate(ActionBid, posted)
	if want := mustTime(t, "2021-06-24T00:00:00Z"); !m.Equal(want) { // Thursday 00:00
		t.Fatalf("maturation = %v, want %v", m, want)
	}
	r := g.RevelationDate(ActionBid, m)
	if want := mustTime(t, "2021-06-27T00:00:00Z"); !r.Equal(want) { // Sunday 00:00
		t.Fatalf("revelation = %v, want %v", r, want)
	}
	// The phase boundary itself belongs to the phase it starts.
	if p, _, _ := c.PhaseAt(m); p != Bartering {
		t.Fatalf("PhaseAt(Thu 00:00) = %v, want bartering", p)
	}
	if p, _, _ := c.PhaseAt(m.Add(-time.Nanosecond)); p != Auction {
		t.Fatalf("PhaseAt(Wed 23:59:59.999999999) = %v, want auction", p)
	}
	// From Bartering, the next phase is the next Monday's Auction.
	if got, want := c.NextPhaseStart(mustTime(t, "2021-06-27T12:00:00Z")), mustTime(t, "2021-06-28T00:00:00Z"); !got.Equal(want) {
		t.Fatalf("NextPhaseStart(Sun noon) = %v, want %v", got, want)
	}
}

func TestCalendarJerusalemDSTStart(t *testing.T) {
	// Israel starts DST on Friday 2026-03-27 (02:00 IST -> 03:00 IDT).
	g := Game{Calendar: mustZone(t, "Asia/Jerusalem")}
	posted := mustTime(t, "2026-03-24T12:00:00+02:00") // Tuesday, local noon
	m := g.MaturationDate(ActionBid, posted)
	if want := mustTime(t, "2026-03-25T22:00:00Z"); !m.Equal(want) {
		t.Fatalf("maturation = %v, want %v", m.UTC(), want)
	}
	r := g.RevelationDate(ActionBid, m)
	if want := mustTime(t, "2026-03-28T21:00:00Z"); !r.Equal(want) {
		t.Fatalf("revelation = %v, want %v", r.UTC(), want)
	}
	if h := r.Sub(m).Hours(); h != 71 {
		t.Fatalf("maturation to revelation = %vh, want 71h", h)
	}
}

func TestCalendarBeirutDSTEnd(t *testing.T) {
	// Lebanon ends DST at local midnight Saturday/Sunday 2026-10-25
	// (00:00 EEST -> 23:00 EET), inside Thursday..Sunday.
	g := Game{Calendar: mustZone(t, "Asia/Beirut")}
	posted := mustTime(t, "2026-10-20T12:00:00+03:00") // Tuesday
	m := g.MaturationDate(ActionHand, posted)
	if want := mustTime(t, "2026-10-21T21:00:00Z"); !m.Equal(want) { // Thu 00:00 EEST
		t.Fatalf("maturation = %v, want %v", m.UTC(), want)
	}
	r := g.RevelationDate(ActionHand, m)
	if want := mustTime(t, "2026-10-24T22:00:00Z"); !r.Equal(want) { // Sun 00:00 EET
		t.Fatalf("revelation = %v, want %v", r.UTC(), want)
	}
	if h := r.Sub(m).Hours(); h != 73 {
		t.Fatalf("maturation to revelation = %vh, want 73h", h)
	}
	// Saturday 23:30 local happens twice that night; both are Bartering and
	// the next phase is Monday 00:00 EET = 2026-10-25T22:00Z.
	for _, s := range []string{"2026-10-24T20:30:00Z", "2026-10-24T21:30:00Z"} {
		p, _, end := g.Calendar.PhaseAt(mustTime(t, s))
		if p != Bartering || !end.Equal(mustTime(t, "2026-10-25T22:00:00Z")) {
			t.Fatalf("PhaseAt(%s) = %v ending %v, want bartering ending 2026-10-25T22:00Z", s, p, end.UTC())
		}
	}
}

func TestRevelationDaysSetting(t *testing.T) {
	g := Game{Settings: map[string]Settings{ActionBid: {Channel: AuctionsChannel, RevelationDays: 1}}}
	m := mustTime(t, "2021-06-24T00:00:00Z")
	if got, want := g.RevelationDate(ActionBid, m), mustTime(t, "2021-06-25T00:00:00Z"); !got.Equal(want) {
		t.Fatalf("revelation with 1 day = %v, want %v", got, want)
	}
	if got := g.SettingsFor(ActionHand).Channel; got != DefaultChannel {
		t.Fatalf("unconfigured hand channel = %q, want %q", got, DefaultChannel)
	}
	if err := (Settings{RevelationDays: -1}).Validate(); err == nil {
		t.Fatal("negative revelation offset accepted")
	}
}

func TestWeeks(t *testing.T) {
	// date -d 2026-03-24 +%G-W%V  # 2026-W13
	c := mustZone(t, "Asia/Jerusalem")
	if got := c.WeekOf(mustTime(t, "2026-03-24T12:00:00+02:00")); got != (Week{2026, 13}) {
		t.Fatalf("WeekOf = %v, want 2026-W13", got)
	}
	// TZ=Asia/Jerusalem date -d '2026-03-23 00:00' -> 2026-03-22T22:00:00Z
	if got, want := c.WeekStart(Week{2026, 13}), mustTime(t, "2026-03-22T22:00:00Z"); !got.Equal(want) {
		t.Fatalf("WeekStart(2026-W13) = %v, want %v", got.UTC(), want)
	}
	for _, tc := range []struct {
		in string
		ok bool
	}{
		{"2026-W13", true}, {"2020-W53", true}, // date -d 2020-12-31 +%G-W%V
		{"2021-W53", false}, {"2026-W00", false}, {"2026-13", false}, {"2026-W1", false}, {"+026-W13", false},
	} {
		w, err := ParseWeek(tc.in)
		if (err == nil) != tc.ok {
			t.Errorf("ParseWeek(%q) = %v, %v; want ok=%v", tc.in, w, err, tc.ok)
		}
		if err == nil && w.String() != tc.in {
			t.Errorf("ParseWeek(%q).String() = %q", tc.in, w.String())
		}
	}
}
