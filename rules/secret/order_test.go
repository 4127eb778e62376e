package secret_test

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/sealedhq/sealed/rules/secret"
)

// TestJudgementIndependentOfPostOrder: a history whose posts are in time
// order (a ledger's, which Judge and Prepare read as they are) and the
// same history with its posts shuffled (which they sort first) are judged
// alike, action by action, at the end of the history (every post
// happened) and at an instant inside it (the later posts left out); and
// neither Judge nor a Prepare judged to the end writes the caller's posts.
func TestJudgementIndependentOfPostOrder(t *testing.T) {
	start := time.Date(2026, 11, 2, 0, 0, 0, 0, time.UTC)
	h, end := genHistory(rand.New(rand.NewPCG(5, 6)), start)
	inOrder := func(a, b secret.Post) int {
		ta, _ := a.Time()
		tb, _ := b.Time()
		if c := ta.Compare(tb); c != 0 {
			return c
		}
		return int(a.Index - b.Index)
	}
	if !slices.IsSortedFunc(h.Posts, inOrder) {
		t.Fatal("the generated posts are not in time order")
	}
	shuffled := h
	shuffled.Posts = slices.Clone(h.Posts)
	rand.New(rand.NewPCG(7, 8)).Shuffle(len(shuffled.Posts), func(i, j int) {
		shuffled.Posts[i], shuffled.Posts[j] = shuffled.Posts[j], shuffled.Posts[i]
	})
	if slices.IsSortedFunc(shuffled.Posts, inOrder) {
		t.Fatal("the shuffle left the posts in order")
	}
	before := slices.Clone(h.Posts)
	for _, at := range []time.Time{end, start.Add(end.Sub(start) / 2)} {
		want, err := secret.Game{}.Judge(shuffled, at)
		if err != nil {
			t.Fatal(err)
		}
		got, err := secret.Game{}.Judge(h, at)
		if err != nil {
			t.Fatal(err)
		}
		z, err := secret.Game{}.Prepare(h, at)
		if err != nil {
			t.Fatal(err)
		}
		lazy := z.Judgement()
		if len(got.Actions) != len(want.Actions) || len(lazy.Actions) != len(want.Actions) {
			t.Fatalf("at %s: %d and %d actions judged in order, %d shuffled", at, len(got.Actions), len(lazy.Actions), len(want.Actions))
		}
		if at.Equal(end) && len(want.Actions) != len(h.Posts) || !at.Equal(end) && len(want.Actions) >= len(h.Posts) {
			t.Fatalf("at %s: %d actions of %d posts", at, len(want.Actions), len(h.Posts))
		}
		for i := range want.Actions {
			if !reflect.DeepEqual(got.Actions[i], want.Actions[i]) || !reflect.DeepEqual(lazy.Actions[i], want.Actions[i]) {
				t.Fatalf("at %s: action %d (entry %d) differs:\nin order: %+v\nprepared: %+v\nshuffled: %+v", at, i, want.Actions[i].Post.Index, got.Actions[i], lazy.Actions[i], want.Actions[i])
			}
		}
	}
	if !reflect.DeepEqual(h.Posts, before) {
		t.Fatal("judging wrote the caller's posts")
	}
}
