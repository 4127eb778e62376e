package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"runtime/debug"
	"strings"
	"syscall"
	"time"

	"github.com/sealedhq/sealed/internal/demo"
	"github.com/sealedhq/sealed/ledger"
	"github.com/sealedhq/sealed/ledger/stores"
	"github.com/sealedhq/sealed/ledger/witness"
	"github.com/sealedhq/sealed/rules/secret"
	"github.com/sealedhq/sealed/web"
	"github.com/spf13/cobra"
)

func init() { register(newServeCmd) }

// minTokenLen is the shortest bearer token sealed serve accepts.
const minTokenLen = 16

// serveOptions are the inputs of `sealed serve`.
type serveOptions struct {
	DB        string
	ReadDB    string // --read-db: a replica the pages read from; "" means DB
	Addr      string
	TokenFile string // "" disables the write API
	KeyFile   string // the ledger's signer key; "" disables the write API
	Zone      string // IANA zone of the game's phase calendar
	Witnesses string // --witnesses FILE: the witness policy to submit checkpoints to
	// ready, if set, is called with the site's URL once it listens (tests).
	ready func(url string)
}

// newServeCmd builds `sealed serve`.
func newServeCmd(a *app) *cobra.Command { return serveCmd(a, runServe) }

// serveCmd builds `sealed serve` with runF as its action.
func serveCmd(a *app, runF func(context.Context, *app, *serveOptions) error) *cobra.Command {
	o := &serveOptions{}
	c := &cobra.Command{
		Use:   "serve [--db LEDGER] [--read-db REPLICA] [--addr 127.0.0.1:8080] [--token-file F [--key FILE]]",
		Short: "Serve the public web site and JSON API on a ledger (docs/web.md)",
		Long: `Serve the web site on a ledger: look commitments up, hash a bid in the
browser, verify reveals, browse entries with inclusion proofs, read the
signed checkpoint, and view replays re-simulated with their charts. The
JSON API is under /api/v1. Pages read the ledger on a read-only connection.

The ledger is --db (default ./sealed.db, as for the ledger verbs). Writes
(POST /api/v1/entries) are enabled by --token-file, a file (mode 0600)
holding the bearer token clients send; they also need the ledger's signer
key, --key, by default the --db FILE with .db replaced by .key
(./sealed.db -> ./sealed.key). When --token-file is given and writes
cannot work (no key, a key that is not the ledger's, a bad token file)
serve refuses to start (exit 2) and says why; --key alone is refused too.
Without --token-file the site is read-only: the write API answers 403.
Stop with Ctrl-C.`,
		Example: `  sealed serve --db ledger.db
  sealed serve --db ledger.db --addr 127.0.0.1:9000 --token-file token --key ledger.key`,
		Args: noArgs("serve"),
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			return runF(ctx, a, o)
		},
	}
	f := c.Flags()
	f.StringVar(&o.DB, "db", defaultDB, "the ledger: a SQLite `FILE` or a postgres:// URL")
	f.StringVar(&o.ReadDB, "read-db", "", "serve pages and API reads from this replica of the ledger (a postgres:// `URL` or a file; refused unless it holds --db's ledger, maybe behind it); writes still go to --db")
	f.StringVar(&o.Addr, "addr", "127.0.0.1:8080", "address to listen on, `HOST:PORT`")
	f.StringVar(&o.TokenFile, "token-file", "", "enable the write API: `FILE` holds the bearer token (at least 16 characters; - for stdin)")
	f.StringVar(&o.KeyFile, "key", "", "with --token-file, the ledger's signer key `FILE` "+keyFileHelp)
	f.StringVar(&o.Zone, "zone", "UTC", "IANA time zone of the game's weekly phases, for the secret-action states")
	f.StringVar(&o.Witnesses, "witnesses", "", "submit each new checkpoint to the witnesses in `FILE` (lines: witness VKEY URL, quorum N) and serve their cosignatures")
	return c
}

// serveGCPercent is the garbage collector's target of sealed serve (as
// GOGC=100) once the site has judged the ledger, unless GOGC is set: the
// heap may grow by its live size between collections. An answer leaves
// next to no garbage of its own (net/http's), so the heap stays within
// twice the judgement and history, and each collection, which marks all
// of that, comes half as often as at 50% (docs/web.md, "State and
// caching"; docs/performance.md, issue 12's request rate).
const serveGCPercent = 100

