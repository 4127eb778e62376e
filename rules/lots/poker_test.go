package lots

import (
	"testing"
)

// Hands in decreasing order of strength under the standard five-card poker
// ranking (worked by hand from the ranking: straight flush, four of a kind,
// full house, flush, straight, three of a kind, two pair, one pair, high
// card; ace low only in A-2-3-4-5).
var pokerLadder = []struct {
	hand, name string
}{
	{"AS KS QS JS TS", "straight flush, ace high"},
	{"5D 4D 3D 2D AD", "straight flush, five high"},
	{"9C 9D 9H 9S 2C", "four of a kind, nines"},
	{"KC KD KH 3S 3C", "full house, kings over threes"},
	{"3C 3D 3H KS KC", "full house, threes over kings"},
	{"AH JH 8H 4H 2H", "flush, ace high"},
	{"AC JC 8C 4C 3D", "high card, ace high"},
}

func TestPokerOrder(t *testing.T) {
	// The full ladder, best first; each must beat every later one.
	ladder := []string{
		"AS KS QS JS TS", // straight flush
		"5D 4D 3D 2D AD", // straight flush, five high
		"9C 9D 9H 9S 2C", // four of a kind
		"KC KD KH 3S 3C", // full house
		"3C 3D 3H KS KC", // full house, lower trips
		"AH JH 8H 4H 2H", // flush
		"KH JH 8H 4H 2H", // lower flush
		"TC 9D 8H 7S 6C", // straight
		"6C 5D 4H 3S 2C", // lower straight
		"5C 4D 3H 2S AC", // the wheel, lowest straight
		"QC QD QH 7S 2C", // three of a kind
		"JC JD 4H 4S AC", // two pair
		"JC JD 3H 3S AC", // lower second pair
		"JC JD 3H 3S KC", // lower kicker
		"TC TD AH 7S 2C", // one pair
		"AC JD 8H 4S 3C", // high card
		"AC JD 8H 4S 2C", // lower last kicker
	}
	var p Poker
	for i := range ladder {
		for j := i + 1; j < len(ladder); j++ {
			a, b := cards(t, splitCards(ladder[i])...), cards(t, splitCards(ladder[j])...)
			if p.Compare(a, b) <= 0 || p.Compare(b, a) >= 0 {
				t.Errorf("%s should beat %s", ladder[i], ladder[j])
			}
		}
	}
}

func TestPokerFlushBeatsStraightAndSuitsTie(t *testing.T) {
	var p Poker
	flush := cards(t, "9H", "8H", "4H", "3H", "2H")
	straight := cards(t, "9C", "8D", "7S", "6H", "5C")
	if p.Compare(flush, straight) <= 0 {
		t.Fatal("a flush must beat a straight")
	}
	if p.Compare(cards(t, "AS", "KH", "QD", "JC", "9S"), cards(t, "AH", "KD", "QC", "JS", "9H")) != 0 {
		t.Fatal("the same ranks in other suits must tie")
	}
}

func TestPokerNames(t *testing.T) {
	var p Poker
	for _, tc := range pokerLadder {
		if got := p.Name(cards(t, splitCards(tc.hand)...)); got != tc.name {
			t.Errorf("Name(%s) = %q, want %q", tc.hand, got, tc.name)
		}
	}
}

func splitCards(s string) []string {
	var out []string
	for i := 0; i+2 <= len(s); i += 3 {
		out = append(out, s[i:i+2])
	}
	return out
}
