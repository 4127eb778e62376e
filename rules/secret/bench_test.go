package secret

import (
	"fmt"
	"testing"
	"time"

	"github.com/sealedhq/sealed/commit"
)

// BenchmarkJudge judges a season: 1,000 players, each posting and revealing
// one bid a week for 10 weeks (10,000 actions, 20,000 entries).
func BenchmarkJudge(b *testing.B) {
	var h History
	start := time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC) // a Monday
	idx := int64(0)
	for w := 0; w < 10; w++ {
		for p := 0; p < 1000; p++ {
			text := []byte(fmt.Sprintf("bid %d on lot %d\nsalt: s-%d-%d", p%50+1, p%7+1, w, p))
			player := fmt.Sprintf("p%04d", p)
			week := start.AddDate(0, 0, 7*w)
			h.Posts = append(h.Posts, Post{Stamp: Stamp{Index: idx, IntegratedAt: week.Add(time.Duration(p) * time.Second)},
				Player: player, ActionType: ActionBid, Channel: AuctionsChannel, Commitment: commit.Sum(text)})
			h.Reveals = append(h.Reveals, Reveal{Stamp: Stamp{Index: idx + 1, IntegratedAt: week.AddDate(0, 0, 4)},
				Commit: idx, Player: player, Text: text})
			idx += 2
		}
	}
	at := start.AddDate(0, 0, 70)
	b.ReportAllocs()
	for b.Loop() {
		j, err := (Game{}).Judge(h, at)
		if err != nil || len(j.Actions) != 10000 || j.Actions[9999].State != Revealed {
			b.Fatal("bad judgement", err)
		}
	}
}
