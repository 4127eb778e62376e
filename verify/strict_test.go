package verify

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// readTestdata returns a file of testdata/ as a string.
func readTestdata(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// edit replaces the first old in s by new, failing when old is absent.
func edit(t *testing.T, s, old, new string) []byte {
	t.Helper()
	if !strings.Contains(s, old) {
		t.Fatalf("%q not in the replay", old)
	}
	return []byte(strings.Replace(s, old, new, 1))
}

// strictCase is a replay that must be unreadable, and what the error must
// say.
type strictCase struct {
	name string
	data []byte
	want []string // substrings of the error
}

// checkStrict runs every case through CheckReplay and the game's own
// checker.
func checkStrict(t *testing.T, game func([]byte) (*Report, error), cases []strictCase) {
	t.Helper()
	for _, c := range cases {
		for _, f := range []struct {
			name  string
			check func([]byte) (*Report, error)
		}{{"CheckReplay", CheckReplay}, {"game", game}} {
			rep, err := f.check(c.data)
			if err == nil {
				t.Errorf("%s: %s: no error; report %+v", c.name, f.name, rep)
				continue
			}
			if rep != nil {
				t.Errorf("%s: %s: both a report and an error", c.name, f.name)
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("%s: %s: error %q does not say %q", c.name, f.name, err, w)
				}
			}
		}
	}
}

// TestDuplicateKeys: a key given twice anywhere makes a replay unreadable,
// as the ledger refuses it (RFC 8785 parsing): a loose reader takes the last
// value and another reader could take the first. The error names the key
// and where it is. Event 9 of testdata/auction_example.json is seat 1's bid
// on item 1 (docs/replays.md example); event 2 of
// testdata/bargain_handworked.json is the first offer.
func TestDuplicateKeys(t *testing.T) {
	a := readTestdata(t, "auction_example.json")
	checkStrict(t, CheckAuctionReplay, []strictCase{
		{"auction bid amount", edit(t, a, `"seat":1,"amount":36`, `"seat":1,"amount":29,"amount":30`),
			[]string{`"amount"`, "event 9"}},
		{"auction top level", edit(t, a, `"seed":`, `"seed": "00", "seed":`), []string{`"seed"`, "top level"}},
		{"auction format", edit(t, a, `"rules_version":`, `"format": "sealed.auction.replay.v1", "rules_version":`),
			[]string{`"format"`, "top level"}},
		{"auction format first", edit(t, a, `"format":`, `"format": "chess", "format":`), []string{`"format"`, "top level"}},
		{"auction config", edit(t, a, `"items":2`, `"items":2,"items":1`), []string{`"items"`, "config"}},
		{"auction results", edit(t, a, `"pot": "30.00"`, `"pot": "30.00", "pot": "31.00"`), []string{`"pot"`, "results"}},
		{"auction bids_revealed", edit(t, a, `{"seat":0,"amount":20},{"seat":1`, `{"seat":0,"amount":20,"seat":0},{"seat":1`),
			[]string{`"seat"`, "event 11", "bids[0]"}},
	})
	b := readTestdata(t, "bargain_handworked.json")
	checkStrict(t, CheckBargainReplay, []strictCase{
		{"bargain take", edit(t, b, `"take": [2, 4, 0]`, `"take": [2, 4, 0], "take": [0, 0, 0]`), []string{`"take"`, "event 2"}},
		{"bargain seed", edit(t, b, `"seed":`, `"seed": "00", "seed":`), []string{`"seed"`, "top level"}},
		{"bargain config", edit(t, b, `"maxTurns": 2, "itemNames"`, `"maxTurns": 2, "maxTurns": 4, "itemNames"`), []string{`"maxTurns"`, "config"}},
		{"bargain results", edit(t, b, `"reason"`, `"reason": "deadline", "reason"`), []string{`"reason"`, "results"}},
	})
}

