package verify

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	json "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// The fast paths of the scanner (scan_event.go, scan_string.go) accept a
// subset of what the reference decoder (go-json-experiment/json with
// strictOptions) accepts, with the same values. These tests hold them to
// it on their own edge cases; FuzzDecodeEngine and the corpus tests below
// do so for whole replays.

// firstValue reads the first JSON value of d with jsontext (the
// reference's grammar and UTF-8 rules) and returns its length.
func firstValue(d []byte) (int, error) {
	dec := jsontext.NewDecoder(bytes.NewReader(d), jsontext.AllowDuplicateNames(false))
	v, err := dec.ReadValue()
	if err != nil {
		return 0, err
	}
	return len(v), nil
}

// pad follows a value under test with what a replay could have after it,
// so that the 8- and 16-byte reads of the fast paths see real input.
const pad = `,"x":0,"y":[1,2,3]}`

// TestListAtMatchesReference: every input of up to 6 bytes over an
// alphabet of brackets, commas, digits and other bytes (about 300,000):
// when listAt reads an array, the reference reads the same array there,
// with the same integers and the same length; and listAt reads each plain
// array of non-negative integers of up to 18 digits.
func TestListAtMatchesReference(t *testing.T) {
	alphabet := []byte("[],0192 :-")
	var inputs []string
	var gen func(prefix []byte, n int)
	gen = func(prefix []byte, n int) {
		if len(prefix) > 0 && prefix[0] == '[' {
			inputs = append(inputs, string(prefix))
		}
		if n == 0 {
			return
		}
		for _, c := range alphabet {
			gen(append(prefix, c), n-1)
		}
	}
	gen(nil, 6)
	inputs = append(inputs, "[999999999999999999]", "[999999999999999999,1]", "[9223372036854775807]",
		"[9223372036854775808]", "[-9223372036854775808]", "[1000000000000000000]", "[123456789012345678,0]",
		"[10,0,0]", "[0,10]", "[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33]",
		"[1e2]", "[1.0]", "[01]", "[00]", "[ 1]", "[1 ]", "[1,,2]", "[,1]", "[1,]", "[]")
	accepted := 0
	for _, in := range inputs {
		for _, withPad := range []bool{true, false} {
			d := []byte(in)
			if withPad {
				d = append(d, pad...)
			}
			b := intBuf{a: new([eventFastInts]int)}
			list, j := listAt(d, 0, &b)
			n, err := firstValue(d)
			var ref []int
			if err == nil {
				err = json.Unmarshal(d[:n], &ref, strictOptions)
			}
			if j < 0 {
				if err == nil && withPad && plainUintList(d[:n]) && len(ref) <= eventFastInts {
					t.Errorf("listAt refused %q; the reference reads %v", d, ref)
				}
				continue
			}
			accepted++
			if err != nil || j != n || !reflect.DeepEqual(list, ref) || list == nil {
				t.Errorf("listAt read %q as %v up to %d; reference %v up to %d (%v)", d, list, j, ref, n, err)
			}
			if b.n != len(list) {
				t.Errorf("listAt(%q) used %d integers for %d", d, b.n, len(list))
			}
		}
	}
	if accepted < 1000 {
		t.Fatalf("listAt accepted only %d inputs", accepted)
	}
}

// plainUintList reports whether v is "[" integers "]" with no whitespace,
// no sign, no leading zero and at most 18 digits each (what listAt must
// read itself).
func plainUintList(v []byte) bool {
	s := string(v)
	if len(s) < 2 || s[0] != '[' || s[len(s)-1] != ']' {
		return false
	}
	if s == "[]" {
		return true
	}
	for _, n := range strings.Split(s[1:len(s)-1], ",") {
		if n == "" || len(n) > 18 || len(n) > 1 && n[0] == '0' || strings.Trim(n, "0123456789") != "" {
			return false
		}
	}
	return true
}

