package web

import "testing"

// BenchmarkJudgeRecompute: one judgement of a 2,009-entry ledger
// (secret.Game.Judge over the history read and the lookup index), done
// again only when the ledger grows or a maturation or revelation date
// passes.
func BenchmarkJudgeRecompute(b *testing.B) {
	f, _ := benchLedger(b, 2000)
	s := f.server(b, nil)
	s.judge.mu.Lock()
	size, err := s.judge.extend()
	s.judge.mu.Unlock()
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		s.judge.mu.Lock()
		_, err := s.judge.recompute(size)
		s.judge.mu.Unlock()
		if err != nil {
			b.Fatal(err)
		}
	}
}
