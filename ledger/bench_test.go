package ledger_test

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sealedhq/sealed/internal/cputime"
	"github.com/sealedhq/sealed/ledger"
	"golang.org/x/mod/sumdb/tlog"
)

// Benchmarks of docs/performance.md ("Ledger"). Every ledger is a file in
// a temp dir with the durable settings (WAL, synchronous=FULL).

// randomCommit is a commit body for player with a commitment that looks
// random (SHA-256 of the name), as real commitments are.
func randomCommit(player string) string {
	c := sha256.Sum256([]byte(player))
	return commitBody(player, hex.EncodeToString(c[:]))
}

func percentile(d []time.Duration, p float64) time.Duration {
	if len(d) == 0 {
		return 0
	}
	slices.Sort(d)
	return d[min(len(d)-1, int(float64(len(d))*p))]
}

// BenchmarkAppend: appends/s with 1, 8 and 64 concurrent appenders, each
// waiting for its index; p99 of call-to-durable and of call-to-signed
// checkpoint (default 500 ms interval).
//
// Each commit names a new player (the worst case: each adds a players
// row and a lookup of the players table that finds none), except in
// "appenders=64/players=1000", where 1,000 players post them in turn, as
// in a league (a players row only for each player's first commit).
func BenchmarkAppend(b *testing.B) {
	for _, g := range []int{1, 8, 64, -64} {
		name := fmt.Sprintf("appenders=%d", g)
		body := func(w, i int) []byte { return []byte(randomCommit(fmt.Sprintf("b%d-%d", w, i))) }
		if g < 0 {
			g = -g
			name = fmt.Sprintf("appenders=%d/players=1000", g)
			body = func(w, i int) []byte {
				c := sha256.Sum256(fmt.Appendf(nil, "b%d-%d", w, i))
				return []byte(commitBody(fmt.Sprintf("player-%d", (i*g+w)%1000), hex.EncodeToString(c[:])))
			}
		}
		b.Run(name, func(b *testing.B) {
			l, _, _ := newTestLedger(b, ledger.Options{})
			ctx := context.Background()
			type rec struct {
				idx   int64
				start time.Time
				lat   time.Duration
			}
			recs := make([][]rec, g)
			type seen struct {
				size int64
				at   time.Time
			}
			var cps []seen
			obsCtx, stopObs := context.WithCancel(ctx)
			obsDone := make(chan struct{})
			go func() {
				defer close(obsDone)
				var last int64
				if cp, err := l.LatestCheckpoint(); err == nil {
					last = cp.Size
				}
				for {
					cp, err := l.WaitCheckpoint(obsCtx, last+1)
					if err != nil {
						return
					}
					cps = append(cps, seen{cp.Size, time.Now()})
					last = cp.Size
				}
			}()
			per := (b.N + g - 1) / g
			b.ResetTimer()
			c0, w0 := cputime.Used(), bytesWritten(b)
			t0 := time.Now()
			var wg sync.WaitGroup
			for w := range g {
				wg.Add(1)
				go func() {
					defer wg.Done()
					rs := make([]rec, 0, per)
					for i := range per {
						s := time.Now()
						idx, err := l.Append(ctx, body(w, i))
						if err != nil {
							b.Error(err)
							return
						}
						rs = append(rs, rec{idx, s, time.Since(s)})
					}
					recs[w] = rs
				}()
			}
			wg.Wait()
			elapsed := time.Since(t0)
			cpu, written := cputime.Used()-c0, bytesWritten(b)-w0
			b.StopTimer()
			total := int64(per * g)
			wctx, cancel := context.WithTimeout(ctx, 5*time.Second)
			_, err := l.WaitCheckpoint(wctx, total)
			cancel()
			time.Sleep(10 * time.Millisecond)
			stopObs()
			<-obsDone
			if err != nil {
				b.Fatal(err)
			}
			var lats, cpLats []time.Duration
			for _, rs := range recs {
				for _, r := range rs {
					lats = append(lats, r.lat)
					k := sort.Search(len(cps), func(k int) bool { return cps[k].size > r.idx })
					if k < len(cps) {
						cpLats = append(cpLats, cps[k].at.Sub(r.start))
					}
				}
			}
			b.ReportMetric(float64(total)/elapsed.Seconds(), "appends/s")
			// Less sensitive to a shared machine: CPU (all goroutines,
			// this process) and bytes handed to write(2) per append.
			b.ReportMetric(float64(cpu.Microseconds())/float64(total), "cpu-us/append")
			b.ReportMetric(float64(written)/float64(total), "written-B/append")
			b.ReportMetric(float64(percentile(lats, 0.99).Microseconds())/1000, "p99-ms")
			b.ReportMetric(float64(percentile(cpLats, 0.99).Microseconds())/1000, "cp-p99-ms")
		})
	}
}

