package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sealedhq/sealed/internal/pgtest"
)

// TestServeTokenWithoutKeyOnURL (trial 19): with --token-file, writes
// must work or serve does not start (docs/web.md: "a signer key that is
// missing ... is refused (exit 2) with the reason"). A postgres:// --db
// has no default key file, so `sealed serve --db URL --token-file F`
// without --key started read-only instead, announcing "the write API is
// disabled: the site is read-only (enable writes with --token-file)"
// although --token-file was given, and every POST /api/v1/entries
// answered 403. It must be refused, as action post and ledger append
// refuse a URL without --key ("needs the ledger's signer key").
func TestServeTokenWithoutKeyOnURL(t *testing.T) {
	srv := pgtest.Start(t, pgtest.Options{})
	dir := t.TempDir()
	pg := srv.NewDatabase(t)
	mustRun(t, 0, "", "ledger", "init", "--db", pg, "--key", filepath.Join(dir, "ledger.key"), "--origin", "test.example/servekey")
	tokenFile := filepath.Join(dir, "token")
	if err := os.WriteFile(tokenFile, []byte("serve-test-token-0123456789\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := serveRefused(t, &serveOptions{DB: pg, Addr: "127.0.0.1:0", Zone: "UTC", TokenFile: tokenFile})
	if code != 2 || stdout != "" || !strings.Contains(stderr, "--key") {
		t.Errorf("serve --db URL --token-file F without --key: exit %d, stdout %q, stderr %q; want exit 2 naming --key", code, stdout, stderr)
	}
}
