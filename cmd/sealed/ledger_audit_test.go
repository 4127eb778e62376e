package main

import (
	"strings"
	"testing"
)

// TestLedgerAuditParsing: --vkey and --vkey-file reach the options, one at
// a time; both at once is bad usage before anything runs.
func TestLedgerAuditParsing(t *testing.T) {
	var got *ledgerAuditOptions
	run := func(args ...string) error {
		got = nil
		a := &app{in: strings.NewReader(""), out: &strings.Builder{}, errOut: &strings.Builder{}}
		c := ledgerAuditCmd(a, &ledgerGlobal{DB: "x.db"}, func(_ *app, o *ledgerAuditOptions) error { got = o; return nil })
		c.SetArgs(args)
		c.SilenceErrors, c.SilenceUsage = true, true
		return c.Execute()
	}
	if err := run(); err != nil || got.DB != "x.db" || got.VKey != "" || got.VKeyFile != "" {
		t.Errorf("no key: %v %+v", err, got)
	}
	if err := run("--vkey", "K"); err != nil || got.VKey != "K" || got.VKeyFile != "" {
		t.Errorf("--vkey: %v %+v", err, got)
	}
	if err := run("--vkey-file", "F"); err != nil || got.VKeyFile != "F" || got.VKey != "" {
		t.Errorf("--vkey-file: %v %+v", err, got)
	}
	if err := run("--vkey", "K", "--vkey-file", "F"); err == nil || got != nil || !strings.Contains(err.Error(), "not both") {
		t.Errorf("both: %v %+v", err, got)
	}
}
