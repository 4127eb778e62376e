package verify

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/sealedhq/sealed/internal/cputime"
	"github.com/sealedhq/sealed/rules/auction"
	"github.com/sealedhq/sealed/rules/bargain"
)

// The reference decoder is the one replays were read with before the
// scanner (issue 13): go-json-experiment/json's Unmarshal with
// strictOptions (decodeStrict) and the dialect read over jsontext's tokens
// (replayFormatStrict). It stays in the package as the scanner's fallback
// and error reporter; these tests hold the scanner to it.

// checkReplayReference is CheckReplay for the engine's and sealed's
// auction replays as it ran before the scanner: every byte read by the
// reference decoder.
func checkReplayReference(data []byte) (*Report, error) {
	key, name, err := replayFormatStrict(data)
	if err != nil {
		return nil, err
	}
	switch {
	case key == "protocol" && name == bargain.EngineProtocol:
		var w engineWire
		if err := decodeStrict(data, &w, "engine replay"); err != nil {
			return nil, err
		}
		return checkEngineWire(&w, ReplayOptions{}, nil, new(bargainCheck), new(bargain.Episode), nil)
	case key == "format" && name == FormatAuction:
		var r auction.Replay
		if err := decodeStrict(data, &r, "auction replay"); err != nil {
			return nil, err
		}
		if err := requireAuctionMembers(data); err != nil {
			return nil, err
		}
		return CheckAuction(&r)
	}
	return nil, os.ErrInvalid
}

// BenchmarkCheckEngineReplayJSONReference is BenchmarkCheckEngineReplayJSON
// through the reference decoder, for before/after figures from one run.
func BenchmarkCheckEngineReplayJSONReference(b *testing.B) {
	corpus, total := engineCorpus(b)
	b.SetBytes(int64(total / len(corpus)))
	b.ReportAllocs()
	cpu := cputime.Used()
	i := 0
	for b.Loop() {
		rep, err := checkReplayReference(corpus[i%len(corpus)])
		if err != nil || !rep.Clean() {
			b.Fatal(err, rep)
		}
		i++
	}
	reportRate(b, cpu)
}

// BenchmarkCheckAuctionDefaultJSONReference is
// BenchmarkCheckAuctionDefaultJSON through the reference decoder.
func BenchmarkCheckAuctionDefaultJSONReference(b *testing.B) {
	r := handReplay(b, auction.DefaultConfig(), "truthful", "shading", "random", "idle", "random")
	data, err := r.Encode()
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	cpu := cputime.Used()
	for b.Loop() {
		rep, err := checkReplayReference(data)
		if err != nil || !rep.Clean() {
			b.Fatal(err, rep)
		}
	}
	reportRate(b, cpu)
}

// TestScannerReadsTheCorpus: the scanner's fast path, not the fallback,
// reads every replay the tests and benchmarks use (else the speed is the
// reference decoder's), and reads each as the reference decoder does.
func TestScannerReadsTheCorpus(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(engineDir, "*.json"))
	if len(files) != 65 {
		t.Fatalf("%d engine replays", len(files))
	}
	var auctions, bargains [][]byte
	for _, name := range []string{"auction_example.json"} {
		auctions = append(auctions, []byte(readTestdata(t, name)))
	}
	r := handReplay(t, auction.DefaultConfig(), "truthful", "shading", "random", "idle", "random")
	data, err := r.Encode()
	if err != nil {
		t.Fatal(err)
	}
	auctions = append(auctions, data)
	for _, name := range []string{"bargain_handworked.json", "bargain_example.json"} {
		bargains = append(bargains, []byte(readTestdata(t, name)))
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if !compareEngine(t, data) {
			t.Errorf("%s: the scanner gave up", f)
		}
	}
	for i, data := range auctions {
		if !compareAuction(t, data) {
			t.Errorf("auction %d: the scanner gave up", i)
		}
	}
	for i, data := range bargains {
		if !compareBargain(t, data) {
			t.Errorf("bargain %d: the scanner gave up", i)
		}
	}
}

// compareEngine holds the scanner to the reference decoder on data: if
// the fast path accepts it, the reference accepts it with the same value;
// the scanner with its fallback accepts exactly what the reference
// accepts, with the same value or the same error. It reports whether the
// fast path accepted.
func compareEngine(t *testing.T, data []byte) bool {
	t.Helper()
	var ref, fast, got engineWire
	refErr := decodeStrict(data, &ref, "engine replay")
	s := getScanner(data)
	defer s.release()
	ok := s.engineReplay(&fast)
	if ok && (refErr != nil || !reflect.DeepEqual(fast, ref)) {
		t.Fatalf("fast path accepted %q: reference error %v\nfast %+v\nref  %+v", data, refErr, fast, ref)
	}
	s2 := getScanner(data)
	defer s2.release()
	sameResult(t, data, s2.decodeEngine(&got), refErr, got, ref)
	return ok
}

