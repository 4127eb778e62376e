package sidebyside

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/sealedhq/sealed/ledger"
)

// TestMain lets the test binary be the trivial server the site part
// starts as a child process of its own executable.
func TestMain(m *testing.M) {
	ServeTrivialIfAsked()
	os.Exit(m.Run())
}

// dump returns every row of query on the SQLite file path, each row
// printed with %x for blobs.
func dump(t *testing.T, path, query string) []string {
	t.Helper()
	db, err := sql.Open("sqlite3", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query(query)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	var out []string
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		var sb strings.Builder
		for _, v := range vals {
			if b, ok := v.([]byte); ok {
				fmt.Fprintf(&sb, "%x|", b)
			} else {
				fmt.Fprintf(&sb, "%v|", v)
			}
		}
		out = append(out, sb.String())
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestRawWritesSealedRows: the raw baseline writes, for the same entries
// at the same integration time, exactly the entries and hashes rows that
// sealed's ledger writes (read back from sealed's database), so that
// "raw" is the same work without the ledger.
func TestRawWritesSealedRows(t *testing.T) {
	ctx := context.Background()
	at, err := time.Parse(time.RFC3339Nano, "2026-03-07T13:00:00.123456789Z")
	if err != nil {
		t.Fatal(err)
	}
	clock := func() time.Time { return at }
	const n = 300 // a few levels of stored hashes
	entries := Entries(n, 0)

	sdir := t.TempDir()
	l, err := newSealedLedger(ctx, sdir, ledger.Options{Clock: clock})
	if err != nil {
		t.Fatal(err)
	}
	for i := range entries {
		if idx, err := l.Append(ctx, entries[i].Body); err != nil || idx != int64(i) {
			t.Fatalf("sealed append %d: index %d, %v", i, idx, err)
		}
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}

	rdir := t.TempDir()
	r, err := openRaw(ctx, filepath.Join(rdir, "raw.db"), filepath.Join(rdir, "raw.key"), clock)
	if err != nil {
		t.Fatal(err)
	}
	for i := range entries {
		// Batches of various sizes: the rows must not depend on them.
		if idx, err := r.Append(ctx, &entries[i]); err != nil || idx != int64(i) {
			t.Fatalf("raw append %d: index %d, %v", i, idx, err)
		}
	}
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}

	for _, q := range []string{
		`SELECT idx, kind, body, leaf_hash, integrated_at, posted_at, dedup, commitment, ref FROM entries ORDER BY idx`,
		`SELECT id, hash FROM hashes ORDER BY id`,
	} {
		want := dump(t, filepath.Join(sdir, "ledger.db"), q)
		got := dump(t, filepath.Join(rdir, "raw.db"), q)
		if len(want) == 0 || !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\nraw    %d rows, first %q\nsealed %d rows, first %q", q, len(got), first(got), len(want), first(want))
			for i := range min(len(got), len(want)) {
				if got[i] != want[i] {
					t.Errorf("first difference at row %d:\nraw    %s\nsealed %s", i, got[i], want[i])
					break
				}
			}
		}
	}
}

func first(rows []string) string {
	if len(rows) == 0 {
		return ""
	}
	return rows[0]
}

// TestParseWrk reads wrk 4.1.0's --latency reports captured from real runs
// (testdata): one against a server answering 200, one answering 404.
func TestParseWrk(t *testing.T) {
	for _, c := range []struct {
		file     string
		requests int64
		rate     float64
		p50, p99 time.Duration
		bad      int64
	}{
		{"wrk-latency.txt", 980, 974.26, 5150 * time.Microsecond, 16850 * time.Microsecond, 0},
		{"wrk-404.txt", 909, 904.20, 5860 * time.Microsecond, 125480 * time.Microsecond, 909},
	} {
		b, err := os.ReadFile(filepath.Join("testdata", c.file))
		if err != nil {
			t.Fatal(err)
		}
		r, err := parseWrk(string(b))
		if err != nil {
			t.Fatal(err)
		}
		if r.Requests != c.requests || r.Rate != c.rate || r.P50 != c.p50 || r.P99 != c.p99 || r.Bad != c.bad {
			t.Errorf("%s: got %d requests, %.2f/s, p50 %s, p99 %s, %d bad; want %d, %.2f/s, %s, %s, %d",
				c.file, r.Requests, r.Rate, r.P50, r.P99, r.Bad, c.requests, c.rate, c.p50, c.p99, c.bad)
		}
	}
}

// TestQuickRun runs every part with tiny sizes (the Go load generator for
// the site, so the test does not depend on wrk), and checks that each
// measured what it says: every system's appends were all acknowledged
// and read back (Run fails otherwise), the audit passed over the whole
// ledger, the site answered every request with 200.
func TestQuickRun(t *testing.T) {
	if testing.Short() {
		t.Skip("builds sealed and runs every part: skipped in -short mode")
	}
	cfg := Quick()
	cfg.Rounds, cfg.Writers, cfg.CellDuration, cfg.Pool = 1, []int{1, 4}, 200*time.Millisecond, 5000
	cfg.TesseraAges = []time.Duration{5 * time.Millisecond}
	cfg.AuditN, cfg.AuditRounds = 500, 1
	cfg.SiteN, cfg.SiteRounds, cfg.SiteDuration, cfg.Connections, cfg.LoadGen = 300, 1, time.Second, 8, "go"
	cfg.CacheDir, cfg.WorkDir = t.TempDir(), t.TempDir()
	var out bytes.Buffer
	rep, err := Run(context.Background(), cfg, &out)
	t.Log(out.String())
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Appends) != 2*3 {
		t.Fatalf("%d append cells, want 2 writer counts x 3 systems", len(rep.Appends))
	}
	for _, a := range rep.Appends {
		if a.Appends == 0 || a.Rate <= 0 || a.P99 < a.P50 {
			t.Errorf("append cell %+v", a)
		}
	}
	if len(rep.Audits) != 1 || rep.Audits[0].Entries != 500 {
		t.Errorf("audits %+v, want one of 500 entries", rep.Audits)
	}
	if len(rep.Sites) != 1 {
		t.Fatalf("%d site rounds, want 1", len(rep.Sites))
	}
	s := rep.Sites[0]
	for name, r := range map[string]loadResult{"api": s.API, "page": s.Page, "trivial": s.Trivial} {
		if r.Requests == 0 || r.Bad != 0 {
			t.Errorf("%s: %d requests, %d not answered 2xx", name, r.Requests, r.Bad)
		}
	}
	if s.FirstAnswer < s.Listening || s.RSSAfter == 0 {
		t.Errorf("site round %+v", s)
	}
	for _, want := range []string{"uptime before:", "uptime after:", "sealed/raw", "sealed/tessera(64,5ms)", "ratio audit/sha256", "req/s api/trivial", "req/s page/trivial"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q", want)
		}
	}
}