func runServe(ctx context.Context, a *app, o *serveOptions) error {
	if o.DB == "" {
		return usageErrorf("--db is empty; expected the ledger database to serve")
	}
	var token string
	if o.KeyFile != "" && o.TokenFile == "" {
		return usageErrorf("--key goes with --token-file: the write API needs a bearer token").
			withHint("give --token-file FILE to enable writes, or drop --key to serve read-only")
	}
	if o.TokenFile != "" {
		var err error
		if token, err = readToken(a, o.TokenFile); err != nil {
			return err
		}
		if o.KeyFile == "" {
			o.KeyFile = defaultKeyFile(o.DB)
		}
		if o.KeyFile == "" { // a URL has no default key file
			return usageErrorf("the write API cannot run: serving %s with --token-file needs the ledger's signer key", stores.Redact(o.DB)).
				withHint("give --key FILE (the key file 'sealed ledger init' wrote), or drop --token-file to serve read-only")
		}
	}
	loc, err := parseZone(o.Zone)
	if err != nil {
		return err
	}
	site := siteOptions{db: o.DB, readDB: o.ReadDB, addr: o.Addr, token: token, keyFile: o.KeyFile, game: secret.Game{Calendar: secret.Calendar{Location: loc}}, ready: o.ready}
	if os.Getenv("GOGC") == "" {
		site.gcPercent = serveGCPercent
	}
	if o.Witnesses != "" {
		b, err := readInput(a, o.Witnesses, 1<<20)
		if err != nil {
			return err
		}
		if site.witnesses, err = witness.ParsePolicy(b); err != nil {
			return usageErrorf("--witnesses %s: %v", o.Witnesses, err)
		}
	}
	return serveSite(ctx, a, site, nil)
}

// readToken reads a bearer token file: its content trimmed of white space,
// at least minTokenLen characters. Like the signer key file, the token file
// must not be readable by group or others (mode 0600 or stricter): anyone
// who reads it can append to the ledger. "-" reads the token from stdin
// (a pipe has no mode to check).
func readToken(a *app, path string) (string, error) {
	if path != stdioName {
		st, err := os.Stat(path)
		if err != nil {
			return "", usageErrorf("--token-file: %v", unwrapPathError(err))
		}
		if perm := st.Mode().Perm(); perm&0o077 != 0 {
			return "", usageErrorf("--token-file %s has mode %04o: it must not be readable by group or others", path, perm).
				withHint("chmod 600 %s", path)
		}
	}
	b, err := readInputFile(a, path, 64<<10)
	if err != nil {
		return "", usageErrorf("--token-file: %v", err)
	}
	t := strings.TrimSpace(string(b))
	if len(t) < minTokenLen {
		return "", usageErrorf("--token-file %s holds %d characters; expected a token of at least %d", path, len(t), minTokenLen).
			withHint("make one with: head -c 32 /dev/urandom | base64 > %s", path)
	}
	return t, nil
}

// warmGCPercent is the garbage collector's target while sealed serve
// judges the ledger before listening (when GOGC is not set): fewer
// collections while the judgement is built, which is all live. Measured on
// 50,000 entries (docs/performance.md): the first answer 595-620 ms instead
// of 674-698, RSS 145 MB instead of 140 after it.
const warmGCPercent = 300

// siteOptions is what serveSite needs (sealed serve and sealed demo --serve).
type siteOptions struct {
	db, readDB, addr, token, keyFile string
	game                             secret.Game
	ready                            func(url string)
	witnesses                        *witness.Policy // nil: no witnesses
	// gcPercent, when > 0, is set as the garbage collector's target once
	// the site has judged the ledger (serveGCPercent).
	gcPercent int
}

