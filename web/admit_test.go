package web

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sealedhq/sealed/ledger"
	"github.com/sealedhq/sealed/ledger/stores"
)

// admitSeedB is tieSeedA's bytes in reverse order; its commitment
// (`printf %s 1f1e...0100 | sha256sum`) is tieCommitmentB, not
// tieCommitmentA (`printf %s 0001...1e1f | sha256sum`).
const admitSeedB = "1f1e1d1c1b1a191817161514131211100f0e0d0c0b0a09080706050403020100"

// admitAnswer is the JSON of a POST /api/v1/entries answer.
type admitAnswer struct {
	Error string `json:"error"`
	Index *int64 `json:"index"`
}

// postEntry POSTs body to /api/v1/entries with the token and returns the
// status and the decoded answer.
func postEntry(t *testing.T, s *Server, body string) (int, admitAnswer) {
	t.Helper()
	w := do(s, "POST", "/api/v1/entries", body, "Authorization", "Bearer "+testToken, "Content-Type", "application/json")
	var a admitAnswer
	if err := json.Unmarshal(w.Body.Bytes(), &a); err != nil {
		t.Errorf("answer %d is not JSON: %v: %s", w.Code, err, w.Body.String())
	}
	return w.Code, a
}

func wantSize(t *testing.T, l *ledger.Ledger, want int64) {
	t.Helper()
	if n, err := l.Size(); err != nil || n != want {
		t.Errorf("ledger size %d, %v; want %d", n, err, want)
	}
}

// TestAppendAdmitRevealByAnotherPlayer: the write API runs the admission
// every writer shares (verify.Admit): bob's reveal or edit of alice's
// commit (entry 0 of the fixture) is answered 400 with a JSON error on
// the player, and nothing is appended; alice's own reveal is appended.
func TestAppendAdmitRevealByAnotherPlayer(t *testing.T) {
	f := newFixture(t)
	s := f.server(t, func(o *Options) { o.WriteRate, o.WriteBurst = 1e6, 1e6 })
	bid := readVector(t, "bid")
	text, _ := json.Marshal(string(bid.Text))
	alice := f.idx["alice"]
	size, err := f.w.Size()
	if err != nil {
		t.Fatal(err)
	}

	for _, body := range []string{
		fmt.Sprintf(`{"kind":"reveal","commit":%d,"player":"bob","text":%s}`, alice, text),
		fmt.Sprintf(`{"kind":"reveal","commit":%d,"player":"bob","text":%s,"posted_at":"2026-03-06T09:00:00Z"}`, alice, text),
		fmt.Sprintf(`{"kind":"edit","commit":%d,"player":"bob"}`, alice),
	} {
		code, a := postEntry(t, s, body)
		if code != 400 || !strings.HasPrefix(a.Error, "bad entry: player: ") || !strings.Contains(a.Error, "alice") || !strings.Contains(a.Error, "bob") {
			t.Errorf("%s: %d %+v; want 400 with an error on the player naming alice and bob", body, code, a)
		}
	}
	wantSize(t, f.w, size)

	// alice's reveal of her commit, posted Friday (after her Monday post,
	// before the writer's clock): appended. Its text differs from the
	// fixture's entry 3, so it is no duplicate.
	code, a := postEntry(t, s, fmt.Sprintf(`{"kind":"reveal","commit":%d,"player":"alice","text":"I bid 1","posted_at":"2026-03-06T09:30:00Z"}`, alice))
	if code != 201 || a.Index == nil || *a.Index != size {
		t.Errorf("alice's reveal: %d %+v; want 201 at index %d", code, a, size)
	}
	wantSize(t, f.w, size+1)
}

// TestAppendAdmitSeedReveal: a seed-reveal whose seed does not hash to its
// seed-commit's commitment is answered 400 and not appended; the seed
// that does is appended.
func TestAppendAdmitSeedReveal(t *testing.T) {
	f := newTieFixture(t)
	f.add(t, "sc", "2026-11-16T08:00:00Z", &ledger.Body{Kind: ledger.KindSeedCommit, Game: "auction", MatchID: tieMatch,
		RulesVersion: "auction-0.2", Config: []byte(tieConfig), Commitment: tieCommitmentA})
	f.clk.set(at(t, "2026-11-16T12:00:00Z"))
	s := f.server(t, func(o *Options) { o.WriteRate, o.WriteBurst = 1e6, 1e6 })
	reveal := func(seed string) string {
		return fmt.Sprintf(`{"kind":"seed-reveal","seed_commit":%d,"seed":"%s"}`, f.idx["sc"], seed)
	}

	code, a := postEntry(t, s, reveal(admitSeedB))
	if code != 400 || !strings.HasPrefix(a.Error, "bad entry: seed: ") || !strings.Contains(a.Error, tieCommitmentA) {
		t.Errorf("seed B for seed A's commitment: %d %+v; want 400 with an error on the seed", code, a)
	}
	wantSize(t, f.w, 1)
	code, a = postEntry(t, s, reveal(tieSeedA))
	if code != 201 || a.Index == nil || *a.Index != 1 {
		t.Errorf("seed A: %d %+v; want 201 at index 1", code, a)
	}
	wantSize(t, f.w, 2)
}

