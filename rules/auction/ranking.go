package auction

import "slices"

// Standing is one seat's place in the final ranking (seed 000, "Winning";
// the replay's results.ranking[]). Score is the seat's total profit.
type Standing struct {
	Seat    int `json:"seat"`
	Rank    int `json:"rank"`    // 1-based competition rank: ties share a rank, the next rank skips (1, 1, 3)
	Score   int `json:"score"`   // total profit, may be negative
	Credits int `json:"credits"` // credits left
}

// Rank returns the final ranking of players (one entry per seat, any order)
// by total profit, then credits left, both descending; seats equal on both
// share a rank (competition ranking 1, 1, 3: docs/design.md B2). The result is
// sorted by rank, then seat.
func Rank(players []PlayerState) []Standing {
	return appendRank(make([]Standing, 0, len(players)), players)
}

// appendRank appends Rank(players) to dst and returns the extended slice.
func appendRank(dst []Standing, players []PlayerState) []Standing {
	n := len(dst)
	for _, p := range players {
		dst = append(dst, Standing{Seat: p.Seat, Score: p.Profit, Credits: p.Credits})
	}
	out := dst[n:]
	better := func(a, b *Standing) bool {
		if a.Score != b.Score {
			return a.Score > b.Score
		}
		return a.Credits > b.Credits
	}
	slices.SortFunc(out, func(a, b Standing) int {
		switch {
		case better(&a, &b):
			return -1
		case better(&b, &a):
			return 1
		}
		return a.Seat - b.Seat
	})
	for i := range out {
		if i > 0 && !better(&out[i-1], &out[i]) {
			out[i].Rank = out[i-1].Rank
		} else {
			out[i].Rank = i + 1
		}
	}
	return dst
}

// Ranking returns the match's final ranking (Rank over every seat). It may
// be called before the match is over, giving the standings so far.
func (m *Match) Ranking() []Standing {
	return m.AppendRanking(make([]Standing, 0, m.cfg.Players))
}

// AppendRanking appends the match's ranking (Ranking, one entry per seat)
// to dst and returns the extended slice, so that a caller with room in dst
// (verify.CheckAuction) allocates nothing.
func (m *Match) AppendRanking(dst []Standing) []Standing {
	var buf [MaxPlayers]PlayerState
	ps := buf[:m.cfg.Players]
	for s := range ps {
		ps[s] = m.Player(s)
	}
	return appendRank(dst, ps)
}
