package ledger_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/sealedhq/sealed/ledger"
)

// prepareSeeds are bodies an append may carry: the leaf vectors' inputs
// plus hand-written edge cases of RFC 8785 canonicalisation (escapes,
// non-ASCII, U+2028, HTML characters, numbers in config), of omitempty
// (empty strings and nulls), of normalised fields (digest case and prefix,
// posted_at offsets) and of key spelling (encoding/json matches keys
// without regard to case).
func prepareSeeds(t testing.TB) []string {
	files, _ := filepath.Glob("testdata/leaves/*-*.txt")
	var seeds []string
	for _, f := range files {
		h, _ := readVector(t, f)
		seeds = append(seeds, h["input"])
	}
	return append(seeds,
		commitBody("ann", hashA),
		` { "commitment" : "SHA256:`+strings.ToUpper(hashA)+` ", "kind":"commit","player":"a\u00e9\u2028<>&\"\\\/","action_type":"bid","channel":"#x","posted_at":"2025-03-03T10:15:00.5+01:00"}`,
		`{"kind":"commit","player":"ann","action_type":"bid","channel":"c","commitment":"`+hashA+`","integrated_at":"","posted_at":""}`,
		`{"kind":"commit","Player":"ann","action_type":"bid","channel":"c","commitment":"`+hashA+`"}`,
		`{"kind":"commit","player":"ann","PLAYER":"bob","action_type":"bid","channel":"c","commitment":"`+hashA+`"}`,
		`{"kind":"reveal","commit":3,"player":"p","text":"line\nnext\t\u0001\u007f\ud83d\ude00 e\u0301","text_base64":"","commitment":null,"seed":""}`,
		`{"kind":"reveal","commit":0,"player":"p","text":""}`,
		`{"kind":"reveal","commit":9007199254740993,"player":"p","text_base64":"/2hp"}`,
		`{"kind":"edit","commit":-0,"player":"p","text":null,"posted_at":"2025-01-01T00:00:00Z"}`,
		`{"kind":"seed-commit","game":"auction","match_id":"m","rules_version":"r1","commitment":"`+hashB+`","config":{"z":[1e2,1.50,-0,{"b":null,"a":true}],"a":"\u00e9","integrated_at":"x","kind":1}}`,
		`{"kind":"seed-reveal","seed_commit":1,"seed":"  `+strings.ToUpper(hashB)+`"}`,
		`{"kind":"seed-commit","game":"auction","match_id":"m","rules_version":"r1","commitment":"`+hashB+`","config":{},"beacon_chain":"SHA256:`+strings.ToUpper(hashA)+`","beacon_round":657413,"play_at":"2025-03-03T10:15:00+01:00","reveal_by":"2025-03-04T00:00:00Z","operator":"house \u00e9"}`,
		`{"kind":"contribution","seed_commit":1,"seat":2,"client_seed":" gr\u00fc\u00dfe \u2028\"x"}`,
		`{"kind":"seed-commit","game":"bargain","match_id":"m","rules_version":"r1","commitment":"`+hashB+`","config":{},"play_at_entry":1e1}`,
		`{"kind":"seed-commit","game":"bargain","match_id":"m","rules_version":"r1","commitment":"`+hashB+`","config":{},"play_at_entry":12}`,
		`{"kind":"seed-reveal","seed_commit":1,"seed":"`+hashB+`","beacon_signature":"B713718A38AE728DFD477991AF2822E08D2F305E47718CEF9F7848CE4050E7BE41076862B98FAD56E91A6B85B89CD97B"}`,
		`{"summary":{"winner":"ann","price":"40.5","n":123456789012},"kind":"result","game":"bargain","match_id":"m\u0000x","replay_sha256":"`+hashA+`"}`,
	)
}

// checkPrepareSame: for a body ParseBody accepts, the one-canonicalisation
// path makes the same leaf as canonicalising the marshalled body.
func checkPrepareSame(t *testing.T, body string) {
	if _, err := ledger.CheckPrepareSame(body); err != nil {
		t.Errorf("%s: %v", body, err)
	}
}

// TestPrepareCanonical: the one-canonicalisation path of Append makes the
// same leaves as canonicalising the marshalled body.
func TestPrepareCanonical(t *testing.T) {
	accepted := 0
	for _, s := range prepareSeeds(t) {
		if _, err := ledger.ParseBody([]byte(s)); err == nil {
			accepted++
		}
		checkPrepareSame(t, s)
	}
	if accepted < 14 {
		t.Errorf("only %d seed bodies were accepted: the test checks too little", accepted)
	}
}

// FuzzPrepareCanonical: as TestPrepareCanonical, on mutated bodies
// (go test -fuzz FuzzPrepareCanonical ./ledger).
func FuzzPrepareCanonical(f *testing.F) {
	for _, s := range prepareSeeds(f) {
		f.Add(s)
	}
	f.Fuzz(checkPrepareSame)
}
