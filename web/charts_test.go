package web

import "testing"

// TestScoreChart: a score s in [0, 1] is a bar of s x 300 pixels, rounded
// half up, computed on exact decimals (worked by hand: 0.7500 x 300 = 225,
// 0.8750 x 300 = 262.5 -> 263, 0.0001 x 300 = 0.03 -> 0, drawn 1 wide).
func TestScoreChart(t *testing.T) {
	c, err := scoreChart([]string{"0.7500", "0.8750", "0.0001"}, []string{"a", "b", "c"})
	if err != nil {
		t.Fatal(err)
	}
	for i, w := range []int{225, 263, 1} {
		if c.Rects[i].W != w {
			t.Errorf("bar %d: width %d, want %d", i, c.Rects[i].W, w)
		}
	}
	for _, bad := range []string{"1.0001", "-0.5", "abc", "NaN"} {
		if _, err := scoreChart([]string{bad}, []string{"a"}); err == nil {
			t.Errorf("score %q drew a chart", bad)
		}
	}
}

// TestBidChart: the y axis runs from 0 to value_max rounded up to ten
// (here 60); a bar's top is 16 + 220 - v*220/60 pixels (plot 220 high,
// 16 from the top), and the winner's value line sits at its value.
func TestBidChart(t *testing.T) {
	items := []auctionItem{{Item: 1, Bids: []int{30, 60, 0}, Winner: 1, Price: 60, Value: 45, Profit: -15}}
	c := bidChart(items, []string{"a", "b", "c"}, 60)
	if c.Rects[0].Y != 126 || c.Rects[0].H != 110 || c.Rects[1].Y != 16 || c.Rects[1].H != 220 || c.Rects[2].H != 0 {
		t.Errorf("bars %+v", c.Rects)
	}
	if c.Rects[1].Class != "seat1 winner" || len(c.Marks) != 1 || c.Marks[0].Y1 != 71 {
		t.Errorf("winner bar %+v, value line %+v (want y 16+220-165 = 71)", c.Rects[1], c.Marks)
	}
	// A bid above value_max stretches the axis: 73 -> 80.
	c = bidChart([]auctionItem{{Item: 1, Bids: []int{73}, Winner: -1}}, []string{"a"}, 60)
	if c.Rects[0].Y != 16+220-73*220/80 || len(c.Marks) != 0 {
		t.Errorf("bar %+v, marks %v", c.Rects[0], c.Marks)
	}
}

// TestProfitChart: positive profits grow right of the zero line, negative
// ones left, scaled so the largest magnitude is 220 pixels.
func TestProfitChart(t *testing.T) {
	c := profitChart([]int{10, -20, 0}, []string{"a", "b", "c"})
	zero := 170 + 220
	if c.Rects[0].X != zero || c.Rects[0].W != 110 || c.Rects[1].X != zero-220 || c.Rects[1].W != 220 || c.Rects[1].Class != "seat1 neg" || c.Rects[2].W != 1 {
		t.Errorf("bars %+v", c.Rects)
	}
}
