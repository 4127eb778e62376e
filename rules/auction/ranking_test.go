package auction

import "testing"

func checkRanking(t *testing.T, got, want []Standing) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("ranking %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("ranking[%d] = %+v, want %+v", i, got[i], want[i])
		}
	}
}

func TestSharedRanks(t *testing.T) {
	// B2 worked by hand: profit first, then credits left; equal on both
	// share a rank and the next rank skips. Seats 0 and 2 (10, 90) share
	// rank 1, seat 1 (10, 64) is 3rd on credits, seat 3 (-4) is 4th.
	got := Rank([]PlayerState{
		{Seat: 0, Credits: 90, Profit: 10},
		{Seat: 1, Credits: 64, Profit: 10},
		{Seat: 2, Credits: 90, Profit: 10},
		{Seat: 3, Credits: 100, Profit: -4},
	})
	checkRanking(t, got, []Standing{{0, 1, 10, 90}, {2, 1, 10, 90}, {1, 3, 10, 64}, {3, 4, -4, 100}})
}

func TestSharedRanksInMatch(t *testing.T) {
	// Items 1 and 3 unsold; seat 2 pays 60 for item 2 (value 55): -5 and 40
	// credits. Seats 0 and 1 (0 profit, 100 credits) share rank 1; seat 2
	// is 3rd: 1, 1, 3.
	m := playBids(t, handConfig(FirstPrice), [][]int{{0, 0, 0}, {0, 0, 60}, {0, 0, 0}})
	checkRanking(t, m.Ranking(), []Standing{{0, 1, 0, 100}, {1, 1, 0, 100}, {2, 3, -5, 40}})
}
