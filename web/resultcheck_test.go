package web

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sealedhq/sealed/ledger"
	"github.com/sealedhq/sealed/ledger/stores"
)

// Seeds and commitments of testdata/replays (README there; each commitment
// from `printf %s SEED | sha256sum`).
const (
	tieSeedA       = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f" // auction.json
	tieCommitmentA = "6c86c6aac5fb24bcf5d9939cb7d7d5645ce39418f449e03b262dd4fa14b4b92b"
	tieCommitmentB = "c01425eda868de3a70c26fa2e05976057650d79048dd888fc3f2424120e5a81e" // auction-other-seed.json
	tieConfig      = `{"players":3,"items":2,"starting_credits":100,"value_min":5,"value_max":60,"talk_rounds":1,"pricing":"first","stake":"10","rake":"0.05"}`
	tieMatch       = "demo-auction-2026-W47"
)

// newTieFixture is an empty ledger with a writer and a read-only reader,
// for the ledger checks of result entries.
func newTieFixture(t *testing.T) *fixture {
	t.Helper()
	dir := t.TempDir()
	f := &fixture{path: filepath.Join(dir, "l.db"), key: filepath.Join(dir, "l.key"), clk: &testClock{},
		idx: map[string]int64{}, digest: map[string]string{}, now: at(t, "2026-11-23T12:00:00Z")}
	if _, err := stores.Init(context.Background(), f.path, "test.sealed.invalid/web", f.key); err != nil {
		t.Fatal(err)
	}
	var err error
	if f.w, err = stores.Open(context.Background(), f.path, ledger.Options{KeyFile: f.key, Clock: f.clk.now, CheckpointInterval: time.Millisecond}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.w.Close() })
	if f.r, err = stores.Open(context.Background(), f.path, ledger.Options{ReadOnly: true}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.r.Close() })
	for _, r := range []struct{ name, file string }{{"a", "auction.json"}, {"b", "auction-other-seed.json"}} {
		data, err := os.ReadFile(filepath.Join("testdata", "replays", r.file))
		if err != nil {
			t.Fatal(err)
		}
		if f.digest[r.name], err = f.w.PutReplay(data); err != nil {
			t.Fatal(err)
		}
	}
	return f
}

// reportJSON is the part of GET /api/v1/replays/{id}/report these tests read.
type reportJSON struct {
	Clean  bool `json:"clean"`
	Ledger *struct {
		SeedCommit       int64    `json:"seed_commit"`
		SeedCommitBefore bool     `json:"seed_commit_before"`
		SeedReveal       int64    `json:"seed_reveal"`
		CommitmentOK     bool     `json:"commitment_matches"`
		ReplayCommitment string   `json:"replay_commitment"`
		Problems         []string `json:"problems"`
		Tied             bool     `json:"tied"`
		Clean            bool     `json:"clean"`
	} `json:"ledger"`
	LedgerError string `json:"ledger_error"`
}

func getReport(t *testing.T, s *Server, id string) reportJSON {
	t.Helper()
	w := do(s, "GET", "/api/v1/replays/"+id+"/report", "")
	var r reportJSON
	if w.Code != 200 || json.Unmarshal(w.Body.Bytes(), &r) != nil {
		t.Fatalf("report %s: %d %s", id, w.Code, w.Body.String())
	}
	return r
}

// addTiedMatch adds to f a match tied to the ledger: the seed-commit of
// tieMatch ("sc", entry 0), its seed-reveal ("sr", entry 1) and the
// result of replay a ("real", entry 2), played from that seed.
func addTiedMatch(t *testing.T, f *fixture) {
	t.Helper()
	f.add(t, "sc", "2026-11-16T08:00:00Z", &ledger.Body{Kind: ledger.KindSeedCommit, Game: "auction", MatchID: tieMatch,
		RulesVersion: "auction-0.2", Config: []byte(tieConfig), Commitment: tieCommitmentA})
	sc := f.idx["sc"]
	f.add(t, "sr", "2026-11-16T12:00:00Z", &ledger.Body{Kind: ledger.KindSeedReveal, SeedCommit: &sc, Seed: tieSeedA})
	f.add(t, "real", "2026-11-16T12:00:01Z", &ledger.Body{Kind: ledger.KindResult, Game: "auction", MatchID: tieMatch,
		ReplaySHA256: f.digest["a"], Summary: []byte(`{"note":"real"}`)})
}

