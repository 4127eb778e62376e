package verify

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/sealedhq/sealed/commit"
	"github.com/sealedhq/sealed/ledger"
	"github.com/sealedhq/sealed/ledger/stores"
	"github.com/sealedhq/sealed/rules/lots"
	"github.com/sealedhq/sealed/rules/secret"
)

// benchLedger fills a ledger with n players' bids in week 2026-W13 (each
// "bid K on lot K%10" with a salt), each revealed: 2n entries. Appends run
// on 64 goroutines so the sequencer batches them.
func benchLedger(b *testing.B, n int) *ledger.Ledger {
	b.Helper()
	dir := b.TempDir()
	db, key := filepath.Join(dir, "b.db"), filepath.Join(dir, "b.key")
	if _, err := stores.Init(context.Background(), db, "sealed.bench/actions", key); err != nil {
		b.Fatal(err)
	}
	l, err := stores.Open(context.Background(), db, ledger.Options{KeyFile: key, Clock: func() time.Time { return time.Date(2026, 3, 30, 0, 0, 0, 0, time.UTC) }})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { l.Close() })
	post := time.Date(2026, 3, 23, 9, 0, 0, 0, time.UTC)
	reveal := time.Date(2026, 3, 27, 9, 0, 0, 0, time.UTC)
	idx := make([]int64, n)
	run := func(f func(i int) error) {
		var wg sync.WaitGroup
		errs := make(chan error, 64)
		for w := 0; w < 64; w++ {
			wg.Add(1)
			go func(w int) {
				defer wg.Done()
				for i := w; i < n; i += 64 {
					if err := f(i); err != nil {
						errs <- err
						return
					}
				}
			}(w)
		}
		wg.Wait()
		close(errs)
		if err := <-errs; err != nil {
			b.Fatal(err)
		}
	}
	text := func(i int) string { return fmt.Sprintf("bid %d on lot %d\nsalt: s%d", i%50+1, i%10, i) }
	run(func(i int) error {
		var err error
		idx[i], err = l.AppendBody(context.Background(), &ledger.Body{Kind: ledger.KindCommit, PostedAt: post.Add(time.Duration(i) * time.Second).Format(time.RFC3339),
			Player: fmt.Sprintf("p%d", i), ActionType: "bid", Channel: "#auctions", Commitment: commit.Sum([]byte(text(i))).String()})
		return err
	})
	run(func(i int) error {
		s := text(i)
		_, err := l.AppendBody(context.Background(), &ledger.Body{Kind: ledger.KindReveal, PostedAt: reveal.Add(time.Duration(i) * time.Second).Format(time.RFC3339),
			Player: fmt.Sprintf("p%d", i), Commit: &idx[i], Text: &s})
		return err
	})
	return l
}

// BenchmarkJudgeActions: read a ledger of 5,000 bids and their reveals
// (10,000 entries) and judge them all.
func BenchmarkJudgeActions(b *testing.B) {
	l := benchLedger(b, 5000)
	at := time.Date(2026, 3, 29, 0, 0, 0, 0, time.UTC)
	b.ResetTimer()
	for b.Loop() {
		if _, _, err := JudgeActions(l, secret.Game{}, at); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/10000, "ns/entry")
}

// BenchmarkConcludeLots: the same ledger concluded as week 2026-W13.
func BenchmarkConcludeLots(b *testing.B) {
	l := benchLedger(b, 5000)
	h, err := LoadHistory(l)
	if err != nil {
		b.Fatal(err)
	}
	points := map[string]int64{}
	for i := 0; i < 5000; i++ {
		points[fmt.Sprintf("p%d", i)] = 100
	}
	o := LotsOptions{Week: secret.Week{Year: 2026, Number: 13}, Now: time.Date(2026, 4, 1, 0, 0, 0, 0, time.UTC), Points: points, Pricing: lots.SecondPrice}
	b.ResetTimer()
	for b.Loop() {
		if _, err := ConcludeLots(h, o); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAuditReusedSaltsMiss: one salt-reuse search that does not find
// the text, so searches the whole single-bid space (10,001 x 100 =
// 1,000,100 guesses), on one worker.
func BenchmarkAuditReusedSaltsMiss(b *testing.B) {
	t0 := time.Date(2026, 3, 16, 9, 0, 0, 0, time.UTC)
	first := []byte("I bid 12 on lot 1 | salt=walnut-tiger")
	h := secret.History{
		Posts: []secret.Post{
			{Stamp: secret.Stamp{Index: 0, IntegratedAt: t0}, Player: "alice", ActionType: "bid", Channel: "#auctions", Commitment: commit.Sum(first)},
			{Stamp: secret.Stamp{Index: 2, IntegratedAt: t0.AddDate(0, 0, 7)}, Player: "alice", ActionType: "bid", Channel: "#auctions", Commitment: commit.Sum([]byte("I bid 40 on lot 2 | salt=other"))},
		},
		Reveals: []secret.Reveal{{Stamp: secret.Stamp{Index: 1, IntegratedAt: t0.AddDate(0, 0, 4)}, Commit: 0, Player: "alice", Text: first}},
	}
	at := t0.AddDate(0, 0, 8)
	for b.Loop() {
		j, err := secret.Game{}.Judge(h, at)
		if err != nil {
			b.Fatal(err)
		}
		recs, err := AuditReusedSalts(context.Background(), h, j, SaltAuditOptions{Workers: 1})
		if err != nil || len(recs) != 1 || recs[0].Found || recs[0].Guesses != 1000100 {
			b.Fatalf("%+v %v", recs, err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1000100, "ns/guess")
}
