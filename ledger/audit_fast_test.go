package ledger_test

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/sealedhq/sealed/ledger"
)

// fastPathLedger builds a closed ledger of n entries over three audit
// chunks for the fast paths: commits of 4,500 players (so later chunks
// hold both players' first commits and their repeats), every tenth entry
// a reveal (a ref and no commitment), every seventh a posted_at.
func fastPathLedger(t *testing.T, n int) string {
	t.Helper()
	l, dbPath, _ := newTestLedger(t, ledger.Options{})
	ctx := context.Background()
	body := func(i int) string {
		posted := ""
		if i%7 == 0 {
			posted = fmt.Sprintf(`,"posted_at":"2026-01-02T03:04:%02d.000000%03dZ"`, i%60, i%1000)
		}
		if i%10 == 9 {
			return fmt.Sprintf(`{"kind":"reveal","commit":0,"player":"p0","text":"t%d"%s}`, i, posted)
		}
		return fmt.Sprintf(`{"kind":"commit","player":"p%d","action_type":"bid","channel":"#auctions","commitment":"%064x"%s}`, i%4500, i, posted)
	}
	if _, err := l.Append(ctx, []byte(body(0))); err != nil { // entry 0, which the reveals name
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for w := range 64 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 1 + w; i < n; i += 64 {
				if _, err := l.Append(ctx, []byte(body(i))); err != nil {
					errs <- fmt.Errorf("%s: %w", body(i), err)
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
	// Its players rows are all in players_tail (fewer than the SQLite
	// store's fold size): move those of entries below 4,300 into players,
	// as a fold does, so that the fast path reads both tables.
	db, err := sql.Open("sqlite3", "file:"+dbPath)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(`INSERT INTO players(skeleton, player, idx) SELECT skeleton, player, idx FROM players_tail WHERE idx < 4300;
		DELETE FROM players_tail WHERE idx < 4300`); err != nil {
		t.Fatal(err)
	}
	return dbPath
}

// intAt reads one integer of the file at path.
func intAt(t *testing.T, path, query string, args ...any) int64 {
	t.Helper()
	db, err := sql.Open("sqlite3", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var v int64
	if err := db.QueryRow(query, args...).Scan(&v); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return v
}

// TestAuditFastPaths tampers with exactly what the audit's fast paths
// read (a byte of a body, a leaf hash, a dedup, each lookup column, a
// column's storage class, a value split over two rows, a players row),
// in the middle of a chunk and at the boundaries between chunks, and
// requires the audit to name the table, the entry and what differs, as
// reading row by row does; the expected findings are those docs/ledger.md
// "Audit" gives for each change.
func TestAuditFastPaths(t *testing.T) {
	if testing.Short() {
		t.Skip("9,000 appends skipped in -short mode")
	}
	const n = 9000
	dbPath := fastPathLedger(t, n)
	ctx := context.Background()
	q := func(query string, args ...any) int64 { return intAt(t, dbPath, query, args...) }
	// Entries found by what they hold, across the chunks (4,096 each).
	reveal := q(`SELECT min(idx) FROM entries WHERE kind = 'reveal' AND idx >= 4096`)
	posted := q(`SELECT min(idx) FROM entries WHERE posted_at IS NOT NULL AND idx >= 8192`)
	unposted := q(`SELECT max(idx) FROM entries WHERE posted_at IS NULL AND idx < 4096`)
	commit := q(`SELECT max(idx) FROM entries WHERE kind = 'commit' AND idx < 4096`)
	next := q(`SELECT min(idx) FROM entries WHERE kind = 'commit' AND idx > ?`, commit)
	// A player whose first commit is in the second chunk, and whose
	// second commit comes later.
	first := q(`SELECT min(p.idx) FROM players p WHERE p.idx >= 4096 AND (SELECT count(*) FROM entries e WHERE e.kind = 'commit' AND json_extract(e.body, '$.player') = p.player) > 1`)
	player := fmt.Sprintf("p%d", q(`SELECT CAST(substr(player, 2) AS INTEGER) FROM players WHERE idx = ?`, first))
	second := q(`SELECT min(idx) FROM entries WHERE kind = 'commit' AND json_extract(body, '$.player') = ? AND idx > ?`, player, first)
	// A player whose row is still in players_tail (fastPathLedger).
	tailFirst := q(`SELECT min(idx) FROM players_tail`)
	if reveal < 0 || posted < 0 || commit < 0 || first < 0 || second <= first {
		t.Fatalf("the ledger lacks the entries the cases need: reveal %d posted %d commit %d first %d second %d", reveal, posted, commit, first, second)
	}
	cases := []struct {
		name  string
		stmts []string
		table string
		index int64 // -1: any
		what  string
		slow  string // the check that must leave it to the slow path, if one must
	}{
		{"clean", nil, "", 0, "", ""},
		{"a body byte, last entry of the first chunk", []string{`UPDATE entries SET body = CAST(replace(CAST(body AS TEXT), '"kind"', '"kine"') AS BLOB) WHERE idx = 4095`},
			"entries", 4095, "body hashes to", ""},
		{"a leaf hash, first entry of the third chunk", []string{`UPDATE entries SET leaf_hash = zeroblob(32) WHERE idx = 8192`},
			"entries", 8192, "stored leaf hash", ""},
		{"a dedup, first entry of the second chunk", []string{`UPDATE entries SET dedup = zeroblob(32) WHERE idx = 4096`},
			"entries", 4096, "dedup column", ""},
		{"kind", []string{fmt.Sprintf(`UPDATE entries SET kind = 'reveal' WHERE idx = %d`, commit)},
			"entries", commit, `kind "reveal" (leaf "commit")`, "columns"},
		{"kind stored as a blob", []string{fmt.Sprintf(`UPDATE entries SET kind = CAST(kind AS BLOB) WHERE idx = %d`, commit)},
			"entries", commit, "stored columns disagree", "columns"},
		{"commitment, one digit", []string{fmt.Sprintf(`UPDATE entries SET commitment = 'f' || substr(commitment, 2) WHERE idx = %d`, next)},
			"entries", next, "stored columns disagree", "columns"},
		{"commitment split over two rows", []string{fmt.Sprintf(`UPDATE entries SET commitment = commitment || ',' || (SELECT commitment FROM entries WHERE idx = %d) WHERE idx = %d`, next, commit),
			fmt.Sprintf(`UPDATE entries SET commitment = NULL WHERE idx = %d`, next)},
			"entries", commit, "stored columns disagree", "columns"},
		{"commitment empty text on a reveal", []string{fmt.Sprintf(`UPDATE entries SET commitment = '' WHERE idx = %d`, reveal)},
			"entries", reveal, "stored columns disagree", "columns"},
		{"ref", []string{fmt.Sprintf(`UPDATE entries SET ref = ref + 1 WHERE idx = %d`, reveal)},
			"entries", reveal, "stored columns disagree", "columns"},
		{"ref stored as a blob", []string{fmt.Sprintf(`UPDATE entries SET ref = CAST(CAST(ref AS TEXT) AS BLOB) WHERE idx = %d`, reveal)},
			"entries", reveal, "stored columns disagree", "columns"},
		{"ref on a commit", []string{fmt.Sprintf(`UPDATE entries SET ref = 0 WHERE idx = %d`, commit)},
			"entries", commit, "stored columns disagree", "columns"},
		{"posted_at by a nanosecond", []string{fmt.Sprintf(`UPDATE entries SET posted_at = posted_at + 1 WHERE idx = %d`, posted)},
			"entries", posted, "stored columns disagree", "columns"},
		{"posted_at where the leaf has none", []string{fmt.Sprintf(`UPDATE entries SET posted_at = integrated_at WHERE idx = %d`, unposted)},
			"entries", unposted, "stored columns disagree", "columns"},
		{"players_tail row deleted", []string{fmt.Sprintf(`DELETE FROM players_tail WHERE idx = %d`, tailFirst)},
			"players", tailFirst, "no row for the skeleton", "players"},
		{"players_tail player changed to a lookalike", []string{fmt.Sprintf(`UPDATE players_tail SET player = 'р' || substr(player, 2) WHERE idx = %d`, tailFirst)}, // U+0440 for p
			"players", tailFirst, "names the player", "players"},
		{"players_tail row also in players", []string{fmt.Sprintf(`INSERT INTO players(skeleton, player, idx) SELECT skeleton, player, idx FROM players_tail WHERE idx = %d`, tailFirst)},
			"players", -1, "two rows", "players"},
		{"players row deleted", []string{fmt.Sprintf(`DELETE FROM players WHERE idx = %d`, first)},
			"players", first, "no row for the skeleton", "players"},
		{"players row moved to the player's second commit", []string{fmt.Sprintf(`UPDATE players SET idx = %d WHERE idx = %d`, second, first)},
			"players", first, fmt.Sprintf("names entry %d, but this commit entry names a player of that skeleton", second), "players"},
		{"players player changed to a lookalike", []string{fmt.Sprintf(`UPDATE players SET player = 'р' || substr(player, 2) WHERE idx = %d`, first)}, // U+0440 for p
			"players", first, "names the player", "players"},
		{"players row added", []string{`INSERT INTO players(skeleton, player, idx) VALUES('zz', 'zz', 5)`},
			"players", -1, "is not the first commit entry", "players"},
		{"players skeleton stored as a blob", []string{fmt.Sprintf(`UPDATE players SET skeleton = CAST(skeleton AS BLOB) WHERE idx = %d`, first)},
			"players", -1, "not text", "players"},
		{"players idx stored as text", []string{fmt.Sprintf(`UPDATE players SET idx = '#%d' WHERE idx = %d`, first, first)},
			"players", -1, "expected an integer", "players"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := copyFile(t, dbPath)
			if tc.what != "" { // a clean ledger keeps its triggers
				if err := attack(t, c, append([]string{dropTriggers, `DROP TRIGGER IF EXISTS players_no_update; DROP TRIGGER IF EXISTS players_no_delete; DROP TRIGGER IF EXISTS players_tail_no_update; DROP TRIGGER IF EXISTS players_tail_no_delete`}, tc.stmts...)...); err != nil {
					t.Fatal(err)
				}
			}
			ro, err := openLedger(t, c, ledger.Options{ReadOnly: true})
			if err != nil {
				t.Fatal(err)
			}
			defer ro.Close()
			var last int64
			slow := map[string]bool{}
			ledger.SetAuditSlowPath(func(check string) { slow[check] = true })
			defer ledger.SetAuditSlowPath(nil)
			rep, err := ro.Audit(ctx, func(done, total int64) { last = done })
			if err != nil {
				t.Fatal(err)
			}
			if tc.slow != "" && !slow[tc.slow] {
				t.Errorf("the %s fast path accepted the change", tc.slow)
			}
			if tc.what == "" {
				if !rep.OK || rep.Size != n || last != n {
					t.Fatalf("clean audit: %+v (problem %v), progress to %d; want OK and size and progress %d", rep, rep.Problem, last, n)
				}
				if len(slow) != 0 {
					t.Fatalf("clean audit took the slow path of %v: the fast paths must accept a clean log", slow)
				}
				return
			}
			if rep.OK || rep.Problem == nil {
				t.Fatalf("audit passed after: %s", tc.name)
			}
			p := rep.Problem
			t.Logf("audit: %s", p)
			if p.Table != tc.table || (tc.index >= 0 && p.Index != tc.index) || !strings.Contains(p.What, tc.what) {
				t.Errorf("problem %s (table %q, index %d), want table %q, index %d and %q", p, p.Table, p.Index, tc.table, tc.index, tc.what)
			}
		})
	}
}
