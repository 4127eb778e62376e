package ledger_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/sealedhq/sealed/ledger"
)

// gateClock is a ledger clock that can hold the sequencer: the sequencer
// reads the clock once per batch, inside the batch's write transaction, so
// while a call is held every Append made meanwhile queues up and the
// queue becomes the next batch. Each call returns one second later than
// the one before, so the entries of one batch share their integration
// time and calls counts the batches (and checkpoints) written.
type gateClock struct {
	mu      sync.Mutex
	base    time.Time
	calls   int
	hold    chan struct{} // if set, the next call closes entered and waits on hold
	entered chan struct{}
}

func (g *gateClock) now() time.Time {
	g.mu.Lock()
	g.calls++
	t := g.base.Add(time.Duration(g.calls) * time.Second)
	hold, entered := g.hold, g.entered
	g.hold, g.entered = nil, nil
	g.mu.Unlock()
	if hold != nil {
		close(entered)
		<-hold
	}
	return t
}

// arm makes the next call wait until release is called; entered is closed
// once it waits.
func (g *gateClock) arm() (entered chan struct{}, release func()) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.hold, g.entered = make(chan struct{}), make(chan struct{})
	hold := g.hold
	return g.entered, func() { close(hold) }
}

func (g *gateClock) count() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.calls
}

// appendResult is one Append's answer.
type appendResult struct {
	index int64
	err   error
}

