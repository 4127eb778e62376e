package sidebyside

import (
	"context"
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"
	"text/tabwriter"
	"time"
)

// AppendResult is one cell of the appends part: one system at one writer
// count in one round.
type AppendResult struct {
	System    string
	Writers   int
	Round     int
	Appends   int64         // appends acknowledged
	Elapsed   time.Duration // from the writers' start to the last one's return
	Rate      float64       // Appends / Elapsed, in appends/s
	P50, P99  time.Duration // latency of one Append call (call to durable index)
	Exhausted bool          // the cell ran out of generated entries before its time
}

// runAppendCell opens sys on a new directory under work, runs writers
// concurrent writers for d (each appending the next unused entry of
// entries and waiting for its index), checks that the indexes returned
// are 0..n-1 each once and that the system holds n entries, and closes it.
func runAppendCell(ctx context.Context, sys system, writers int, d time.Duration, entries []Entry, work string) (AppendResult, error) {
	res := AppendResult{System: sys.Name, Writers: writers}
	dir, err := os.MkdirTemp(work, "cell-")
	if err != nil {
		return res, err
	}
	defer os.RemoveAll(dir)
	l, err := sys.open(ctx, dir)
	if err != nil {
		return res, fmt.Errorf("%s: opening: %w", sys.Name, err)
	}
	closed := false
	defer func() {
		if !closed {
			l.Close()
		}
	}()
	var next atomic.Int64
	lats := make([][]time.Duration, writers)
	idxs := make([][]int64, writers)
	errs := make([]error, writers)
	var exhausted atomic.Bool
	var wg sync.WaitGroup
	start := time.Now()
	deadline := start.Add(d)
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for time.Now().Before(deadline) {
				k := next.Add(1) - 1
				if k >= int64(len(entries)) {
					exhausted.Store(true)
					return
				}
				s := time.Now()
				idx, err := l.Append(ctx, &entries[k])
				if err != nil {
					errs[w] = fmt.Errorf("%s: append of entry %d: %w", sys.Name, k, err)
					return
				}
				lats[w] = append(lats[w], time.Since(s))
				idxs[w] = append(idxs[w], idx)
			}
		}()
	}
	wg.Wait()
	res.Elapsed = time.Since(start)
	for _, err := range errs {
		if err != nil {
			return res, err
		}
	}
	var all []time.Duration
	seen := map[int64]bool{}
	for w := range writers {
		all = append(all, lats[w]...)
		for _, idx := range idxs[w] {
			seen[idx] = true
		}
	}
	n := int64(len(all))
	for i := range n {
		if !seen[i] {
			return res, fmt.Errorf("%s: %d appends acknowledged, but index %d was never returned", sys.Name, n, i)
		}
	}
	if int64(len(seen)) != n {
		return res, fmt.Errorf("%s: %d appends acknowledged with %d distinct indexes", sys.Name, n, len(seen))
	}
	size, err := l.Size(ctx)
	if err != nil {
		return res, fmt.Errorf("%s: reading the size back: %w", sys.Name, err)
	}
	if size != n {
		return res, fmt.Errorf("%s: %d appends acknowledged but the store holds %d entries", sys.Name, n, size)
	}
	closed = true
	if err := l.Close(); err != nil {
		return res, fmt.Errorf("%s: closing: %w", sys.Name, err)
	}
	res.Appends = n
	res.Rate = float64(n) / res.Elapsed.Seconds()
	res.P50, res.P99 = percentile(all, 0.50), percentile(all, 0.99)
	res.Exhausted = exhausted.Load()
	return res, nil
}

