package tiles_test

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sealedhq/sealed/internal/cputime"
	"github.com/sealedhq/sealed/ledger"
	"github.com/sealedhq/sealed/ledger/stores"
	"github.com/sealedhq/sealed/ledger/tiles"
	"github.com/sealedhq/sealed/ledger/tlogclient"
	"github.com/sealedhq/sealed/web"
	"golang.org/x/mod/sumdb/tlog"
)

// bigLedger returns the 1,000,000-entry SQLite ledger the ledger
// package's benchmarks use (built once, 64 appenders, kept in the system
// temp dir), opened read-only.
func bigLedger(b *testing.B) *ledger.Ledger {
	const size = 1_000_000
	if testing.Short() {
		b.Skip("1M-entry ledger skipped in -short mode")
	}
	ctx := context.Background()
	dir := filepath.Join(os.TempDir(), "sealed-ledger-bench-1m")
	db, key := filepath.Join(dir, "ledger.db"), filepath.Join(dir, "ledger.key")
	if l, err := stores.Open(ctx, db, ledger.Options{ReadOnly: true}); err == nil {
		if cp, err := l.LatestCheckpoint(); err == nil && cp.Size == size {
			return l
		}
		l.Close()
	}
	os.RemoveAll(dir)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		b.Fatal(err)
	}
	if _, err := stores.Init(ctx, db, "bench.example/ledger", key); err != nil {
		b.Fatal(err)
	}
	l, err := stores.Open(ctx, db, ledger.Options{KeyFile: key})
	if err != nil {
		b.Fatal(err)
	}
	b.Logf("building the 1M-entry ledger in %s", dir)
	var wg sync.WaitGroup
	for w := range 64 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < size; i += 64 {
				c := sha256.Sum256([]byte(fmt.Sprint("big-", i)))
				body := fmt.Sprintf(`{"kind":"commit","player":"big-%d","action_type":"bid","channel":"#auctions","commitment":"%x"}`, i, c)
				if _, err := l.Append(ctx, []byte(body)); err != nil {
					b.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	l.Close() // signs the checkpoint of the full tree
	if l, err = stores.Open(ctx, db, ledger.Options{ReadOnly: true}); err != nil {
		b.Fatal(err)
	}
	return l
}

func randN(n int64) int64 {
	r, _ := rand.Int(rand.Reader, big.NewInt(n))
	return r.Int64()
}

// loadBench runs b.N GETs of path(i) over loopback from workers
// goroutines on one keep-alive client, and reports requests a second and
// the 50th and 99th percentile latency.
// The client asks for gzip and decompresses, as Go's client does.
func loadBench(b *testing.B, h http.Handler, workers int, path func(i int) string) {
	loadBenchEncoding(b, h, workers, path, true)
}

// loadBenchEncoding is loadBench with a client that asks for gzip (and
// decompresses what comes compressed) or, with gz false, sends no
// Accept-Encoding and gets every answer as it is.
func loadBenchEncoding(b *testing.B, h http.Handler, workers int, path func(i int) string, gz bool) {
	srv := httptest.NewServer(h)
	defer srv.Close()
	client := &http.Client{Transport: &http.Transport{MaxIdleConns: workers, MaxIdleConnsPerHost: workers, MaxConnsPerHost: workers, DisableCompression: !gz}}
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
	for i := range workers {
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

// BenchmarkTileRequests: GETs of random tiles of the 1,000,000-entry
// ledger through the whole site (web.Server: echo, middleware, the tiles
// handler) over loopback, 8 workers on one keep-alive client sharing the
// machine with the server. "hash" asks full level-0 hash tiles (8 KiB),
// "bundle" full entry bundles (about 50 KiB), "mixed" both and the
// checkpoint. The client asks for gzip, as Go's does, so bundles come
// compressed (about 12 KiB) and it decompresses them on the machine it
// shares with the server; "bundle-identity" asks bundles without
// Accept-Encoding (as every client got them before they were compressed).
// Goal (issue 11): >= 20,000 requests/s, p99 < 5 ms.
func BenchmarkTileRequests(b *testing.B) {
	l := bigLedger(b)
	defer l.Close()
	srv, err := web.New(web.Options{Reader: l, Log: io.Discard})
	if err != nil {
		b.Fatal(err)
	}
	full := int64(1_000_000 / 256)
	path := func(l int) string {
		return "/" + tiles.Path(tlog.Tile{H: 8, L: l, N: randN(full), W: 256})
	}
	// A running server's cache (tiles.DefaultCacheBytes) holds the hash
	// tiles and bundles of this ledger (about 32 MB and 190 MB, and 46 MB
	// of the bundles gzip-compressed, as Go's client asks them): "cold"
	// asks the bundles before any was read (each is read from the store
	// once, then from the cache), then every tile is read once and the
	// others measure the warm cache.
	b.Run("bundle-cold", func(b *testing.B) { loadBench(b, srv, 8, func(int) string { return path(-1) }) })
	for n := range full {
		for _, l := range []int{0, -1} {
			rec := httptest.NewRecorder()
			req := httptest.NewRequest("GET", "/"+tiles.Path(tlog.Tile{H: 8, L: l, N: n, W: 256}), nil)
			req.Header.Set("Accept-Encoding", "gzip") // as Go's client asks: bundles are compressed and cached
			srv.ServeHTTP(rec, req)
			if rec.Code != 200 {
				b.Fatalf("tile %d/%d: %d", l, n, rec.Code)
			}
		}
	}
	b.Run("hash", func(b *testing.B) { loadBench(b, srv, 8, func(int) string { return path(0) }) })
	b.Run("bundle", func(b *testing.B) { loadBench(b, srv, 8, func(int) string { return path(-1) }) })
	b.Run("bundle-identity", func(b *testing.B) { loadBenchEncoding(b, srv, 8, func(int) string { return path(-1) }, false) })
	b.Run("mixed", func(b *testing.B) {
		loadBench(b, srv, 8, func(i int) string {
			switch i % 3 {
			case 0:
				return path(0)
			case 1:
				return path(-1)
			}
			return "/checkpoint"
		})
	})
}

// BenchmarkExport: `ledger tiles` of the 1,000,000-entry ledger into an
// empty directory, in entries/s. Goal (issue 11): >= 200,000 entries/s.
func BenchmarkExport(b *testing.B) {
	l := bigLedger(b)
	defer l.Close()
	b.ResetTimer()
	var n int64
	var elapsed, cpu time.Duration
	for range b.N {
		dir := b.TempDir()
		t0, c0 := time.Now(), cputime.Used()
		rep, err := tiles.Export(context.Background(), l.Store(), dir, nil)
		elapsed += time.Since(t0)
		cpu += cputime.Used() - c0
		if err != nil {
			b.Fatal(err)
		}
		n += rep.Size
		b.StopTimer()
		os.RemoveAll(dir)
		b.StartTimer()
	}
	b.ReportMetric(float64(n)/elapsed.Seconds(), "entries/s")
	b.ReportMetric(float64(n)/cpu.Seconds(), "entries/cpu-s")
}

// BenchmarkAuditURL: `ledger audit --url` of the 1,000,000-entry ledger
// served by the site over loopback, in entries/s. Goal (issue 11):
// >= 300,000 entries/s. The local audit (BenchmarkAuditLocal, the same
// ledger from its database) is the baseline.
func BenchmarkAuditURL(b *testing.B) {
	l := bigLedger(b)
	defer l.Close()
	srv, err := web.New(web.Options{Reader: l, Log: io.Discard})
	if err != nil {
		b.Fatal(err)
	}
	hs := httptest.NewServer(srv)
	defer hs.Close()
	c := &tlogclient.Client{URL: hs.URL, VerifierKey: l.VerifierKey()}
	b.ResetTimer()
	t0, c0 := time.Now(), cputime.Used()
	var n int64
	for range b.N {
		rep, err := c.Audit(context.Background(), nil)
		if err != nil {
			b.Fatal(err)
		}
		n += rep.Checkpoint.Size
	}
	b.ReportMetric(float64(n)/time.Since(t0).Seconds(), "entries/s")
	b.ReportMetric(float64(n)/(cputime.Used()-c0).Seconds(), "entries/cpu-s") // client and server
}

// BenchmarkAuditLocal: ledger.Audit of the same ledger from its database,
// the baseline for BenchmarkAuditURL.
func BenchmarkAuditLocal(b *testing.B) {
	l := bigLedger(b)
	defer l.Close()
	b.ResetTimer()
	t0, c0 := time.Now(), cputime.Used()
	var n int64
	for range b.N {
		rep, err := l.Audit(context.Background(), nil)
		if err != nil || !rep.OK {
			b.Fatalf("%+v %v", rep, err)
		}
		n += rep.Size
	}
	b.ReportMetric(float64(n)/time.Since(t0).Seconds(), "entries/s")
	b.ReportMetric(float64(n)/(cputime.Used()-c0).Seconds(), "entries/cpu-s")
}
