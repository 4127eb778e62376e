package sqlitestore

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/sealedhq/sealed/ledger"
)

// tailCommit is a commit entry by player.
func tailCommit(player string) []byte {
	c := sha256.Sum256([]byte("tail " + player))
	return fmt.Appendf(nil, `{"kind":"commit","player":%q,"action_type":"bid","channel":"#auctions","commitment":"%x"}`, player, c)
}

// openTailLedger opens the ledger at path (made with key) on a store of
// its own, as another process would.
func openTailLedger(t *testing.T, path, key string) *ledger.Ledger {
	t.Helper()
	s, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	l, err := ledger.Open(context.Background(), s, ledger.Options{KeyFile: key})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return l
}

// rowCounts counts the rows of tables a and b in the file.
func rowCounts(t *testing.T, path, a, b string) (na, nb int) {
	t.Helper()
	db, err := sql.Open("sqlite3", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.QueryRow(`SELECT (SELECT count(*) FROM `+a+`), (SELECT count(*) FROM `+b+`)`).Scan(&na, &nb); err != nil {
		t.Fatal(err)
	}
	return na, nb
}

// tableRows counts the rows of players and players_tail in the file.
func tableRows(t *testing.T, path string) (players, tail int) {
	t.Helper()
	return rowCounts(t, path, "players", "players_tail")
}

// appendConcurrently appends body(i) for i in 0..n-1 to l from 64
// goroutines, each taking every 64th i, and fails t on an error.
func appendConcurrently(t *testing.T, l *ledger.Ledger, n int, body func(i int) []byte) {
	t.Helper()
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for w := range 64 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < n; i += 64 {
				if _, err := l.Append(context.Background(), body(i)); err != nil {
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
}

// TestPlayersTailFold appends new players past playersFoldAt from two
// stores on one file (two writers, as two processes): the rows move from
// players_tail into players, each writer sees the other's rows in either
// table (a lookalike of a player the other wrote is refused, naming the
// first commit), and the audit re-derives the two tables clean.
func TestPlayersTailFold(t *testing.T) {
	ctx := context.Background()
	path, key := createTailFile(t)
	a, b := openTailLedger(t, path, key), openTailLedger(t, path, key)

	// alice by a, then her lookalike by b (U+0430 for the a): b's copy of
	// the tail must be read again, since a appended to it.
	ia, err := a.Append(ctx, tailCommit("alice"))
	if err != nil {
		t.Fatal(err)
	}
	var ce *ledger.ConfusableNameError
	if _, err := b.Append(ctx, tailCommit("\u0430lice")); !errors.As(err, &ce) || ce.Existing != "alice" || ce.Index != ia {
		t.Fatalf("lookalike of alice (in players_tail) by the other writer: %v; want a ConfusableNameError naming entry %d", err, ia)
	}
	if p, tl := tableRows(t, path); p != 0 || tl != 1 {
		t.Fatalf("after one new player: players %d, players_tail %d rows; want 0 and 1", p, tl)
	}

	// b appends new players until the tail folds (64 at a time).
	n := playersFoldAt + 100
	appendConcurrently(t, b, n, func(i int) []byte { return tailCommit(fmt.Sprintf("player-%d", i)) })
	p, tl := tableRows(t, path)
	if p+tl != n+1 || p < playersFoldAt || tl >= playersFoldAt {
		t.Fatalf("after %d new players: players %d, players_tail %d rows; want %d in all, at least %d moved into players", n+1, p, tl, n+1, playersFoldAt)
	}

	// a's copy of the tail is stale (b folded it): lookalikes of a folded
	// player and of one still in the tail are refused, and a repeat of a
	// folded player is not a new player.
	for _, who := range []string{"player-1", fmt.Sprintf("player-%d", n-1)} {
		sp, err := a.Store().PlayerBySkeleton(ctx, ledger.Skeleton(who))
		if err != nil {
			t.Fatalf("PlayerBySkeleton(%s): %v", who, err)
		}
		look := "\u0440" + who[1:] // Cyrillic er for the p: the same skeleton
		if _, err := a.Append(ctx, tailCommit(look)); !errors.As(err, &ce) || ce.Existing != who || ce.Index != sp.Index {
			t.Errorf("lookalike of %s (entry %d): %v; want a ConfusableNameError naming it", who, sp.Index, err)
		}
	}
	if _, err := a.Append(ctx, []byte(`{"kind":"commit","player":"player-1","action_type":"bid","channel":"#auctions","commitment":"`+fmt.Sprintf("%x", sha256.Sum256([]byte("again")))+`"}`)); err != nil {
		t.Errorf("a second commit by player-1: %v", err)
	}
	if p2, tl2 := tableRows(t, path); p2+tl2 != n+1 {
		t.Errorf("after a repeat player: %d players rows; want %d", p2+tl2, n+1)
	}
	if _, err := a.WaitCheckpoint(ctx, mustSize(t, a)); err != nil {
		t.Fatal(err)
	}
	rep, err := a.Audit(ctx, nil)
	if err != nil || !rep.OK {
		t.Fatalf("audit: %v, %+v", err, rep)
	}
}

func mustSize(t *testing.T, l *ledger.Ledger) int64 {
	t.Helper()
	n, err := l.Size()
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestPlayersTailTriggers: a players_tail row can be neither changed nor
// deleted by SQL (as every ledger table refuses both), except by moving
// it into players as the fold does; the refused statements change
// nothing and the audit stays clean.
func TestPlayersTailTriggers(t *testing.T) {
	ctx := context.Background()
	path, key := createTailFile(t)
	l := openTailLedger(t, path, key)
	for _, p := range []string{"alice", "bob"} {
		if _, err := l.Append(ctx, tailCommit(p)); err != nil {
			t.Fatal(err)
		}
	}
	db, err := sql.Open("sqlite3", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range []string{
		`DELETE FROM players_tail WHERE skeleton = 'alice'`,
		`UPDATE players_tail SET player = 'mallory' WHERE skeleton = 'alice'`,
		`DELETE FROM players_tail`,
	} {
		if _, err := db.Exec(q); err == nil || !strings.Contains(err.Error(), "append-only") {
			t.Errorf("%s: %v; want the trigger's refusal", q, err)
		}
	}
	if p, tl := tableRows(t, path); p != 0 || tl != 2 {
		t.Fatalf("after the refused statements: players %d, players_tail %d rows; want 0 and 2", p, tl)
	}
	// Moving a row, as the fold does, is allowed.
	if _, err := db.Exec(`INSERT INTO players(skeleton, player, idx) SELECT skeleton, player, idx FROM players_tail WHERE skeleton = 'alice';
		DELETE FROM players_tail WHERE skeleton = 'alice'`); err != nil {
		t.Fatalf("moving alice's row into players: %v", err)
	}
	if p, tl := tableRows(t, path); p != 1 || tl != 1 {
		t.Fatalf("after the move: players %d, players_tail %d rows; want 1 and 1", p, tl)
	}
	if _, err := l.WaitCheckpoint(ctx, mustSize(t, l)); err != nil {
		t.Fatal(err)
	}
	if rep, err := l.Audit(ctx, nil); err != nil || !rep.OK {
		t.Fatalf("audit: %v, %+v", err, rep)
	}
}

// createTailFile creates an empty ledger file and its signer key in a
// temporary directory and returns their paths.
func createTailFile(t *testing.T) (path, key string) {
	t.Helper()
	dir := t.TempDir()
	path, key = filepath.Join(dir, "l.db"), filepath.Join(dir, "l.key")
	s, err := Open(path, Options{Create: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := ledger.Create(context.Background(), s, "tail.example/log", key); err != nil {
		t.Fatal(err)
	}
	return path, key
}