// bytesWritten is this process's wchar from /proc/self/io: the bytes
// passed to write(2) and its kin so far (0 where /proc is missing).
func bytesWritten(b *testing.B) int64 {
	data, err := os.ReadFile("/proc/self/io")
	if err != nil {
		return 0
	}
	for line := range strings.Lines(string(data)) {
		if v, ok := strings.CutPrefix(line, "wchar: "); ok {
			n, _ := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
			return n
		}
	}
	return 0
}

var rawBatch = 1000

// BenchmarkRawSQLite inserts the same rows as the ledger (one entry row
// with a ~200-byte body, plus tlog.StoredHashCount's hash rows per entry)
// into the same schema with prepared statements in 1,000-entry
// transactions, on the same durable settings, without the log: the
// baseline for the ledger's overhead ratio.
func BenchmarkRawSQLite(b *testing.B) {
	dir := b.TempDir()
	path := filepath.Join(dir, "raw.db")
	// The ledger's schema (with its indexes), written by the SQLite store,
	// then plain database/sql on the same durable settings.
	if _, err := initLedger(path, testOrigin, filepath.Join(dir, "raw.key")); err != nil {
		b.Fatal(err)
	}
	db, err := sql.Open("sqlite3", "file:"+path+"?_journal_mode=WAL&_synchronous=FULL&_txlock=immediate")
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	body := []byte(commitBody("player-with-a-name", hashA))
	body = append(body, make([]byte, 200-len(body)%200)...)
	var h tlog.Hash
	rand.Read(h[:])
	b.ResetTimer()
	t0 := time.Now()
	for n := 0; n < b.N; {
		tx, err := db.Begin()
		if err != nil {
			b.Fatal(err)
		}
		ins, _ := tx.Prepare(`INSERT INTO entries(idx, kind, body, leaf_hash, integrated_at, posted_at, dedup, commitment, ref)
			VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?) `)
		insH, _ := tx.Prepare(`INSERT INTO hashes(id, hash) VALUES(?, ?)`)
		for k := 0; k < rawBatch && n < b.N; k, n = k+1, n+1 {
			dedup := sha256.Sum256(fmt.Appendf(nil, "%d", n))
			if _, err := ins.Exec(n, "commit", body, h[:], time.Now().UnixNano(), nil, dedup[:], hex.EncodeToString(dedup[:]), nil); err != nil {
				b.Fatal(err)
			}
			base := tlog.StoredHashIndex(0, int64(n))
			for j := range tlog.StoredHashCount(int64(n)+1) - base {
				if _, err := insH.Exec(base+j, h[:]); err != nil {
					b.Fatal(err)
				}
			}
		}
		ins.Close()
		insH.Close()
		if err := tx.Commit(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/time.Since(t0).Seconds(), "entries/s")
}

// bigLedger returns a 1,000,000-entry ledger, built once (64 appenders)
// and kept in the system temp dir between benchmark runs.
func bigLedger(b *testing.B) *ledger.Ledger {
	const size = 1_000_000
	if testing.Short() {
		b.Skip("1M-entry ledger skipped in -short mode")
	}
	dir := filepath.Join(os.TempDir(), "sealed-ledger-bench-1m")
	db, key := filepath.Join(dir, "ledger.db"), filepath.Join(dir, "ledger.key")
	if l, err := openLedger(b, db, ledger.Options{KeyFile: key}); err == nil {
		if n, _ := l.Size(); n == size {
			return l
		}
		l.Close()
	}
	os.RemoveAll(dir)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		b.Fatal(err)
	}
	if _, err := initLedger(db, testOrigin, key); err != nil {
		b.Fatal(err)
	}
	l, err := openLedger(b, db, ledger.Options{KeyFile: key})
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
				if _, err := l.Append(context.Background(), []byte(randomCommit(fmt.Sprintf("big-%d", i)))); err != nil {
					b.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	l.Close() // signs the checkpoint of the full tree
	if l, err = openLedger(b, db, ledger.Options{KeyFile: key}); err != nil {
		b.Fatal(err)
	}
	return l
}

// randomIndex is a random index below size (at most 2^24), from 24
// random bits.
func randomIndex(size int64) int64 {
	var r [3]byte
	rand.Read(r[:])
	return int64(uint64(r[0])|uint64(r[1])<<8|uint64(r[2])<<16) % size
}

// BenchmarkProveInclusion: an inclusion proof for a random entry of a
// 1,000,000-entry ledger (goal < 1 ms), checked outside the timer.
func BenchmarkProveInclusion(b *testing.B) {
	l := bigLedger(b)
	defer l.Close()
	cp, err := l.LatestCheckpoint()
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		idx := randomIndex(cp.Size)
		p, err := l.ProveInclusion(idx, cp.Size)
		if err != nil {
			b.Fatal(err)
		}
		if i == 0 {
			b.StopTimer()
			if _, err := ledger.CheckInclusion(l.VerifierKey(), nil, p); err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
		}
	}
}

