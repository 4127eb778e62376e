package web

import "sync"

// scratch holds the buffers the JSON and the page of a commitment are
// written in, straight from its view, before they are written to the
// answer: a buffer is used by one answer at a time and goes back to the
// pool after it, so answering allocates no buffer once the pool is warm.
var scratch = sync.Pool{New: func() any { b := make([]byte, 0, 16<<10); return &b }}

// getScratch returns an empty buffer from the pool.
func getScratch() *[]byte {
	b := scratch.Get().(*[]byte)
	*b = (*b)[:0]
	return b
}

// putScratch returns b to the pool, keeping buffers of at most 256 KiB
// (a page of many long reveals is not kept).
func putScratch(b *[]byte) {
	if cap(*b) <= 256<<10 {
		scratch.Put(b)
	}
}
