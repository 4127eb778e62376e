package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sealedhq/sealed/internal/demo"
)

// TestServeReadDB: sealed serve --read-db must name a replica of --db:
// another ledger (another origin or key), one ahead of --db and a fork
// are refused at start (exit 2); a copy behind it is served, and the
// banner names both.
func TestServeReadDB(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "a.db")
	buildDemo(t, db)
	copyFile := func(to string) {
		t.Helper()
		b, err := os.ReadFile(db)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(to, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	behind, fork := filepath.Join(dir, "behind.db"), filepath.Join(dir, "fork.db")
	copyFile(behind)
	copyFile(fork)
	post := func(path, player string) {
		mustRun(t, 0, "", "action", "post", "--db", path, "--key", demo.KeyFile(db), "--player", player, "--type", "bid", "--commitment", strings.Repeat("cd", 32))
	}
	post(db, "ann")
	post(fork, "zed")
	other := filepath.Join(dir, "other.db")
	mustRun(t, 0, "", "ledger", "init", "--db", other, "--origin", "other.example/log")
	sameOrigin := filepath.Join(dir, "same.db")
	mustRun(t, 0, "", "ledger", "init", "--db", sameOrigin, "--origin", demo.Origin)

	tokenFile := filepath.Join(dir, "token")
	if err := os.WriteFile(tokenFile, []byte("serve-test-token-0123456789\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ primary, read, want string }{
		{db, other, `its origin is "other.example/log"`},
		{db, sameOrigin, "its verifier key is"},
		{behind, db, "its latest signed checkpoint covers 28 entries, the ledger's 27"},
		{db, fork, "its signed tree of 28 entries is not a prefix of the ledger's signed tree of 28"},
	} {
		for _, write := range []bool{false, true} {
			o := &serveOptions{DB: c.primary, ReadDB: c.read, Addr: "127.0.0.1:0", Zone: "UTC"}
			if write {
				o.TokenFile, o.KeyFile = tokenFile, demo.KeyFile(db)
			}
			code, stdout, stderr := serveRefused(t, o)
			want := "sealed: --read-db " + c.read + " is not a replica of the ledger --db " + c.primary + ": " + c.want
			if code != 2 || stdout != "" || !strings.HasPrefix(stderr, want) || !strings.Contains(stderr, "\nhint: give --read-db a replica of the --db database") {
				t.Errorf("serve --db %s --read-db %s (writes %v): exit %d, stdout %q, stderr %s", c.primary, c.read, write, code, stdout, stderr)
			}
		}
	}

	var out bytes.Buffer
	a := &app{in: strings.NewReader(""), out: &out, errOut: io.Discard}
	err := serveUntil(t, func(ctx context.Context, ready func(string)) error {
		return runServe(ctx, a, &serveOptions{DB: db, ReadDB: behind, Addr: "127.0.0.1:0", Zone: "UTC", ready: ready})
	}, func(url string) {
		if code, body := get(t, url+"checkpoint"); code != 200 || !strings.Contains(body, "\n27\n") {
			t.Errorf("GET /checkpoint: %d %s", code, body)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if want := "serving ledger " + db + " (" + demo.Origin + ", 27 entries, read from " + behind + ") on "; !strings.HasPrefix(out.String(), want) {
		t.Errorf("stdout %q, want it to start with %q", out.String(), want)
	}
}

// serveRefused runs sealed serve with o, expecting it to refuse to start:
// it returns the exit code and what the command prints (as run prints an
// error); if it listens instead, the test fails and the server stops.
func serveRefused(t *testing.T, o *serveOptions) (code int, stdout, stderr string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	o.ready = func(url string) {
		t.Errorf("serve --db %s --read-db %s listened on %s", o.DB, o.ReadDB, url)
		cancel()
	}
	var out, errOut bytes.Buffer
	a := &app{in: strings.NewReader(""), out: &out, errOut: &errOut}
	err := runServe(ctx, a, o)
	if err != nil {
		msg, hint := errorText(err)
		fmt.Fprintf(&errOut, "sealed: %s\n", msg)
		if hint != "" {
			fmt.Fprintf(&errOut, "hint: %s\n", hint)
		}
	}
	return exitCode(err), out.String(), errOut.String()
}
