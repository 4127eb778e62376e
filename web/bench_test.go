package web

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sealedhq/sealed/ledger"
	"github.com/sealedhq/sealed/ledger/stores"
)

// benchLedger is the fixture plus n more commit entries, appended
// concurrently (the sequencer batches them); it returns their commitments.
func benchLedger(b *testing.B, n int) (*fixture, []string) {
	f := newFixture(b)
	f.clk.set(at(b, "2026-03-07T13:00:00Z"))
	hashes := make([]string, n)
	var wg sync.WaitGroup
	errs := make(chan error, n)
	sem := make(chan struct{}, 64)
	for i := range n {
		sum := sha256.Sum256(fmt.Appendf(nil, "I bid %d on lot %d\nsalt: bench-%d", i%100+1, i%7+1, i))
		hashes[i] = hex.EncodeToString(sum[:])
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			_, err := f.w.AppendBody(context.Background(), &ledger.Body{Kind: ledger.KindCommit, Player: fmt.Sprintf("p%d", i%50),
				ActionType: "bid", Channel: "#auctions", Commitment: hashes[i]})
			if err != nil {
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		b.Fatal(err)
	}
	return f, hashes
}

// loadBench runs b.N GETs of path(i) over loopback from workers goroutines
// sharing one keep-alive net/http client, and reports requests a second
// and the 50th and 99th percentile latency.
func loadBench(b *testing.B, h http.Handler, workers int, path func(i int) string) {
	srv := httptest.NewServer(h)
	defer srv.Close()
	client := &http.Client{Transport: &http.Transport{MaxIdleConns: workers, MaxIdleConnsPerHost: workers, MaxConnsPerHost: workers}}
	defer client.CloseIdleConnections()
	get := func(i int) (time.Duration, error) {
		start := time.Now()
		resp, err := client.Get(srv.URL + path(i))
		if err != nil {
			return 0, err
		}
		_, err = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			return 0, fmt.Errorf("GET %s: %d", path(i), resp.StatusCode)
		}
		return time.Since(start), err
	}
	for i := range workers { // open the connections and warm the caches
		if _, err := get(i); err != nil {
			b.Fatal(err)
		}
	}
	lat := make([][]time.Duration, workers)
	var next atomic.Int64
	var failed atomic.Value
	b.ResetTimer()
	start := time.Now()
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= b.N {
					return
				}
				d, err := get(i)
				if err != nil {
					failed.Store(err)
					return
				}
				lat[w] = append(lat[w], d)
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	b.StopTimer()
	if err, ok := failed.Load().(error); ok {
		b.Fatal(err)
	}
	all := slices.Concat(lat...)
	slices.Sort(all)
	pct := func(p float64) float64 { return float64(all[int(float64(len(all)-1)*p)]) / float64(time.Millisecond) }
	b.ReportMetric(float64(b.N)/elapsed.Seconds(), "req/s")
	b.ReportMetric(pct(0.50), "p50-ms")
	b.ReportMetric(pct(0.99), "p99-ms")
}

// BenchmarkCommitmentLookupLoad: GET /api/v1/commitments/{hash} over
// loopback against a ledger of 2,009 entries, with 4 and 16 workers on one
// keep-alive client (client and server share the machine's cores). Goal
// (issue 6): >= 20,000 lookups/s and p99 < 5 ms on 2 cores.
func BenchmarkCommitmentLookupLoad(b *testing.B) {
	f, hashes := benchLedger(b, 2000)
	s := f.server(b, nil)
	for _, w := range []int{4, 16} {
		b.Run(fmt.Sprintf("workers=%d", w), func(b *testing.B) {
			loadBench(b, s, w, func(i int) string { return "/api/v1/commitments/" + hashes[i%len(hashes)] })
		})
	}
}

// BenchmarkCommitmentPageLoad is the same for the HTML page /c/{hash}.
func BenchmarkCommitmentPageLoad(b *testing.B) {
	f, hashes := benchLedger(b, 2000)
	s := f.server(b, nil)
	for _, w := range []int{4, 16} {
		b.Run(fmt.Sprintf("workers=%d", w), func(b *testing.B) {
			loadBench(b, s, w, func(i int) string { return "/c/" + hashes[i%len(hashes)] })
		})
	}
}

// discardWriter is an http.ResponseWriter that keeps nothing but its
// header map, which it clears for each answer, so a benchmark counts the
// handler's own allocations.
type discardWriter struct {
	h    http.Header
	code int
	n    int
}

func (w *discardWriter) Header() http.Header         { return w.h }
func (w *discardWriter) WriteHeader(code int)        { w.code = code }
func (w *discardWriter) Write(b []byte) (int, error) { w.n += len(b); return len(b), nil }

// BenchmarkCommitmentAnswer: the site's handler alone (no network) on
// GET /api/v1/commitments/{hash} and GET /c/{hash}, cycling through 2,000
// commitments: its time and allocations per answer.
func BenchmarkCommitmentAnswer(b *testing.B) {
	f, hashes := benchLedger(b, 2000)
	s := f.server(b, nil)
	for _, x := range []struct{ name, prefix string }{{"api", "/api/v1/commitments/"}, {"page", "/c/"}} {
		b.Run(x.name, func(b *testing.B) {
			reqs := make([]*http.Request, len(hashes))
			for i, h := range hashes {
				reqs[i] = httptest.NewRequest(http.MethodGet, x.prefix+h, nil)
			}
			serveEach(b, s, reqs)
		})
	}
}

// BenchmarkEntryAnswer: the site's handler alone on GET
// /api/v1/entries/{n}, cycling through the 2,009 entries: after Warm
// (entries checked by VerifiedSize), and on a reader that did not check
// them (each proved in the signed tree from its leaf hash).
func BenchmarkEntryAnswer(b *testing.B) {
	f, _ := benchLedger(b, 2000)
	if err := f.w.Close(); err != nil { // signs the checkpoint of the whole log
		b.Fatal(err)
	}
	size, err := f.r.Size()
	if err != nil {
		b.Fatal(err)
	}
	for _, warm := range []bool{true, false} {
		b.Run(fmt.Sprintf("warm=%v", warm), func(b *testing.B) {
			r, err := stores.Open(context.Background(), f.path, ledger.Options{ReadOnly: true})
			if err != nil {
				b.Fatal(err)
			}
			defer r.Close()
			s := f.server(b, func(o *Options) { o.Reader, o.Writer, o.Token = r, nil, "" })
			if warm {
				if _, err := r.VerifiedSize(context.Background()); err != nil {
					b.Fatal(err)
				}
			}
			reqs := make([]*http.Request, size)
			for i := range reqs {
				reqs[i] = httptest.NewRequest(http.MethodGet, fmt.Sprintf("/api/v1/entries/%d", i), nil)
			}
			serveEach(b, s, reqs)
		})
	}
}

// serveEach serves reqs in turn, b.N in all, to a writer that discards
// the body, and fails on any answer other than 200.
func serveEach(b *testing.B, s *Server, reqs []*http.Request) {
	w := &discardWriter{h: http.Header{}}
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		clear(w.h)
		w.code = 0
		s.ServeHTTP(w, reqs[i%len(reqs)])
		if w.code != http.StatusOK {
			b.Fatalf("status %d", w.code)
		}
	}
}
