package secret_test

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/sealedhq/sealed/rules/secret"
)

// TestLazyMatchesJudge: Prepare's judgement, made a player at a time as
// its actions are asked for (in a random order, from several goroutines
// at once, while JudgeRest judges the others), is Judge's action by action and byte for byte as JSON, and
// its NextDate is the earliest judged maturation or revelation date. The
// generated histories have every state, most failure reasons and both
// flags; they are judged in UTC and in Europe/Paris over a change of
// daylight saving time, with the default settings and with hands maturing
// after a delay, at their end and at instants inside them.
func TestLazyMatchesJudge(t *testing.T) {
	paris, err := time.LoadLocation("Europe/Paris")
	if err != nil {
		t.Skip("no time zone database:", err)
	}
	games := []secret.Game{
		{},
		{Calendar: secret.Calendar{Location: paris}, Settings: map[string]secret.Settings{
			"hand": {Maturation: secret.MatureAfterDelay, MaturationDelay: 30 * time.Hour, RevelationDays: 2}}},
	}
	starts := []time.Time{
		time.Date(2026, 11, 2, 0, 0, 0, 0, time.UTC),
		time.Date(2026, 3, 11, 13, 0, 0, 0, time.UTC), // DST starts on 2026-03-29 in Paris
	}
	for si, start := range starts {
		h, end := genHistory(rand.New(rand.NewPCG(uint64(si), 56)), start)
		for gi, g := range games {
			for _, at := range []time.Time{end, start.Add(end.Sub(start) / 3), start.Add(-time.Hour)} {
				j, z := judgeAndPrepare(t, g, h, at)
				if z.Len() != len(j.Actions) || !z.At().Equal(at) {
					t.Fatalf("start %d, game %d, at %s: %d actions, want %d", si, gi, at, z.Len(), len(j.Actions))
				}
				next := judgedNextDate(j, at)
				if got := z.NextDate(); got != next {
					t.Fatalf("start %d, game %d, at %s: NextDate %s, the judged dates give %s", si, gi, at, got, next)
				}
				order := rand.New(rand.NewPCG(7, uint64(gi))).Perm(z.Len())
				var wg sync.WaitGroup
				// The rest judged in the background meanwhile, as the site
				// does.
				wg.Go(func() { z.JudgeRest(func() bool { return false }) })
				for w := range 4 {
					wg.Go(func() {
						for _, i := range order[w*len(order)/4 : (w+1)*len(order)/4] {
							if a := z.Action(i); !reflect.DeepEqual(*a, j.Actions[i]) {
								t.Errorf("start %d, game %d, at %s: action %d (entry %d) differs:\nlazy:  %+v\nJudge: %+v", si, gi, at, i, a.Post.Index, *a, j.Actions[i])
							}
						}
					})
				}
				wg.Wait()
				want, _ := json.Marshal(j)
				got, _ := json.Marshal(z.Judgement())
				if !bytes.Equal(got, want) {
					t.Fatalf("start %d, game %d, at %s: the judgements' JSON differ (%d and %d bytes)", si, gi, at, len(got), len(want))
				}
			}
		}
	}
}

// TestLazyJudgesInTimeOrder: a player's actions are judged as far as the
// asked one only, so asking them one at a time in each of three orders
// (newest first, a random order, oldest first), with nothing judged in
// the background, resumes each player's judging from where it stopped;
// every action is still Judge's, and Judgement afterwards too.
func TestLazyJudgesInTimeOrder(t *testing.T) {
	start := time.Date(2026, 11, 2, 0, 0, 0, 0, time.UTC)
	h, end := genHistory(rand.New(rand.NewPCG(3, 14)), start)
	for _, at := range []time.Time{end, start.Add(end.Sub(start) / 2)} {
		j, err := secret.Game{}.Judge(h, at)
		if err != nil {
			t.Fatal(err)
		}
		n := len(j.Actions)
		orders := map[string][]int{"newest first": make([]int, n), "random": rand.New(rand.NewPCG(9, 9)).Perm(n), "oldest first": make([]int, n)}
		for i := range n {
			orders["newest first"][i], orders["oldest first"][i] = n-1-i, i
		}
		for name, order := range orders {
			z, err := secret.Game{}.Prepare(h, at)
			if err != nil {
				t.Fatal(err)
			}
			for _, i := range order {
				if a := z.Action(i); !reflect.DeepEqual(*a, j.Actions[i]) {
					t.Fatalf("%s, at %s: action %d (entry %d) differs:\nlazy:  %+v\nJudge: %+v", name, at, i, a.Post.Index, *a, j.Actions[i])
				}
			}
			want, _ := json.Marshal(j)
			got, _ := json.Marshal(z.Judgement())
			if !bytes.Equal(got, want) {
				t.Fatalf("%s, at %s: the judgements' JSON differ", name, at)
			}
		}
	}
}

// judgeAndPrepare returns g's judgement of h at at (Judge, the
// reference) and the Lazy to compare with it (Prepare).
func judgeAndPrepare(t *testing.T, g secret.Game, h secret.History, at time.Time) (*secret.Judgement, *secret.Lazy) {
	t.Helper()
	j, err := g.Judge(h, at)
	if err != nil {
		t.Fatal(err)
	}
	z, err := g.Prepare(h, at)
	if err != nil {
		t.Fatal(err)
	}
	return j, z
}

// judgedNextDate is the earliest maturation or revelation date after at
// among j's actions (the zero time if none): what Lazy.NextDate must be.
func judgedNextDate(j *secret.Judgement, at time.Time) time.Time {
	var next time.Time
	for k := range j.Actions {
		for _, d := range []time.Time{j.Actions[k].Maturation, j.Actions[k].Revelation} {
			if d.After(at) && (next.IsZero() || d.Before(next)) {
				next = d
			}
		}
	}
	return next
}
