package web

import (
	"crypto/sha256"
	"testing"

	"github.com/sealedhq/sealed/commit"
)

// TestViewCacheBudget: the cache holds views within its byte budget,
// dropping the least recently used first, and counts the encodings made.
func TestViewCacheBudget(t *testing.T) {
	key := func(i int) commit.Commitment { return commit.Commitment(sha256.Sum256([]byte{byte(i)})) }
	vc := newViewCache(3 * viewBaseSize) // room for three bare views
	for i := range 3 {
		vc.put(key(i), &commitmentView{})
	}
	if _, ok := vc.get(key(0)); !ok { // 0 is now the most recent; 1 the least
		t.Fatal("view 0 dropped within the budget")
	}
	vc.put(key(3), &commitmentView{})
	if _, ok := vc.get(key(1)); ok {
		t.Error("view 1, the least recently used, was kept over the budget")
	}
	for _, i := range []int{0, 2, 3} {
		if _, ok := vc.get(key(i)); !ok {
			t.Errorf("view %d dropped", i)
		}
	}
	// An encoding of two views' worth of bytes on view 3 leaves room for
	// it alone: 0 and 2 go.
	vc.charge(key(3), 2*viewBaseSize)
	if n := vc.len(); n != 1 {
		t.Errorf("%d views cached after the charge, want 1", n)
	}
	if _, ok := vc.get(key(3)); !ok {
		t.Error("the charged view, the most recent, was dropped")
	}
	// put of a key already cached returns the cached view.
	first, _ := vc.get(key(3))
	if got := vc.put(key(3), &commitmentView{}); got != first {
		t.Error("put replaced a cached view")
	}
}