// TestReplayTiedToLedger is the security review's repro through the site:
// the match's seed committed at entry 0 and revealed at entry 1, the real
// result at entry 2; then a second result for the same match, posted
// through the write API, whose replay was played from a seed never
// committed. Both replays re-simulate clean on their own; only the second
// is not tied to the ledger. Indexes and commitments worked by hand.
func TestReplayTiedToLedger(t *testing.T) {
	f := newTieFixture(t)
	addTiedMatch(t, f)
	s := f.server(t, func(o *Options) { o.WriteRate, o.WriteBurst = 1e6, 1e6 })
	f.clk.set(at(t, "2026-11-16T13:00:00Z"))
	auth := []string{"Authorization", "Bearer " + testToken, "Content-Type", "application/json"}
	w := do(s, "POST", "/api/v1/entries", `{"kind":"result","game":"auction","match_id":"`+tieMatch+`","replay_sha256":"`+f.digest["b"]+`","summary":{"note":"regraded"}}`, auth...)
	if w.Code != 201 || !strings.Contains(w.Body.String(), `"index":3`) {
		t.Fatalf("posting the regraded result: %d %s", w.Code, w.Body.String())
	}

	// The real result: tied, and the re-simulation verdict under it.
	w = do(s, "GET", "/replay/2", "")
	body := w.Body.String()
	tied := `Tied to the ledger: seed committed at entry <a href="/entry/0">0</a> (before the match's result, entry <a href="/entry/2">2</a>), revealed at entry <a href="/entry/1">1</a>, replay's commitment matches`
	if w.Code != 200 || !strings.Contains(body, tied) || !strings.Contains(body, "Clean: the revealed seed matches") ||
		strings.Index(body, tied) > strings.Index(body, "Clean:") {
		t.Errorf("/replay/2: %d; want the tie verdict above the clean re-simulation:\n%s", w.Code, body)
	}
	if r := getReport(t, s, "2"); !r.Clean || r.Ledger == nil || !r.Ledger.Tied || !r.Ledger.Clean || r.Ledger.SeedCommit != 0 || r.Ledger.SeedReveal != 1 {
		t.Errorf("report 2: %+v", r)
	}

	// The regraded result: in red, what does not hold; the replay itself
	// still re-simulates clean. (html/template escapes the apostrophes of
	// the problems, which are data, not those of the template's text.)
	w = do(s, "GET", "/replay/3", "")
	body = w.Body.String()
	for _, want := range []string{
		`<p class="verdict bad">Not tied to the ledger: result entry <a href="/entry/3">3</a> (auction match ` + tieMatch + `)`,
		"<li>the replay&#39;s seed commitment differs from the one recorded at entry 0</li>",
		"<li>the seed revealed at entry 1 for entry 0 is not the replay&#39;s seed</li>",
		"Clean: the revealed seed matches the replay's own seed commitment",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("/replay/3 lacks %q", want)
		}
	}
	if strings.Contains(body, "Tied to the ledger:") {
		t.Error("/replay/3 says tied")
	}
	r := getReport(t, s, "3")
	if !r.Clean || r.Ledger == nil || r.Ledger.Tied || r.Ledger.Clean || r.Ledger.CommitmentOK || r.Ledger.ReplayCommitment != tieCommitmentB ||
		r.Ledger.SeedReveal != -1 || len(r.Ledger.Problems) != 2 {
		t.Errorf("report 3: %+v", r)
	}

	// By digest: no ledger verdict (a digest may be named by several
	// results), and the page says how to get one.
	w = do(s, "GET", "/replay/"+f.digest["b"], "")
	if !strings.Contains(w.Body.String(), "This page is by digest") || strings.Contains(w.Body.String(), "tied to the ledger") {
		t.Errorf("/replay/DIGEST: %s", w.Body.String())
	}
	w = do(s, "GET", "/api/v1/replays/"+f.digest["b"]+"/report", "")
	if strings.Contains(w.Body.String(), `"ledger"`) {
		t.Errorf("report by digest has a ledger check: %s", w.Body.String())
	}
}

// TestReplayTieAfterReveal: a result posted before its seed is revealed is
// not tied (no seed-reveal); once the reveal is appended the page says
// tied, so a cached answer is not served past the ledger's growth.
func TestReplayTieAfterReveal(t *testing.T) {
	f := newTieFixture(t)
	f.add(t, "sc", "2026-11-16T08:00:00Z", &ledger.Body{Kind: ledger.KindSeedCommit, Game: "auction", MatchID: tieMatch,
		RulesVersion: "auction-0.2", Config: []byte(tieConfig), Commitment: tieCommitmentA})
	f.add(t, "real", "2026-11-16T12:00:00Z", &ledger.Body{Kind: ledger.KindResult, Game: "auction", MatchID: tieMatch,
		ReplaySHA256: f.digest["a"], Summary: []byte(`{"note":"real"}`)})
	s := f.server(t, nil)
	w := do(s, "GET", "/replay/1", "")
	if !strings.Contains(w.Body.String(), "<li>no seed-reveal names the seed commitment at entry 0</li>") {
		t.Fatalf("/replay/1 before the reveal: %s", w.Body.String())
	}
	sc := f.idx["sc"]
	f.add(t, "sr", "2026-11-16T12:00:05Z", &ledger.Body{Kind: ledger.KindSeedReveal, SeedCommit: &sc, Seed: tieSeedA})
	w = do(s, "GET", "/replay/1", "")
	if !strings.Contains(w.Body.String(), `revealed at entry <a href="/entry/2">2</a>`) {
		t.Errorf("/replay/1 after the reveal at entry 2: %s", w.Body.String())
	}
	if r := getReport(t, s, "1"); r.Ledger == nil || !r.Ledger.Clean || r.Ledger.SeedReveal != 2 {
		t.Errorf("report 1: %+v", r)
	}
}