// TestBatchCopiesRefusedAsDuplicates: 64 concurrent appends, 32 distinct
// commit bodies and 32 copies of one further body, queued while the
// sequencer is held so that they form one batch (the copies are of a
// seed-commit in odd rounds). The rule (docs/ledger.md,
// "Duplicates"; Append's doc): every distinct body is appended, the first
// copy too, and each other copy is refused with a *DuplicateError naming
// the index the first one took; refused entries take no index, so the 33
// appended ones fill the indexes after the size before the round with no
// gap; and the batch as a whole does not fail. Five rounds, each with new
// bodies; the audit is clean at the end.
//
// Whatever the batching (it depends on the scheduler), the same answers
// are due; the test logs how many batches the 64 appends took.
func TestBatchCopiesRefusedAsDuplicates(t *testing.T) {
	const rounds, distinct, copies = 5, 32, 32
	g := &gateClock{base: time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)}
	// A checkpoint an hour apart at most: after the warm-up's, the clock
	// is read by batches alone until Close.
	l, _, _ := newTestLedger(t, ledger.Options{Clock: g.now, CheckpointInterval: time.Hour})
	ctx := context.Background()
	if _, err := l.Append(ctx, []byte(commitBody("warm-up", hashA))); err != nil {
		t.Fatal(err)
	}
	oneBatch := 0
	for round := range rounds {
		base, err := l.Size()
		if err != nil {
			t.Fatal(err)
		}
		// Hold the sequencer in the batch of a blocker entry.
		entered, release := g.arm()
		blocker := make(chan appendResult, 1)
		go func() {
			n, err := l.Append(ctx, []byte(commitBody(fmt.Sprintf("r%d-blocker", round), hashA)))
			blocker <- appendResult{n, err}
		}()
		<-entered
		callsHeld := g.count()

		bodies := make([]string, distinct+copies)
		for i := range distinct {
			bodies[i] = commitBody(fmt.Sprintf("r%d-p%02d", round, i), hashA)
		}
		// The copies: of a commit in even rounds, of a seed-commit (whose
		// duplicate key is its whole canonical body) in odd ones.
		copyBody, copyKind := commitBody(fmt.Sprintf("r%d-copy", round), hashA), ledger.KindCommit
		if round%2 == 1 {
			// A seed is committed once: each round's seed-commit commits
			// to its own seed.
			seed := sha256.Sum256(fmt.Appendf(nil, "r%d-copy", round))
			copyBody = `{"kind":"seed-commit","game":"auction","match_id":"` + fmt.Sprintf("r%d-copy", round) +
				`","rules_version":"auction-0.2","config":{"players":3},"commitment":"` + hex.EncodeToString(seed[:]) + `"}`
			copyKind = ledger.KindSeedCommit
		}
		for i := distinct; i < len(bodies); i++ {
			bodies[i] = copyBody
		}
		results := make([]appendResult, len(bodies))
		start := make(chan struct{})
		var ready, done sync.WaitGroup
		for i, body := range bodies {
			ready.Add(1)
			done.Add(1)
			go func() {
				defer done.Done()
				ready.Done()
				<-start
				n, err := l.Append(ctx, []byte(body))
				results[i] = appendResult{n, err}
			}()
		}
		ready.Wait()
		close(start)
		// Give the goroutines a moment to queue before the sequencer goes
		// on; if some are late they make another batch, and the answers
		// checked below are the same.
		for range 10 {
			runtime.Gosched()
		}
		time.Sleep(20 * time.Millisecond)
		release()
		done.Wait()
		b := <-blocker
		if b.err != nil {
			t.Fatalf("round %d: blocker: %v", round, b.err)
		}
		batches := g.count() - callsHeld
		if batches == 1 {
			oneBatch++
		}
		t.Logf("round %d: the 64 appends took %d batch(es)", round, batches)

		indexes := []int64{b.index}
		for i := range distinct {
			if results[i].err != nil {
				t.Errorf("round %d: distinct body %d: %v", round, i, results[i].err)
				continue
			}
			indexes = append(indexes, results[i].index)
		}
		winner := int64(-1)
		for i := distinct; i < len(bodies); i++ {
			if results[i].err == nil {
				if winner >= 0 {
					t.Errorf("round %d: two copies appended, at %d and %d", round, winner, results[i].index)
				}
				winner = results[i].index
				indexes = append(indexes, winner)
			}
		}
		if winner < 0 {
			t.Fatalf("round %d: no copy appended; errors: %v", round, results[distinct].err)
		}
		refused := 0
		for i := distinct; i < len(bodies); i++ {
			if results[i].err == nil {
				continue
			}
			var de *ledger.DuplicateError
			if !errors.As(results[i].err, &de) {
				t.Errorf("round %d: copy %d: %v; want a *DuplicateError", round, i-distinct, results[i].err)
				continue
			}
			if de.Index != winner || de.Kind != copyKind || results[i].index != -1 {
				t.Errorf("round %d: copy %d: %+v, index %d; want a duplicate %s naming %d, index -1", round, i-distinct, *de, results[i].index, copyKind, winner)
			}
			refused++
		}
		if refused != copies-1 {
			t.Errorf("round %d: %d copies refused as duplicates; want %d", round, refused, copies-1)
		}

		// The blocker, the 32 distinct bodies and one copy: 34 indexes,
		// exactly base..base+33.
		slices.Sort(indexes)
		want := make([]int64, 0, 2+distinct)
		for i := range int64(2 + distinct) {
			want = append(want, base+i)
		}
		if !slices.Equal(indexes, want) {
			t.Errorf("round %d: appended at %v; want %v", round, indexes, want)
		}
		if n, err := l.Size(); err != nil || n != base+2+distinct {
			t.Errorf("round %d: size %d, %v; want %d", round, n, err, base+2+distinct)
		}
		// Each index holds the body its caller sent.
		for i := range distinct + 1 {
			body, n := bodies[i], int64(-1)
			if i < distinct {
				n = results[i].index
			} else {
				body, n = copyBody, winner
			}
			if n < 0 {
				continue
			}
			e, err := l.Entry(n)
			if err != nil {
				t.Fatal(err)
			}
			eb, err := e.Body()
			if err != nil {
				t.Fatal(err)
			}
			sent, err := ledger.ParseBody([]byte(body))
			if err != nil {
				t.Fatal(err)
			}
			if eb.Kind != sent.Kind || eb.Player != sent.Player || eb.MatchID != sent.MatchID {
				t.Errorf("round %d: entry %d is a %s (player %q, match %q); want a %s (player %q, match %q)",
					round, n, eb.Kind, eb.Player, eb.MatchID, sent.Kind, sent.Player, sent.MatchID)
			}
		}
	}
	t.Logf("%d of %d rounds had all 64 appends in one batch", oneBatch, rounds)
	rep, err := l.Audit(ctx, nil)
	if err != nil || !rep.OK {
		t.Fatalf("audit: %+v %v", rep, err)
	}
	if want := int64(1 + rounds*(2+distinct)); rep.Size != want {
		t.Errorf("audit of %d entries; want %d", rep.Size, want)
	}
}
