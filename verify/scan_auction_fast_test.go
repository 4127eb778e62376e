package verify

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

	json "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/sealedhq/sealed/rules/auction"
)

// The auction fast path (scan_auction_event.go) reads events written as
// auction.Replay.Encode writes them and must give the reference decoder's
// values; these tests hold it to the reference on short inputs, on every
// event of real replays, and on every cut and one-byte change of a
// sample replay.

// auctionSamples are replays `sealed replay play auction` would write:
// the default 5-seat table with every bot (talk, bids, ties, idle seats),
// and the example in testdata (3 seats).
func auctionSamples(t *testing.T) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	r := handReplay(t, auction.DefaultConfig(), "truthful", "shading", "random", "idle", "random")
	d, err := r.Encode()
	if err != nil {
		t.Fatal(err)
	}
	out["default"] = d
	out["example"] = []byte(readTestdata(t, "auction_example.json"))
	return out
}

// TestAuctionFastEventsReadTheSamples: the fast path, not the general
// member loop, reads every event of the sample replays, and reads each as
// the reference decoder does.
func TestAuctionFastEventsReadTheSamples(t *testing.T) {
	for name, d := range auctionSamples(t) {
		var w struct {
			Events []jsontext.Value `json:"events"`
		}
		if err := json.Unmarshal(d, &w); err != nil {
			t.Fatal(err)
		}
		if len(w.Events) < 20 {
			t.Fatalf("%s: %d events", name, len(w.Events))
		}
		for i, raw := range w.Events {
			s := getScanner(d)
			s.i = bytes.Index(d, raw)
			var ev auction.Event
			if !s.auctionEventFast(&ev) {
				t.Errorf("%s: event %d %s read by the general loop", name, i, raw)
			} else if s.i != bytes.Index(d, raw)+len(raw) {
				t.Errorf("%s: event %d %s read up to %d", name, i, raw, s.i)
			}
			var ref auction.Event
			if err := json.Unmarshal(raw, &ref, strictOptions); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(ev, ref) {
				t.Errorf("%s: event %d %s read as %+v; reference %+v", name, i, raw, ev, ref)
			}
			s.release()
		}
	}
}

// TestAuctionEventFastMatchesReference: events built from the members of
// every event type, with values at the edges of the fast integer reader
// (signs, zeros, 18 and 19 digits, leading zeros), other orders,
// duplicates, unknown names and whitespace, and every prefix of each:
// whenever auctionEventFast reads one, the reference reads the same value
// and the same length.
func TestAuctionEventFastMatchesReference(t *testing.T) {
	ints := []string{"0", "7", "-1", "-0", "00", "01", "42", "-42", "999999999999999999", "-999999999999999999",
		"9223372036854775807", "9223372036854775808", "1e2", "1.0", "+1", " 1", "1 "}
	var events []string
	for _, v := range ints {
		events = append(events,
			`{"type":"item_up","item":`+v+`}`,
			`{"type":"value_private","item":1,"seat":`+v+`,"value":`+v+`}`,
			`{"type":"bid_placed","item":1,"seat":0,"amount":`+v+`}`,
			`{"type":"item_result","item":2,"winner":1,"price":`+v+`,"value":9,"profit":`+v+`,"tie_break":true}`,
			`{"type":"bids_revealed","item":1,"bids":[{"seat":0,"amount":`+v+`},{"seat":1,"amount":3}]}`,
			`{"type":"profit_update","item":1,"players":[{"seat":0,"credits":`+v+`,"profit":`+v+`,"items_won":0}]}`,
			`{"type":"auction_end","players":[{"seat":`+v+`,"credits":1,"profit":2,"items_won":3},{"seat":1,"credits":1,"profit":2,"items_won":3}]}`,
		)
	}
	events = append(events,
		`{"type":"action","item":1,"seat":0,"action":"say","message":"Item 1 is worth 20 to me."}`,
		`{"type":"action","item":1,"seat":0,"action":"say","message":"caf\u00e9 \"q\" é 日本 😀"}`,
		`{"type":"action","item":1,"seat":0,"action":"say","message":"bad `+"\xff"+`"}`,
		`{"type":"action","item":1,"seat":0,"action":"pass"}`,
		`{"type":"action","item":1,"seat":0,"action":"passed"}`,
		`{"type":"action","item":1,"seat":0,"action":"pass","message":"x"}`,
		`{"type":"action","item":1,"seat":0,"action":"say"}`,
		`{"type":"action","item":1,"seat":0,"action":"say","message":""}`,
		`{"type":"action","item":1,"seat":0,"action":"say ","message":"x"}`,
		`{"type":"action","item":1,"seat":0,"action":"pa\u0073s"}`,
		`{"type":"timeout","item":1,"seat":2,"phase":"bid"}`,
		`{"type":"bidding_open","item":3}`,
		`{"type":"item_result","item":2,"unsold":true}`,
		`{"type":"item_result","item":2,"winner":1,"price":3,"value":9,"profit":6,"tie_break":false}`,
		`{"type":"item_result","item":2,"winner":1,"price":3,"value":9,"profit":6,"tie_break":tru}`,
		`{"type":"bids_revealed","item":1,"bids":[]}`,
		`{"type":"profit_update","item":1,"players":[]}`,
		`{"type":"item_up","item":1,"item":2}`,
		`{"type":"item_up","item":1,"seat":2}`,
		`{"type":"item_up","item":1,"x":2}`,
		`{"type":"item_up","type":"item_up"}`,
		`{"type":"item_up" ,"item":1}`,
		`{"type":"item_up","item" :1}`,
		`{"type":"item_upx","item":1}`,
		`{"type":"bid_placed","item":1,"amount":3,"seat":0}`,
		`{"type":"bids_revealed","item":1,"bids":[{"amount":3,"seat":0}]}`,
		`{"type":"bids_revealed","item":1,"bids":[{"seat":0,"amount":3,"seat":1}]}`,
		`{"type":"profit_update","item":1,"players":[{"seat":0,"credits":1,"profit":2}]}`,
		`{"type":"value_private"}`,
		`{"type":"value_private","item":1}`,
	)
	read := 0
	for _, e := range events {
		for n := 0; n <= len(e); n++ {
			for _, withPad := range []bool{true, false} {
				d := []byte(e[:n])
				if withPad {
					d = append(d, pad...)
				}
				s := getScanner(d)
				var ev auction.Event
				ok := s.auctionEventFast(&ev)
				end := s.i
				s.release()
				if !ok {
					continue
				}
				read++
				m, err := firstValue(d)
				var ref auction.Event
				if err == nil {
					err = json.Unmarshal(d[:m], &ref, strictOptions)
				}
				if err != nil || m != end || !reflect.DeepEqual(ev, ref) {
					t.Errorf("%q: fast read %+v up to %d; reference %+v up to %d (%v)", d, ev, end, ref, m, err)
				}
			}
		}
	}
	if read < 50 {
		t.Fatalf("the fast path read only %d events", read)
	}
}

