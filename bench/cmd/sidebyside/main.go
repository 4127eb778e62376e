// Command sidebyside measures sealed side by side with its anchors:
// appends against Tessera's POSIX driver and raw batched go-sqlite3
// inserts, the audit against a one-core SHA-256 pass, the site against a
// trivial net/http server (package bench/sidebyside; docs/performance.md
// "Side by side (issue 12)").
//
// Run it from the bench module:
//
//	cd bench && go run ./cmd/sidebyside            # everything, a few minutes
//	cd bench && go run ./cmd/sidebyside -quick     # a smoke test
//	cd bench && go run ./cmd/sidebyside -site=false -audit=false -rounds 7
//
// Exit status 0 when every part ran, 1 when a part failed (a lost append,
// an audit that did not pass, a site that did not answer), 2 for bad flags.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"time"

	"github.com/sealedhq/sealed/bench/sidebyside"
)

func main() {
	sidebyside.ServeTrivialIfAsked()
	quick := flag.Bool("quick", false, "a smoke test: one round, short cells, small ledgers (other flags still apply on top)")
	appends := flag.Bool("appends", true, "run the appends part (sealed, Tessera, raw)")
	audit := flag.Bool("audit", true, "run the audit part")
	site := flag.Bool("site", true, "run the site part")
	rounds := flag.Int("rounds", 0, "rounds of the appends part (0: the preset's)")
	writers := flag.String("writers", "", "comma-separated writer counts (default 1,8,64)")
	cell := flag.Duration("cell", 0, "time each system runs at each writer count in a round (0: the preset's)")
	pool := flag.Int("pool", 0, "generated entries for the appends part (0: the preset's)")
	ages := flag.String("tessera-age", "", "comma-separated batch ages of Tessera's WithBatching(64, age), one Tessera system each (default 50ms,5ms)")
	n := flag.Int("n", 0, "entries of the audited ledger (0: the preset's, 1000000)")
	auditRounds := flag.Int("audit-rounds", 0, "rounds of the audit part (0: the preset's)")
	siteN := flag.Int("site-n", 0, "entries of the served ledger (0: the preset's, 50000)")
	siteRounds := flag.Int("site-rounds", 0, "rounds of the site part (0: the preset's)")
	siteDur := flag.Duration("site-duration", 0, "load time per target in a site round (0: the preset's)")
	conns := flag.Int("connections", 0, "HTTP connections of the load generator (0: 64)")
	loadgen := flag.String("loadgen", "", "wrk or go (default: wrk when on PATH, else go)")
	sealedBin := flag.String("sealed", "", "sealed binary to serve with (default: build the working tree's ./cmd/sealed)")
	cache := flag.String("cache", "", "directory keeping the audit's and the site's ledgers between runs (default $TMPDIR/sealed-sidebyside)")
	flag.Parse()
	if flag.NArg() > 0 {
		usage("unexpected arguments %q", flag.Args())
	}
	cfg := sidebyside.Default()
	if *quick {
		cfg = sidebyside.Quick()
	}
	cfg.Appends, cfg.Audit, cfg.Site = *appends, *audit, *site
	setPos := func(dst *int, v int, name string) {
		if v < 0 {
			usage("-%s %d: expected a positive number", name, v)
		}
		if v > 0 {
			*dst = v
		}
	}
	setPos(&cfg.Rounds, *rounds, "rounds")
	setPos(&cfg.Pool, *pool, "pool")
	setPos(&cfg.AuditN, *n, "n")
	setPos(&cfg.AuditRounds, *auditRounds, "audit-rounds")
	setPos(&cfg.SiteN, *siteN, "site-n")
	setPos(&cfg.SiteRounds, *siteRounds, "site-rounds")
	setPos(&cfg.Connections, *conns, "connections")
	if *cell < 0 || *siteDur < 0 {
		usage("-cell and -site-duration must not be negative")
	}
	if *cell > 0 {
		cfg.CellDuration = *cell
	}
	if *siteDur > 0 {
		cfg.SiteDuration = *siteDur
	}
	if *writers != "" {
		cfg.Writers = nil
		for _, s := range strings.Split(*writers, ",") {
			w, err := strconv.Atoi(strings.TrimSpace(s))
			if err != nil || w < 1 {
				usage("-writers %q: expected comma-separated positive counts such as 1,8,64", *writers)
			}
			cfg.Writers = append(cfg.Writers, w)
		}
	}
	if *ages != "" {
		cfg.TesseraAges = nil
		for _, s := range strings.Split(*ages, ",") {
			d, err := time.ParseDuration(strings.TrimSpace(s))
			if err != nil || d <= 0 {
				usage("-tessera-age %q: expected comma-separated durations such as 50ms,5ms", *ages)
			}
			cfg.TesseraAges = append(cfg.TesseraAges, d)
		}
	}
	cfg.LoadGen, cfg.SealedBin = *loadgen, *sealedBin
	if *cache != "" {
		cfg.CacheDir = *cache
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if _, err := sidebyside.Run(ctx, cfg, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "sidebyside:", err)
		os.Exit(1)
	}
}

func usage(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "sidebyside: "+format+"\n", args...)
	flag.Usage()
	os.Exit(2)
}
