package lots

import (
	"fmt"
	"testing"
	"time"

	"github.com/sealedhq/sealed/rules/secret"
)

// BenchmarkConclude concludes a week of 1,000 bidders, each bidding on 5 of
// 50 lots, and 1,000 Hands.
func BenchmarkConclude(b *testing.B) {
	in := Input{Points: map[string]int64{}, Possessions: map[string][]secret.Card{}, Prizes: []int64{30, 20, 10}}
	suits := []byte("SHDC")
	for p := 0; p < 1000; p++ {
		player := fmt.Sprintf("p%04d", p)
		in.Points[player] = 1000
		var bids []secret.Bid
		for k := 0; k < 5; k++ {
			bids = append(bids, secret.Bid{Amount: fmt.Sprint((p*7+k*13)%90 + 1), Lot: fmt.Sprint((p + k*11) % 50), Line: k + 1})
		}
		t := time.Unix(int64(p), 0)
		in.Bids = append(in.Bids, BidAction{Player: player, Index: int64(p), Posted: t, Bids: bids})
		var hand []secret.Card
		for k := 0; k < 5; k++ {
			hand = append(hand, secret.Card{Rank: 2 + (p+k*3)%13, Suit: suits[(p+k)%4]})
		}
		in.Possessions[player] = hand
		in.Hands = append(in.Hands, HandAction{Player: player, Index: int64(1000 + p), Posted: t, Cards: hand})
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Conclude(in); err != nil {
			b.Fatal(err)
		}
	}
}
