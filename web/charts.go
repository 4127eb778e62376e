package web

import (
	"fmt"
	"strconv"

	"github.com/cockroachdb/apd/v3"
	"github.com/sealedhq/sealed/rules/auction"
)

// chart is a server-rendered SVG chart: shapes with integer pixel
// coordinates and CSS classes (colours live in style.css, so the strict
// CSP needs no inline style). Every text is escaped by html/template.
type chart struct {
	Title         string // the aria-label and caption
	Width, Height int
	Rects         []rect
	Lines         []line // drawn under the bars (grid, axes)
	Marks         []line // drawn over the bars
	Texts         []text
	Legend        []legendItem
}

type rect struct {
	X, Y, W, H int
	Class      string
	Tip        string // the <title> tooltip
}

type line struct {
	X1, Y1, X2, Y2 int
	Class          string
	Tip            string
}

type text struct {
	X, Y   int
	Anchor string // start, middle, end
	Class  string
	Text   string
}

type legendItem struct {
	Class, Text string
}

// seatClass is the colour class of seat s (eight colours, as many as seats).
func seatClass(s int) string { return "seat" + strconv.Itoa(s%auction.MaxPlayers) }

// niceMax rounds v up to a multiple of 10 (at least 10).
func niceMax(v int) int {
	if v < 10 {
		return 10
	}
	return (v + 9) / 10 * 10
}

// auctionItem is what the bid chart shows of one item.
type auctionItem struct {
	Item   int
	Bids   []int // by seat
	Winner int   // -1 unsold
	Price  int
	Value  int // the winner's private value
	Profit int
}

// bidChart draws, per item, a bar per seat's sealed bid and a line at the
// winner's private value: bids above the line are the winner's curse.
func bidChart(items []auctionItem, seats []string, valueMax int) chart {
	const left, top, plotH, bottom = 44, 16, 220, 40
	players := len(seats)
	// Fit the main column (about 880 pixels of plot); the SVG scales down
	// further with the page (style.css).
	barW := max(4, min(16, (880/max(1, len(items))-12)/max(1, players)))
	groupW := players*barW + 12
	top1 := valueMax
	for _, it := range items {
		for _, b := range it.Bids {
			top1 = max(top1, b)
		}
		top1 = max(top1, it.Value)
	}
	yMax := niceMax(top1)
	y := func(v int) int { return top + plotH - v*plotH/yMax }
	c := chart{Title: "Sealed bids per item against the winner's private value", Width: left + len(items)*groupW + 10, Height: top + plotH + bottom}
	for _, t := range []int{0, yMax / 2, yMax} {
		c.Lines = append(c.Lines, line{X1: left, Y1: y(t), X2: c.Width - 6, Y2: y(t), Class: "grid"})
		c.Texts = append(c.Texts, text{X: left - 6, Y: y(t) + 4, Anchor: "end", Text: strconv.Itoa(t)})
	}
	for i, it := range items {
		x0 := left + i*groupW + 6
		for s, b := range it.Bids {
			class := seatClass(s)
			if s == it.Winner {
				class += " winner"
			}
			tip := fmt.Sprintf("item %d, seat %d (%s): bid %d", it.Item, s, seats[s], b)
			h := y(0) - y(b)
			c.Rects = append(c.Rects, rect{X: x0 + s*barW, Y: y(b), W: barW - 2, H: h, Class: class, Tip: tip})
		}
		if it.Winner >= 0 {
			tip := fmt.Sprintf("item %d: seat %d won, paid %d, value %d, profit %d", it.Item, it.Winner, it.Price, it.Value, it.Profit)
			c.Marks = append(c.Marks, line{X1: x0 - 3, Y1: y(it.Value), X2: x0 + players*barW + 1, Y2: y(it.Value), Class: "value-mark", Tip: tip})
		}
		label := strconv.Itoa(it.Item)
		if it.Winner < 0 {
			label += " (unsold)"
		}
		c.Texts = append(c.Texts, text{X: x0 + players*barW/2, Y: top + plotH + 16, Anchor: "middle", Text: label})
	}
	c.Texts = append(c.Texts, text{X: left, Y: top + plotH + 34, Anchor: "start", Class: "axis", Text: "item (bars: each seat's bid; line: the winner's private value)"})
	for s, name := range seats {
		c.Legend = append(c.Legend, legendItem{Class: seatClass(s), Text: fmt.Sprintf("seat %d (%s)", s, name)})
	}
	return c
}

