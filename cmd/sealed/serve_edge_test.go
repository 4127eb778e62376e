package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/sealedhq/sealed/internal/tamper"
	"golang.org/x/mod/sumdb/tlog"
)

// TestServeEdgeWarning: a read-only sealed serve on a ledger whose stored
// right edge does not give the latest signed root warns, in a reader's
// words: it appended nothing and was refused nothing.
func TestServeEdgeWarning(t *testing.T) {
	db := filepath.Join(t.TempDir(), "d.db")
	buildDemo(t, db)
	if err := tamper.Restoring(db, `UPDATE hashes SET hash = zeroblob(32) WHERE id = `+strconv.FormatInt(tlog.StoredHashIndex(0, 26), 10)); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	a := &app{in: strings.NewReader(""), out: &out, errOut: &errOut}
	err := serveUntil(t, func(ctx context.Context, ready func(string)) error {
		return runServe(ctx, a, &serveOptions{DB: db, Addr: "127.0.0.1:0", Zone: "UTC", ready: ready})
	}, func(string) {})
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(errOut.String(), "\n")
	if len(lines) < 2 || !strings.HasPrefix(lines[0], "warning: the stored hashes on the tree's right edge") || strings.Contains(lines[0], "appended") ||
		!strings.HasSuffix(lines[0], "; the site serves what verifies and says what does not") ||
		lines[1] != "hint: 'sealed ledger audit' on this ledger names every altered row" {
		t.Errorf("stderr:\n%s", errOut.String())
	}
}
