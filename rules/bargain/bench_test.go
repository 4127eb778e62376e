package bargain

import (
	"testing"

	"github.com/sealedhq/sealed/internal/cputime"
)

// replayEpisode re-derives an episode from seed and re-simulates events
// through it, checking each claimed worth and payoff: the work of an
// auditor re-simulating a replay, without JSON decoding. It returns the
// number of claims that differ.
func replayEpisode(e *Episode, seed []byte, cfg Config, events []Event, res *Results) (int, error) {
	if err := e.Reset(seed, cfg); err != nil {
		return 0, err
	}
	bad := 0
	for i := range events {
		ev := &events[i]
		switch ev.Kind {
		case EventMatch:
			p, err := e.BeginMatch()
			if err != nil {
				return bad, err
			}
			if p.Pool != ev.Pool || p.Values != ev.Values || p.Seats != ev.Seats || p.Opener != ev.Opener {
				bad++
			}
		case EventOffer:
			mv, err := e.Offer(ev.Take, ev.Text, ev.Notes)
			if err != nil {
				return bad, err
			}
			if mv.Worth != ev.Worth || mv.Seat != ev.Seat || mv.Turn != ev.Turn {
				bad++
			}
		case EventAccept:
			mv, err := e.Accept(ev.Text, ev.Notes)
			if err != nil {
				return bad, err
			}
			if mv.Payoff != ev.Payoff || mv.Take != ev.Take {
				bad++
			}
		case EventEnd:
			if done, _ := e.Done(); !done {
				if err := e.Deadline(); err != nil {
					return bad, err
				}
			}
		}
	}
	e.ResultsInto(res)
	return bad, nil
}

// BenchmarkReplayBargain6 re-derives and re-simulates a 6-match episode
// (maxTurns 10, greedy vs fair bots, seed 000102...1f): six pools and
// valuations from the seed, every offer and accept through the rules, the
// claims compared, and the results with exact-decimal scores. Goal (issue
// 3): >= 100,000 episodes per second per core.
func BenchmarkReplayBargain6(b *testing.B) {
	cfg := DefaultConfig()
	r, err := PlayEpisode(counting, cfg, [Seats]Bot{Greedy{}, Fair{}, Greedy{}}, PlayOptions{})
	if err != nil {
		b.Fatal(err)
	}
	var e Episode
	var res Results
	b.ReportAllocs()
	b.ResetTimer()
	cpu := cputime.Used()
	for i := 0; i < b.N; i++ {
		if bad, err := replayEpisode(&e, counting, cfg, r.Events, &res); err != nil || bad != 0 {
			b.Fatalf("replay: %d differences, %v", bad, err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "episodes/s")
	// Per CPU-second: on a shared machine wall-clock time includes waiting
	// for a core. Run with -cpu 1 for a per-core figure.
	if used := cputime.Used() - cpu; used > 0 {
		b.ReportMetric(float64(b.N)/used.Seconds(), "episodes/cpu-s")
	}
	b.ReportMetric(float64(len(r.Events)), "events/episode")
}

// BenchmarkDrawSchedule6 derives the six pools and valuations of a seed.
func BenchmarkDrawSchedule6(b *testing.B) {
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		for m := 0; m < 6; m++ {
			if _, err := DrawMatch(counting, m); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// TestReplayEpisodeHelper keeps the benchmark's helper honest: a clean
// replay has no differing claim, a changed worth has one.
func TestReplayEpisodeHelper(t *testing.T) {
	cfg := DefaultConfig()
	r, _ := PlayEpisode(counting, cfg, [Seats]Bot{Greedy{}, Fair{}, Greedy{}}, PlayOptions{})
	var e Episode
	var res Results
	if bad, err := replayEpisode(&e, counting, cfg, r.Events, &res); err != nil || bad != 0 || res.Reason != ReasonComplete {
		t.Fatalf("clean: %d %v %q", bad, err, res.Reason)
	}
	for i := range r.Events {
		if r.Events[i].Kind == EventOffer {
			r.Events[i].Worth[0]++
			break
		}
	}
	if bad, _ := replayEpisode(&e, counting, cfg, r.Events, &res); bad != 1 {
		t.Fatalf("tampered: %d differences, want 1", bad)
	}
}