// TestReplayTieResultFirst: a result recorded before the match's
// seed-commit (result 0, seed-commit 1, reveal 2) is shown in red.
func TestReplayTieResultFirst(t *testing.T) {
	f := newTieFixture(t)
	f.add(t, "early", "2026-11-16T07:00:00Z", &ledger.Body{Kind: ledger.KindResult, Game: "auction", MatchID: tieMatch,
		ReplaySHA256: f.digest["a"], Summary: []byte(`{"note":"early"}`)})
	f.add(t, "sc", "2026-11-16T08:00:00Z", &ledger.Body{Kind: ledger.KindSeedCommit, Game: "auction", MatchID: tieMatch,
		RulesVersion: "auction-0.2", Config: []byte(tieConfig), Commitment: tieCommitmentA})
	sc := f.idx["sc"]
	f.add(t, "sr", "2026-11-16T12:00:00Z", &ledger.Body{Kind: ledger.KindSeedReveal, SeedCommit: &sc, Seed: tieSeedA})
	s := f.server(t, nil)
	w := do(s, "GET", "/replay/0", "")
	if !strings.Contains(w.Body.String(), "<li>no seed commitment was recorded for this match before the result: the first, entry 1, came after it (the result is entry 0)</li>") {
		t.Errorf("/replay/0: %s", w.Body.String())
	}
	if r := getReport(t, s, "0"); r.Ledger == nil || r.Ledger.Tied || r.Ledger.SeedCommitBefore || r.Ledger.SeedCommit != 1 {
		t.Errorf("report 0: %+v", r)
	}
}

// TestAppendResultNeedsStoredReplay: POST /api/v1/entries refuses (400,
// JSON error) a result whose replay_sha256 names no stored replay, and
// appends nothing; one naming a stored replay is appended.
func TestAppendResultNeedsStoredReplay(t *testing.T) {
	f := newTieFixture(t)
	s := f.server(t, nil)
	auth := []string{"Authorization", "Bearer " + testToken, "Content-Type", "application/json"}
	// The SHA-256 of the empty string (`printf '' | sha256sum`): no replay
	// with it is stored.
	const none = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
	entry := func(d string) string {
		return `{"kind":"result","game":"auction","match_id":"` + tieMatch + `","replay_sha256":"` + d + `","summary":{}}`
	}
	f.clk.set(at(t, "2026-11-16T12:00:00Z"))
	for _, d := range []string{none, "SHA256:" + strings.ToUpper(none)} {
		w := do(s, "POST", "/api/v1/entries", entry(d), auth...)
		var a struct {
			Error string `json:"error"`
		}
		if w.Code != 400 || json.Unmarshal(w.Body.Bytes(), &a) != nil ||
			a.Error != "bad entry: replay_sha256: "+none+" names no replay stored in the ledger; expected the SHA-256 of a replay already stored (sealed ledger append --replay FILE stores the replay and appends the result)" {
			t.Errorf("result naming no replay (%s): %d %s", d, w.Code, w.Body.String())
		}
	}
	if n, err := f.r.Size(); err != nil || n != 0 {
		t.Errorf("ledger size %d, %v; want 0", n, err)
	}
	w := do(s, "POST", "/api/v1/entries", entry(f.digest["a"]), auth...)
	if w.Code != 201 || !strings.Contains(w.Body.String(), `"index":0`) {
		t.Errorf("result naming a stored replay: %d %s", w.Code, w.Body.String())
	}
	// Bad bodies keep the ledger's own message.
	w = do(s, "POST", "/api/v1/entries", `{"kind":"result","game":"auction"}`, auth...)
	if w.Code != 400 || !strings.Contains(w.Body.String(), "required in a result entry") {
		t.Errorf("incomplete result: %d %s", w.Code, w.Body.String())
	}
}
