package stores_test

import (
	"context"
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/sealedhq/sealed/internal/pgtest"
	"github.com/sealedhq/sealed/ledger"
	"github.com/sealedhq/sealed/ledger/stores"
	"github.com/sealedhq/sealed/verify"
)

// The stores side by side, in one run:
//
//	go test ./ledger/stores -run '^$' -bench . -benchtime 20000x -timeout 60m
//
// BenchmarkAppend64 has 64 concurrent appenders each waiting for its
// index (goals: SQLite >= 40,000/s, PostgreSQL >= 5,000/s on 2 cores).
// BenchmarkOneShotAppend1M is what a CLI append costs on a 1,000,000-entry
// ledger: open, admit, append one entry, sign the checkpoint, close (goal
// < 100 ms on either store), for a commit, a seed-commit and a result;
// and `sealed ledger check-result` of the newest result there.

func commitBody(player string) []byte {
	c := sha256.Sum256([]byte(player))
	return fmt.Appendf(nil, `{"kind":"commit","player":%q,"action_type":"bid","channel":"#auctions","commitment":"%x"}`, player, c)
}

// ledgers returns, per store, a function making a new empty ledger's
// name and key file. The PostgreSQL server is started once, for the whole
// benchmark b.
func ledgers(b *testing.B) map[string]func(b *testing.B) (name, key string) {
	srv := pgtest.Start(b, pgtest.Options{})
	return map[string]func(b *testing.B) (string, string){
		"sqlite": func(b *testing.B) (string, string) {
			dir := b.TempDir()
			return filepath.Join(dir, "l.db"), filepath.Join(dir, "l.key")
		},
		"postgres": func(b *testing.B) (string, string) {
			return srv.NewDatabase(b), filepath.Join(b.TempDir(), "l.key")
		},
	}
}

// cpuTime is the CPU time (user and system) this process has used so
// far: BenchmarkAppend64 reports it per append, a figure that moves much
// less with the machine's other load than the rate does (the PostgreSQL
// server's own CPU, in its processes, is not in it).
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func BenchmarkAppend64(b *testing.B) {
	ctx := context.Background()
	mks := ledgers(b)
	for _, store := range []string{"sqlite", "postgres"} {
		mk := mks[store]
		b.Run(store, func(b *testing.B) {
			name, key := mk(b)
			if _, err := stores.Init(ctx, name, "bench.example/log", key); err != nil {
				b.Fatal(err)
			}
			l, err := stores.Open(ctx, name, ledger.Options{KeyFile: key})
			if err != nil {
				b.Fatal(err)
			}
			defer l.Close()
			const writers = 64
			var wg sync.WaitGroup
			b.ResetTimer()
			t0, cpu0 := time.Now(), cpuTime()
			for w := range writers {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for i := w; i < b.N; i += writers {
						if _, err := l.Append(ctx, commitBody(fmt.Sprintf("%s-%d-%d", store, b.N, i))); err != nil {
							b.Error(err)
							return
						}
					}
				}()
			}
			wg.Wait()
			b.ReportMetric(float64(b.N)/time.Since(t0).Seconds(), "appends/s")
			b.ReportMetric(float64((cpuTime()-cpu0).Microseconds())/float64(b.N), "cpu-µs/append")
		})
	}
}

// bigSQLite returns a 1,000,000-entry SQLite ledger, built once (64
// appenders) and kept in the system temp dir between runs.
func bigSQLite(b *testing.B) (name, key string) {
	const size = 1_000_000
	ctx := context.Background()
	dir := filepath.Join(os.TempDir(), "sealed-stores-bench-1m")
	name, key = filepath.Join(dir, "ledger.db"), filepath.Join(dir, "ledger.key")
	if l, err := stores.Open(ctx, name, ledger.Options{ReadOnly: true}); err == nil {
		n, _ := l.Size()
		l.Close()
		if n >= size {
			return name, key
		}
	}
	os.RemoveAll(dir)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		b.Fatal(err)
	}
	if _, err := stores.Init(ctx, name, "bench.example/big", key); err != nil {
		b.Fatal(err)
	}
	l, err := stores.Open(ctx, name, ledger.Options{KeyFile: key})
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
				if _, err := l.Append(ctx, commitBody(fmt.Sprintf("big-%d", i))); err != nil {
					b.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	if err := l.Close(); err != nil {
		b.Fatal(err)
	}
	return name, key
}

