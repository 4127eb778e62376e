package ledger_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"regexp"
	"testing"
	"time"

	"github.com/gowebpki/jcs"

	"github.com/sealedhq/sealed/ledger"
)

// checkParseBody: ParseBody never panics; what it refuses it refuses with
// a *BodyError; what it accepts, marshalled again (as AppendBody and the
// stored leaf do), is accepted again as the same body, and the RFC 8785
// form of the two marshallings is the same (the normalised form is a
// fixed point).
func checkParseBody(t *testing.T, data []byte) {
	b, err := ledger.ParseBody(data)
	if err != nil {
		var be *ledger.BodyError
		if !errors.As(err, &be) {
			t.Fatalf("%q: error %T %v, not a *ledger.BodyError", data, err, err)
		}
		if b != nil {
			t.Fatalf("%q: refused (%v) but returned a body", data, err)
		}
		return
	}
	m1, err := json.Marshal(b)
	if err != nil {
		t.Fatalf("%q: accepted, but the body does not marshal: %v", data, err)
	}
	b2, err := ledger.ParseBody(m1)
	if err != nil {
		t.Fatalf("%q: accepted as %s, which is refused: %v", data, m1, err)
	}
	m2, err := json.Marshal(b2)
	if err != nil {
		t.Fatal(err)
	}
	c1, err1 := jcs.Transform(m1)
	c2, err2 := jcs.Transform(m2)
	if err1 != nil || err2 != nil {
		t.Fatalf("%q: canonical form: %v, %v", data, err1, err2)
	}
	if !bytes.Equal(c1, c2) {
		t.Fatalf("%q: accepted as\n%s\nwhich re-parses as\n%s", data, c1, c2)
	}
}

// TestParseBodySeeds runs checkParseBody on the seeds of FuzzParseBody.
func TestParseBodySeeds(t *testing.T) {
	accepted := 0
	for _, s := range prepareSeeds(t) {
		if _, err := ledger.ParseBody([]byte(s)); err == nil {
			accepted++
		}
		checkParseBody(t, []byte(s))
	}
	if accepted < 14 {
		t.Errorf("only %d seed bodies were accepted", accepted)
	}
}

// FuzzParseBody: checkParseBody on mutated bodies
// (go test -run '^$' -fuzz '^FuzzParseBody$' ./ledger).
func FuzzParseBody(f *testing.F) {
	for _, s := range prepareSeeds(f) {
		f.Add([]byte(s))
	}
	f.Add([]byte(`{"kind":"commit","player":"ann","action_type":"bid","channel":"c","commitment":"` + hashA + `","posted_at":"1677-09-21T00:12:43.145224192Z"}`))
	f.Add([]byte(`{"kind":"commit","player":"ann","action_type":"bid","channel":"c","commitment":"` + hashA + `","posted_at":"2262-04-11t23:47:16.854775807z"}`))
	f.Fuzz(checkParseBody)
}

// rfc3339 is the date-time production of RFC 3339 section 5.6 (with
// section 5.6's note that "T" and "Z" may be lowercase).
var rfc3339 = regexp.MustCompile(`^[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt][0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?([Zz]|[+-][0-9]{2}:[0-9]{2})$`)

// checkParseTime: ParseTime accepts only RFC 3339 date-times with at most
// nine fractional digits, and what it accepts, formatted again in RFC
// 3339, parses to the same instant.
func checkParseTime(t *testing.T, s string) {
	tm, err := ledger.ParseTime(s)
	if err != nil {
		return
	}
	if !rfc3339.MatchString(s) {
		t.Fatalf("%q accepted as %v but is not an RFC 3339 date-time", s, tm)
	}
	if m := regexp.MustCompile(`\.([0-9]+)`).FindStringSubmatch(s); m != nil && len(m[1]) > 9 {
		t.Fatalf("%q accepted with %d fractional digits", s, len(m[1]))
	}
	again, err := ledger.ParseTime(tm.Format(time.RFC3339Nano))
	if err != nil || !again.Equal(tm) {
		t.Fatalf("%q: parsed as %v, formatted %q, parsed again as %v (%v)", s, tm, tm.Format(time.RFC3339Nano), again, err)
	}
}

// FuzzParseTime: checkParseTime
// (go test -run '^$' -fuzz '^FuzzParseTime$' ./ledger).
func FuzzParseTime(f *testing.F) {
	for _, s := range []string{
		"2025-03-03T09:15:00Z", "2025-03-03t09:15:00z", "2025-03-03T10:15:00.5+01:00",
		"2025-03-03T10:15:00.123456789-23:59", "2025-03-03T10:15:00.1234567890Z",
		"0000-01-01T00:00:00Z", "9999-12-31T23:59:59.999999999+00:00", "2025-02-29T00:00:00Z",
		"2025-03-03T24:00:00Z", "2025-03-03T09:15:60Z", "2025-03-03 09:15:00Z", ".", "", "2025-03-03T09:15:00.Z",
	} {
		f.Add(s)
	}
	f.Fuzz(checkParseTime)
}