// profitChart draws each seat's total profit as a horizontal bar from a
// zero line (negative to the left).
func profitChart(profits []int, seats []string) chart {
	const left, rowH, half = 170, 26, 220
	maxAbs := 1
	for _, p := range profits {
		maxAbs = max(maxAbs, p, -p)
	}
	zero := left + half
	c := chart{Title: "Total profit per seat", Width: left + 2*half + 60, Height: len(profits)*rowH + 24}
	c.Lines = append(c.Lines, line{X1: zero, Y1: 4, X2: zero, Y2: c.Height - 16, Class: "axis-line"})
	for s, p := range profits {
		yy := 8 + s*rowH
		w := abs(p) * half / maxAbs
		x := zero
		class := seatClass(s)
		if p < 0 {
			x = zero - w
			class += " neg"
		}
		c.Rects = append(c.Rects, rect{X: x, Y: yy, W: max(w, 1), H: rowH - 8, Class: class, Tip: fmt.Sprintf("seat %d (%s): profit %d", s, seats[s], p)})
		c.Texts = append(c.Texts, text{X: left - 8, Y: yy + rowH/2 + 1, Anchor: "end", Text: fmt.Sprintf("seat %d (%s)", s, seats[s])})
		// The value in a column of its own right of the bars, so a long
		// negative bar never runs into the seat's name.
		c.Texts = append(c.Texts, text{X: zero + half + 50, Y: yy + rowH/2 + 1, Anchor: "end", Text: fmt.Sprintf("%+d", p)})
	}
	c.Texts = append(c.Texts, text{X: zero, Y: c.Height - 2, Anchor: "middle", Class: "axis", Text: "0"})
	return c
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

// scoreChart draws each seat's Negotiation Games score, an exact decimal
// in [0, 1], as a bar of score x 300 pixels; the width is computed with
// apd (the score is never a float) and rounded half up to a pixel.
func scoreChart(scores []string, seats []string) (chart, error) {
	const left, rowH, full = 170, 26, 300
	c := chart{Title: "Score per seat (points / (10 x matches played))", Width: left + full + 80, Height: len(scores)*rowH + 8}
	ctx := apd.BaseContext.WithPrecision(34)
	ctx.Rounding = apd.RoundHalfUp
	for s, sc := range scores {
		d, _, err := apd.NewFromString(sc)
		if err != nil || d.Form != apd.Finite {
			return c, fmt.Errorf("score %q of seat %d is not a decimal", sc, s)
		}
		if d.Sign() < 0 || d.Cmp(apd.New(1, 0)) > 0 {
			return c, fmt.Errorf("score %s of seat %d is outside [0, 1]", sc, s)
		}
		var px apd.Decimal
		if _, err := ctx.Mul(&px, d, apd.New(full, 0)); err != nil {
			return c, err
		}
		if _, err := ctx.Quantize(&px, &px, 0); err != nil {
			return c, err
		}
		w64, err := px.Int64()
		if err != nil {
			return c, err
		}
		w := int(w64)
		yy := 4 + s*rowH
		c.Rects = append(c.Rects, rect{X: left, Y: yy, W: max(w, 1), H: rowH - 8, Class: seatClass(s), Tip: fmt.Sprintf("seat %d (%s): score %s", s, seats[s], sc)})
		c.Texts = append(c.Texts, text{X: left - 8, Y: yy + rowH/2 + 1, Anchor: "end", Text: fmt.Sprintf("seat %d (%s)", s, seats[s])})
		c.Texts = append(c.Texts, text{X: left + w + 6, Y: yy + rowH/2 + 1, Anchor: "start", Text: sc})
	}
	return c, nil
}