// runAppends runs the appends part: for each round, for each writer
// count, each system in turn (sealed, Tessera, raw), each on a new store.
func runAppends(ctx context.Context, cfg *Config, out io.Writer) ([]AppendResult, error) {
	systems := []system{sealedSystem()}
	for _, age := range cfg.TesseraAges {
		systems = append(systems, tesseraSystem(age))
	}
	systems = append(systems, rawSystem())
	fmt.Fprintf(out, "\n== appends: %d rounds; in each, at %v writers, each system in turn for %s on a new store; entries: %d generated commit bodies (~200-byte leaves, random-looking commitments), the same for every system\n",
		cfg.Rounds, cfg.Writers, cfg.CellDuration, cfg.Pool)
	for _, s := range systems {
		fmt.Fprintf(out, "   %s: %s\n", s.Name, s.Options)
	}
	entries := Entries(cfg.Pool, 0)
	var results []AppendResult
	for r := range cfg.Rounds {
		for _, w := range cfg.Writers {
			for _, s := range systems {
				res, err := runAppendCell(ctx, s, w, cfg.CellDuration, entries, cfg.WorkDir)
				if err != nil {
					return results, err
				}
				res.Round = r + 1
				results = append(results, res)
				note := ""
				if res.Exhausted {
					note = " (ran out of generated entries: raise -pool)"
				}
				fmt.Fprintf(out, "   round %d, %2d writers, %-18s %9.0f appends/s  p50 %7.2f ms  p99 %7.2f ms  (%d appends in %.2fs)%s\n",
					res.Round, w, s.Name, res.Rate, ms(res.P50), ms(res.P99), res.Appends, res.Elapsed.Seconds(), note)
			}
		}
	}
	printAppendSummary(out, cfg, systems, results)
	return results, nil
}

// printAppendSummary prints the medians per system and writer count, and
// the ratios of sealed to each other system, each ratio taken within a
// round (the same load) and summarised over the rounds.
func printAppendSummary(out io.Writer, cfg *Config, systems []system, results []AppendResult) {
	type key struct {
		sys     string
		writers int
	}
	by := map[key][]AppendResult{}
	rate := map[key]map[int]float64{} // round -> rate
	for _, r := range results {
		k := key{r.System, r.Writers}
		by[k] = append(by[k], r)
		if rate[k] == nil {
			rate[k] = map[int]float64{}
		}
		rate[k][r.Round] = r.Rate
	}
	fmt.Fprintf(out, "\n   medians over %d rounds (min-max in brackets)\n", cfg.Rounds)
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "   writers\tsystem\tappends/s\t(min-max)\tp50 ms\tp99 ms\t")
	for _, w := range cfg.Writers {
		for _, s := range systems {
			rs := by[key{s.Name, w}]
			var rates, p50s, p99s []float64
			for _, r := range rs {
				rates = append(rates, r.Rate)
				p50s = append(p50s, ms(r.P50))
				p99s = append(p99s, ms(r.P99))
			}
			sp := spreadOf(rates)
			fmt.Fprintf(tw, "   %d\t%s\t%.0f\t(%.0f-%.0f)\t%.2f\t%.2f\t\n", w, s.Name, sp.Median, sp.Min, sp.Max, median(p50s), median(p99s))
		}
	}
	tw.Flush()
	fmt.Fprintf(out, "\n   ratios of appends/s, sealed to each, taken within each round: median (min-max)\n")
	tw = tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprint(tw, "   writers\t")
	for _, s := range systems[1:] {
		fmt.Fprintf(tw, "sealed/%s\t", s.Name)
	}
	fmt.Fprintln(tw)
	for _, w := range cfg.Writers {
		fmt.Fprintf(tw, "   %d\t", w)
		for _, s := range systems[1:] {
			sp := spreadOf(ratios(rate[key{"sealed", w}], rate[key{s.Name, w}]))
			fmt.Fprintf(tw, "%.2f (%.2f-%.2f)\t", sp.Median, sp.Min, sp.Max)
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()
}

// ratios returns a[r]/b[r] for every round r both have (b[r] > 0).
func ratios(a, b map[int]float64) []float64 {
	var out []float64
	for r, x := range a {
		if y, ok := b[r]; ok && y > 0 {
			out = append(out, x/y)
		}
	}
	return out
}
