package bargain

import (
	"fmt"
	"sync"
)

// valueTables holds V(c) for every counts triple with each count in
// MinCount..MaxCount, indexed by tableIndex. It is built once, when first
// needed (not at every start of a program that imports the package), so
// drawing a match never enumerates or allocates a table.
var valueTables = sync.OnceValue(func() *[64][]Vector {
	t := buildValueTables()
	return &t
})

func tableIndex(c Vector) int {
	return (c[0]-MinCount)*16 + (c[1]-MinCount)*4 + (c[2] - MinCount)
}

func buildValueTables() [64][]Vector {
	var t [64][]Vector
	for c0 := MinCount; c0 <= MaxCount; c0++ {
		for c1 := MinCount; c1 <= MaxCount; c1++ {
			for c2 := MinCount; c2 <= MaxCount; c2++ {
				c := Vector{c0, c1, c2}
				t[tableIndex(c)] = enumerateValues(c)
			}
		}
	}
	return t
}

// enumerateValues lists every v in {0..10}^3 with c.v == 10, lexicographically.
func enumerateValues(c Vector) []Vector {
	var out []Vector
	for v0 := 0; v0 <= MaxValue; v0++ {
		for v1 := 0; v1 <= MaxValue; v1++ {
			for v2 := 0; v2 <= MaxValue; v2++ {
				v := Vector{v0, v1, v2}
				if c.Dot(v) == PoolValue {
					out = append(out, v)
				}
			}
		}
	}
	return out
}

// valueTable returns the shared, read-only V(c).
func valueTable(c Vector) ([]Vector, error) {
	for i, n := range c {
		if n < MinCount || n > MaxCount {
			return nil, fmt.Errorf("count of %s is %d; expected %d..%d", ItemNames[i], n, MinCount, MaxCount)
		}
	}
	return valueTables()[tableIndex(c)], nil
}

// ValueTable returns V(c): every value vector v in {0..10}^3 with
// c[0]*v[0] + c[1]*v[1] + c[2]*v[2] == 10, in lexicographic order (seed 002,
// "The pool and the valuations", step 2). The slice is a fresh copy the
// caller may modify. It returns an error when a count is outside 1..4.
func ValueTable(counts Vector) ([]Vector, error) {
	t, err := valueTable(counts)
	if err != nil {
		return nil, err
	}
	return append([]Vector(nil), t...), nil
}
