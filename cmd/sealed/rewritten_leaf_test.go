package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	"fmt"
	"net/http"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/sealedhq/sealed/internal/tamper"
	"golang.org/x/mod/sumdb/tlog"
)

// TestRewrittenLeafNotServed is newcomer trial 3's finding 1 end to end:
// in the demo ledger, entry 3's client seed is changed, and its
// leaf_hash and dedup columns and its level-0 stored hash are rewritten
// to agree with it (SHA-256 computed here). sealed serve answers 409 for
// the entry and every page or report that would show it or rest a
// verdict on it; check-result 5 exits 1 saying the database was altered,
// without a verdict blaming the replay; the audit names entry 3.
func TestRewrittenLeafNotServed(t *testing.T) {
	db := filepath.Join(t.TempDir(), "demo.db")
	buildDemo(t, db)
	sdb, err := sql.Open("sqlite3", "file:"+db)
	if err != nil {
		t.Fatal(err)
	}
	var body []byte
	err = sdb.QueryRow(`SELECT body FROM entries WHERE idx = 3`).Scan(&body)
	sdb.Close()
	if err != nil {
		t.Fatal(err)
	}
	leaf := bytes.Replace(body, []byte("seat one says hi"), []byte("seat one says HI"), 1)
	if bytes.Equal(leaf, body) {
		t.Fatalf("entry 3 of the demo: %s", body)
	}
	lh := sha256.Sum256(append([]byte{0}, leaf...))
	dd := sha256.Sum256(regexp.MustCompile(`"integrated_at":"[^"]*",`).ReplaceAll(leaf, nil))
	if err := tamper.Restoring(db,
		fmt.Sprintf(`UPDATE entries SET body = X'%x', leaf_hash = X'%x', dedup = X'%x' WHERE idx = 3`, leaf, lh, dd),
		fmt.Sprintf(`UPDATE hashes SET hash = X'%x' WHERE id = %d`, lh, tlog.StoredHashIndex(0, 3))); err != nil {
		t.Fatal(err)
	}

	var out, errOut bytes.Buffer
	a := &app{in: strings.NewReader(""), out: &out, errOut: &errOut}
	err = serveUntil(t, func(ctx context.Context, ready func(string)) error {
		return runServe(ctx, a, &serveOptions{DB: db, Addr: "127.0.0.1:0", Zone: "UTC", ready: ready})
	}, func(u string) {
		u = strings.TrimSuffix(u, "/")
		for _, path := range []string{"/api/v1/entries/3", "/api/v1/entries?from=0", "/entry/3", "/api/v1/replays/5/report", "/replay/5"} {
			code, body := get(t, u+path)
			if code != http.StatusConflict || !strings.Contains(body, "altered") || strings.Contains(body, "seat one says HI") {
				t.Errorf("GET %s: %d %.300s", path, code, body)
			}
			// Said once (trial 4, finding 7).
			if n := strings.Count(body, "database was altered"); n != 1 {
				t.Errorf("GET %s: %q %d times: %.600s", path, "database was altered", n, body)
			}
		}
		if code, body := get(t, u+"/api/v1/entries/20"); code != http.StatusOK {
			t.Errorf("GET /api/v1/entries/20 (outside the altered subtree): %d %.300s", code, body)
		}
	})
	if err != nil {
		t.Fatal(err)
	}

	code, stdout, stderr := runSealed(t, "", "ledger", "check-result", "5", "--db", db)
	if code != 1 || !strings.Contains(stderr, "altered") || strings.Contains(stdout+stderr, "NOT tied") || strings.Contains(stdout+stderr, "seat one says HI") {
		t.Errorf("check-result 5: exit %d\nstdout: %s\nstderr: %s", code, stdout, stderr)
	}
	code, stdout, stderr = runSealed(t, "", "ledger", "get", "3", "--db", db)
	if code != 1 || !strings.Contains(stderr, "altered") || strings.Contains(stdout, "seat one says HI") {
		t.Errorf("get 3: exit %d\nstdout: %s\nstderr: %s", code, stdout, stderr)
	}
	// "the database was altered" once in the line, not twice (trial 4,
	// finding 7): the errors wrapping ledger.ErrTampered leave it to it.
	for _, args := range [][]string{{"check-result", "5"}, {"get", "3"}, {"prove", "3"}} {
		code, _, stderr := runSealed(t, "", append([]string{"ledger"}, append(args, "--db", db)...)...)
		if n := strings.Count(stderr, "database was altered"); code != 1 || n != 1 || !strings.Contains(stderr, "\nhint: run 'sealed ledger audit'") {
			t.Errorf("%s: exit %d, %q %d times (want once)\nstderr: %s", args, code, "database was altered", n, stderr)
		}
	}
	code, stdout, stderr = runSealed(t, "", "ledger", "audit", "--db", db)
	if code != 1 || !strings.Contains(stdout+stderr, "entry 3") {
		t.Errorf("audit: exit %d\nstdout: %s\nstderr: %s", code, stdout, stderr)
	}
}
