package web

import (
	"context"
	"database/sql"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sealedhq/sealed/ledger"
	"github.com/sealedhq/sealed/ledger/stores"
)

// tamperFixture runs SQL on the fixture's file with the append-only
// triggers dropped (as someone with write access to the file would), then
// returns a server on a fresh read-only opening of it.
func tamperFixture(t *testing.T, f *fixture, stmts ...string) *Server {
	t.Helper()
	db, err := sql.Open("sqlite3", "file:"+f.path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, tr := range []string{"entries_no_update", "entries_no_delete", "checkpoints_no_update", "checkpoints_no_delete", "replays_no_update", "replays_no_delete"} {
		if _, err := db.Exec(`DROP TRIGGER IF EXISTS ` + tr); err != nil {
			t.Fatal(err)
		}
	}
	for _, s := range stmts {
		if _, err := db.Exec(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	r, err := stores.Open(context.Background(), f.path, ledger.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return f.server(t, func(o *Options) { o.Reader = r })
}

// TestServesOnlyWhatVerifies: a late reveal whose integrated_at column is
// moved back into the revelation window is not shown as counting: the
// column no longer matches the signed leaf, and the page says the data
// was altered (409); an edited checkpoint note is not served; a replay
// whose bytes were changed is reported as tampered, never a 500.
func TestServesOnlyWhatVerifies(t *testing.T) {
	f := newFixture(t)
	// A bid posted Monday 03-02 (revelation date Sunday 03-08 00:00) and
	// revealed Monday 03-09: late, so it does not count.
	v := readVector(t, "bid")
	f.add(t, "late", "2026-03-02T12:00:00Z", &ledger.Body{Kind: ledger.KindCommit, Player: "lena", ActionType: "bid", Channel: "#auctions", Commitment: strings.Repeat("ab", 32)})
	c, text := f.idx["late"], string(v.Text)
	f.add(t, "late-reveal", "2026-03-09T09:00:00Z", &ledger.Body{Kind: ledger.KindReveal, Commit: &c, Player: "lena", Text: &text})

	s := f.server(t, nil)
	w := do(s, "GET", "/api/v1/commitments/"+strings.Repeat("ab", 32), "")
	if w.Code != http.StatusOK || !strings.Contains(w.Body.String(), `"state":"failed"`) {
		t.Fatalf("before tampering: %d %s", w.Code, w.Body.String())
	}
	// Friday 03-06 09:00 in Unix ns: inside the revelation window.
	fri := time.Date(2026, 3, 6, 9, 0, 0, 0, time.UTC).UnixNano()
	ts := tamperFixture(t, f, `UPDATE entries SET integrated_at = `+itoa(fri)+` WHERE idx = `+itoa(f.idx["late-reveal"]))
	for _, path := range []string{"/api/v1/commitments/" + strings.Repeat("ab", 32), "/c/" + strings.Repeat("ab", 32)} {
		w := do(ts, "GET", path, "")
		if w.Code != http.StatusConflict || !strings.Contains(w.Body.String(), "altered") || strings.Contains(w.Body.String(), `"state":"revealed"`) {
			t.Errorf("%s after moving integrated_at: %d %.300s", path, w.Code, w.Body.String())
		}
	}
}

// TestCheckpointNoteVerified: a checkpoint note whose size line was edited
// is served neither raw nor in the API.
func TestCheckpointNoteVerified(t *testing.T) {
	f := newFixture(t)
	cp, err := f.r.LatestCheckpoint()
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(cp.Note, "\n"+itoa(cp.Size)+"\n", "\n"+itoa(cp.Size+1)+"\n", 1)
	if edited == cp.Note {
		t.Fatal("the size line was not found")
	}
	ts := tamperFixture(t, f, `UPDATE checkpoints SET note = CAST('`+strings.ReplaceAll(edited, "'", "''")+`' AS BLOB) WHERE size = `+itoa(cp.Size))
	for _, path := range []string{"/checkpoint", "/api/v1/checkpoint", "/tree"} {
		w := do(ts, "GET", path, "")
		if w.Code != http.StatusConflict || strings.Contains(w.Body.String(), edited) {
			t.Errorf("%s with an edited note: %d %.300s", path, w.Code, w.Body.String())
		}
	}
}

// TestTamperedReplay: a stored replay whose bytes no longer hash to their
// digest is reported as tampered (409) on its pages and API, never 500.
func TestTamperedReplay(t *testing.T) {
	f := newFixture(t)
	d := f.digest["auction"]
	ts := tamperFixture(t, f, `UPDATE replays SET bytes = CAST(replace(CAST(bytes AS TEXT), '"seed"', '"seed" ') AS BLOB) WHERE sha256 = '`+d+`'`)
	for _, path := range []string{"/replay/" + d, "/replay/" + itoa(f.idx["auction"]), "/api/v1/replays/" + itoa(f.idx["auction"]) + "/report"} {
		w := do(ts, "GET", path, "")
		if w.Code != http.StatusConflict || !strings.Contains(w.Body.String(), "altered") {
			t.Errorf("%s with altered replay bytes: %d %.300s", path, w.Code, w.Body.String())
		}
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// TestTamperedSeedIndex (newcomer trial 4, finding 1): the replay report
// and page of a result rest on what the seed_commits table does not hold
// (no earlier seed-commit of its match or seed), so a row deleted from
// the table, with its trigger dropped, makes them answer 409 (the data
// was altered), never a verdict built on the altered table; before the
// change they answer 200.
func TestTamperedSeedIndex(t *testing.T) {
	f := newFixture(t)
	f.add(t, "seed", "2026-03-08T12:00:00Z", &ledger.Body{Kind: ledger.KindSeedCommit, Game: "auction", MatchID: "auction", RulesVersion: "auction-0.2",
		Config: []byte(`{"players":3}`), Commitment: strings.Repeat("5a", 32)})
	paths := []string{"/replay/" + itoa(f.idx["auction"]), "/api/v1/replays/" + itoa(f.idx["auction"]) + "/report"}
	s := f.server(t, nil)
	for _, path := range paths {
		if w := do(s, "GET", path, ""); w.Code != http.StatusOK {
			t.Fatalf("%s before the change: %d %.300s", path, w.Code, w.Body.String())
		}
	}
	ts := tamperFixture(t, f, `DROP TRIGGER seed_commits_no_delete`, `DELETE FROM seed_commits WHERE idx = `+itoa(f.idx["seed"]))
	for _, path := range paths {
		w := do(ts, "GET", path, "")
		if w.Code != http.StatusConflict || !strings.Contains(w.Body.String(), "altered") || !strings.Contains(w.Body.String(), "seed_commits") {
			t.Errorf("%s with the seed-commit's row deleted: %d %.300s", path, w.Code, w.Body.String())
		}
	}
}

// TestCheckpointRollback (newcomer trial 5a, finding 4): once the site has
// served a checkpoint, deleting it (and any later one) from the database
// while the server runs does not make it serve the older checkpoint left
// behind as the latest, verified: /checkpoint, its JSON, /tree and the
// start page answer 409, as the commitment pages already did. Before the
// change they answered 200 with the older checkpoint.
func TestCheckpointRollback(t *testing.T) {
	f := newFixture(t)
	cp, err := f.r.LatestCheckpoint()
	if err != nil {
		t.Fatal(err)
	}
	s := f.server(t, nil)
	for _, path := range []string{"/checkpoint", "/api/v1/checkpoint", "/tree", "/"} {
		if w := do(s, "GET", path, ""); w.Code != http.StatusOK {
			t.Fatalf("%s before tampering: %d %.300s", path, w.Code, w.Body.String())
		}
	}
	db := deleteCheckpointsFrom(t, f.path, cp.Size)
	var left int64
	if err := db.QueryRow(`SELECT max(size) FROM checkpoints`).Scan(&left); err != nil || left <= 0 {
		t.Fatalf("no older checkpoint left (%d, %v)", left, err)
	}
	time.Sleep(1100 * time.Millisecond) // /checkpoint is answered from memory for a second
	for _, path := range []string{"/checkpoint", "/api/v1/checkpoint", "/tree", "/"} {
		w := do(s, "GET", path, "")
		if w.Code != http.StatusConflict || !strings.Contains(w.Body.String(), "rolled back") {
			t.Errorf("%s after the checkpoints of size %d and more were deleted: %d %.300s", path, cp.Size, w.Code, w.Body.String())
		}
	}
}

// TestCheckpointRollbackUnservedTiles (newcomer trial 6, finding 1): the
// site read the latest checkpoint through its pages (/api/v1/checkpoint)
// but never served /checkpoint; deleting that checkpoint then makes the
// pages answer 409, and /checkpoint too, not 200 with the older note
// left behind (its handler had served nothing before, so it knew of no
// larger size).
func TestCheckpointRollbackUnservedTiles(t *testing.T) {
	f := newFixture(t)
	cp, err := f.r.LatestCheckpoint()
	if err != nil {
		t.Fatal(err)
	}
	s := f.server(t, nil)
	if w := do(s, "GET", "/api/v1/checkpoint", ""); w.Code != http.StatusOK {
		t.Fatalf("/api/v1/checkpoint before tampering: %d %.300s", w.Code, w.Body.String())
	}
	deleteCheckpointsFrom(t, f.path, cp.Size)
	for _, path := range []string{"/checkpoint", "/api/v1/checkpoint"} {
		w := do(s, "GET", path, "")
		if w.Code != http.StatusConflict || !strings.Contains(w.Body.String(), "rolled back") {
			t.Errorf("%s after the checkpoints of size %d and more were deleted: %d %.300s", path, cp.Size, w.Code, w.Body.String())
		}
	}
}

// deleteCheckpointsFrom deletes the checkpoints of size size and more
// from the SQLite ledger at path, its append-only trigger dropped first,
// and returns the open database (closed when the test ends).
func deleteCheckpointsFrom(t *testing.T, path string, size int64) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite3", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	for _, stmt := range []string{`DROP TRIGGER IF EXISTS checkpoints_no_delete`, `DELETE FROM checkpoints WHERE size >= ` + itoa(size)} {
		if _, err := db.Exec(stmt); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
	}
	return db
}

// TestDeletedReplay: a result's replay is stored before the result is
// admitted, so a replays row deleted under a result entry is altered data
// (409, as `sealed ledger audit` reports it in the replays table), never
// "no such replay"; the digest alone, which no page ties to a result,
// still answers 404.
func TestDeletedReplay(t *testing.T) {
	f := newFixture(t)
	d := f.digest["auction"]
	ts := tamperFixture(t, f, `DELETE FROM replays WHERE sha256 = '`+d+`'`)
	for _, path := range []string{"/replay/" + itoa(f.idx["auction"]), "/api/v1/replays/" + itoa(f.idx["auction"]) + "/report"} {
		w := do(ts, "GET", path, "")
		if w.Code != http.StatusConflict || !strings.Contains(w.Body.String(), "altered") || !strings.Contains(w.Body.String(), "not stored") {
			t.Errorf("%s with its replay deleted: %d %.300s", path, w.Code, w.Body.String())
		}
	}
	if w := do(ts, "GET", "/replay/"+d, ""); w.Code != http.StatusNotFound {
		t.Errorf("/replay/%s with its replay deleted: %d %.300s", d, w.Code, w.Body.String())
	}
}

// TestWriteOnAlteredStore: with the newest entry's row deleted under a
// running writer (as someone with write access to the file would), a POST
// is refused with 409 naming the altered data, as every answer resting on
// altered data is, never a 500 (newcomer trial 7a, finding 4), and
// nothing is appended.
func TestWriteOnAlteredStore(t *testing.T) {
	f := newFixture(t)
	n, err := f.r.Size()
	if err != nil {
		t.Fatal(err)
	}
	ts := tamperFixture(t, f, `DELETE FROM entries WHERE idx = `+itoa(n-1))
	// sha256 of the empty string, a commitment nobody in the fixture posted.
	body := `{"kind":"commit","player":"zoe","action_type":"bid","channel":"#auctions","commitment":"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"}`
	w := do(ts, "POST", "/api/v1/entries", body, "Authorization", "Bearer "+testToken, "Content-Type", "application/json")
	if w.Code != http.StatusConflict || !strings.Contains(w.Body.String(), "altered") {
		t.Errorf("POST on a ledger with an entry deleted: %d %.300s; want 409 saying the data was altered", w.Code, w.Body.String())
	}
	if m, err := f.r.Size(); err != nil || m != n-1 {
		t.Errorf("size after the refused POST: %d %v; want %d", m, err, n-1)
	}
}
