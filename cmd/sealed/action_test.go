package main

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sealedhq/sealed/ledger"
	"github.com/sealedhq/sealed/ledger/stores"
)

// newCLILedger creates a ledger in a temp dir (ledger.Init, as 'sealed
// ledger init' would) and returns its --db and --key paths.
func newCLILedger(t *testing.T) (db, key string) {
	t.Helper()
	dir := t.TempDir()
	db, key = filepath.Join(dir, "game.db"), filepath.Join(dir, "game.key")
	if _, err := stores.Init(context.Background(), db, "sealed.test/cli", key); err != nil {
		t.Fatal(err)
	}
	return db, key
}

// mustRun runs the CLI and fails unless it exits with want.
func mustRun(t *testing.T, want int, stdin string, args ...string) (stdout, stderr string) {
	t.Helper()
	code, stdout, stderr := runSealed(t, stdin, args...)
	if code != want {
		t.Fatalf("sealed %s: exit %d, want %d\nstdout: %s\nstderr: %s", strings.Join(args, " "), code, want, stdout, stderr)
	}
	return stdout, stderr
}

// readLedger opens db read-only for checks.
func readLedger(t *testing.T, db string) *ledger.Ledger {
	t.Helper()
	l, err := stores.Open(context.Background(), db, ledger.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return l
}

// TestActionPostParsing: the flags reach the options; missing ones are
// usage errors before anything runs.
func TestActionPostParsing(t *testing.T) {
	var got *actionPostOptions
	var sink strings.Builder
	cmd := actionPostCmd(&app{}, func(_ *app, o *actionPostOptions) error { got = o; return nil })
	cmd.SetArgs([]string{"--player", "alice", "--type", "bid", "--commitment", "H", "--posted-at", "2026-03-23T09:00:00Z", "--db", "x.db"})
	if err := cmd.Execute(); err != nil {
		t.Fatal(err)
	}
	if got.Player != "alice" || got.Type != "bid" || got.Commitment != "H" || got.PostedAt != "2026-03-23T09:00:00Z" || got.DB != "x.db" || got.Key != "" /* resolved to x.key when the ledger is opened (openLedgerRW) */ {
		t.Fatalf("options %+v", got)
	}
	cmd = actionPostCmd(&app{}, func(*app, *actionPostOptions) error { t.Fatal("ran without --commitment"); return nil })
	cmd.SetOut(&sink)
	cmd.SetErr(&sink)
	cmd.SetArgs([]string{"--player", "alice", "--type", "bid"})
	if err := cmd.Execute(); exitCode(err) != exitUsage || !strings.Contains(err.Error(), "--commitment") {
		t.Fatalf("missing --commitment: %v", err)
	}
}

// TestActionRevealExactBytes: a reveal from stdin or a file is stored byte
// for byte: a trailing newline is kept (and the reveal warned about as a
// near-miss), bytes that are not UTF-8 go to text_base64.
func TestActionRevealExactBytes(t *testing.T) {
	db, key := newCLILedger(t)
	// printf 'bid 15 on lot 1\nsalt: b0b' | sha256sum
	const h = "93ea4dacf289de2e35d58ba5cd064cc7bb23663b79869427d570f86e056bd735"
	mustRun(t, 0, "", "action", "post", "--db", db, "--key", key, "--player", "bob", "--type", "bid", "--commitment", "SHA256:"+strings.ToUpper(h))
	_, stderr := mustRun(t, 0, "bid 15 on lot 1\nsalt: b0b\n", "action", "reveal", "--db", db, "--key", key, "--player", "bob", "--commit", "0")
	if !strings.Contains(stderr, "mismatch") || !strings.Contains(stderr, "trailing LF removed") {
		t.Fatalf("stderr %q, want a mismatch naming the trailing LF (removing it matches)", stderr)
	}
	stdout, stderr := mustRun(t, 0, "", "action", "reveal", "--db", db, "--key", key, "--player", "bob", "--commit", "0", "--text", "bid 15 on lot 1\nsalt: b0b")
	if stderr != "" || !strings.Contains(stdout, "it hashes to the commitment") {
		t.Fatalf("exact reveal: stdout %q stderr %q", stdout, stderr)
	}
	raw := "bid\xff 1"
	mustRun(t, 0, raw, "action", "reveal", "--db", db, "--key", key, "--player", "bob", "--commit", "0", "--file", "-")

	l := readLedger(t, db)
	want := []string{"bid 15 on lot 1\nsalt: b0b\n", "bid 15 on lot 1\nsalt: b0b", raw}
	for i, w := range want {
		e, err := l.Entry(int64(i + 1))
		if err != nil {
			t.Fatal(err)
		}
		b, _ := e.Body()
		got, err := b.RevealedBytes()
		if err != nil || string(got) != w {
			t.Errorf("reveal %d stored %q, want %q", i+1, got, w)
		}
	}
	if e, _ := l.Entry(0); !strings.Contains(string(e.Leaf), `"commitment":"`+h+`"`) {
		t.Errorf("commitment not normalised: %s", e.Leaf)
	}
	if e, _ := l.Entry(3); !strings.Contains(string(e.Leaf), `"text_base64":"`) {
		t.Errorf("non-UTF-8 reveal not stored as text_base64: %s", e.Leaf)
	}
}

// TestActionErrors: what is refused, with which exit code.
func TestActionErrors(t *testing.T) {
	db, key := newCLILedger(t)
	const h = "93ea4dacf289de2e35d58ba5cd064cc7bb23663b79869427d570f86e056bd735"
	post := func(args ...string) []string {
		return append([]string{"action", "post", "--db", db, "--key", key, "--player", "bob", "--type", "bid"}, args...)
	}
	for _, c := range []struct {
		args []string
		code int
		msg  string
	}{
		{post("--commitment", "abc"), 2, "--commitment: "},
		{post("--commitment", h, "--posted-at", "yesterday"), 2, `--posted-at "yesterday" is not an RFC 3339 time`},
		{post("--commitment", h, "--posted-at", "2999-01-01T00:00:00Z"), 2, "is later than now"},
		{[]string{"action", "post", "--db", filepath.Join(t.TempDir(), "none.db"), "--player", "a", "--type", "bid", "--commitment", h}, 2, "no ledger at"},
		{[]string{"action", "post", "--db", db, "--key", filepath.Join(t.TempDir(), "none.key"), "--player", "a", "--type", "bid", "--commitment", h}, 2, "signer key"},
		{[]string{"action", "status", "--db", db, "--zone", "Mars/Olympus"}, 2, `--zone "Mars/Olympus" is not an IANA time zone`},
		{[]string{"action", "status", "--db", db, "--at", "2026-13-01"}, 2, "--at"},
		{[]string{"action", "edit", "--db", db, "--key", key, "--player", "bob", "--commit", "7"}, 2, "commit: entry 7 does not exist; expected the index of a commit entry"},
		{[]string{"lots", "conclude", "--db", db, "--week", "2026-13"}, 2, "--week"},
		{[]string{"lots", "conclude", "--db", db, "--week", "2026-W13", "--pricing", "third"}, 2, "--pricing"},
		{[]string{"lots", "conclude", "--db", db}, 2, "needs --week"},
		{[]string{"lots", "conclude", "--db", db, "--week", "2026-W13"}, 2, "needs --points FILE"},
	} {
		code, _, stderr := runSealed(t, "", c.args...)
		if code != c.code || !strings.Contains(stderr, c.msg) || strings.Count(stderr, "sealed: ") != 1 {
			t.Errorf("sealed %s: exit %d, stderr %q; want exit %d and %q", strings.Join(c.args, " "), code, stderr, c.code, c.msg)
		}
	}
	mustRun(t, 0, "", post("--commitment", h)...)
	_, stderr := mustRun(t, 2, "", post("--commitment", h)...)
	if !strings.Contains(stderr, "already holds this commit entry at index 0") {
		t.Errorf("duplicate: %q", stderr)
	}
	_, stderr = mustRun(t, 2, "", "action", "edit", "--db", db, "--key", key, "--player", "alice", "--commit", "0")
	if !strings.Contains(stderr, "posted by bob") {
		t.Errorf("edit by another player: %q", stderr)
	}
	// A reveal of another player's commitment can only be a typo: refused
	// by the admission every writer shares (verify.Admit).
	_, stderr = mustRun(t, 2, "x", "action", "reveal", "--db", db, "--key", key, "--player", "alice", "--commit", "0")
	if !strings.Contains(stderr, "sealed: player: commit entry 0 was posted by bob, not alice") {
		t.Errorf("reveal by another player: %q", stderr)
	}
	// Next week has not concluded: its conclusion is its Sunday 00:00 at
	// the earliest. (The week of the post, now, was used here; on a Sunday
	// that week has concluded: the post, in the Bartering Phase, was never
	// taken and no longer moves the conclusion to next Thursday.)
	y, n := time.Now().UTC().AddDate(0, 0, 7).ISOWeek()
	week := fmt.Sprintf("%d-W%02d", y, n)
	_, stderr = mustRun(t, 2, "{}", "lots", "conclude", "--db", db, "--week", week, "--points", "-")
	if !strings.Contains(stderr, "has not concluded yet") {
		t.Errorf("current week: %q", stderr)
	}
}

// TestActionStatusJSON: the instant used is said, and --player filters
// the actions shown while all are judged (the copy is still flagged).
func TestActionStatusJSON(t *testing.T) {
	db, key := newCLILedger(t)
	const h = "93ea4dacf289de2e35d58ba5cd064cc7bb23663b79869427d570f86e056bd735"
	mustRun(t, 0, "", "action", "post", "--db", db, "--key", key, "--player", "bob", "--type", "bid", "--commitment", h, "--posted-at", "2026-03-23T10:00:00Z")
	_, stderr := mustRun(t, 0, "", "action", "post", "--db", db, "--key", key, "--player", "hank", "--type", "bid", "--commitment", h, "--posted-at", "2026-03-23T11:00:00Z")
	if !strings.Contains(stderr, "copied commitment: bob posted the same commitment at ledger index 0") {
		t.Fatalf("copy not flagged on post: %q", stderr)
	}
	stdout, _ := mustRun(t, 0, "", "--json", "action", "status", "--db", db, "--player", "hank", "--at", "2026-03-24T00:00:00+02:00")
	var out struct {
		At       time.Time `json:"at"`
		AtSource string    `json:"at_source"`
		Actions  []struct {
			State string `json:"state"`
			Post  struct {
				Player string `json:"player"`
			} `json:"post"`
			Flags []struct {
				Kind    string `json:"kind"`
				Earlier int64  `json:"earlier"`
			} `json:"flags"`
		} `json:"actions"`
	}
	if err := json.Unmarshal([]byte(stdout), &out); err != nil {
		t.Fatal(err)
	}
	if !out.At.Equal(time.Date(2026, 3, 23, 22, 0, 0, 0, time.UTC)) || out.AtSource != "--at" {
		t.Fatalf("at %s from %s", out.At, out.AtSource)
	}
	if len(out.Actions) != 1 || out.Actions[0].Post.Player != "hank" || out.Actions[0].State != "pending" ||
		len(out.Actions[0].Flags) != 1 || out.Actions[0].Flags[0].Kind != "copied commitment" || out.Actions[0].Flags[0].Earlier != 0 {
		t.Fatalf("actions %+v", out.Actions)
	}
	stdout, _ = mustRun(t, 0, "", "action", "status", "--db", db)
	if !strings.Contains(stdout, "(now), zone UTC: 2 actions") {
		t.Fatalf("status without --at does not say it used now: %q", stdout)
	}
}