// BenchmarkAudit: a full audit of the 1,000,000-entry ledger, in entries/s
// (goal >= 1,000,000/s).
func BenchmarkAudit(b *testing.B) {
	l := bigLedger(b)
	defer l.Close()
	b.ResetTimer()
	t0 := time.Now()
	var n int64
	for i := 0; i < b.N; i++ {
		rep, err := l.Audit(context.Background(), nil)
		if err != nil || !rep.OK {
			b.Fatalf("%+v %v", rep, err)
		}
		n += rep.Size
	}
	b.ReportMetric(float64(n)/time.Since(t0).Seconds(), "entries/s")
}

// BenchmarkEntry: Entry of a random entry of the 1,000,000-entry ledger,
// on a reading Ledger that did not run VerifiedSize: each entry is proved
// in the latest checkpoint's tree from its leaf hash.
func BenchmarkEntry(b *testing.B) {
	l := bigLedger(b)
	defer l.Close()
	cp, err := l.LatestCheckpoint()
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := l.Entry(randomIndex(cp.Size)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkEntriesScan: the whole 1,000,000-entry ledger read with
// Entries in pages of MaxEntries (as verify.CheckResult reads it), in
// entries/s.
func BenchmarkEntriesScan(b *testing.B) {
	l := bigLedger(b)
	defer l.Close()
	b.ReportAllocs()
	b.ResetTimer()
	t0 := time.Now()
	var n int64
	for i := 0; i < b.N; i++ {
		for from := int64(0); ; {
			es, err := l.Entries(from, ledger.MaxEntries)
			if err != nil {
				b.Fatal(err)
			}
			if len(es) == 0 {
				break
			}
			from += int64(len(es))
			n += int64(len(es))
		}
	}
	b.ReportMetric(float64(n)/time.Since(t0).Seconds(), "entries/s")
}
