package web

import (
	"math/rand/v2"
	"testing"
	"time"
)

// TestTimeFormats: the fast time appenders give time.Format's text, for
// drawn instants in UTC and other zones, with and without nanoseconds, and
// at the edges of the years they handle themselves.
func TestTimeFormats(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	times := []time.Time{{}, time.Date(9999, 12, 31, 23, 59, 59, 999999999, time.UTC), time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(-1, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(2026, 3, 2, 9, 0, 0, 100, time.UTC), time.Date(2026, 3, 2, 9, 0, 0, 0, time.FixedZone("", 0))}
	for range 2000 {
		tm := time.Unix(rng.Int64N(1<<36)-1<<35, rng.Int64N(1e9))
		if rng.IntN(3) == 0 {
			tm = tm.Truncate(time.Duration(rng.IntN(4)) * time.Millisecond)
		}
		switch rng.IntN(3) {
		case 0:
			tm = tm.UTC()
		case 1:
			tm = tm.In(time.FixedZone("x", 3600*(rng.IntN(25)-12)))
		}
		times = append(times, tm)
	}
	for _, tm := range times {
		if got, want := string(appendRFC3339Nano(nil, tm)), tm.Format(time.RFC3339Nano); got != want {
			t.Errorf("appendRFC3339Nano(%v) = %s, want %s", tm, got, want)
		}
		if got, want := string(appendWhen(nil, tm)), tm.UTC().Format("2006-01-02 15:04:05 MST"); got != want {
			t.Errorf("appendWhen(%v) = %s, want %s", tm, got, want)
		}
	}
}
