package main

import (
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/sealedhq/sealed/internal/tlogtest"
	"github.com/sealedhq/sealed/ledger/tiles"
)

// noDashFile fails if the working directory holds a file named "-" (or
// one starting "-."), which is what a FILE flag given "-" left behind
// when it took "-" for a file name instead of stdin/stdout.
func noDashFile(t *testing.T, what string) {
	t.Helper()
	des, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, de := range des {
		if de.Name() == "-" || strings.HasPrefix(de.Name(), "-.") || strings.HasPrefix(de.Name(), "--") {
			got = append(got, de.Name())
		}
	}
	if len(got) > 0 {
		t.Errorf("%s left files %q in the working directory: README says \"-\" is stdin for every input file and stdout for every output file, and a ledger database is never \"-\"", what, got)
	}
}

// TestDashDemoDB (trial 16, finding 6): README: "a ledger database is never `-` (`ledger
// init` and `ledger copy` refuse it)". `sealed demo --db -` builds a
// ledger in a file named "-" (with "-.key", "-.vkey", "--wal", "--shm").
func TestDashDemoDB(t *testing.T) {
	t.Chdir(t.TempDir())
	code, stdout, stderr := runSealed(t, "", "demo", "--db", "-")
	if code != 2 {
		t.Errorf("sealed demo --db -: exit %d, want 2 (refused, as ledger init and ledger copy refuse -)\n%s%s", code, stdout, stderr)
	}
	noDashFile(t, "sealed demo --db -")
}

// TestDashReceipt: `sealed action post --receipt -` writes the
// receipt to a file named "-", not to stdout.
func TestDashReceipt(t *testing.T) {
	db, key := newCLILedger(t)
	t.Chdir(t.TempDir())
	// printf 'bid 15 on lot 1\nsalt: b0b' | sha256sum
	const h = "93ea4dacf289de2e35d58ba5cd064cc7bb23663b79869427d570f86e056bd735"
	code, stdout, stderr := runSealed(t, "", "action", "post", "--db", db, "--key", key, "--player", "bob", "--type", "bid", "--commitment", h, "--receipt", "-")
	if code == 0 && !strings.Contains(stdout, "c2sp.org/tlog-proof@v1") {
		t.Errorf("--receipt -: exit 0 but the receipt is not on stdout:\n%s", stdout)
	}
	if code != 0 && code != 2 {
		t.Errorf("--receipt -: exit %d\n%s%s", code, stdout, stderr)
	}
	noDashFile(t, "sealed action post --receipt -")
}

// TestDashWatchState: `sealed ledger watch --state -` keeps its state
// in a file named "-": "saved in -", and the next run with an empty stdin
// says the checkpoint "extends the one seen before".
func TestDashWatchState(t *testing.T) {
	log := tlogtest.NewLog(t, "example.com/watch")
	log.Fill(t, 5, "a")
	srv := httptest.NewServer(&tiles.Handler{Store: log.Store})
	defer srv.Close()
	t.Chdir(t.TempDir())
	code, stdout, stderr := runSealed(t, "", "ledger", "watch", "--url", srv.URL, "--vkey", log.VerifierKey, "--state", "-")
	if code != 2 {
		t.Errorf("ledger watch --state -: exit %d, want 2 (the state is read and rewritten: a file, never stdin or stdout)\n%s%s", code, stdout, stderr)
	}
	noDashFile(t, "sealed ledger watch --state -")
}

// TestDashLedger: every verb that opens a ledger refuses --db - (exit 2),
// as stdin or stdout is never a database, and makes no file named "-".
func TestDashLedger(t *testing.T) {
	t.Chdir(t.TempDir())
	for _, args := range [][]string{
		{"ledger", "list", "--db", "-"},
		{"ledger", "audit", "--db", "-"},
		{"ledger", "append", "--db", "-", "--kind", "commit", "--player", "ann", "--action-type", "bid", "--channel", "#a", "--commitment", strings.Repeat("ab", 32)},
		{"serve", "--db", "-"},
	} {
		code, stdout, stderr := runSealed(t, "", args...)
		if code != 2 || !strings.Contains(stderr, "- is stdin or stdout") {
			t.Errorf("%q: exit %d, want 2 naming - as stdin or stdout\n%s%s", args, code, stdout, stderr)
		}
		noDashFile(t, strings.Join(args, " "))
	}
}