// textCase runs scanner.text on the JSON string literal lit (followed by
// pad) and compares it with the reference: the same acceptance, the same
// string, and a rune count (1 + utf8.RuneCountInString) exactly when the
// literal has no backslash and no DEL.
func textCase(t *testing.T, lit string) {
	t.Helper()
	d := []byte(lit + pad)
	for _, alias := range []bool{false, true} {
		s := &scanner{data: d, alias: alias}
		got, runes := s.text()
		var want string
		n, err := firstValue(d)
		if err == nil {
			err = json.Unmarshal(d[:n], &want, strictOptions)
		}
		switch {
		case s.failed != (err != nil):
			t.Fatalf("text(%q): failed %v; reference error %v", lit, s.failed, err)
		case s.failed:
			continue
		case got != want || s.i != n:
			t.Fatalf("text(%q) = %q up to %d; reference %q up to %d", lit, got, s.i, want, n)
		}
		plain := !bytes.ContainsAny(d[:n], "\\\x7f")
		if plain != (runes != 0) || plain && runes != 1+utf8.RuneCountInString(got) {
			t.Fatalf("text(%q): runes %d; expected %d (plain %v)", lit, runes, 1+utf8.RuneCountInString(got), plain)
		}
	}
}

// TestTextMatchesReference: scanner.text against the reference on every
// literal of up to 4 bytes over quotes, escapes, ASCII, DEL, control
// bytes and the edges of each UTF-8 sequence class (lead bytes 0xc0,
// 0xc1, 0xc2, 0xdf, 0xe0, 0xed, 0xf0, 0xf4, 0xf5, 0xff and the
// continuation bounds 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0).
func TestTextMatchesReference(t *testing.T) {
	alphabet := []byte{'a', '"', '\\', 'u', 'n', '0', 'd', 0x7f, 0x01, 0x1f,
		0xc0, 0xc1, 0xc2, 0xdf, 0xe0, 0xed, 0xf0, 0xf4, 0xf5, 0xff, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf}
	var gen func(prefix []byte, n int)
	gen = func(prefix []byte, n int) {
		textCase(t, `"`+string(prefix)+`"`)
		if n == 0 {
			return
		}
		for _, c := range alphabet {
			gen(append(prefix, c), n-1)
		}
	}
	gen(nil, 4)
}

// TestTextLongMatchesReference: scanner.text against the reference on
// texts long enough for its 8-byte paths: runs of 2-byte sequences in and
// out of step with the words, ASCII mixed with longer sequences, escapes
// (\u escapes of surrogate pairs, lone surrogates), invalid UTF-8 before,
// inside and after escapes, and DEL; 40,000 random texts and the cases
// below.
func TestTextLongMatchesReference(t *testing.T) {
	for _, lit := range []string{
		`"` + strings.Repeat("é", 200) + `…"`, `"a` + strings.Repeat("é", 17) + `"`, `"ünïcödé"`,
		`"Les chapeaux valent peu pour moi — café?"`, `"ok 👍"`, `"<b>bold</b> & \"quotes\""`,
		`"line\none\u00e9\ud83d\ude00\/\b\f\r\t"`, `"\n` + "\xff" + `"`, `"é\u00e9` + "\xc3" + `"`,
		`"\ud83d\u0041"`, `"\ud800"`, `"\udc00\ud800"`, `"\u12"`, `"\x"`, "\"" + strings.Repeat("a", 31) + "\x7f\"",
		"\"" + strings.Repeat("é", 8) + "\xed\xa0\x80\"", "\"" + strings.Repeat("ab", 8) + "\xc0\xaf\"",
		"\"" + strings.Repeat("é", 4) + "\xc3\"", "\"" + strings.Repeat("é", 4) + "\xc3\xc3\"",
		"\"" + strings.Repeat("x", 9) + "\x01\"", "\"\xf4\x90\x80\x80\"", "\"\xf0\x8f\xbf\xbf\"", "\"\xe0\x9f\xbf\"",
	} {
		textCase(t, lit)
	}
	tokens := []string{"a", " ", "é", "ß", "ĳ", "—", "…", "👍", "\u0800", "\U00010000", "\U0010ffff", `\n`, `\"`, `\\`,
		`\u00e9`, `\ud83d\ude00`, `\ud800`, "\x7f", "\x01", "\xc0\x80", "\xc2", "\x80", "\xed\xa0\x80", "\xf4\x90\x80\x80",
		"\xff", "\xdf\xbf", "\xc2\x80"}
	r := rand.New(rand.NewPCG(13, 40))
	for range 40000 {
		var b strings.Builder
		b.WriteByte('"')
		for range r.IntN(40) {
			tok := tokens[r.IntN(len(tokens))]
			if r.IntN(3) > 0 { // mostly valid, plain text
				tok = tokens[r.IntN(10)]
			}
			b.WriteString(tok)
		}
		b.WriteByte('"')
		textCase(t, b.String())
	}
}

