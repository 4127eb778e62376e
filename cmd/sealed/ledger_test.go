package main

import (
	"strings"
	"testing"
)

// The ledger verbs' flag parsing, tested apart from running them (each
// constructor takes the run function).

func TestLedgerAppendParsing(t *testing.T) {
	var got *ledgerAppendOptions
	run := func(args ...string) error {
		got = nil
		a := &app{in: strings.NewReader(""), out: &strings.Builder{}, errOut: &strings.Builder{}}
		c := ledgerAppendCmd(a, &ledgerGlobal{DB: "x.db"}, func(_ *app, o *ledgerAppendOptions) error { got = o; return nil })
		c.SetArgs(args)
		c.SilenceErrors, c.SilenceUsage = true, true
		return c.Execute()
	}
	if err := run("--kind", "reveal", "--player", "ann", "--commit", "0", "--text", ""); err != nil {
		t.Fatal(err)
	}
	if got.Commit != 0 || got.SeedRef != -1 || !got.TextSet || got.Text != "" || got.DB != "x.db" || got.Key != "x.key" {
		t.Errorf("reveal options %+v", got)
	}
	if err := run("--kind", "edit", "--player", "ann"); err != nil || got.Commit != -1 {
		t.Errorf("--commit absent: %v %+v", err, got)
	}
	if err := run("--body", "-", "--player", "ann"); err == nil || !strings.Contains(err.Error(), "--body takes the whole entry") {
		t.Errorf("--body with fields: %v", err)
	}
	if err := run(); err == nil || !strings.Contains(err.Error(), "needs --body FILE or --kind KIND") {
		t.Errorf("no body: %v", err)
	}
	if err := run("--body", "-", "--key", "k"); err != nil || got.BodyFile != "-" || got.Key != "k" {
		t.Errorf("--body -: %v %+v", err, got)
	}
}

func TestLedgerCheckProofParsing(t *testing.T) {
	run := func(args ...string) (*ledgerCheckProofOptions, error) {
		var got *ledgerCheckProofOptions
		a := &app{in: strings.NewReader(""), out: &strings.Builder{}, errOut: &strings.Builder{}}
		c := ledgerCheckProofCmd(a, &ledgerGlobal{}, func(_ *app, o *ledgerCheckProofOptions) error { got = o; return nil })
		c.SetArgs(args)
		c.SilenceErrors, c.SilenceUsage = true, true
		return got, c.Execute()
	}
	if _, err := run("--proof", "p.json"); exitCode(err) != exitUsage {
		t.Errorf("no key: %v", err)
	}
	if _, err := run("--proof", "p.json", "--vkey", "k", "--vkey-file", "f"); exitCode(err) != exitUsage {
		t.Errorf("two keys: %v", err)
	}
	if _, err := run("--vkey", "k"); exitCode(err) != exitUsage {
		t.Errorf("no proof: %v", err)
	}
	o, err := run("--proof", "-", "--vkey-file", "f", "--checkpoint", "cp")
	if err != nil || o.Proof != "-" || o.VKeyFile != "f" || o.Checkpoint != "cp" {
		t.Errorf("%v %+v", err, o)
	}
}