// serveSite opens the ledger (read-only for the pages; with the signer key
// too when keyFile is set), listens on addr, calls announce with the URL
// (or prints it), and serves until ctx ends, then shuts down gracefully.
func serveSite(ctx context.Context, a *app, o siteOptions, announce func(url string) error) error {
	readDB := o.db
	if o.readDB != "" {
		readDB = o.readDB
	}
	// Mark the ledger in use, so `sealed demo --db FILE --force` will not
	// replace it under the server; where that cannot be done, serve anyway.
	// Before any SQLite connection: closing a descriptor of the file (the
	// release, after every connection is closed, or a failed hold) in a
	// process holding SQLite's locks on it would release them.
	if !stores.IsURL(o.db) {
		if release, err := demo.Hold(o.db); err == nil {
			defer release()
		}
	}
	readFlag := "--db" // the flag the hints of an error name
	if readDB != o.db {
		readFlag = "--read-db"
	}
	r, err := stores.Open(context.Background(), readDB, ledger.Options{ReadOnly: true})
	if err != nil {
		return openFlagError(readFlag, readDB, err)
	}
	defer r.Close()
	var w *ledger.Ledger
	if o.keyFile != "" {
		if w, err = openLedgerRW(o.db, o.keyFile); err != nil {
			var ee *exitError
			if errors.As(err, &ee) {
				ee.msg = "the write API cannot run: " + ee.msg
			}
			return err
		}
		defer w.Close()
	}
	if readDB != o.db {
		if err := checkReplica(ctx, o.db, readDB, w, r); err != nil {
			return err
		}
	}
	if o.witnesses != nil {
		if err := notLog(o.witnesses, r.VerifierKey()); err != nil {
			return err
		}
		st, err := stores.OpenStore(ctx, o.db, false, false)
		if err != nil {
			return openError(o.db, err)
		}
		defer st.Close()
		cctx, cancel := context.WithCancel(ctx)
		defer cancel()
		go cosignLoop(cctx, &witness.Cosigner{Store: st, Policy: o.witnesses, RetryAfter: 30 * time.Second, Log: slog.New(slog.NewTextHandler(a.errOut, nil))})
	}
	srv, err := web.New(web.Options{Reader: r, Writer: w, Token: o.token, Game: o.game, Log: a.errOut})
	if err != nil {
		return err
	}
	// Judge the ledger before listening, so the first lookup finds the
	// judgement made; an error here is shown by the lookups too.
	if o.gcPercent > 0 {
		debug.SetGCPercent(warmGCPercent)
	}
	if size, err := r.Size(); err == nil && size >= warmNoticeFrom {
		fmt.Fprintf(a.errOut, "checking %d entries against the latest signed checkpoint and preparing the judgement of their secret actions before listening (on the order of 10 s per million entries)...\n", size)
	}
	if err := srv.Warm(); err != nil {
		fmt.Fprintf(a.errOut, "warning: judging the secret actions: %v\n", err)
	}
	// The stored right edge against the latest signed checkpoint (a
	// writer refuses to open on a mismatch; the pages serve what verifies
	// and say what does not).
	if err := r.CheckEdge(ctx); err != nil {
		fmt.Fprintf(a.errOut, "warning: %s; the site serves what verifies and says what does not\nhint: 'sealed ledger audit' on this ledger names every altered row\n", err)
	}
	if o.gcPercent > 0 {
		debug.SetGCPercent(o.gcPercent)
	}
	ln, err := net.Listen("tcp", o.addr)
	if err != nil {
		return usageErrorf("cannot listen on %s: %v", o.addr, err)
	}
	url := "http://" + ln.Addr().String() + "/"
	hs := srv.HTTPServer(o.addr)
	done := make(chan error, 1)
	go func() { done <- hs.Serve(ln) }()
	writes := "the write API is disabled: the site is read-only (enable writes with --token-file)"
	if o.token != "" && w != nil {
		writes = "the write API is enabled (POST /api/v1/entries with the bearer token)"
	}
	if announce != nil {
		if err := announce(url); err != nil {
			hs.Close()
			return err
		}
	} else {
		size, _ := r.Size()
		from := ""
		if readDB != o.db {
			from = ", read from " + stores.Redact(readDB)
		}
		fmt.Fprintf(a.out, "serving ledger %s (%s, %d entries%s) on %s\n%s; Ctrl-C stops\n", stores.Redact(o.db), r.Origin(), size, from, url, writes)
	}
	if o.ready != nil {
		o.ready(url)
	}
	select {
	case err := <-done:
		return fmt.Errorf("server stopped: %v", err)
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := hs.Shutdown(sctx); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	fmt.Fprintln(a.errOut, "stopped")
	return nil
}

// warmNoticeFrom is the ledger size from which serve says, before it
// warms, that it reads the ledger first: 100,000 entries take about a
// second on 2 cores (docs/web.md, "At scale").
const warmNoticeFrom = 100_000

// cosignLoop submits each new checkpoint to the witnesses, checking once a
// second, until ctx ends; refusals are logged by the Cosigner, and a
// witness that refused is tried again after 30 s.
func cosignLoop(ctx context.Context, c *witness.Cosigner) {
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		c.Cosign(ctx)
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// checkReplica refuses (exit 2) a read database readDB, opened as r,
// that is not a replica of the ledger db (w, if open for writing, else
// opened read-only here): another ledger, or one ahead of db or forked
// from it (ledger.CheckReplica). Pages would show one ledger while
// writes go to another.
func checkReplica(ctx context.Context, db, readDB string, w, r *ledger.Ledger) error {
	primary := w
	if primary == nil {
		var err error
		if primary, err = openLedgerRO(db); err != nil {
			return err
		}
		defer primary.Close()
	}
	err := ledger.CheckReplica(ctx, primary, r)
	if errors.Is(err, ledger.ErrNotReplica) {
		why := strings.TrimPrefix(err.Error(), ledger.ErrNotReplica.Error()+": ") // said once
		return usageErrorf("--read-db %s is not a replica of the ledger --db %s: %s", stores.Redact(readDB), stores.Redact(db), why).
			withHint("give --read-db a replica of the --db database (streaming replication), or drop --read-db to read from --db")
	}
	if err != nil {
		return usageErrorf("checking --read-db %s against --db %s: %v", stores.Redact(readDB), stores.Redact(db), err)
	}
	return nil
}
