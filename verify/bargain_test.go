package verify

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/sealedhq/sealed/rules/bargain"
)

// readHandworked returns testdata/bargain_handworked.json, a replay written
// and scored by hand (testdata/bargain_handworked.md shows the working).
func readHandworked(t testing.TB) []byte {
	t.Helper()
	data, err := os.ReadFile("testdata/bargain_handworked.json")
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func mustCheckBargain(t *testing.T, data []byte) *Report {
	t.Helper()
	rep, err := CheckBargainReplay(data)
	if err != nil {
		t.Fatalf("CheckBargainReplay: %v", err)
	}
	return rep
}

func TestBargainHandworkedIsClean(t *testing.T) {
	data := readHandworked(t)
	rep := mustCheckBargain(t, data)
	if !rep.Clean() || rep.Events != 14 {
		t.Fatalf("hand-worked replay: clean=%v events=%d differences %+v", rep.Clean(), rep.Events, rep.Differences)
	}
	// CheckReplay dispatches on "format".
	rep2, err := CheckReplay(data)
	if err != nil || !rep2.Clean() || rep2.Format != FormatBargain {
		t.Fatalf("CheckReplay: %v %+v", err, rep2)
	}
}

// tamper decodes a replay, lets edit change it, and encodes it again.
func tamper(t *testing.T, data []byte, edit func(r map[string]any)) []byte {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var r map[string]any
	if err := dec.Decode(&r); err != nil {
		t.Fatal(err)
	}
	edit(r)
	out, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func event(r map[string]any, i int) map[string]any { return r["events"].([]any)[i].(map[string]any) }

func addOne(v any) json.Number {
	n, _ := v.(json.Number).Int64()
	return json.Number(strconv.FormatInt(n+1, 10))
}

// TestBargainTampering changes one claimed value at a time, by one unit,
// and expects exactly that event and field to be reported first, with the
// claimed and hand-derived values.
func TestBargainTampering(t *testing.T) {
	data := readHandworked(t)
	cases := []struct {
		name  string
		edit  func(r map[string]any)
		first Difference
	}{
		{"pool count", func(r map[string]any) {
			p := event(r, 5)["pool"].([]any)
			p[1] = addOne(p[1])
		}, Difference{5, "pool[1]", "3", "2"}},
		{"value", func(r map[string]any) {
			v := event(r, 9)["values"].([]any)[1].([]any)
			v[2] = addOne(v[2])
		}, Difference{9, "values[1][2]", "8", "7"}},
		{"offer worth", func(r map[string]any) {
			w := event(r, 11)["worth"].([]any)
			w[1] = addOne(w[1])
		}, Difference{11, "worth[1]", "9", "8"}},
		{"accept payoff", func(r map[string]any) {
			p := event(r, 3)["payoff"].([]any)
			p[0] = addOne(p[0])
		}, Difference{3, "payoff[0]", "11", "10"}},
		{"matchEnd outcome", func(r map[string]any) {
			event(r, 12)["outcome"] = "deal"
		}, Difference{12, "outcome", "deal", "no_deal"}},
		{"score by one unit", func(r map[string]any) {
			r["results"].(map[string]any)["scores"].([]any)[1] = json.Number("0.3001")
		}, Difference{-1, "results.scores[1]", "0.3001", "0.3000"}},
		{"points", func(r map[string]any) {
			p := r["results"].(map[string]any)["points"].([]any)
			p[2] = addOne(p[2])
		}, Difference{-1, "results.points[2]", "11", "10"}},
		{"giveaway", func(r map[string]any) {
			r["results"].(map[string]any)["giveaway"].([]any)[2] = json.Number("-3.9999")
		}, Difference{-1, "results.giveaway[2]", "-3.9999", "-4.0000"}},
		{"reason", func(r map[string]any) {
			r["results"].(map[string]any)["reason"] = "complete"
		}, Difference{-1, "results.reason", "complete", "deadline"}},
		{"end reason", func(r map[string]any) {
			event(r, 13)["text"] = "complete"
		}, Difference{13, "text", "complete", "deadline (3 of 6 matches settled)"}},
		{"seat", func(r map[string]any) {
			event(r, 6)["seat"] = json.Number("1")
		}, Difference{6, "seat", "1", "0"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rep := mustCheckBargain(t, tamper(t, data, tc.edit))
			if rep.Clean() || len(rep.Differences) == 0 {
				t.Fatalf("tampered replay is clean")
			}
			if got := rep.Differences[0]; got != tc.first {
				t.Errorf("first difference %+v, want %+v (all: %+v)", got, tc.first, rep.Differences)
			}
		})
	}
}

// TestBargainChangedOffer: changing what an offer takes is caught at that
// offer (its worth no longer follows), and at the accept and results after.
func TestBargainChangedOffer(t *testing.T) {
	rep := mustCheckBargain(t, tamper(t, readHandworked(t), func(r map[string]any) {
		event(r, 6)["take"] = []any{1, 2, 0} // was [0,2,0]: now worth 1*2+2*1 = 4 to seat 0; seat 2 gets 2,0,1 worth 2*2+1*4 = 8
	}))
	want := []Difference{
		{6, "worth[0]", "2", "4"},
		{6, "worth[1]", "10", "8"},
		{7, "take[0]", "3", "2"},
		{7, "payoff[0]", "2", "4"},
		{7, "payoff[1]", "10", "8"},
		{8, "payoff[0]", "2", "4"},
		{8, "payoff[1]", "10", "8"},
	}
	if len(rep.Differences) < len(want) {
		t.Fatalf("differences %+v", rep.Differences)
	}
	for k, d := range want {
		if rep.Differences[k] != d {
			t.Errorf("difference %d = %+v, want %+v", k, rep.Differences[k], d)
		}
	}
}

func TestBargainIllegalActions(t *testing.T) {
	data := readHandworked(t)
	cases := []struct {
		name  string
		edit  func(r map[string]any)
		first Difference
	}{
		{"accept on turn 1", func(r map[string]any) {
			ev := event(r, 2)
			ev["kind"] = "accept"
			delete(ev, "worth") // an accept carries no worth (TestEventFields)
		}, Difference{2, "kind", "accept", "illegal action: accept on turn 1 with no standing offer; expected an offer first (accept is legal from turn 2) (rule: accept only on a standing offer)"}},
		{"take above count", func(r map[string]any) {
			event(r, 2)["take"] = []any{3, 4, 0}
		}, Difference{2, "take", "[3,4,0]", "illegal action: take of books is 3; expected 0..2 (rule: take within counts)"}},
		{"message too long", func(r map[string]any) {
			event(r, 2)["text"] = strings.Repeat("é", 201)
		}, Difference{2, "text", strconv.Quote(strings.Repeat("é", 201)), "illegal action: message has 201 characters; expected at most 200 (rule: message at most 200 characters)"}},
		// A text over 500 characters is quoted by its first 80 and its
		// length (newcomer trial 7b, finding 3: a 10 MB text was printed
		// whole).
		{"message of a million characters", func(r map[string]any) {
			event(r, 2)["text"] = strings.Repeat("é", 1000000)
		}, Difference{2, "text", `"` + strings.Repeat("é", 80) + `"... (1000000 characters)`, "illegal action: message has 1000000 characters; expected at most 200 (rule: message at most 200 characters)"}},
		{"notes of 501 characters", func(r map[string]any) {
			event(r, 2)["notes"] = strings.Repeat("n", 501)
		}, Difference{2, "notes", `"` + strings.Repeat("n", 80) + `"... (501 characters)`, "illegal action: notes have 501 characters; expected at most 400 (rule: notes at most 400 characters)"}},
		{"notes of 500 characters, quoted whole", func(r map[string]any) {
			event(r, 2)["notes"] = strings.Repeat("n", 500)
		}, Difference{2, "notes", `"` + strings.Repeat("n", 500) + `"`, "illegal action: notes have 500 characters; expected at most 400 (rule: notes at most 400 characters)"}},
		{"deadline inside a match", func(r map[string]any) {
			evs := r["events"].([]any)
			// drop the last match's matchEnd and its second offer: the end
			// event then falls inside match 2.
			r["events"] = append(append([]any{}, evs[:11]...), evs[13])
		}, Difference{11, "text", "deadline", "illegal action: match 2 is in play; a deadline stops play only between matches (rule: deadline only between matches)"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rep := mustCheckBargain(t, tamper(t, data, tc.edit))
			if len(rep.Differences) == 0 || rep.Differences[0] != tc.first {
				t.Errorf("differences %+v, want first %+v", rep.Differences, tc.first)
			}
		})
	}
	// 200 two-byte runes are legal: the cap counts characters, not bytes.
	rep := mustCheckBargain(t, tamper(t, data, func(r map[string]any) { event(r, 2)["text"] = strings.Repeat("é", 200) }))
	if !rep.Clean() {
		t.Errorf("200-rune message: %+v", rep.Differences)
	}
}

func TestBargainMissingEvents(t *testing.T) {
	data := readHandworked(t)
	rep := mustCheckBargain(t, tamper(t, data, func(r map[string]any) {
		evs := r["events"].([]any)
		r["events"] = append(append([]any{}, evs[:4]...), evs[5:]...) // drop match 0's matchEnd
	}))
	if d := rep.Differences; len(d) == 0 || d[0] != (Difference{4, "kind", "match", "matchEnd of match 0"}) {
		t.Errorf("dropped matchEnd: %+v", d)
	}
	rep = mustCheckBargain(t, tamper(t, data, func(r map[string]any) {
		evs := r["events"].([]any)
		r["events"] = evs[:13] // drop the end
	}))
	if d := rep.Differences; len(d) == 0 || d[0].Event != -1 || d[0].Field != "events" {
		t.Errorf("dropped end: %+v", d)
	}
}

func TestBargainSeedCommitment(t *testing.T) {
	rep := mustCheckBargain(t, tamper(t, readHandworked(t), func(r map[string]any) {
		r["seed_commitment"] = strings.Repeat("0", 64)
	}))
	if rep.SeedCommitmentOK || rep.Clean() {
		t.Fatal("a wrong commitment passed")
	}
	// printf %s 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f | sha256sum
	want := Difference{-1, "seed_commitment", `"` + strings.Repeat("0", 64) + `"`, "6c86c6aac5fb24bcf5d9939cb7d7d5645ce39418f449e03b262dd4fa14b4b92b"}
	if rep.Differences[0] != want {
		t.Errorf("got %+v, want %+v", rep.Differences[0], want)
	}
	// A commitment over the seed with a trailing LF, as `echo SEED | sha256sum`
	// makes it: echo 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f | sha256sum
	lf := "46268c8f3e4d5291cfd71ffc476063a199beff7f3a5f87a5552a6e3985eccd90"
	rep = mustCheckBargain(t, tamper(t, readHandworked(t), func(r map[string]any) { r["seed_commitment"] = lf }))
	d := rep.Differences[0]
	if rep.SeedCommitmentOK || d.Field != "seed_commitment" || d.Claimed != `"`+lf+`"` ||
		!strings.HasPrefix(d.Derived, "6c86c6aac5fb24bcf5d9939cb7d7d5645ce39418f449e03b262dd4fa14b4b92b (the claim is the SHA-256 of ") ||
		!strings.Contains(d.Derived, "trailing LF") {
		t.Errorf("LF commitment: %+v", rep.Differences)
	}
	// Not hex at all: a malformed replay, an error (docs/replays.md "How
	// the checker reads a replay"; TestMalformedSeedCommitment has more).
	if rep, err := CheckBargainReplay(tamper(t, readHandworked(t), func(r map[string]any) { r["seed_commitment"] = "xyz" })); err == nil ||
		!strings.Contains(err.Error(), "seed_commitment") {
		t.Errorf("malformed commitment: %v %+v", err, rep)
	}
}

func TestBargainUnreadable(t *testing.T) {
	data := readHandworked(t)
	cases := map[string][]byte{
		"not json":      []byte("{"),
		"array":         []byte("[]"),
		"other format":  tamper(t, data, func(r map[string]any) { r["format"] = "sealed.auction.replay.v1" }),
		"no config":     tamper(t, data, func(r map[string]any) { delete(r, "config") }),
		"5 matches":     tamper(t, data, func(r map[string]any) { r["config"].(map[string]any)["matches"] = 5 }),
		"odd maxTurns":  tamper(t, data, func(r map[string]any) { r["config"].(map[string]any)["maxTurns"] = 3 }),
		"short seed":    tamper(t, data, func(r map[string]any) { r["seed"] = "00" }),
		"no seed":       tamper(t, data, func(r map[string]any) { delete(r, "seed") }),
		"unknown kind":  tamper(t, data, func(r map[string]any) { event(r, 3)["kind"] = "reject" }),
		"short take":    tamper(t, data, func(r map[string]any) { event(r, 2)["take"] = []any{1, 2} }),
		"string take":   tamper(t, data, func(r map[string]any) { event(r, 2)["take"] = "all" }),
		"fraction take": tamper(t, data, func(r map[string]any) { event(r, 2)["take"] = []any{1.5, 2, 0} }),
	}
	for name, in := range cases {
		rep, err := CheckBargainReplay(in)
		if err == nil {
			t.Errorf("%s: no error, report %+v", name, rep)
		}
	}
}

// TestBargainPlayedEpisodesAreClean: replays written by bargain.PlayEpisode
// re-simulate clean, for both bots in every seat, 3 and 6 matches, every
// legal maxTurns, and deadlines.
func TestBargainPlayedEpisodesAreClean(t *testing.T) {
	botSets := [][bargain.Seats]bargain.Bot{
		{bargain.Greedy{}, bargain.Fair{}, bargain.Fair{}},
		{bargain.Greedy{}, bargain.Greedy{}, bargain.Greedy{}},
		{bargain.Fair{}, bargain.Fair{}, bargain.Greedy{}},
	}
	n := 0
	for i := 0; i < 60; i++ {
		seed := sha256.Sum256([]byte(fmt.Sprintf("played-%d", i)))
		cfg := bargain.Config{Matches: 3 + 3*(i%2), MaxTurns: 2 + 2*(i%6)}
		opt := bargain.PlayOptions{StopAfter: i % cfg.Matches}
		r, err := bargain.PlayEpisode(seed[:], cfg, botSets[i%len(botSets)], opt)
		if err != nil {
			t.Fatal(err)
		}
		data, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		rep := mustCheckBargain(t, data)
		if !rep.Clean() {
			t.Fatalf("seed %d cfg %+v: %+v", i, cfg, rep.Differences)
		}
		n++
	}
	if n != 60 {
		t.Fatal("not every episode ran")
	}
}

// TestBargainDocExample: the complete example in docs/replays.md is the
// file testdata/bargain_example.json, and it checks clean.
func TestBargainDocExample(t *testing.T) {
	example, err := os.ReadFile("testdata/bargain_example.json")
	if err != nil {
		t.Fatal(err)
	}
	rep := mustCheckBargain(t, example)
	if !rep.Clean() {
		t.Fatalf("example: %+v", rep.Differences)
	}
	doc, err := os.ReadFile("../docs/replays.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(doc), "## Negotiation Games replays")
	if !ok {
		t.Fatal("docs/replays.md has no \"## Negotiation Games replays\" section")
	}
	blocks := regexp.MustCompile("(?s)```json\n(.*?)```").FindAllStringSubmatch(section, -1)
	for _, b := range blocks {
		if strings.TrimSpace(b[1]) == strings.TrimSpace(string(example)) {
			return
		}
	}
	t.Error("docs/replays.md does not show testdata/bargain_example.json verbatim")
}

// BenchmarkCheckBargainReplay checks a whole 6-match replay (maxTurns 10,
// greedy vs fair) from its JSON bytes: decoding, seed commitment, pools,
// re-simulation and every comparison.
func BenchmarkCheckBargainReplay(b *testing.B) {
	seed := sha256.Sum256([]byte("bench"))
	r, err := bargain.PlayEpisode(seed[:], bargain.DefaultConfig(), [bargain.Seats]bargain.Bot{bargain.Greedy{}, bargain.Fair{}, bargain.Greedy{}}, bargain.PlayOptions{})
	if err != nil {
		b.Fatal(err)
	}
	data, err := r.Encode()
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		rep, err := CheckBargainReplay(data)
		if err != nil || !rep.Clean() {
			b.Fatalf("%v %+v", err, rep)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "replays/s")
	b.ReportMetric(float64(len(r.Events)), "events/replay")
}
