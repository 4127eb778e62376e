package main

import (
	"os"
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

// TestLedgerAuditDamagedFile: the audit of a ledger file padded past its
// last page fails the check (exit 1) saying the file is damaged; bad
// input would be exit 2.
func TestLedgerAuditDamagedFile(t *testing.T) {
	t.Chdir(t.TempDir())
	if code, _, stderr := runSealed(t, "", "ledger", "init", "--origin", "example.com/pad"); code != 0 {
		t.Fatalf("init: %d %s", code, stderr)
	}
	f, err := os.OpenFile("sealed.db", os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write(make([]byte, 100)); err != nil {
		t.Fatal(err)
	}
	f.Close()
	code, _, stderr := runSealed(t, "", "ledger", "audit")
	if code != 1 || !strings.Contains(stderr, "audit failed:") || !strings.Contains(stderr, "not a whole number of 4096-byte pages") {
		t.Errorf("exit %d, stderr %q; want exit 1 saying the file is damaged", code, stderr)
	}
}
