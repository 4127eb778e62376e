package secret

import (
	"testing"
	"time"
)

func TestFormatGap(t *testing.T) {
	for _, c := range []struct {
		d    time.Duration
		want string
	}{
		{30 * time.Minute, "30m0s"},
		{1500 * time.Millisecond, "2s"}, // rounded half away from zero
		{488*time.Hour + 55*time.Minute + 20701339419*time.Nanosecond, "20d 8h55m21s"}, // 20*24+8 = 488 hours
		{24 * time.Hour, "1d 0h0m0s"},
		// Under an hour past the days: the hours are still written (the
		// CLI's action_post script once failed between 09:00 and 10:00).
		{253*24*time.Hour + 18*time.Minute + 41*time.Second, "253d 0h18m41s"},
		{2*24*time.Hour + 5*time.Second, "2d 0h0m5s"},
	} {
		if got := FormatGap(c.d); got != c.want {
			t.Errorf("FormatGap(%v) = %q, want %q", c.d, got, c.want)
		}
	}
}
