package bargain

import (
	"strings"
	"testing"
)

// TestValidatePool: each case breaks one constraint of seed 002 ("The pool
// and the valuations"), worked by hand; the error names it.
func TestValidatePool(t *testing.T) {
	cases := []struct {
		c, a, b Vector
		want    string // "" for valid
	}{
		{Vector{1, 2, 3}, Vector{2, 1, 2}, Vector{4, 0, 2}, ""}, // 2+2+6 = 10, 4+0+6 = 10
		{Vector{3, 2, 2}, Vector{0, 0, 5}, Vector{2, 1, 1}, ""}, // 10; 6+2+2 = 10
		{Vector{0, 3, 3}, Vector{0, 2, 2}, Vector{0, 1, 1}, "0 books; expected 1..4"},
		{Vector{5, 1, 1}, Vector{1, 3, 2}, Vector{1, 3, 2}, "5 books; expected 1..4"},
		{Vector{1, 1, 2}, Vector{2, 2, 3}, Vector{2, 2, 3}, "holds 4 items; expected 5..7"},
		{Vector{4, 2, 2}, Vector{1, 1, 2}, Vector{1, 1, 2}, "holds 8 items; expected 5..7"},
		{Vector{1, 2, 3}, Vector{2, 1, 1}, Vector{4, 0, 2}, "worth 7 to seat A"},          // 2+2+3
		{Vector{1, 2, 3}, Vector{2, 1, 2}, Vector{4, 0, 1}, "worth 7 to seat B"},          // 4+0+3
		{Vector{1, 2, 3}, Vector{-2, 3, 2}, Vector{4, 0, 2}, "seat A values books at -2"}, // -2+6+6 = 10
		{Vector{1, 1, 3}, Vector{11, 1, -2}, Vector{1, 3, 2}, "seat A values books at 11"},
		{Vector{1, 2, 3}, Vector{4, 0, 2}, Vector{4, 0, 2}, "hats are worthless to both"},
	}
	for _, tc := range cases {
		err := ValidatePool(tc.c, tc.a, tc.b)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%v %v %v: %v", tc.c, tc.a, tc.b, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%v %v %v: error %v, want it to say %q", tc.c, tc.a, tc.b, err, tc.want)
		}
	}
}