// TestTwoByteRun holds twoByteRun to utf8.DecodeRune: it reports true
// exactly when the 8 bytes are four valid 2-byte sequences, for every
// word made of the boundary bytes of each class in every position.
func TestTwoByteRun(t *testing.T) {
	edges := []byte{0x00, 0x41, 0x7f, 0x80, 0xbf, 0xc0, 0xc1, 0xc2, 0xdf, 0xe0, 0xff}
	var w [8]byte
	check := func() {
		want := true
		for k := 0; k < 8; k += 2 {
			r, n := utf8.DecodeRune(w[k:])
			want = want && n == 2 && r != utf8.RuneError
		}
		if got := twoByteRun(leUint64(w[:])); got != want {
			t.Fatalf("twoByteRun(% x) = %v; expected %v", w, got, want)
		}
	}
	// Every pair of edges in every one of the four pairs, the others é.
	for p := 0; p < 8; p += 2 {
		for _, a := range edges {
			for _, b := range edges {
				copy(w[:], "éééé")
				w[p], w[p+1] = a, b
				check()
			}
		}
	}
	r := rand.New(rand.NewPCG(2, 7))
	for range 200000 {
		for k := range w {
			w[k] = edges[r.IntN(len(edges))]
		}
		check()
	}
}

func leUint64(b []byte) uint64 {
	var x uint64
	for k := 7; k >= 0; k-- {
		x = x<<8 | uint64(b[k])
	}
	return x
}

// corpus returns the engine's replays, each once.
func corpus(t *testing.T) (names []string, data [][]byte) {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(engineDir, "*.json"))
	if len(files) != 65 {
		t.Fatalf("%d engine replays", len(files))
	}
	for _, f := range files {
		d, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		names, data = append(names, filepath.Base(f)), append(data, d)
	}
	return names, data
}

// TestFastEventsReadTheCorpus: the fast paths, not the general member
// loop, read every event and every schedule entry of the engine's
// replays (else the speed is the general loop's).
func TestFastEventsReadTheCorpus(t *testing.T) {
	names, data := corpus(t)
	for n, d := range data {
		var w struct {
			Config struct {
				Schedule []jsontext.Value `json:"schedule"`
			} `json:"config"`
			Events []jsontext.Value `json:"events"`
		}
		if err := json.Unmarshal(d, &w); err != nil {
			t.Fatal(err)
		}
		for i, raw := range w.Events {
			s := getScanner(d)
			s.i = bytes.Index(d, raw) // each event is unique in its replay (its match and turn)
			var ev bargainEvent
			var ti textInfo
			if !s.bargainEventFast(&ev, &ti) {
				t.Errorf("%s: event %d %s read by the general loop", names[n], i, raw)
			}
			s.release()
		}
		for i, raw := range w.Config.Schedule {
			s := getScanner(d)
			s.i = bytes.Index(d, raw)
			var m engineMatchWire
			if !s.engineMatchFast(&m) {
				t.Errorf("%s: schedule entry %d %s read by the general loop", names[n], i, raw)
			}
			s.release()
		}
	}
}

