package bargain

import "fmt"

// ValidatePool checks a pool and a valuation pair against seed 002 ("The
// pool and the valuations"), whatever their source: each count 1..4, total
// 5..7 items, each seat's values in V(counts) (every value 0..10 and the
// whole pool worth exactly 10 to the seat), and no item type worth 0 to
// both seats. It returns nil for a valid pool, otherwise an error naming the
// first broken constraint and what was expected.
func ValidatePool(counts, valuesA, valuesB Vector) error {
	for i, n := range counts {
		if n < MinCount || n > MaxCount {
			return fmt.Errorf("pool has %d %s; expected %d..%d of each item type", n, ItemNames[i], MinCount, MaxCount)
		}
	}
	if n := counts.Sum(); n < MinPoolItems || n > MaxPoolItems {
		return fmt.Errorf("pool %v holds %d items; expected %d..%d", counts, n, MinPoolItems, MaxPoolItems)
	}
	for side, v := range [2]Vector{valuesA, valuesB} {
		seat := "A"
		if side == 1 {
			seat = "B"
		}
		for i, x := range v {
			if x < 0 || x > MaxValue {
				return fmt.Errorf("seat %s values %s at %d; expected 0..%d", seat, ItemNames[i], x, MaxValue)
			}
		}
		if w := counts.Dot(v); w != PoolValue {
			return fmt.Errorf("pool %v is worth %d to seat %s with values %v; expected exactly %d", counts, w, seat, v, PoolValue)
		}
	}
	for i := range counts {
		if valuesA[i] == 0 && valuesB[i] == 0 {
			return fmt.Errorf("%s are worthless to both seats (values %v and %v); expected every item type valued by at least one seat", ItemNames[i], valuesA, valuesB)
		}
	}
	return nil
}
