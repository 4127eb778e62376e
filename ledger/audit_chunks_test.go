package ledger_test

import (
	"context"
	"database/sql"
	"encoding/base64"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/sealedhq/sealed/ledger"
	"golang.org/x/mod/sumdb/tlog"
)

// chunkedLedger builds a closed ledger of n entries (64 appenders) and
// returns its file: with n above AuditEntryChunk and ledger.AuditHashChunk, the
// audit reads it in several chunks, by both entry readers.
func chunkedLedger(t *testing.T, n int) string {
	t.Helper()
	l, dbPath, _ := newTestLedger(t, ledger.Options{})
	ctx := context.Background()
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for w := range 64 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < n; i += 64 {
				if _, err := l.Append(ctx, []byte(commitBody(fmt.Sprintf("c%d", i), hashA))); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	return dbPath
}

// blobAt reads one blob column of one row of the file at path.
func blobAt(t *testing.T, path, query string, args ...any) []byte {
	t.Helper()
	db, err := sql.Open("sqlite3", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var b []byte
	if err := db.QueryRow(query, args...).Scan(&b); err != nil {
		t.Fatal(err)
	}
	return b
}

// execAt runs one statement with arguments on the file at path, as an
// attacker with the file would (after dropping the triggers).
func execAt(t *testing.T, path, stmt string, args ...any) {
	t.Helper()
	db, err := sql.Open("sqlite3", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(stmt, args...); err != nil {
		t.Fatal(err)
	}
}

// TestAuditChunks tampers with a ledger of several audit chunks in ways
// that leave each chunk's concatenated bodies, leaf hashes or stored
// hashes byte for byte as they were (a value cut short and the rest moved
// into its neighbour, a row deleted and its neighbour holding both): the
// audit must still fail and name the entry, as reading row by row does.
func TestAuditChunks(t *testing.T) {
	if testing.Short() {
		t.Skip("9,000 appends skipped in -short mode")
	}
	const n = 9000
	dbPath := chunkedLedger(t, n)
	ctx := context.Background()

	// Entry 6000 (even) writes one stored hash, its leaf at level 0, and
	// entry 6001 writes the next id first.
	x, y := tlog.StoredHashIndex(0, 6000), tlog.StoredHashIndex(0, 6001)
	if y != x+1 || x < ledger.AuditHashChunk {
		t.Fatalf("stored hash ids %d and %d: want neighbours past the first chunk", x, y)
	}

	cases := []struct {
		name   string
		tamper func(t *testing.T, c string) string // returns more text the problem must hold, if any
		index  int64
		what   string
	}{
		{"clean", func(t *testing.T, c string) string { return "" }, -1, ""},
		{"stored hash cut short, rest in the next", func(t *testing.T, c string) string {
			hx := blobAt(t, c, `SELECT hash FROM hashes WHERE id = ?`, x)
			hy := blobAt(t, c, `SELECT hash FROM hashes WHERE id = ?`, y)
			execAt(t, c, `UPDATE hashes SET hash = ? WHERE id = ?`, hx[:31], x)
			execAt(t, c, `UPDATE hashes SET hash = ? WHERE id = ?`, append(hx[31:], hy...), y)
			return "is " + base64.StdEncoding.EncodeToString(hx[:31]) + ", but the entries give " + base64.StdEncoding.EncodeToString(hx)
		}, 6000, fmt.Sprintf("stored hash %d (level 0, node 6000) is ", x)},
		{"stored hash deleted, the next holds both", func(t *testing.T, c string) string {
			hx := blobAt(t, c, `SELECT hash FROM hashes WHERE id = ?`, x)
			hy := blobAt(t, c, `SELECT hash FROM hashes WHERE id = ?`, y)
			execAt(t, c, `DROP TRIGGER hashes_no_delete`)
			execAt(t, c, `DELETE FROM hashes WHERE id = ?`, x)
			execAt(t, c, `UPDATE hashes SET hash = ? WHERE id = ?`, append(hx, hy...), y)
			return ""
		}, 6000, fmt.Sprintf("stored hash %d (level 0, node 6000) is missing", x)},
		{"leaf hash cut short, rest in the next", func(t *testing.T, c string) string {
			la := blobAt(t, c, `SELECT leaf_hash FROM entries WHERE idx = 5000`)
			lb := blobAt(t, c, `SELECT leaf_hash FROM entries WHERE idx = 5001`)
			execAt(t, c, `UPDATE entries SET leaf_hash = ? WHERE idx = 5000`, la[:31])
			execAt(t, c, `UPDATE entries SET leaf_hash = ? WHERE idx = 5001`, append(la[31:], lb...))
			return ""
		}, 5000, "stored leaf hash"},
		{"body cut short, rest in the next", func(t *testing.T, c string) string {
			ba := blobAt(t, c, `SELECT body FROM entries WHERE idx = 5000`)
			bb := blobAt(t, c, `SELECT body FROM entries WHERE idx = 5001`)
			execAt(t, c, `UPDATE entries SET body = ? WHERE idx = 5000`, ba[:len(ba)-1])
			execAt(t, c, `UPDATE entries SET body = ? WHERE idx = 5001`, append(ba[len(ba)-1:], bb...))
			return ""
		}, 5000, "body hashes to"},
		{"entry deleted, the next holds both", func(t *testing.T, c string) string {
			ba := blobAt(t, c, `SELECT body FROM entries WHERE idx = 8191`)
			bb := blobAt(t, c, `SELECT body FROM entries WHERE idx = 8192`)
			execAt(t, c, `DELETE FROM entries WHERE idx = 8191`)
			execAt(t, c, `UPDATE entries SET body = ? WHERE idx = 8192`, append(ba, bb...))
			return ""
		}, 8191, "missing from the entries table"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := copyFile(t, dbPath)
			if tc.what != "" { // a clean ledger keeps its triggers
				if err := attack(t, c, dropTriggers); err != nil {
					t.Fatal(err)
				}
			}
			more := tc.tamper(t, c)
			ro, err := openLedger(t, c, ledger.Options{ReadOnly: true})
			if err != nil {
				t.Fatal(err)
			}
			defer ro.Close()
			var last int64
			rep, err := ro.Audit(ctx, func(done, total int64) { last = done })
			if err != nil {
				t.Fatal(err)
			}
			if tc.what == "" {
				if !rep.OK || rep.Size != n || last != n {
					t.Fatalf("clean audit: %+v (problem %v), progress to %d; want OK and size and progress %d", rep, rep.Problem, last, n)
				}
				return
			}
			if rep.OK || rep.Problem == nil {
				t.Fatalf("audit passed after: %s", tc.name)
			}
			p := rep.Problem
			t.Logf("audit: %s", p)
			if p.Index != tc.index || !strings.Contains(p.What, tc.what) || !strings.Contains(p.What, more) {
				t.Errorf("problem %+v, want index %d and %q %q", p, tc.index, tc.what, more)
			}
		})
	}
}

// TestAuditTimeAsText: an integration time rewritten as text that holds
// two times (it would line up with the others if the aggregated times
// were split on commas) does not pass the audit.
func TestAuditTimeAsText(t *testing.T) {
	if testing.Short() {
		t.Skip("9,000 appends skipped in -short mode")
	}
	dbPath := chunkedLedger(t, 9000)
	c := copyFile(t, dbPath)
	if err := attack(t, c, dropTriggers); err != nil {
		t.Fatal(err)
	}
	execAt(t, c, `UPDATE entries SET integrated_at = integrated_at || ',' || integrated_at WHERE idx = 5000`)
	ro, err := openLedger(t, c, ledger.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	rep, err := ro.Audit(context.Background(), nil)
	if err == nil && rep.OK {
		t.Fatal("audit passed with a text integration time")
	}
	t.Logf("audit: %+v %v", rep, err)
}
