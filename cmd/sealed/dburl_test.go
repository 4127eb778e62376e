package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestUnreachableURLNeverShown runs every verb that opens a ledger on a
// PostgreSQL URL whose server cannot be reached (its socket directory
// does not exist): each exits 2 with one line saying it could not
// connect (not that there is no ledger), naming the URL once with its
// password replaced, and a hint line; the password never shows, whatever
// the scheme's case and with a '#' in it (pgx reads it as part of the
// password, so must the redaction).
func TestUnreachableURLNeverShown(t *testing.T) {
	dir := t.TempDir()
	key := filepath.Join(dir, "k.key")
	// Not a key; also the token file (long enough).
	if err := os.WriteFile(key, []byte("not a key, and a token\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	points := filepath.Join(dir, "points.json")
	if err := os.WriteFile(points, []byte(`{"a": 50}`), 0o644); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "f.db")
	mustRun(t, 0, "", "ledger", "init", "--db", file)
	commitment := strings.Repeat("ab", 32)
	for _, url := range []string{
		"postgres://pwuser:S3cretPW@/pwdb?host=/nonexistent/sock",
		"Postgres://pwuser:S3cretPW@/pwdb?host=/nonexistent/sock",
		"POSTGRESQL://pwuser:S3cretPW@/pwdb?host=/nonexistent/sock",
		"postgres://pwuser:S3#cretPW@/pwdb?host=/nonexistent/sock",
		"postgres:///pwdb?host=/nonexistent/sock&user=pwuser&password=S3cretPW",
	} {
		for _, args := range [][]string{
			{"ledger", "audit", "--db", url},
			{"ledger", "checkpoint", "--db", url},
			{"ledger", "list", "--db", url},
			{"ledger", "get", "0", "--db", url},
			{"ledger", "prove", "--index", "0", "--db", url},
			{"ledger", "tiles", "--dir", filepath.Join(dir, "tiles"), "--db", url},
			{"ledger", "check-result", "0", "--db", url},
			{"ledger", "append", "--db", url, "--key", key, "--kind", "commit", "--player", "a", "--action-type", "bid", "--channel", "#auctions", "--commitment", commitment},
			{"ledger", "copy", "--from", url, "--to", filepath.Join(dir, "copy.db")},
			{"ledger", "init", "--db", url, "--key", filepath.Join(dir, "new.key")},
			{"action", "status", "--player", "a", "--db", url},
			{"action", "post", "--db", url, "--key", key, "--player", "a", "--type", "bid", "--commitment", commitment},
			{"lots", "conclude", "--week", "2026-W13", "--points", points, "--db", url},
			{"serve", "--db", url, "--addr", "127.0.0.1:0"},
			{"serve", "--db", file, "--read-db", url, "--addr", "127.0.0.1:0"},
			{"serve", "--db", url, "--token-file", key, "--key", key, "--addr", "127.0.0.1:0"},
		} {
			code, stdout, stderr := runSealed(t, "", args...)
			what := strings.Join(args, " ")
			if strings.Contains(stdout+stderr, "S3") {
				t.Errorf("%s: the password shows:\n%s%s", what, stdout, stderr)
			}
			lines := strings.Split(strings.TrimSuffix(stderr, "\n"), "\n")
			if code != 2 || len(lines) != 2 || !strings.HasPrefix(lines[0], "sealed: cannot connect to the PostgreSQL server of the ledger ") ||
				!strings.Contains(lines[0], "pwuser:xxxxx@") && !strings.Contains(lines[0], "password=xxxxx") || strings.Count(lines[0], "xxxxx") != 1 ||
				!strings.HasPrefix(lines[1], "hint: check that the server is running") {
				t.Errorf("%s: exit %d, stderr:\n%s", what, code, stderr)
			}
			if os.Getenv("SEALED_TEST_VERBOSE") != "" {
				t.Logf("%s:\n%s", what, stderr)
			}
		}
		// --json: the error object.
		code, _, stderr := runSealed(t, "", "ledger", "list", "--json", "--db", url)
		if code != 2 || strings.Contains(stderr, "S3") || !strings.Contains(stderr, `"error":"cannot connect to the PostgreSQL server`) || !strings.Contains(stderr, `"hint":"check that the server`) {
			t.Errorf("ledger list --json --db %s: exit %d, %s", url, code, stderr)
		}
		// The demo makes files: a URL is refused before anything is made.
		code, stdout, stderr := runSealed(t, "", "demo", "--db", url)
		if code != 2 || strings.Contains(stdout+stderr, "S3") || !strings.Contains(stderr, "sealed: sealed demo builds its ledger in a SQLite file: --db takes a FILE, not a URL") ||
			!strings.Contains(stderr, "\nhint: give --db FILE") {
			t.Errorf("demo --db %s: exit %d, %s%s", url, code, stdout, stderr)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 4 {
		t.Errorf("files made in %s: %v (want f.db, f.key, k.key, points.json)", dir, entries)
	}
}

// TestNotAStoreName: a name with another scheme (a misspelt postgres://)
// is refused, not taken for a SQLite file; an ambiguous URL is refused
// before pgx sees it; neither shows the password.
func TestNotAStoreName(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ url, msg, hint string }{
		{"postgre://pwuser:S3cretPW@/pwdb", "sealed: cannot open the ledger postgre://pwuser:xxxxx@/pwdb: the scheme postgre:// is not a postgres:// or postgresql:// URL, nor a file path", "hint: give --db a SQLite FILE or a postgres:// URL"},
		{"postgres://pwuser:pw@S3cretPW@/pwdb", "sealed: cannot open the ledger postgres://(a connection URL not shown): the connection URL is ambiguous", "hint: percent-encode '@' (%40)"},
	} {
		for _, args := range [][]string{
			{"ledger", "audit", "--db", c.url},
			{"ledger", "init", "--db", c.url, "--key", filepath.Join(dir, "k.key")},
			{"action", "post", "--db", c.url, "--key", filepath.Join(dir, "k.key"), "--player", "a", "--type", "bid", "--commitment", strings.Repeat("ab", 32)},
		} {
			code, stdout, stderr := runSealed(t, "", args...)
			if code != 2 || strings.Contains(stdout+stderr, "S3") || !strings.HasPrefix(stderr, c.msg) || !strings.Contains(stderr, "\n"+c.hint) {
				t.Errorf("%s: exit %d, %s%s", strings.Join(args, " "), code, stdout, stderr)
			}
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("files made: %v", entries)
	}
}
