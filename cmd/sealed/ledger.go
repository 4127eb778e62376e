package main

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"regexp"
	"strings"

	"github.com/sealedhq/sealed/internal/demo"
	"github.com/sealedhq/sealed/ledger"
	"github.com/sealedhq/sealed/ledger/sqlitestore"
	"github.com/sealedhq/sealed/ledger/stores"
	"github.com/spf13/cobra"
)

func init() { register(newLedgerCmd) }

// ledgerGlobal holds the flags every `sealed ledger` verb shares.
type ledgerGlobal struct {
	DB string // --db: the ledger database file
}

// ledgerSubcommands are the verbs of `sealed ledger`; each verb's file
// appends its constructor in init.
var ledgerSubcommands []func(*app, *ledgerGlobal) *cobra.Command

// newLedgerCmd builds `sealed ledger`: the append-only Merkle log.
func newLedgerCmd(a *app) *cobra.Command {
	g := &ledgerGlobal{}
	c := &cobra.Command{
		Use:   "ledger",
		Short: "The append-only ledger: entries, signed checkpoints, proofs and audit (docs/ledger.md)",
		Long: `The ledger is an append-only RFC 6962 Merkle log in one SQLite file (the
default) or a PostgreSQL database (--db postgres://..., with --key). Every
entry (commit, reveal, edit, seed-commit, seed-reveal, result) is a leaf of
canonical JSON with its integration time; signed checkpoints (C2SP
tlog-checkpoint notes, Ed25519) commit to the tree, and inclusion and
consistency proofs can be checked offline with only the verifier key.`,
		Example: `  sealed ledger init --origin example.com/sealed
  sealed ledger append --kind commit --player ann --action-type bid --channel '#auctions' --commitment HASH
  sealed ledger prove --index 0 > proof.json
  sealed ledger check-proof --proof proof.json --vkey "$(cat vkey.txt)"`,
	}
	c.PersistentFlags().StringVar(&g.DB, "db", defaultDB, "the ledger: a SQLite `FILE` or a postgres:// URL")
	for _, f := range ledgerSubcommands {
		c.AddCommand(f(a, g))
	}
	return c
}

// keyFileHelp is the help of the --key flag of the ledger verbs that
// create or append.
const keyFileHelp = "(default: the --db FILE with .db replaced by .key, or .key added: ./sealed.db -> ./sealed.key, o2 -> o2.key)"

// defaultKeyFile is the signer key file of the ledger db when --key is not
// given: demo.KeyFile, the one naming rule of every verb; none for a
// PostgreSQL URL (--key is then required).
func defaultKeyFile(db string) string {
	if stores.IsURL(db) {
		return ""
	}
	return demo.KeyFile(db)
}

// openLedgerRO opens the ledger read-only for the reading verbs.
func openLedgerRO(db string) (*ledger.Ledger, error) {
	l, err := stores.Open(context.Background(), db, ledger.Options{ReadOnly: true})
	if err != nil {
		return nil, openError(db, err)
	}
	return l, nil
}

// openError is the error for a ledger that cannot be opened, with a hint
// for the common causes. It names db as stores.Redact prints it (the
// password of a URL replaced), and only once: not when err names it.
func openError(db string, err error) *exitError { return openFlagError("--db", db, err) }

// openFlagError is openError for the ledger the flag flag ("--db",
// "--from", "--to") names: its hints name that flag.
func openFlagError(flag, db string, err error) *exitError {
	name := stores.Redact(db)
	switch {
	case errors.Is(err, stores.ErrAmbiguousURL):
		return usageErrorf("%s", sayOnce("cannot open the ledger %s", db, err)).
			withHint("percent-encode '@' (%%40), '/' (%%2F), '&' (%%26) and '=' (%%3D) in the URL's user name and password")
	case errors.Is(err, stores.ErrNotStore):
		return usageErrorf("%s", sayOnce("cannot open the ledger %s", db, err)).withHint("give %s a SQLite FILE or a postgres:// URL", flag)
	case errors.Is(err, stores.ErrLogin):
		return usageErrorf("%s", sayOnce("the PostgreSQL server refused the login to the ledger %s", db, err)).
			withHint("check the user name and password in the URL (or PGPASSWORD, ~/.pgpass) and the server's pg_hba.conf")
	case errors.Is(err, stores.ErrNoDatabase):
		return usageErrorf("%s", sayOnce("cannot open the ledger %s", db, err)).
			withHint("create the database first (createdb NAME), then the ledger in it with 'sealed ledger init --db URL --key FILE'")
	case errors.Is(err, stores.ErrConnect):
		// Not a missing ledger: the server was not reached.
		return usageErrorf("%s", sayOnce("cannot connect to the PostgreSQL server of the ledger %s", db, err)).
			withHint("check that the server is running and the URL's host and port (a host starting with / is the directory of its Unix socket)")
	case errors.Is(err, fs.ErrNotExist) && !stores.IsURL(db):
		return usageErrorf("no ledger at %s", name).withHint("create one with 'sealed ledger init', or give %s FILE or a postgres:// URL", flag)
	case errors.Is(err, ledger.ErrUnfinished):
		e := usageErrorf("%s is not a sealed ledger: it holds rows but no ledger identity: what a ledger copy that did not complete leaves, or a ledger whose identity rows were all deleted", name)
		if !stores.IsURL(db) {
			// A stopped copy into SQLite leaves a TO.copying-* file.
			return e.withHint("if it is a stopped copy's file, remove it (and its -wal and -shm) and copy again")
		}
		return e.withHint("if they are a stopped copy's, drop them (DROP DATABASE, or DROP OWNED as their owner) and copy again")
	case errors.Is(err, ledger.ErrNotLedger):
		why := strings.TrimSuffix(err.Error(), ": "+ledger.ErrNotLedger.Error()) // said once
		// The store said more after it: "NAME: not a sealed ledger (...)".
		if why == err.Error() {
			return usageErrorf("%s is not a sealed ledger%s", name, notLedgerDetail(err)).withHint("give %s %s", flag, notLedgerHint)
		}
		return usageErrorf("%s is not a sealed ledger: %s", name, why).withHint("give %s %s", flag, notLedgerHint)
	case errors.Is(err, sqlitestore.ErrWALUnreadable):
		return usageErrorf("%s", sayOnce("cannot open the ledger %s", db, err)).
			withHint("run a sealed verb on it once as a user who may write its directory (SQLite then copies the WAL into the file), or read a copy of the file and its -wal in a directory you may write")
	case errors.Is(err, ledger.ErrSchemaTooNew):
		return usageErrorf("%v", err).withHint("this ledger was written by a newer sealed: upgrade sealed")
	case errors.Is(err, ledger.ErrTampered):
		// Not bad input: the database holds what the log did not write.
		return failedf("%s", sayOnce("cannot open the ledger %s", db, err)).withHint("run 'sealed ledger audit' on it")
	}
	return usageErrorf("%s", sayOnce("cannot open the ledger %s", db, err))
}

