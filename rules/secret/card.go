package secret

import (
	"fmt"
	"strings"
)

// Card is a playing card of a standard 52-card deck, as declared in a Hand
// (seed 004, rule "Auctions", subrule "Submitting a Hand").
type Card struct {
	// Rank is 2..10, 11 (jack), 12 (queen), 13 (king) or 14 (ace).
	Rank int
	// Suit is 'S' (spades), 'H' (hearts), 'D' (diamonds) or 'C' (clubs).
	Suit byte
}

const rankLetters = "23456789TJQKA"

// String writes the card in two letters, rank then suit: "AS", "TH", "2C".
func (c Card) String() string {
	if c.Rank < 2 || c.Rank > 14 {
		return fmt.Sprintf("?%c", c.Suit)
	}
	return string([]byte{rankLetters[c.Rank-2], c.Suit})
}

// MarshalText encodes the card as its String, for JSON output.
func (c Card) MarshalText() ([]byte, error) { return []byte(c.String()), nil }

// UnmarshalText parses a card with ParseCard.
func (c *Card) UnmarshalText(b []byte) error {
	v, err := ParseCard(string(b))
	if err != nil {
		return err
	}
	*c = v
	return nil
}

// ParseCard parses a card written as rank then suit, case-insensitive: rank
// 2-9, 10 or T, J, Q, K, A; suit S, H, D, C or one of ♠ ♥ ♦ ♣ (♤ ♡ ♢ ♧).
// It returns an error naming the token and the expected form otherwise.
func ParseCard(s string) (Card, error) {
	u := strings.ToUpper(s)
	bad := fmt.Errorf("card %q: want a rank (2-10, J, Q, K, A) then a suit (S, H, D, C), e.g. AS or 10h", s)
	var rank string
	switch {
	case strings.HasPrefix(u, "10"):
		rank, u = "T", u[2:]
	case len(u) > 0:
		rank, u = u[:1], u[1:]
	default:
		return Card{}, bad
	}
	r := strings.Index(rankLetters, rank)
	if r < 0 {
		return Card{}, bad
	}
	var suit byte
	switch u {
	case "S", "♠", "♤":
		suit = 'S'
	case "H", "♥", "♡":
		suit = 'H'
	case "D", "♦", "♢":
		suit = 'D'
	case "C", "♣", "♧":
		suit = 'C'
	default:
		return Card{}, bad
	}
	return Card{Rank: r + 2, Suit: suit}, nil
}
