package main

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strconv"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/sealedhq/sealed/internal/tamper"
)

// TestMain lets the test binary act as the sealed command inside scripts.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"sealed": func() { os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) },
	})
}

// TestScripts runs the CLI scripts in testdata/script: each runs the real
// command tree and checks stdout, stderr and the exit code.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir: "testdata/script",
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"exits":      cmdExits,
			"drandrelay": cmdDrandRelay,
			"tamper":     cmdTamper,
		},
	})
}

// cmdExits implements the script command "exits CODE PROG ARGS...": it runs
// PROG like exec and fails unless the exit code is CODE. stdout and stderr
// are kept for the following checks.
func cmdExits(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: exits CODE PROG [ARGS...]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("exits: bad code %q", args[0])
	}
	got := 0
	if err := ts.Exec(args[1], args[2:]...); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			ts.Fatalf("exits: %v", err)
		}
		got = ee.ExitCode()
	}
	if got != want {
		ts.Fatalf("exit code %d, want %d", got, want)
	}
}

// cmdDrandRelay implements the script command "drandrelay DIR": it serves
// the files under DIR as a drand HTTP relay would (GET
// /<chain hash>/public/<round> answers DIR/<chain hash>/public/<round>,
// 404 for a file that is not there) until the script ends, and sets
// $RELAY to its URL. The scripts put real recorded rounds there.
func cmdDrandRelay(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: drandrelay DIR")
	}
	srv := httptest.NewServer(http.FileServer(http.Dir(ts.MkAbs(args[0]))))
	ts.Defer(srv.Close)
	ts.Setenv("RELAY", srv.URL)
}

// cmdTamper implements the script command "tamper DB STMT...": it runs
// the SQL statements on the SQLite ledger file DB as someone with the
// file would, with the append-only triggers dropped for them and created
// again after (tamper.Restoring).
func cmdTamper(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: tamper DB STMT...")
	}
	if err := tamper.Restoring(ts.MkAbs(args[0]), args[1:]...); err != nil {
		ts.Fatalf("tamper: %v", err)
	}
}