// TestAuctionFastPathAgrees: on the sample replays, and on every cut and
// every one-byte change (low bit flipped, top bit flipped, replaced by a
// backslash, by a space, by a '-') of the example replay and of the
// default one's events, CheckReplay gives the reference's report or
// error. (Not with -short.)
func TestAuctionFastPathAgrees(t *testing.T) {
	samples := auctionSamples(t)
	for name, d := range samples {
		sameCheck(t, name, d)
	}
	if testing.Short() {
		return
	}
	changes := []func(byte) byte{
		func(b byte) byte { return b ^ 0x01 }, func(b byte) byte { return b ^ 0x80 },
		func(byte) byte { return '\\' }, func(byte) byte { return ' ' }, func(byte) byte { return '-' },
	}
	for _, name := range []string{"example", "default"} {
		d := samples[name]
		lo, hi := 0, len(d)
		if name == "default" { // its events, where the fast path reads
			lo, hi = bytes.Index(d, []byte(`"events"`)), bytes.Index(d, []byte(`"results"`))
			hi = lo + (hi-lo)/3
		}
		for n := lo; n < hi; n++ {
			sameCheck(t, name+" cut", d[:n:n])
			for _, change := range changes {
				e := bytes.Clone(d)
				e[n] = change(e[n])
				sameCheck(t, name+" changed", e)
			}
		}
	}
}

// TestAuctionReportOutlivesReplayBytes: an auction replay's event strings
// point into its bytes (and the scanner's arena, for escaped ones) while
// it is checked; the report's claims are copies, so overwriting the bytes
// afterwards, and checking another replay with the same pooled scanner,
// changes nothing in it.
func TestAuctionReportOutlivesReplayBytes(t *testing.T) {
	d := []byte(readTestdata(t, "auction_example.json"))
	for _, e := range [][2]string{
		{`"seat":1,"action":"pass"`, `"seat":1,"action":"sh\u006fut"`}, // escaped: from the scanner's arena
		{`"seat":2,"action":"pass"`, `"seat":2,"action":"whisper"`},
	} {
		if !bytes.Contains(d, []byte(e[0])) {
			t.Fatalf("auction_example.json has no %s", e[0])
		}
		d = bytes.Replace(d, []byte(e[0]), []byte(e[1]), 1)
	}
	rep, err := CheckReplay(d)
	if err != nil {
		t.Fatal(err)
	}
	want, err := checkReplayReference(bytes.Clone(d))
	if err != nil {
		t.Fatal(err)
	}
	var claims []string
	for _, df := range rep.Differences {
		claims = append(claims, df.Claimed)
	}
	if !strings.Contains(strings.Join(claims, "|"), "shout") || !strings.Contains(strings.Join(claims, "|"), "whisper") {
		t.Fatalf("claims %q", claims)
	}
	for k := range d {
		d[k] = 'x'
	}
	other := []byte(strings.Replace(readTestdata(t, "auction_example.json"), `"action":"pass"`, `"action":"p\u0061ss"`, 1))
	if rep, err := CheckReplay(other); err != nil || !rep.Clean() {
		t.Fatal(err, rep)
	}
	if !reflect.DeepEqual(rep, want) {
		t.Fatalf("report after the bytes changed\n%+v\nexpected\n%+v", rep, want)
	}
}
