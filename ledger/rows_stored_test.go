package ledger_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"testing"
	"time"

	_ "github.com/mattn/go-sqlite3"
	"github.com/sealedhq/sealed/ledger"
)

// TestAppendRefusesDroppedInsert: a trigger that is not in sealed's
// schema, added by another connection while a writer has the file open,
// makes SQLite skip the rows of a table (RAISE(IGNORE)) without an error.
// The append must fail with ErrTampered, nothing must be acknowledged or
// signed past what is stored, and once the trigger is gone appends go on
// and the audit is clean.
func TestAppendRefusesDroppedInsert(t *testing.T) {
	for _, table := range []string{"entries", "hashes", "players_tail", "lookup_tail", "checkpoints"} {
		t.Run(table, func(t *testing.T) {
			ctx := context.Background()
			db, key := edgeLedger(t, 3)
			l, err := openLedger(t, db, ledger.Options{KeyFile: key, CheckpointInterval: time.Millisecond})
			if err != nil {
				t.Fatal(err)
			}
			defer l.Close()
			before, err := l.Size()
			if err != nil {
				t.Fatal(err)
			}
			other, err := sql.Open("sqlite3", "file:"+db+"?_busy_timeout=10000")
			if err != nil {
				t.Fatal(err)
			}
			defer other.Close()
			trigger := fmt.Sprintf(`CREATE TRIGGER foreign_drop BEFORE INSERT ON %s BEGIN SELECT RAISE(IGNORE); END`, table)
			if _, err := other.Exec(trigger); err != nil {
				t.Fatal(err)
			}
			// A commit of a new player writes entries, hashes, lookup_tail and
			// players_tail rows; the checkpoint after it a checkpoints row.
			idx, err := l.Append(ctx, []byte(commitBody("newcomer", fmt.Sprintf("%064x", 777))))
			if table != "checkpoints" {
				if !errors.Is(err, ledger.ErrTampered) {
					t.Fatalf("append with inserts into %s dropped: %v, want ErrTampered", table, err)
				}
			} else {
				if err != nil {
					t.Fatalf("append (the entry is stored; its checkpoint is not): %v", err)
				}
				// The checkpoint covering it is never published: its
				// row was not stored.
				wctx, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
				cp, err := l.WaitCheckpoint(wctx, idx+1)
				cancel()
				if err == nil {
					t.Fatalf("checkpoint of size %d published, but its row was not stored", cp.Size)
				}
			}
			var n, cps int64
			if err := other.QueryRow(`SELECT count(*) FROM entries`).Scan(&n); err != nil {
				t.Fatal(err)
			}
			if err := other.QueryRow(`SELECT coalesce(max(size), 0) FROM checkpoints`).Scan(&cps); err != nil {
				t.Fatal(err)
			}
			if cps > n {
				t.Fatalf("a checkpoint of size %d is stored over %d entries", cps, n)
			}
			if table != "checkpoints" && n != before {
				t.Fatalf("%d entries stored after a refused append, want %d", n, before)
			}
			// Close says the entry appended is covered by no stored
			// checkpoint (ErrUnsigned) when that row was dropped.
			if err := l.Close(); err != nil && (table != "checkpoints" || !errors.Is(err, ledger.ErrUnsigned)) {
				t.Fatal(err)
			}
			if _, err := other.Exec(`DROP TRIGGER foreign_drop`); err != nil {
				t.Fatal(err)
			}
			l2, err := openLedger(t, db, ledger.Options{KeyFile: key})
			if err != nil {
				t.Fatal(err)
			}
			defer l2.Close()
			if _, err := l2.Append(ctx, []byte(commitBody("later", fmt.Sprintf("%064x", 778)))); err != nil {
				t.Fatalf("append once the trigger is gone: %v", err)
			}
			if err := l2.Close(); err != nil {
				t.Fatal(err)
			}
			ro, err := openLedger(t, db, ledger.Options{ReadOnly: true})
			if err != nil {
				t.Fatal(err)
			}
			defer ro.Close()
			rep, err := ro.Audit(ctx, nil)
			if err != nil || !rep.OK {
				t.Fatalf("audit after the trigger is gone: %v %+v", err, rep)
			}
		})
	}
}