// TestUnknownKeys: a key the format does not define is an error naming it
// (docs/replays.md: unknown fields are not allowed; a new field needs a new
// format name). Keys are matched exactly, so "Amount" is not "amount".
func TestUnknownKeys(t *testing.T) {
	a := readTestdata(t, "auction_example.json")
	checkStrict(t, CheckAuctionReplay, []strictCase{
		{"auction top level", edit(t, a, `"seed":`, `"zzz": 1, "seed":`), []string{`"zzz"`, "top level"}},
		{"auction event", edit(t, a, `"seat":1,"amount":36`, `"seat":1,"amount":36,"zzz":1`), []string{`"zzz"`, "event 9"}},
		{"auction config", edit(t, a, `"items":2`, `"items":2,"zzz":1`), []string{`"zzz"`, "config"}},
		{"auction results", edit(t, a, `"pot":`, `"zzz": 1, "pot":`), []string{`"zzz"`, "results"}},
		{"auction ranking", edit(t, a, `{"seat":1,"rank":1,`, `{"seat":1,"zzz":1,"rank":1,`), []string{`"zzz"`, "results.ranking[0]"}},
		{"auction case", edit(t, a, `"seat":1,"amount":36`, `"seat":1,"Amount":36`), []string{`"Amount"`, "event 9"}},
	})
	b := readTestdata(t, "bargain_handworked.json")
	checkStrict(t, CheckBargainReplay, []strictCase{
		{"bargain top level", edit(t, b, `"seed":`, `"zzz": 1, "seed":`), []string{`"zzz"`, "top level"}},
		{"bargain event", edit(t, b, `"take": [2, 4, 0]`, `"take": [2, 4, 0], "zzz": 1`), []string{`"zzz"`, "event 2"}},
		{"bargain config", edit(t, b, `"maxTurns": 2, "itemNames"`, `"maxTurns": 2, "zzz": 1, "itemNames"`), []string{`"zzz"`, "config"}},
		{"bargain results", edit(t, b, `"reason"`, `"zzz": 1, "reason"`), []string{`"zzz"`, "results"}},
		{"bargain case", edit(t, b, `"take": [2, 4, 0]`, `"Take": [2, 4, 0]`), []string{`"Take"`, "event 2"}},
	})
	// The optional informational fields are known: the examples carry them
	// and re-simulate clean (TestDocExample, TestBargainHandworkedIsClean);
	// here every optional field of a bargaining event is present at once.
	if !strings.Contains(b, `"policyNames"`) || !strings.Contains(b, `"scripted"`) {
		t.Fatal("the hand-worked replay lost its policyNames or scripted fields")
	}
	rep, err := CheckBargainReplay(edit(t, b, `"text": "I take the books and hats."`, `"text": "I take the books and hats.", "notes": "n"`))
	if err != nil || !rep.Clean() {
		t.Fatalf("notes on an offer: %v %+v", err, rep)
	}
}

// TestMalformedSeedCommitment: a seed commitment that is not a SHA-256
// hash (here "md5:" and the MD5 of "hello": printf %s hello | md5sum) makes
// the replay unreadable in both games, while a well-formed commitment that
// does not match the seed is a difference (TestSeedCommitmentMismatch,
// TestBargainSeedCommitment).
func TestMalformedSeedCommitment(t *testing.T) {
	const md5 = "md5:5d41402abc4b2a76b9719d911017c592"
	a := readTestdata(t, "auction_example.json")
	// printf %s 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f | sha256sum
	const aCommit = `"6c86c6aac5fb24bcf5d9939cb7d7d5645ce39418f449e03b262dd4fa14b4b92b"`
	checkStrict(t, CheckAuctionReplay, []strictCase{
		{"auction md5", edit(t, a, aCommit, `"`+md5+`"`), []string{"seed_commitment", `prefix "md5:"`}},
		{"auction not hex", edit(t, a, aCommit, `"xyz"`), []string{"seed_commitment", "hex"}},
		{"auction empty", edit(t, a, aCommit, `""`), []string{"seed_commitment", "empty"}},
		{"auction absent", edit(t, a, `"seed_commitment": `+aCommit+",", ""), []string{"seed_commitment"}},
	})
	b := readTestdata(t, "bargain_handworked.json")
	checkStrict(t, CheckBargainReplay, []strictCase{
		{"bargain md5", edit(t, b, aCommit, `"`+md5+`"`), []string{"seed_commitment", `prefix "md5:"`}},
		{"bargain not hex", edit(t, b, aCommit, `"xyz"`), []string{"seed_commitment", "hex"}},
		// printf %s hello | sha1sum
		{"bargain SHA-1 length", edit(t, b, aCommit, `"aaf4c61ddcc5e8a2dabede0f3b482cd9aea9434d"`), []string{"seed_commitment", "SHA-1"}},
	})
}