// compareBargain is compareEngine for sealed's bargaining replays.
func compareBargain(t *testing.T, data []byte) bool {
	t.Helper()
	var ref, fast, got bargainWire
	refErr := decodeStrict(data, &ref, "bargaining replay")
	s := getScanner(data)
	defer s.release()
	ok := s.bargainReplay(&fast)
	if ok && (refErr != nil || !reflect.DeepEqual(fast, ref)) {
		t.Fatalf("fast path accepted %q: reference error %v\nfast %+v\nref  %+v", data, refErr, fast, ref)
	}
	s2 := getScanner(data)
	defer s2.release()
	sameResult(t, data, s2.decodeBargain(&got), refErr, got, ref)
	return ok
}

// compareAuction is compareEngine for auction replays.
func compareAuction(t *testing.T, data []byte) bool {
	t.Helper()
	var ref, fast, got auction.Replay
	refErr := decodeStrict(data, &ref, "auction replay")
	if refErr == nil {
		refErr = requireAuctionMembers(data)
	}
	s := getScanner(data)
	defer s.release()
	ok := s.auctionReplay(&fast)
	if ok && (refErr != nil || !reflect.DeepEqual(fast, ref)) {
		t.Fatalf("fast path accepted %q: reference error %v\nfast %+v\nref  %+v", data, refErr, fast, ref)
	}
	s2 := getScanner(data)
	defer s2.release()
	sameResult(t, data, s2.decodeAuction(&got), refErr, got, ref)
	return ok
}

func sameResult(t *testing.T, data []byte, err, refErr error, got, ref any) {
	t.Helper()
	switch {
	case (err == nil) != (refErr == nil):
		t.Fatalf("%q: error %v, reference error %v", data, err, refErr)
	case err != nil && err.Error() != refErr.Error():
		t.Fatalf("%q: error %q, reference error %q", data, err, refErr)
	case err == nil && !reflect.DeepEqual(got, ref):
		t.Fatalf("%q: read\n%+v\nreference\n%+v", data, got, ref)
	}
}

// compareFormat holds replayFormat to replayFormatStrict.
func compareFormat(t *testing.T, data []byte) {
	t.Helper()
	k1, v1, err1 := replayFormat(data)
	k2, v2, err2 := replayFormatStrict(data)
	if k1 != k2 || v1 != v2 || (err1 == nil) != (err2 == nil) || (err1 != nil && err1.Error() != err2.Error()) {
		t.Fatalf("%q: replayFormat %q %q %v; reference %q %q %v", data, k1, v1, err1, k2, v2, err2)
	}
}

// strictSeeds are edits of a replay that the reference decoder refuses or
// reads in ways the scanner must match: duplicates (also escaped), unknown
// and case-changed keys, nulls, wrong types, numbers the integers refuse,
// invalid UTF-8, surrogates, escapes, trailing data, whitespace.
func strictSeeds(s string, pairs [][2]string) [][]byte {
	var out [][]byte
	for _, p := range pairs {
		if strings.Contains(s, p[0]) {
			out = append(out, []byte(strings.Replace(s, p[0], p[1], 1)))
		}
	}
	return append(out, []byte(s), []byte(" \n"+s+"\t"), []byte(s+"{}"), []byte(s+","), []byte("\xef\xbb\xbf"+s),
		[]byte(`null`), []byte(`{}`), []byte(`{"events":[]}`), []byte(`{"events":null}`), []byte(`[]`), []byte(``))
}

var commonEdits = [][2]string{
	{`"seat":1`, `"seat":1.0`}, {`"seat":1`, `"seat":1e0`}, {`"seat":1`, `"seat":-0`}, {`"seat":1`, `"seat":01`},
	{`"seat":1`, `"seat":"1"`}, {`"seat":1`, `"seat":null`}, {`"seat":1`, `"seat":99999999999999999999`},
	{`"seat":1`, `"seat":-9223372036854775808`}, {`"seat":1`, `"seat":9223372036854775807`},
	{`"seat":1`, `"seat":9223372036854775808`}, {`"seat":1`, `"se\u0061t":1`}, {`"seat":1`, `"seat":1,"seat":1`},
	{`"seat":1`, `"Seat":1`}, {`"seat":1`, `"seat" : 1 `}, {`"seat":1`, `"seat":true`},
	{`"text":"`, `"text":"\u00e9\ud83d\ude00\n\"\\\/\b\f\r\t`}, {`"text":"`, `"text":"\ud800`}, {`"text":"`, `"text":"\udc00\ud800`},
	{`"text":"`, `"text":"` + "\xff"}, {`"text":"`, `"text":"` + "\x01"}, {`"text":"`, `"text":"` + "\xed\xa0\x80"},
	{`"text":"`, `"text":"\x"`}, {`"text":"`, `"text":"\u12"`}, {`"text":"`, `"text":null,"x":"`},
	{`"message":"`, `"message":"\u00e9\ud83d\ude00\n\"\\\/\b\f\r\t`}, {`"message":"`, `"message":null,"x":"`},
	{`"message":"`, `"message":"` + "\xc3\xa9"},
	{`[`, `[ `}, {`]`, ` ]`}, {`,`, ` , `}, {`:`, ` : `}, {`{"`, `{"":0,"`}, {`]`, `,]`}, {`}`, `,}`},
	{`true`, `tru`}, {`true`, `false`}, {`true`, `null`}, {`"events":[`, `"events":[null,`},
	{`"events":[`, `"events":[[],`}, {`"results":{`, `"results":null,"x":{`}, {`"config":{`, `"config":null,"x":{`},
	{`"config":{`, `"config":[],"x":{`},
}

