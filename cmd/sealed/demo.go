package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/sealedhq/sealed/internal/demo"
	"github.com/sealedhq/sealed/ledger/stores"
	"github.com/sealedhq/sealed/rules/secret"
	"github.com/sealedhq/sealed/web"
	"github.com/spf13/cobra"
)

func init() { register(newDemoCmd) }

// demoOptions are the inputs of `sealed demo`.
type demoOptions struct {
	DB    string // "" means a temporary directory, removed on exit
	Force bool   // replace a demo ledger at DB (never one with posted entries, nor one being served)
	Serve bool
	Addr  string
	// ready, if set, is called with the site's URL once it listens (tests).
	ready func(url string)
}

// newDemoCmd builds `sealed demo`.
func newDemoCmd(a *app) *cobra.Command { return demoCmd(a, runDemo) }

// demoCmd builds `sealed demo` with runF as its action.
func demoCmd(a *app, runF func(context.Context, *app, *demoOptions) error) *cobra.Command {
	o := &demoOptions{}
	c := &cobra.Command{
		Use:   "demo [--db FILE [--force]] [--serve [--addr 127.0.0.1:8080]]",
		Short: "Build a demo ledger with real games and a week of sealed bids, verify it, and optionally serve it",
		Long: `Build a fresh demo ledger: commit two seeds, play a Blind Auction and a
Negotiation Games episode with the built-in bots, reveal the seeds and
record the replays as result entries; record a week of lot-auction secret
actions (bids, a Hand, a second attempt, an edit before maturation, a
near-miss reveal and a late one) at real times in last week; then verify
everything (replays re-simulated, seeds against their commitments, actions
judged, lots concluded) and audit the ledger. Prints a summary.

Without --db the ledger lives in a temporary directory removed on exit.
--db FILE keeps it, with its signer key and its verifier key beside it
(demo.db: demo.key and demo.vkey; a name without .db gets .key and .vkey
appended); a postgres:// URL is refused (copy the demo there with
sealed ledger copy). An existing FILE is
never replaced without --force, and even with --force only when it is a
demo ledger holding nothing but the demo's own entries (none posted to it
since) and is not being served. With --serve the site is served on the
ledger, with the write API enabled by a fresh token in the token file
(demo.db: demo.token).

Exit status: 0 everything verifies, 1 a check failed, 2 bad usage.`,
		Example: `  sealed demo --serve
  sealed demo --db sealed-demo.db && sealed serve --db sealed-demo.db`,
		Args: noArgs("demo"),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if cmd.Flags().Changed("addr") && !o.Serve {
				return usageErrorf("--addr goes with --serve")
			}
			if o.Force && o.DB == "" {
				return usageErrorf("--force goes with --db: it allows replacing the demo ledger in FILE")
			}
			if o.DB == stdioName {
				return usageErrorf("sealed demo builds its ledger in a SQLite file and writes its keys beside it: --db takes a FILE, not - (stdout)").
					withHint("give --db a file, e.g. --db sealed-demo.db, or leave it out for a temporary one")
			}
			if o.DB != "" && (stores.IsURL(o.DB) || stores.CheckName(o.DB) != nil) {
				// The demo writes its key, verifier key and token beside
				// the ledger: files. Refused before anything is made.
				return usageErrorf("sealed demo builds its ledger in a SQLite file: --db takes a FILE, not a URL (%s)", stores.Redact(o.DB)).
					withHint("give --db FILE; then, to try PostgreSQL, copy it there: sealed ledger copy --from FILE --to 'postgres://...'")
			}
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			return runF(ctx, a, o)
		},
	}
	f := c.Flags()
	f.StringVar(&o.DB, "db", "", "build the demo ledger in `FILE` (default: a temporary directory, removed on exit)")
	f.BoolVar(&o.Force, "force", false, "replace the demo ledger in --db FILE (refused if entries were posted to it or it is being served)")
	f.BoolVar(&o.Serve, "serve", false, "serve the web site on the demo ledger afterwards")
	f.StringVar(&o.Addr, "addr", "127.0.0.1:8080", "with --serve, the address to listen on, `HOST:PORT`")
	return c
}

// demoGame is the secret-action configuration the demo is judged and
// served with: seed 004's defaults, phases in UTC.
var demoGame = secret.Game{}

func runDemo(ctx context.Context, a *app, o *demoOptions) error {
	path, temp := o.DB, o.DB == ""
	if temp {
		dir, err := os.MkdirTemp("", "sealed-demo-")
		if err != nil {
			return fmt.Errorf("cannot make a temporary directory: %v", err)
		}
		defer os.RemoveAll(dir)
		path = filepath.Join(dir, "sealed-demo.db")
	}
	s, err := demo.Build(ctx, demo.Options{Path: path, Now: time.Now(), Force: o.Force})
	switch {
	case errors.Is(err, demo.ErrNotDemo):
		return usageErrorf("%v", err).withHint("choose another --db file; sealed demo only replaces its own demo ledgers")
	case errors.Is(err, demo.ErrPosted):
		return usageErrorf("%v", err).withHint("its posted entries would be lost: choose another --db file (browse this one with: sealed serve --db %s)", path)
	case errors.Is(err, demo.ErrExists):
		return usageErrorf("%v", err).withHint("rebuild it with: sealed demo --db %s --force (refused if entries were posted to it); or browse it with: sealed serve --db %s", path, path)
	case errors.Is(err, demo.ErrInUse):
		return usageErrorf("%v", err).withHint("stop the server first, or choose another --db file")
	}
	if err != nil {
		return usageErrorf("demo: %v", err)
	}
	print := func(url string) error {
		if a.json {
			return a.printJSON(struct {
				*demo.Summary
				OK  bool   `json:"ok"`
				URL string `json:"url,omitempty"`
			}{s, s.OK(), url})
		}
		if err := s.WriteText(a.out, url); err != nil {
			return err
		}
		switch {
		case url != "" && temp:
			fmt.Fprintln(a.out, "(a temporary ledger, removed when this command stops; keep one with --db FILE)")
		case url == "" && temp:
			fmt.Fprintln(a.out, "(a temporary ledger, now removed; browse one with: sealed demo --serve)")
		case url == "":
			fmt.Fprintf(a.out, "browse it with: sealed serve --db %s\n", path)
		}
		return nil
	}
	if !o.Serve {
		if err := print(""); err != nil {
			return err
		}
		if !s.OK() {
			return errSilentFailure
		}
		return nil
	}
	if !s.OK() {
		print("")
		return failedf("the demo ledger does not verify; not serving it")
	}
	token, err := demo.WriteToken(path)
	if err != nil {
		return fmt.Errorf("cannot write the demo's token: %v", err)
	}
	announce := func(url string) error {
		if err := print(url); err != nil {
			return err
		}
		if !a.json {
			fmt.Fprintf(a.out, "write API token in %s; post a commitment with:\n  curl -H \"Authorization: Bearer $(cat %s)\" -H 'Content-Type: application/json' -d '{\"kind\":\"commit\",\"player\":\"you\",\"action_type\":\"bid\",\"channel\":\"#auctions\",\"commitment\":\"<hash from %shash>\"}' %sapi/v1/entries\n%s\nCtrl-C stops\n",
				demo.TokenFile(path), demo.TokenFile(path), url, url, web.PhaseNote(demoGame, secret.ActionBid, time.Now()))
		}
		return nil
	}
	return serveSite(ctx, a, siteOptions{db: path, addr: o.Addr, token: token, keyFile: demo.KeyFile(path), game: demoGame, ready: o.ready}, announce)
}
