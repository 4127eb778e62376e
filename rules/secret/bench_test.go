package secret

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/sealedhq/sealed/commit"
)

// BenchmarkJudge judges a season: 1,000 players, each posting and revealing
// one bid a week for 10 weeks (10,000 actions, 20,000 entries).
func BenchmarkJudge(b *testing.B) {
	h, at := season()
	b.ReportAllocs()
	for b.Loop() {
		j, err := (Game{}).Judge(h, at)
		if err != nil || len(j.Actions) != 10000 || j.Actions[9999].State != Revealed {
			b.Fatal("bad judgement", err)
		}
	}
}

// BenchmarkPrepare prepares the season's judgement (Lazy, nothing judged
// yet) with its posts in time order, and with the last post back-dated
// before the first (the posts then ordered by a sort): the memory a site
// holds before its first lookup, in B/op.
func BenchmarkPrepare(b *testing.B) {
	h, at := season()
	back := h
	back.Posts = slices.Clone(h.Posts)
	back.Posts[len(back.Posts)-1].PostedAt = back.Posts[0].IntegratedAt.Add(-time.Hour)
	for _, x := range []struct {
		name string
		h    History
	}{{"in-order", h}, {"back-dated", back}} {
		b.Run(x.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				z, err := (Game{}).Prepare(x.h, at)
				if err != nil || z.Len() != 10000 {
					b.Fatal("bad judgement", err)
				}
			}
		})
	}
}

// season returns the history of BenchmarkJudge and the instant after it.
func season() (History, time.Time) {
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
	return h, start.AddDate(0, 0, 70)
}