// sameCheck checks data with CheckReplay and with the reference decoder
// and the same re-simulation (checkReplayReference), and fails unless
// both give the same report (texts' fast test included) or the same
// error.
func sameCheck(t *testing.T, what string, data []byte) {
	t.Helper()
	rep, err := CheckReplay(data)
	ref, refErr := checkReplayReference(data)
	if errors.Is(refErr, os.ErrInvalid) {
		return // another dialect: not the reference's to say
	}
	switch {
	case (err == nil) != (refErr == nil):
		t.Fatalf("%s: error %v; reference %v", what, err, refErr)
	case err != nil && err.Error() != refErr.Error():
		t.Fatalf("%s: error %q; reference %q", what, err, refErr)
	case err == nil && !reflect.DeepEqual(rep, ref):
		t.Fatalf("%s: report\n%+v\nreference\n%+v", what, rep, ref)
	}
}

// TestFastPathsAgreeOnTheCorpus: on every engine replay, and on every cut
// and every one-byte change (each byte with its low bit flipped, its top
// bit flipped, and replaced by a backslash) of seed-0.json (whose texts
// hold escapes, 2-, 3- and 4-byte UTF-8 and long runs), CheckReplay gives
// the reference's report or error. The changed replays reach every fast
// path's refusals: digits that become other bytes, broken names and
// brackets, invalid UTF-8, escapes, a cut within the last 16 bytes. (Not
// with -short: it checks about 30,000 replays twice.)
func TestFastPathsAgreeOnTheCorpus(t *testing.T) {
	names, data := corpus(t)
	for i, d := range data {
		sameCheck(t, names[i], d)
	}
	if testing.Short() {
		return
	}
	d := readEngineReplay(t, "seed-0.json")
	for n := range len(d) {
		sameCheck(t, "seed-0.json cut", d[:n:n])
	}
	for k := range d {
		for _, change := range []func(byte) byte{
			func(b byte) byte { return b ^ 0x01 }, func(b byte) byte { return b ^ 0x80 }, func(byte) byte { return '\\' },
		} {
			e := bytes.Clone(d)
			e[k] = change(e[k])
			sameCheck(t, "seed-0.json changed", e)
		}
	}
}

// TestReportOutlivesReplayBytes: the strings of an engine replay's check
// point into its bytes while it runs (aliasStrings); the report's claims
// are copies, so overwriting the bytes afterwards changes nothing in it.
func TestReportOutlivesReplayBytes(t *testing.T) {
	d := readEngineReplay(t, "seed-0.json")
	for _, e := range [][2]string{
		{`"outcome":"deal"`, `"outcome":"dea\u006c?"`}, // escaped: from the scanner's arena
		{`"text":"Deal?"`, `"text":"Deal?` + "\x7f" + `"`},
		{`"reason":"complete"`, `"reason":"completed"`},
		{`"matchKind":"bargaining"`, `"matchKind":"bargain"`},
	} {
		if !bytes.Contains(d, []byte(e[0])) {
			t.Fatalf("seed-0.json has no %s", e[0])
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
	if len(rep.Differences) < 4 {
		t.Fatalf("%d differences: %+v", len(rep.Differences), rep.Differences)
	}
	for k := range d {
		d[k] = 'x'
	}
	// Another check reuses the pooled scanner and its arena of escaped
	// strings (seed-1.json has escapes).
	if rep, err := CheckReplay(readEngineReplay(t, "seed-1.json")); err != nil || !rep.Clean() {
		t.Fatal(err, rep)
	}
	if !reflect.DeepEqual(rep, want) {
		t.Fatalf("report after the bytes changed\n%+v\nexpected\n%+v", rep, want)
	}
}
