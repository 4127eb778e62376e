package ledger_test

import (
	"context"
	"database/sql"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/sealedhq/sealed/ledger"
)

// TestTrial16CheckpointRowsReordered: the audit holds the checkpoints rows
// "in storing order: ids 1, 2, 3, ... without a gap" (ledger/audit.go), but
// only checks that the ids are dense. Swapping the ids of two checkpoint
// rows (triggers dropped, the swap made, the trigger put back as it was)
// leaves row id 3 a checkpoint of size 5 and row id 6 one of size 2: the
// rows no longer run in the order they were signed (a log never signs a
// smaller tree after a larger one; on a ledger signed over several
// seconds the created_at times go back with the ids too, and that passes
// as well: checked with the CLI on a 700-entry ledger, rows 100 and 600),
// and the audit passes. `ledger copy` then copies them "in the order
// they were signed", which is this altered order, and its audit passes
// too.
func TestTrial16CheckpointRowsReordered(t *testing.T) {
	var mu sync.Mutex
	now := time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)
	clock := func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		now = now.Add(time.Second)
		return now
	}
	l, dbPath, _ := newTestLedger(t, ledger.Options{Clock: clock, CheckpointInterval: time.Millisecond})
	ctx := context.Background()
	for i := range 8 {
		if _, err := l.Append(ctx, []byte(commitBody(fmt.Sprintf("p%d", i), hashA))); err != nil {
			t.Fatal(err)
		}
		if _, err := l.WaitCheckpoint(ctx, int64(i)+1); err != nil {
			t.Fatal(err)
		}
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	c := copyFile(t, dbPath)
	db, err := sql.Open("sqlite3", "file:"+c)
	if err != nil {
		t.Fatal(err)
	}
	var trigger string
	if err := db.QueryRow(`SELECT sql FROM sqlite_master WHERE name = 'checkpoints_no_update'`).Scan(&trigger); err != nil {
		t.Fatal(err)
	}
	var s3, s6, t3, t6 int64
	if err := db.QueryRow(`SELECT a.size, b.size, a.created_at, b.created_at FROM checkpoints a, checkpoints b WHERE a.id = 3 AND b.id = 6`).Scan(&s3, &s6, &t3, &t6); err != nil {
		t.Fatal(err)
	}
	if s3 >= s6 || t3 > t6 {
		t.Fatalf("setup: checkpoint rows 3 and 6 are of sizes %d, %d signed at %d, %d; want them growing", s3, s6, t3, t6)
	}
	db.Close()
	if err := attack(t, c, `DROP TRIGGER checkpoints_no_update`,
		`UPDATE checkpoints SET id = -1 WHERE id = 3`,
		`UPDATE checkpoints SET id = 3 WHERE id = 6`,
		`UPDATE checkpoints SET id = 6 WHERE id = -1`,
		trigger); err != nil {
		t.Fatal(err)
	}
	ro, err := openLedger(t, c, ledger.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	rep, err := ro.Audit(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if rep.OK || rep.Problem == nil {
		t.Fatalf("audit passed a ledger whose checkpoints rows 3 and 6 were swapped: row id 3 is now of size %d signed at %s, row id 6 of size %d signed at %s",
			s6, time.Unix(0, t6).UTC().Format(time.RFC3339), s3, time.Unix(0, t3).UTC().Format(time.RFC3339))
	}
	t.Logf("audit: %s", rep.Problem)
}
