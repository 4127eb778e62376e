package ledger_test

import (
	"strings"
	"testing"

	"github.com/sealedhq/sealed/ledger"
)

// TestParseTime: RFC 3339 section 5.6 allows "t" and "z" in lowercase;
// a tenth fractional digit would be dropped by a nanosecond time, so it
// is refused. Expected instants worked by hand (an offset of -03:00 is
// three hours behind UTC).
func TestParseTime(t *testing.T) {
	for in, want := range map[string]string{
		"2026-03-03T09:15:00Z":           "2026-03-03T09:15:00.000000000Z",
		"2026-03-03t09:15:00z":           "2026-03-03T09:15:00.000000000Z",
		"2026-03-03T09:15:00.123456789z": "2026-03-03T09:15:00.123456789Z",
		"2026-03-03t06:15:00.5-03:00":    "2026-03-03T09:15:00.500000000Z",
		"1969-12-31T23:59:59.999999999Z": "1969-12-31T23:59:59.999999999Z",
	} {
		got, err := ledger.ParseTime(in)
		if err != nil {
			t.Errorf("%s: %v", in, err)
			continue
		}
		if s := got.UTC().Format(ledger.TimeLayout); s != want {
			t.Errorf("%s: %s, want %s", in, s, want)
		}
	}
	for in, msg := range map[string]string{
		"2026-03-03T09:15:00.1234567891Z": "10 fractional digits",
		"2026-03-03 09:15:00Z":            "not an RFC 3339 time",
		"yesterday":                       "not an RFC 3339 time",
		"2026-03-03T09:15:00":             "not an RFC 3339 time",
		// time.Parse takes a one-digit hour; RFC 3339 does not (trial
		// 10d, FuzzParseTime).
		"0000-01-01T0:00:00Z":      "not an RFC 3339 time",
		"2026-03-03T9:15:00+01:00": "not an RFC 3339 time",
		"2026-03-03T09:15:00.Z":    "not an RFC 3339 time",
		"2026-03-03T09:15:00+1:00": "not an RFC 3339 time",
	} {
		if _, err := ledger.ParseTime(in); err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("%s: %v, want an error saying %q", in, err, msg)
		}
	}
	// An entry's posted_at goes through it, stored in TimeLayout.
	b, err := ledger.ParseBody([]byte(`{"kind":"commit","player":"zoe","action_type":"bid","channel":"#auctions","commitment":"` + strings.Repeat("ab", 32) + `","posted_at":"2026-03-03t09:15:00z"}`))
	if err != nil || b.PostedAt != "2026-03-03T09:15:00.000000000Z" {
		t.Errorf("posted_at in lowercase: %+v, %v", b, err)
	}
	if _, err := ledger.ParseBody([]byte(`{"kind":"commit","player":"zoe","action_type":"bid","channel":"#auctions","commitment":"` + strings.Repeat("ab", 32) + `","posted_at":"2026-03-03T09:15:00.1234567891Z"}`)); err == nil {
		t.Error("posted_at with 10 fractional digits was accepted")
	}
}