// FuzzDecodeEngine is the differential fuzz test of the scanner against
// the reference decoder on engine replays (compareEngine). Run longer
// with: go test ./verify -run XXX -fuzz FuzzDecodeEngine -fuzztime 60s
// -fuzzminimizetime 2s (minimizing a 7 KB replay takes the default 60 s).
func FuzzDecodeEngine(f *testing.F) {
	data, err := os.ReadFile(filepath.Join(engineDir, "seed-0.json"))
	if err != nil {
		f.Fatal(err)
	}
	edits := append([][2]string{
		{`"seed":0`, `"seed":-1`}, {`"seed":0`, `"seed":9223372036854775808`}, {`"sampled":true`, `"sampled":1`},
		{`"scores":[`, `"scores":[1e400,-0.0,"x",null,`}, {`"giveaway":[`, `"giveaway":[1.5E-3,01,`},
		{`"scores":[`, `"scores":[-,`}, {`"scores":[`, `"scores":[1.,`}, {`"scores":[`, `"scores":[.5,`},
		{`"fallbacks":[`, `"fallbacks":[-1,`}, {`"values":[[`, `"values":[[],[`}, {`"values":[[`, `"values":[null,[`},
		{`"schedule":[`, `"schedule":[{},`}, {`"names":[`, `"names":["\u0000",`}, {`"protocol"`, `"protocol":"x","protocol"`},
		// The engine's layout as the fast paths read it, edited.
		{`"take":[`, `"take":[10,`}, {`"take":[`, `"take":[-1,`}, {`"take":[`, `"take":[999999999999999999,`},
		{`"take":[`, `"take":[9223372036854775807,`}, {`"worth":[`, `"worth":[1,2,`}, {`"worth":[`, `"worth":[],"w":[`},
		{`"kind":"offer"`, `"kind":"offer","kind":"offer"`}, {`"kind":"offer"`, `"kind":"offeR"`}, {`"kind":"match"`, `"kind":"matchEnd"`},
		{`"scripted":true`, `"scripted":truex`}, {`"scripted":false`, `"scripted":false,"scripted":false`},
		{`"turn":1,`, `"turn":10,`}, {`"turn":1,`, `"turn":01,`}, {`"turn":1,`, `"turn":1 ,`}, {`"values":[[`, `"values":[[0],[1],[2],[3],[4],[`},
		{`"notes":"`, `"notes":"\u007f`}, {`"notes":"`, `"notes":"` + "\x7f"}, {`"text":"`, `"text":"\"`},
		{`{"kind":"start"}`, `{"kind":"start","match":0}`}, {`"opener":0`, `"opener":0.0`},
	}, commonEdits...)
	for _, d := range strictSeeds(string(data), edits) {
		f.Add(d)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		compareEngine(t, data)
		compareFormat(t, data)
	})
}

// FuzzDecodeBargain is FuzzDecodeEngine for sealed's bargaining replays.
func FuzzDecodeBargain(f *testing.F) {
	for _, name := range []string{"testdata/bargain_handworked.json", "testdata/bargain_example.json"} {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		for _, d := range strictSeeds(string(data), append([][2]string{
			{`"seed":`, `"seed":null,"x":`}, {`"scores": [`, `"scores": [1e400,-0.0,"x",null,`},
			{`"format"`, `"format":"x","format"`}, {`"take": [`, `"take": [[],`},
		}, commonEdits...)) {
			f.Add(d)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		compareBargain(t, data)
		compareFormat(t, data)
	})
}

// FuzzDecodeAuction is FuzzDecodeEngine for auction replays.
func FuzzDecodeAuction(f *testing.F) {
	data, err := os.ReadFile("testdata/auction_example.json")
	if err != nil {
		f.Fatal(err)
	}
	for _, d := range strictSeeds(string(data), append([][2]string{
		{`"pot": "30.00"`, `"pot": "x"`}, {`"pot": "30.00"`, `"pot": 30`}, {`"pot": "30.00"`, `"pot": "3\u0030"`},
		{`"pot": "30.00"`, `"pot": null`}, {`"stake":"10"`, `"stake":"1e999999"`}, {`"rake":"0.05"`, `"rake":"NaN"`},
		{`"tie_break":false`, `"tie_break":0`}, {`"item":1`, `"item":null`}, {`"pricing":"first"`, `"pricing":"\u0066irst"`},
		{`"ranking": [`, `"ranking": [null,`}, {`"payouts": [`, `"payouts": [{"seat":9,"amount":null},`},
		{`"bids":[`, `"bids":[{},`}, {`"players":[`, `"players":[{"items_won":1,"items_won":1},`},
	}, commonEdits...)) {
		f.Add(d)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		compareAuction(t, data)
		compareFormat(t, data)
	})
}
