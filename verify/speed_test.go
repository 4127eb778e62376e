package verify

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/sealedhq/sealed/internal/cputime"
	"github.com/sealedhq/sealed/rules/auction"
)

// engineCorpus reads the 65 replays the engine wrote.
func engineCorpus(b *testing.B) ([][]byte, int) {
	files, _ := filepath.Glob(filepath.Join(engineDir, "*.json"))
	var out [][]byte
	total := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		out = append(out, data)
		total += len(data)
	}
	if len(out) != 65 {
		b.Fatalf("%d engine replays", len(out))
	}
	return out, total
}

// reportRate reports replays per wall second and per CPU second (run with
// -cpu 1 for a per-core figure).
func reportRate(b *testing.B, cpu0 time.Duration) {
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "replays/s")
	if used := cputime.Used() - cpu0; used > 0 {
		b.ReportMetric(float64(b.N)/used.Seconds(), "replays/cpu-s")
	}
}

// BenchmarkCheckEngineReplayJSON checks the engine's own replays from their
// JSON bytes to the verdict (CheckReplay: dialect detection, strict
// decoding, draws, re-simulation, every comparison), cycling through all
// 65. Goal (issue 13): >= 40,000 per second per core.
func BenchmarkCheckEngineReplayJSON(b *testing.B) {
	corpus, total := engineCorpus(b)
	b.SetBytes(int64(total / len(corpus)))
	b.ReportAllocs()
	cpu := cputime.Used()
	i := 0
	for b.Loop() {
		rep, err := CheckReplay(corpus[i%len(corpus)])
		if err != nil || !rep.Clean() {
			b.Fatal(err, rep)
		}
		i++
	}
	reportRate(b, cpu)
}

// BenchmarkCheckAuctionDefaultJSON checks sealed's default auction replay
// (5 seats, 10 items, the JSON `sealed replay play auction` writes, about
// 17 KB) from its bytes to the verdict. Goal (issue 13): >= 20,000 per
// second per core.
func BenchmarkCheckAuctionDefaultJSON(b *testing.B) {
	r := handReplay(b, auction.DefaultConfig(), "truthful", "shading", "random", "idle", "random")
	data, err := r.Encode()
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	cpu := cputime.Used()
	for b.Loop() {
		rep, err := CheckReplay(data)
		if err != nil || !rep.Clean() {
			b.Fatal(err, rep)
		}
	}
	reportRate(b, cpu)
}
