package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/sealedhq/sealed/ledger"
	"github.com/sealedhq/sealed/ledger/stores"
	"github.com/spf13/cobra"
)

func init() { ledgerSubcommands = append(ledgerSubcommands, newLedgerInitCmd) }

// ledgerInitOptions are the inputs of `sealed ledger init`.
type ledgerInitOptions struct {
	DB     string
	Key    string // --key: the private key file to create
	Origin string // --origin: the log's name
}

func newLedgerInitCmd(a *app, g *ledgerGlobal) *cobra.Command {
	return ledgerInitCmd(a, g, runLedgerInit)
}

func ledgerInitCmd(a *app, g *ledgerGlobal, runF func(*app, *ledgerInitOptions) error) *cobra.Command {
	o := &ledgerInitOptions{}
	c := &cobra.Command{
		Use:   "init [--origin NAME] [--key FILE]",
		Short: "Create a ledger database and its Ed25519 signing key",
		Long: `Create the ledger database (--db) and an Ed25519 key pair named by --origin,
the first line of every checkpoint (use your site's address). The private
key goes to --key with mode 0600, outside the database: by default the
--db file name with ".db" replaced by ".key" (./sealed.db: ./sealed.key,
o2.db: o2.key), or with ".key" appended to a name without ".db" (o2:
o2.key), the rule every verb uses to find it. Neither file is ever overwritten. The verifier
key is printed on stdout: publish it, it is all anyone needs to check
checkpoints and proofs offline.

--db may be a PostgreSQL URL (postgres://... or postgresql://...) naming
an empty database; --key is then required.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			o.DB = g.DB
			if o.Key == stdioName || o.DB == stdioName {
				// - is stdout everywhere; a signer key or a database is
				// never written there, nor to a file named "-".
				return usageErrorf("ledger init writes the database and the private key to files; --db and --key take file names, not - (stdout)").
					withHint("sealed ledger init --db game.db (its key goes to game.key)")
			}
			if o.Key == "" {
				o.Key = defaultKeyFile(o.DB)
			}
			return runF(a, o)
		},
	}
	c.Flags().StringVar(&o.Key, "key", "", "create the private key `FILE` (mode 0600) "+keyFileHelp)
	c.Flags().StringVar(&o.Origin, "origin", "sealed.local/ledger", "the log's origin `NAME` (no spaces or '+')")
	return c
}

func runLedgerInit(a *app, o *ledgerInitOptions) error {
	if o.Key == "" {
		return usageErrorf("ledger init on %s needs --key FILE: where to write the private signer key", stores.Redact(o.DB)).
			withHint("sealed ledger init --db 'postgres://...' --key ledger.key")
	}
	vkey, err := stores.Init(context.Background(), o.DB, o.Origin, o.Key)
	if err != nil {
		return initError(o, err)
	}
	// C2SP tlog-checkpoint: the origin "SHOULD be a schema-less URL";
	// tlog-tiles clients and witnesses compare it byte for byte, so it is
	// said now, while a new ledger can still be made under another name.
	if strings.Contains(o.Origin, "://") || strings.HasSuffix(o.Origin, "/") {
		fmt.Fprintf(a.errOut, "warning: origin %s: C2SP tlog-checkpoint recommends a schema-less URL with no trailing slash, such as example.com/sealed; an origin cannot be changed once witnesses and clients know it\n", terminalSafe(o.Origin))
	}
	if a.json {
		return a.printJSON(map[string]string{"db": stores.Redact(o.DB), "key_file": o.Key, "origin": o.Origin, "verifier_key": vkey})
	}
	fmt.Fprintf(a.errOut, "created ledger %s (origin %s); private key in %s (mode 0600, keep it secret)\nverifier key:\n", stores.Redact(o.DB), o.Origin, o.Key)
	_, err = fmt.Fprintln(a.out, vkey)
	return err
}

// initError is the error of a failed ledger init, with a hint for the
// common causes.
func initError(o *ledgerInitOptions, err error) *exitError {
	e := usageErrorf("%v", err)
	var pe *fs.PathError
	// What exists, in the order stores.Init looks: a database file,
	// the key file, a database holding a ledger.
	_, dbErr := os.Lstat(o.DB)
	_, keyErr := os.Lstat(o.Key)
	switch {
	case errors.Is(err, fs.ErrExist) && !stores.IsURL(o.DB) && dbErr == nil:
		return e.withHint("give --db a new FILE, or use the ledger in this one: sealed ledger audit --db %s", stores.Redact(o.DB))
	case errors.Is(err, fs.ErrExist) && keyErr == nil:
		return e.withHint("give --key a new FILE: 'sealed ledger init' never overwrites a signer key")
	case errors.Is(err, fs.ErrExist):
		return e.withHint("give --db an empty database (createdb NAME), or use the ledger in this one: sealed ledger audit --db URL")
	case errors.Is(err, ledger.ErrUnfinished) && stores.IsURL(o.DB):
		return e.withHint("if they are a stopped copy's, drop them (DROP DATABASE, or DROP OWNED as their owner), then init again")
	case errors.As(err, &pe) && (pe.Path == o.Key || pe.Path == filepath.Dir(o.Key)):
		return e.withHint("give --key a FILE in a directory that exists and that you may write to")
	case isNameError(err):
		return openError(o.DB, err)
	}
	return e
}