// notLedgerHint is the hint of a flag naming no ledger, after "give FLAG ".
const notLedgerHint = "a ledger: a SQLite file made by 'sealed ledger init' or the postgres:// URL of a database holding one"

// sayOnce returns what, a message with a %s where the ledger db is
// named ("cannot open the ledger %s"), then ": " and err's message, naming
// db once (as stores.Redact prints it): when the store's error names it
// already ("postgres NAME: cause", "ledger NAME: cause"), what comes
// before the name is dropped, and when the error names it otherwise,
// what does not name it.
func sayOnce(what, db string, err error) string {
	name, msg := stores.Redact(db), err.Error()
	// The name as a word of msg: after a space or a quote, before one or
	// a punctuation mark.
	q := regexp.QuoteMeta(name)
	if m := regexp.MustCompile(`(?:^|\s)` + q + `: `).FindStringIndex(msg); m != nil {
		msg = msg[m[1]:]
	} else if regexp.MustCompile(`(?:^|[\s'"(])` + q + `(?:$|[\s'"),:;])`).MatchString(msg) {
		return strings.Replace(what, " %s", "", 1) + ": " + msg
	}
	return strings.Replace(what, "%s", name, 1) + ": " + msg
}

// isNameError reports whether err, from opening or creating a store,
// says that its name is not one (another scheme, an ambiguous URL) or
// that the PostgreSQL database it names cannot be reached.
func isNameError(err error) bool {
	for _, kind := range []error{stores.ErrAmbiguousURL, stores.ErrNotStore, stores.ErrConnect, stores.ErrLogin, stores.ErrNoDatabase} {
		if errors.Is(err, kind) {
			return true
		}
	}
	return false
}

// isOpenError reports whether err, from opening the ledger db, is one
// openError explains whatever the verb (the ledger is not there or not
// reachable, or not a ledger).
func isOpenError(db string, err error) bool {
	if isNameError(err) || errors.Is(err, ledger.ErrNotLedger) || errors.Is(err, ledger.ErrSchemaTooNew) || errors.Is(err, ledger.ErrTampered) || errors.Is(err, sqlitestore.ErrWALUnreadable) {
		return true
	}
	if errors.Is(err, fs.ErrNotExist) && !stores.IsURL(db) {
		_, serr := os.Stat(db)
		return serr != nil
	}
	return false
}

// withNotExistHint gives e, the CLI error of a library error err that
// wraps fs.ErrNotExist (a ledger, key or file that is not there), the
// hint to create the ledger: the libraries say what is missing, the hint
// of what to run is the CLI's.
func withNotExistHint(e *exitError, err error) *exitError {
	if e.hint == "" && errors.Is(err, fs.ErrNotExist) {
		e.hint = "create a ledger with 'sealed ledger init', or give --db FILE"
	}
	return e
}

// openLedgerRW opens the ledger for appending, with its signer key (key ""
// means defaultKeyFile(db)), for every verb that writes (ledger append,
// action, serve).
func openLedgerRW(db, key string) (*ledger.Ledger, error) {
	if key == "" {
		key = defaultKeyFile(db)
	}
	if key == "" {
		return nil, usageErrorf("appending to %s needs the ledger's signer key", stores.Redact(db)).withHint("give --key FILE (the key file 'sealed ledger init' wrote)")
	}
	l, err := stores.Open(context.Background(), db, ledger.Options{KeyFile: key})
	if err != nil {
		if isOpenError(db, err) {
			return nil, openError(db, err)
		}
		e := usageErrorf("%s", sayOnce("cannot open the ledger %s for appending", db, err))
		if _, serr := os.Stat(key); serr != nil {
			e = e.withHint("appending needs the ledger's signer key, made by 'sealed ledger init': give --key FILE")
		}
		return nil, withNotExistHint(e, err)
	}
	return l, nil
}

// readInput reads a file, or stdin for "-", refusing more than limit
// bytes.
func readInput(a *app, path string, limit int64) ([]byte, error) {
	var r io.Reader = a.in
	if path != "-" {
		f, err := os.Open(path)
		if err != nil {
			return nil, usageErrorf("reading %s: %v", path, unwrapPathError(err))
		}
		defer f.Close()
		r = f
	}
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, usageErrorf("reading %s: %v", path, unwrapPathError(err))
	}
	if int64(len(data)) > limit {
		return nil, usageErrorf("%s is larger than %d bytes", path, limit)
	}
	return data, nil
}