// TestByteOrderMark: a replay starting with a UTF-8 BOM (EF BB BF) is
// refused with an error naming the BOM, not "invalid character 'ï'".
func TestByteOrderMark(t *testing.T) {
	const want = "replay starts with a UTF-8 byte order mark; expected a JSON object"
	checkStrict(t, CheckAuctionReplay, []strictCase{
		{"auction", []byte("\xef\xbb\xbf" + readTestdata(t, "auction_example.json")), []string{want}},
	})
	checkStrict(t, CheckBargainReplay, []strictCase{
		{"bargain", []byte("\xef\xbb\xbf" + readTestdata(t, "bargain_handworked.json")), []string{want}},
	})
}

// TestInvalidUTF8: strings must be UTF-8 (RFC 8259 section 8.1); a byte
// that is not (here 0xFF in a message) makes a replay unreadable rather
// than being read as U+FFFD.
func TestInvalidUTF8(t *testing.T) {
	checkStrict(t, CheckAuctionReplay, []strictCase{
		{"auction message", edit(t, readTestdata(t, "auction_example.json"), "I want this one.", "I want \xff one."),
			[]string{"UTF-8", "event 20"}},
		// A lone surrogate escape is not a character either (RFC 8259
		// section 8.2; the ledger refuses it too, docs/ledger.md).
		{"auction lone surrogate", edit(t, readTestdata(t, "auction_example.json"), "I want this one.", `I want \ud800 one.`),
			[]string{"surrogate", "event 20"}},
	})
	checkStrict(t, CheckBargainReplay, []strictCase{
		{"bargain text", edit(t, readTestdata(t, "bargain_handworked.json"), "I take the books", "I take \xff books"),
			[]string{"UTF-8", "event 2"}},
	})
}

// TestDifferencesIsAList: a clean report's differences are the JSON list
// [] that docs/replays.md describes, never null.
func TestDifferencesIsAList(t *testing.T) {
	for _, name := range []string{"auction_example.json", "bargain_handworked.json", "bargain_example.json"} {
		rep, err := CheckReplay([]byte(readTestdata(t, name)))
		if err != nil || !rep.Clean() {
			t.Fatalf("%s: %v %+v", name, err, rep)
		}
		out, err := json.Marshal(rep)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(out), `"differences":[]`) {
			t.Errorf("%s: %s", name, out)
		}
	}
	// A Report made by hand marshals the same way.
	out, err := json.Marshal(&Report{Format: FormatAuction, SeedCommitmentOK: true})
	if err != nil || string(out) != `{"format":"sealed.auction.replay.v1","seed_commitment_ok":true,"events":0,"differences":[]}` {
		t.Errorf("zero report: %s %v", out, err)
	}
	// A value (not a pointer) too, as when a Report is embedded.
	out, err = json.Marshal(struct{ R Report }{Report{Format: FormatBargain}})
	if err != nil || !strings.Contains(string(out), `"differences":[]`) {
		t.Errorf("embedded report: %s %v", out, err)
	}
}

// TestNotAnObject: input that is not one JSON object is refused with what
// it is instead.
func TestNotAnObject(t *testing.T) {
	for in, want := range map[string]string{
		"":                             "replay is empty; expected a JSON object",
		" \n":                          "replay is empty; expected a JSON object",
		"[]":                           "replay is a JSON array; expected a JSON object",
		"null":                         "replay is a JSON null; expected a JSON object",
		`{"format":1}`:                 `replay "format" is a JSON number; expected a string`,
		`{"format":"chess"} {}`:        "more than one JSON value",
		`{"format":"chess","seats":[}`: "reading replay",
	} {
		rep, err := CheckReplay([]byte(in))
		if err == nil || rep != nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: error %v, want %q", in, err, want)
		}
	}
}