// admitGate is a writer clock that can hold the sequencer: it is read
// once per batch inside the batch's transaction, so POSTs made while a
// call is held queue up into the next batch. calls counts the reads.
type admitGate struct {
	mu      sync.Mutex
	calls   int
	hold    chan struct{}
	entered chan struct{}
}

func (g *admitGate) now() time.Time {
	g.mu.Lock()
	g.calls++
	t := time.Date(2026, 3, 2, 9, 0, g.calls, 0, time.UTC)
	hold, entered := g.hold, g.entered
	g.hold, g.entered = nil, nil
	g.mu.Unlock()
	if hold != nil {
		close(entered)
		<-hold
	}
	return t
}

func (g *admitGate) arm() (entered chan struct{}, release func()) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.hold, g.entered = make(chan struct{}), make(chan struct{})
	hold := g.hold
	return g.entered, func() { close(hold) }
}

func (g *admitGate) count() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.calls
}

// TestAppendConcurrentCopies: 64 concurrent POSTs, 32 distinct commits and
// 32 copies of one further commit, queued while the writer's sequencer is
// held so that they form one batch: each distinct one and exactly one copy
// are answered 201, the 31 other copies 409 naming the index of the copy
// appended (docs/ledger.md, "Duplicates"; docs/web.md), never 500; the 33
// take the indexes after the blocker's with no gap. Three rounds; whatever
// the batching, the answers are the same.
func TestAppendConcurrentCopies(t *testing.T) {
	const rounds, distinct, copies = 3, 32, 32
	dir := t.TempDir()
	g := &admitGate{}
	f := &fixture{path: filepath.Join(dir, "l.db"), key: filepath.Join(dir, "l.key"), clk: &testClock{},
		idx: map[string]int64{}, digest: map[string]string{}, now: at(t, "2026-03-09T12:00:00Z")}
	if _, err := stores.Init(context.Background(), f.path, "test.sealed.invalid/web", f.key); err != nil {
		t.Fatal(err)
	}
	var err error
	if f.w, err = stores.Open(context.Background(), f.path, ledger.Options{KeyFile: f.key, Clock: g.now, CheckpointInterval: time.Hour}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.w.Close() })
	if f.r, err = stores.Open(context.Background(), f.path, ledger.Options{ReadOnly: true}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.r.Close() })
	s := f.server(t, func(o *Options) { o.WriteRate, o.WriteBurst = 1e6, 1e6 })
	ctx := context.Background()
	// sha256 of "hello world" (`printf %s 'hello world' | sha256sum`).
	const c = "b94d27b9934d3e08a52e52d7da7dabfac484efe37a5380ee9088f7ace2efcde9"
	commit := func(player string) string {
		return `{"kind":"commit","player":"` + player + `","action_type":"bid","channel":"#auctions","commitment":"` + c + `"}`
	}
	// The warm-up's batch signs the first checkpoint; then, an hour apart,
	// only batches read the clock until Close.
	if _, err := f.w.Append(ctx, []byte(commit("warm-up"))); err != nil {
		t.Fatal(err)
	}

	for round := range rounds {
		base, err := f.w.Size()
		if err != nil {
			t.Fatal(err)
		}
		entered, release := g.arm()
		blocker := make(chan error, 1)
		go func() {
			_, err := f.w.Append(ctx, []byte(commit(fmt.Sprintf("r%d-blocker", round))))
			blocker <- err
		}()
		<-entered
		held := g.count()

		bodies := make([]string, distinct+copies)
		for i := range distinct {
			bodies[i] = commit(fmt.Sprintf("r%d-p%02d", round, i))
		}
		for i := distinct; i < len(bodies); i++ {
			bodies[i] = commit(fmt.Sprintf("r%d-copy", round))
		}
		type answer struct {
			code int
			a    admitAnswer
			raw  string
		}
		answers := make([]answer, len(bodies))
		start := make(chan struct{})
		var ready, done sync.WaitGroup
		for i, body := range bodies {
			ready.Add(1)
			done.Add(1)
			go func() {
				defer done.Done()
				ready.Done()
				<-start
				w := do(s, "POST", "/api/v1/entries", body, "Authorization", "Bearer "+testToken, "Content-Type", "application/json")
				answers[i] = answer{code: w.Code, raw: w.Body.String()}
				json.Unmarshal(w.Body.Bytes(), &answers[i].a)
			}()
		}
		ready.Wait()
		close(start)
		// A moment for the requests to queue before the sequencer goes
		// on; late ones make another batch with the same answers due.
		for range 10 {
			runtime.Gosched()
		}
		time.Sleep(30 * time.Millisecond)
		release()
		done.Wait()
		if err := <-blocker; err != nil {
			t.Fatalf("round %d: blocker: %v", round, err)
		}
		t.Logf("round %d: the 64 POSTs took %d batch(es)", round, g.count()-held)

		seen := map[int64]bool{base: true} // the blocker's
		for i := range distinct {
			a := answers[i]
			if a.code != 201 || a.a.Index == nil {
				t.Errorf("round %d: distinct commit %d: %d %s; want 201", round, i, a.code, a.raw)
				continue
			}
			seen[*a.a.Index] = true
		}
		winner := int64(-1)
		for i := distinct; i < len(bodies); i++ {
			if a := answers[i]; a.code == 201 && a.a.Index != nil {
				if winner >= 0 {
					t.Errorf("round %d: two copies appended, at %d and %d", round, winner, *a.a.Index)
				}
				winner = *a.a.Index
				seen[winner] = true
			}
		}
		if winner < 0 {
			t.Fatalf("round %d: no copy appended; first copy's answer: %d %s", round, answers[distinct].code, answers[distinct].raw)
		}
		conflicts := 0
		for i := distinct; i < len(bodies); i++ {
			a := answers[i]
			switch {
			case a.code == 201:
			case a.code == 409 && a.a.Index != nil && *a.a.Index == winner:
				conflicts++
			default:
				t.Errorf("round %d: copy %d: %d %s; want 409 naming index %d", round, i-distinct, a.code, a.raw, winner)
			}
		}
		if conflicts != copies-1 {
			t.Errorf("round %d: %d copies answered 409; want %d", round, conflicts, copies-1)
		}
		for i := base; i < base+2+distinct; i++ {
			if !seen[i] {
				t.Errorf("round %d: no answer names index %d; want %d..%d all taken", round, i, base, base+1+distinct)
			}
		}
		wantSize(t, f.w, base+2+distinct)
	}
	rep, err := f.w.Audit(ctx, nil)
	if err != nil || !rep.OK {
		t.Fatalf("audit: %+v %v", rep, err)
	}
}

