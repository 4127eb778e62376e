package web

import (
	"container/list"
	"sync"

	"github.com/sealedhq/sealed/commit"
)

// viewCache keeps the most recently used commitment views of one
// judgement, with their JSON and HTML once made, within a byte budget:
// the least recently used views are dropped once the bytes they hold pass
// it, so memory stays flat however many commitments are looked up. A view
// dropped is simply built again from the judgement when asked for.
type viewCache struct {
	mu     sync.Mutex
	budget int64
	used   int64
	ll     list.List // of *viewEntry, most recently used first
	m      map[commit.Commitment]*list.Element
}

// viewEntry is one cached view and the bytes charged for it.
type viewEntry struct {
	c    commit.Commitment
	v    *commitmentView
	size int64
}

// viewBaseSize is what a view is charged before its JSON or HTML is made:
// its structs and the strings they share with the judgement, roughly.
const viewBaseSize = 1 << 10

func newViewCache(budget int64) *viewCache {
	return &viewCache{budget: budget, m: map[commit.Commitment]*list.Element{}}
}

// get returns the cached view of c, if any, marking it used.
func (vc *viewCache) get(c commit.Commitment) (*commitmentView, bool) {
	vc.mu.Lock()
	defer vc.mu.Unlock()
	e, ok := vc.m[c]
	if !ok {
		return nil, false
	}
	vc.ll.MoveToFront(e)
	return e.Value.(*viewEntry).v, true
}

// put caches v as the view of c, or returns the view another request put
// meanwhile.
func (vc *viewCache) put(c commit.Commitment, v *commitmentView) *commitmentView {
	vc.mu.Lock()
	defer vc.mu.Unlock()
	if e, ok := vc.m[c]; ok {
		vc.ll.MoveToFront(e)
		return e.Value.(*viewEntry).v
	}
	v.cache = vc
	vc.m[c] = vc.ll.PushFront(&viewEntry{c: c, v: v, size: viewBaseSize})
	vc.used += viewBaseSize
	vc.evict()
	return v
}

// charge adds n bytes (a JSON or HTML encoding made) to the view of c, if
// it is still cached, and drops the least recently used views over the
// budget.
func (vc *viewCache) charge(c commit.Commitment, n int) {
	vc.mu.Lock()
	defer vc.mu.Unlock()
	e, ok := vc.m[c]
	if !ok {
		return
	}
	e.Value.(*viewEntry).size += int64(n)
	vc.used += int64(n)
	vc.evict()
}

// evict drops views from the least recently used end until the bytes
// held are within the budget (the most recent view is kept even if it is
// larger than the budget alone); vc.mu is held.
func (vc *viewCache) evict() {
	for vc.used > vc.budget && vc.ll.Len() > 1 {
		e := vc.ll.Back()
		ve := e.Value.(*viewEntry)
		vc.ll.Remove(e)
		delete(vc.m, ve.c)
		vc.used -= ve.size
	}
}

// len is the number of views cached.
func (vc *viewCache) len() int {
	vc.mu.Lock()
	defer vc.mu.Unlock()
	return vc.ll.Len()
}