// TestWrongJSONTypes: a score or a giveaway is a JSON number in both
// dialects, and no field takes null (docs/replays.md, "Reading a replay":
// a field of the wrong JSON type makes a replay unreadable, exit 2). A
// string holding a number ("0.7500", which reads as the derived 0.75 in
// the docs example, testdata/bargain_example.json; "+0.75", "7.5E-1")
// and true, {} or [0.3] are refused with where they are, and so is a null,
// which the decoder would otherwise take for a claim left out (a
// difference, exit 1). The engine replay is the Negotiation Games
// engine's own (seed-498164656.json, generated with
// Metta-AI/cogame-negotiation-games, MIT; its scores are
// [0.3,0.3333333333333333,0.5666666666666667]).
func TestWrongJSONTypes(t *testing.T) {
	b := readTestdata(t, "bargain_example.json")
	const scores, give = `"scores":[0.7500,`, `"giveaway":[1.5000,`
	checkStrict(t, CheckBargainReplay, []strictCase{
		{"bargain score string", edit(t, b, scores, `"scores":["0.7500",`),
			[]string{"results.scores[0] is a JSON string; expected a JSON number"}},
		{"bargain score plus", edit(t, b, scores, `"scores":["+0.75",`), []string{"results.scores[0] is a JSON string"}},
		{"bargain score exponent string", edit(t, b, scores, `"scores":["7.5E-1",`), []string{"results.scores[0] is a JSON string"}},
		{"bargain giveaway string", edit(t, b, give, `"giveaway":["1.5",`),
			[]string{"results.giveaway[0] is a JSON string; expected a JSON number"}},
		{"bargain score bool", edit(t, b, `0.4000,0.5000]`, `true,0.5000]`), []string{"results.scores[1] is a JSON boolean"}},
		{"bargain score null", edit(t, b, scores, `"scores":[null,`), []string{"results.scores[0] is a JSON null"}},
		{"bargain scores null", edit(t, b, `"scores":[0.7500,0.4000,0.5000]`, `"scores":null`), []string{"results.scores is a JSON null"}},
		{"bargain points null", edit(t, b, `"points":[15,8,10]`, `"points":null`), []string{"results.points is a JSON null"}},
		{"bargain event null", edit(t, b, `"opener":0,`, `"opener":null,`), []string{"event 1, opener is a JSON null"}},
	})
	// A score as a JSON number in exponent form is a number: it reads as
	// the derived 0.75 (docs: compared numerically).
	if rep, err := CheckBargainReplay(edit(t, b, scores, `"scores":[7.5E-1,`)); err != nil || !rep.Clean() {
		t.Errorf("7.5E-1 as a number: %v %+v", err, rep)
	}

	data, err := os.ReadFile(engineDir + "/seed-498164656.json")
	if err != nil {
		t.Fatal(err)
	}
	e := string(data)
	const escores = `"scores":[0.3,`
	engine := func(d []byte) (*Report, error) { return CheckEngineReplay(d, ReplayOptions{}) }
	checkStrict(t, engine, []strictCase{
		{"engine score string", edit(t, e, escores, `"scores":["0.3",`),
			[]string{"reading engine replay: results.scores[0] is a JSON string; expected a JSON number"}},
		{"engine score true", edit(t, e, escores, `"scores":[true,`), []string{"results.scores[0] is a JSON boolean"}},
		{"engine score object", edit(t, e, escores, `"scores":[{},`), []string{"results.scores[0] is a JSON object"}},
		{"engine score array", edit(t, e, escores, `"scores":[[0.3],`), []string{"results.scores[0] is a JSON array"}},
		{"engine giveaway string", edit(t, e, `"giveaway":[3.75,`, `"giveaway":["3.75",`), []string{"results.giveaway[0] is a JSON string"}},
		{"engine scores null", edit(t, e, `"scores":[0.3,0.3333333333333333,0.5666666666666667]`, `"scores":null`),
			[]string{"results.scores is a JSON null"}},
		{"engine giveaway null", edit(t, e, `"giveaway":[3.75,-3.333333333333333,-1.666666666666667]`, `"giveaway":null`),
			[]string{"results.giveaway is a JSON null"}},
		{"engine fallbacks null", edit(t, e, `"fallbacks":[2,0,0]`, `"fallbacks":null`), []string{"results.fallbacks is a JSON null"}},
	})
	a := readTestdata(t, "auction_example.json")
	checkStrict(t, CheckAuctionReplay, []strictCase{
		{"auction amount null", edit(t, a, `"seat":1,"amount":36`, `"seat":1,"amount":null`), []string{"event 9, amount is a JSON null"}},
		{"auction pot null", edit(t, a, `"pot": "30.00"`, `"pot": null`), []string{"results.pot is a JSON null"}},
	})
}

// TestReplayNotJSON (trial 16): a file that is not JSON at all (a SQLite
// database given by mistake) is named by what it starts with, not by
// "invalid character 'S' at start of value".
func TestReplayNotJSON(t *testing.T) {
	for _, data := range []string{"SQLite format 3\x00\x10\x00", "\x1f\x8b\x08\x00", "  <html>"} {
		_, err := CheckReplay([]byte(data))
		if err == nil || !strings.Contains(err.Error(), "replay is not JSON: it starts with") {
			t.Errorf("%q: %v", data, err)
		}
	}
	// JSON that is wrong stays a JSON error.
	if _, err := CheckReplay([]byte(`{"format":`)); err == nil || strings.Contains(err.Error(), "not JSON") {
		t.Errorf("a cut JSON object: %v", err)
	}
}