// TestAppendLookalikePlayer: a commit by a new player whose name renders
// like the fixture's alice (Cyrillic U+0430 for the first a,
// confusables.txt "0430 ; 0061") is answered 400 naming both names and
// the shared skeleton, and nothing is appended; names holding invisible
// or filler characters (U+034F, U+2800, U+3164, U+115F) are answered 400
// naming the character; alice posting again is appended.
func TestAppendLookalikePlayer(t *testing.T) {
	f := newFixture(t)
	s := f.server(t, func(o *Options) { o.WriteRate, o.WriteBurst = 1e6, 1e6 })
	size, err := f.w.Size()
	if err != nil {
		t.Fatal(err)
	}
	commit := func(player string, c byte) string {
		return fmt.Sprintf(`{"kind":"commit","player":%q,"action_type":"bid","channel":"#auctions","commitment":"%s"}`, player, strings.Repeat(string([]byte{c}), 64))
	}
	code, a := postEntry(t, s, commit("\u0430lice", 'a'))
	if code != 400 || !strings.HasPrefix(a.Error, "bad entry: player: ") || !strings.Contains(a.Error, `"alice"`) ||
		!strings.Contains(a.Error, `\u0430lice`) || !strings.Contains(a.Error, `skeleton "alice"`) {
		t.Errorf("a lookalike of alice: %d %+v; want 400 naming both players and the skeleton", code, a)
	}
	for name, r := range map[string]string{"alice\u034f": "U+034F", "alice\u2800": "U+2800", "\u3164alice": "U+3164", "alice\u115f": "U+115F"} {
		code, a := postEntry(t, s, commit(name, 'b'))
		if code != 400 || !strings.Contains(a.Error, "player") || !strings.Contains(a.Error, r) {
			t.Errorf("player %+q: %d %+v; want 400 naming %s", name, code, a, r)
		}
	}
	wantSize(t, f.w, size)
	code, a = postEntry(t, s, commit("alice", 'c'))
	if code != 201 || a.Index == nil || *a.Index != size {
		t.Errorf("alice again: %d %+v; want 201 at %d", code, a, size)
	}
}
