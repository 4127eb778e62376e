package lots

import (
	"fmt"
	"sort"

	"github.com/sealedhq/sealed/rules/secret"
)

// Ranker orders Hands by strength for the placements of seed 004, rule
// "Auctions", subrule "Prizes" ("Better hands get a lower rank number").
// Both methods receive five distinct cards; Conclude checks that first.
type Ranker interface {
	// Compare returns a positive number when hand a is better than hand b,
	// negative when worse, 0 when they are equally strong.
	Compare(a, b []secret.Card) int
	// Name describes a hand's strength in words, e.g. "flush, ace high".
	Name(hand []secret.Card) string
}

// Poker ranks five-card hands by the standard poker hand ranking: straight
// flush, four of a kind, full house, flush, straight, three of a kind, two
// pair, one pair, high card; within a category by the ranks that make it,
// then by the kickers. Aces are high, and also low in the straight A-2-3-4-5
// (five high). Suits never break ties. It is the default Ranker.
type Poker struct{}

// Categories of Poker, worst to best.
const (
	HighCard = iota
	OnePair
	TwoPair
	ThreeOfAKind
	Straight
	Flush
	FullHouse
	FourOfAKind
	StraightFlush
)

var categoryNames = [...]string{"high card", "one pair", "two pair", "three of a kind", "straight", "flush", "full house", "four of a kind", "straight flush"}

var rankNames = [...]string{2: "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "jack", "queen", "king", "ace"}

// key returns the hand's category and the ranks that order hands within it,
// most significant first.
func (Poker) key(h []secret.Card) (int, []int) {
	count := map[int]int{}
	flush := true
	for _, c := range h {
		count[c.Rank]++
		if c.Suit != h[0].Suit {
			flush = false
		}
	}
	// Ranks ordered by how many cards have them, then by rank.
	ranks := make([]int, 0, len(count))
	for r := range count {
		ranks = append(ranks, r)
	}
	sort.Slice(ranks, func(i, j int) bool {
		if count[ranks[i]] != count[ranks[j]] {
			return count[ranks[i]] > count[ranks[j]]
		}
		return ranks[i] > ranks[j]
	})
	straight := false
	if len(ranks) == 5 {
		switch {
		case ranks[0]-ranks[4] == 4:
			straight = true
		case ranks[0] == 14 && ranks[1] == 5: // A-2-3-4-5: five high
			straight, ranks = true, []int{5, 4, 3, 2, 1}
		}
	}
	cat := HighCard
	switch {
	case straight && flush:
		cat = StraightFlush
	case count[ranks[0]] == 4:
		cat = FourOfAKind
	case count[ranks[0]] == 3 && len(ranks) == 2:
		cat = FullHouse
	case flush:
		cat = Flush
	case straight:
		cat = Straight
	case count[ranks[0]] == 3:
		cat = ThreeOfAKind
	case count[ranks[0]] == 2 && count[ranks[1]] == 2:
		cat = TwoPair
	case count[ranks[0]] == 2:
		cat = OnePair
	}
	return cat, ranks
}

// Category returns the hand's Poker category, HighCard..StraightFlush.
func (p Poker) Category(hand []secret.Card) int {
	c, _ := p.key(hand)
	return c
}

// Compare implements Ranker.
func (p Poker) Compare(a, b []secret.Card) int {
	ca, ka := p.key(a)
	cb, kb := p.key(b)
	if ca != cb {
		return ca - cb
	}
	for i := range ka {
		if ka[i] != kb[i] {
			return ka[i] - kb[i]
		}
	}
	return 0
}

// Name implements Ranker: the category and the rank that leads it, e.g.
// "straight, nine high", "full house, kings over threes".
func (p Poker) Name(hand []secret.Card) string {
	cat, k := p.key(hand)
	name := func(r int) string {
		if r == 1 {
			r = 5 // the ace of a five-high straight
		}
		return rankNames[r]
	}
	plural := func(r int) string {
		if r == 6 {
			return "sixes"
		}
		return name(r) + "s"
	}
	switch cat {
	case FullHouse:
		return fmt.Sprintf("full house, %s over %s", plural(k[0]), plural(k[1]))
	case TwoPair:
		return fmt.Sprintf("two pair, %s and %s", plural(k[0]), plural(k[1]))
	case FourOfAKind, ThreeOfAKind:
		return fmt.Sprintf("%s, %s", categoryNames[cat], plural(k[0]))
	case OnePair:
		return "one pair, " + plural(k[0])
	}
	return fmt.Sprintf("%s, %s high", categoryNames[cat], name(k[0]))
}