func BenchmarkOneShotAppend1M(b *testing.B) {
	if testing.Short() {
		b.Skip("the 1M-entry ledgers are skipped in -short mode")
	}
	ctx := context.Background()
	sqlName, key := bigSQLite(b)
	// The PostgreSQL copy of the 1M-entry ledger, made once.
	srv := pgtest.Start(b, pgtest.Options{})
	pgName := srv.NewDatabase(b)
	src, err := stores.OpenStore(ctx, sqlName, true, false)
	if err != nil {
		b.Fatal(err)
	}
	dst, err := stores.OpenStore(ctx, pgName, false, true)
	if err != nil {
		b.Fatal(err)
	}
	t0 := time.Now()
	if _, err := ledger.Copy(ctx, src, dst, nil); err != nil {
		b.Fatal(err)
	}
	b.Logf("copied the 1M-entry ledger to PostgreSQL in %v", time.Since(t0))
	src.Close()
	dst.Close()
	replay, err := os.ReadFile(filepath.Join("testdata", "auction_other_seed.json"))
	if err != nil {
		b.Fatal(err)
	}
	const replayConfig = `{"players":3,"items":2,"starting_credits":100,"value_min":5,"value_max":60,"talk_rounds":1,"pricing":"first","stake":"10","rake":"0.05"}`
	run := time.Now().UnixNano() // the cached ledger keeps what earlier runs appended
	for _, store := range []string{"sqlite", "postgres"} {
		name := sqlName
		if store == "postgres" {
			name = pgName
		}
		// The results' match: its seed-commit (a commitment of its own,
		// as a seed is committed once) and the stored replay.
		match := fmt.Sprintf("oneshot-results-%s-%d", store, run)
		l, err := stores.Open(ctx, name, ledger.Options{KeyFile: key})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := l.Append(ctx, seedCommitBody(match, replayConfig, fmt.Sprint(match))); err != nil {
			b.Fatal(err)
		}
		digest, err := l.PutReplay(replay)
		if err != nil {
			b.Fatal(err)
		}
		if err := l.Close(); err != nil {
			b.Fatal(err)
		}
		for _, kind := range []ledger.Kind{ledger.KindCommit, ledger.KindSeedCommit, ledger.KindResult} {
			b.Run(store+"/"+string(kind), func(b *testing.B) {
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					// What `sealed action post`, `sealed ledger append
					// --kind seed-commit` and `--kind result --replay-sha256`
					// do: open, admit (verify.Admit, as every writer does),
					// append, close (which signs the checkpoint covering
					// the entry).
					unique := fmt.Sprintf("oneshot-%s-%d-%d", store, time.Now().UnixNano(), i)
					var body []byte
					switch kind {
					case ledger.KindCommit:
						body = commitBody(unique)
					case ledger.KindSeedCommit:
						body = seedCommitBody(unique, replayConfig, unique)
					default:
						body = fmt.Appendf(nil, `{"kind":"result","game":"auction","match_id":%q,"replay_sha256":%q,"summary":{"run":%q}}`, match, digest, unique)
					}
					l, err := stores.Open(ctx, name, ledger.Options{KeyFile: key})
					if err != nil {
						b.Fatal(err)
					}
					parsed, err := ledger.ParseBody(body)
					if err != nil {
						b.Fatal(err)
					}
					if _, err := verify.Admit(l, parsed, nil, time.Now()); err != nil {
						b.Fatal(err)
					}
					if _, err := l.Append(ctx, body); err != nil {
						b.Fatal(err)
					}
					if err := l.Close(); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
		// What `sealed ledger check-result N` costs: open read-only and
		// check the newest result (the seed_commits table held to the
		// leaves first, as in every new process), close.
		b.Run(store+"/check-result", func(b *testing.B) {
			l, err := stores.Open(ctx, name, ledger.Options{ReadOnly: true})
			if err != nil {
				b.Fatal(err)
			}
			n, err := l.Size()
			l.Close()
			if err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				l, err := stores.Open(ctx, name, ledger.Options{ReadOnly: true})
				if err != nil {
					b.Fatal(err)
				}
				// The newest result entry: the benchmark's results are the
				// last entries of their runs; look back for one.
				var c *verify.ResultCheck
				for j := n - 1; j >= 0 && c == nil; j-- {
					e, err := l.Entry(j)
					if err != nil {
						b.Fatal(err)
					}
					if e.Kind == ledger.KindResult {
						if c, err = verify.CheckResult(l, j); err != nil {
							b.Fatal(err)
						}
					}
				}
				if c == nil {
					b.Fatal("no result entry")
				}
				if err := l.Close(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// seedCommitBody is an auction seed-commit of match id with config,
// committing to the SHA-256 of seed.
func seedCommitBody(id, config, seed string) []byte {
	c := sha256.Sum256([]byte(seed))
	return fmt.Appendf(nil, `{"kind":"seed-commit","game":"auction","match_id":%q,"rules_version":"auction-0.2","config":%s,"commitment":"%x"}`, id, config, c)
}
