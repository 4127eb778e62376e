package pgstore_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/sealedhq/sealed/internal/pgtest"
	"github.com/sealedhq/sealed/ledger"
	"github.com/sealedhq/sealed/ledger/pgstore"
)

// nullTrigger is a row trigger function that drops the row (a BEFORE
// trigger returning NULL), which sealed's schema never has.
const nullTrigger = `CREATE FUNCTION foreign_null() RETURNS trigger LANGUAGE plpgsql AS $$BEGIN RETURN NULL; END$$`

// TestAppendRefusesDroppedInsert: a rule or trigger that is not in
// sealed's schema, added by the superuser while a writer is open, makes
// PostgreSQL store nothing for an INSERT without an error. The append
// must fail with ErrTampered, nothing past what is stored may be
// acknowledged or published as signed, and once the object is dropped
// appends go on and the audit is clean.
func TestAppendRefusesDroppedInsert(t *testing.T) {
	for _, c := range []struct {
		name, create, drop, table string
	}{
		{"entries rule", `CREATE RULE foreign_drop AS ON INSERT TO entries DO INSTEAD NOTHING`, `DROP RULE foreign_drop ON entries`, "entries"},
		{"entries trigger", `CREATE TRIGGER foreign_drop BEFORE INSERT ON entries FOR EACH ROW EXECUTE FUNCTION foreign_null()`, `DROP TRIGGER foreign_drop ON entries`, "entries"},
		{"hashes trigger", `CREATE TRIGGER foreign_drop BEFORE INSERT ON hashes FOR EACH ROW EXECUTE FUNCTION foreign_null()`, `DROP TRIGGER foreign_drop ON hashes`, "hashes"},
		{"players rule", `CREATE RULE foreign_drop AS ON INSERT TO players DO INSTEAD NOTHING`, `DROP RULE foreign_drop ON players`, "players"},
		{"checkpoints trigger", `CREATE TRIGGER foreign_drop BEFORE INSERT ON checkpoints FOR EACH ROW EXECUTE FUNCTION foreign_null()`, `DROP TRIGGER foreign_drop ON checkpoints`, "checkpoints"},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx := context.Background()
			url, key := newLedger(t)
			l := mustOpen(t, url, ledger.Options{KeyFile: key, CheckpointInterval: time.Millisecond})
			for i := range int64(3) {
				if _, err := l.Append(ctx, commitBody("before", i)); err != nil {
					t.Fatal(err)
				}
			}
			if err := pgtest.Exec(t, url, nullTrigger, c.create); err != nil {
				t.Fatal(err)
			}
			// Player p50 is new: the append writes entries, hashes and
			// players rows, the checkpoint after it a checkpoints row.
			idx, err := l.Append(ctx, commitBody("dropped", 50))
			if c.table != "checkpoints" {
				if !errors.Is(err, ledger.ErrTampered) {
					t.Fatalf("append with the inserts into %s dropped: %v, want ErrTampered", c.table, err)
				}
			} else {
				if err != nil {
					t.Fatalf("append (its checkpoint is not stored, the entry is): %v", err)
				}
				wctx, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
				cp, err := l.WaitCheckpoint(wctx, idx+1)
				cancel()
				if err == nil {
					t.Fatalf("checkpoint of size %d published, but its row was not stored", cp.Size)
				}
			}
			l.Close()
			c2, err := pgx.Connect(ctx, url)
			if err != nil {
				t.Fatal(err)
			}
			defer c2.Close(ctx)
			var n, cps int64
			if err := c2.QueryRow(ctx, `SELECT count(*), (SELECT coalesce(max(size), 0) FROM checkpoints) FROM entries`).Scan(&n, &cps); err != nil {
				t.Fatal(err)
			}
			if cps > n {
				t.Fatalf("a checkpoint of size %d is stored over %d entries", cps, n)
			}
			if c.table != "checkpoints" && n != 3 {
				t.Fatalf("%d entries stored after the refused append, want 3", n)
			}
			if err := pgtest.Exec(t, url, c.drop, `DROP FUNCTION foreign_null()`); err != nil {
				t.Fatal(err)
			}
			l2 := mustOpen(t, url, ledger.Options{KeyFile: key})
			if _, err := l2.Append(ctx, commitBody("later", 51)); err != nil {
				t.Fatalf("append once the %s is dropped: %v", c.name, err)
			}
			if rep, err := l2.Audit(ctx, nil); err != nil || !rep.OK {
				t.Fatalf("audit: %+v, %v", rep, err)
			}
		})
	}
}

// TestCopyInsertRefusesDroppedRows: a batch large enough to go by COPY
// (which runs row triggers but not rules) with a trigger dropping its
// rows fails with ErrTampered.
func TestCopyInsertRefusesDroppedRows(t *testing.T) {
	ctx := context.Background()
	url, _ := newLedger(t)
	s := openStore(t, url, pgstore.Options{})
	if err := pgtest.Exec(t, url, nullTrigger, `CREATE TRIGGER foreign_drop BEFORE INSERT ON entries FOR EACH ROW EXECUTE FUNCTION foreign_null()`); err != nil {
		t.Fatal(err)
	}
	const n = 300 // over copyMin
	es := make([]ledger.StoredEntry, n)
	for i := range es {
		es[i] = ledger.StoredEntry{Index: int64(i), Kind: ledger.KindCommit, Leaf: []byte(fmt.Sprint(i)), LeafHash: make([]byte, 32), Dedup: make([]byte, 32), Ref: -1}
	}
	err := s.Write(ctx, func(tx ledger.WriteTx) error { return tx.Insert(ctx, es, nil) })
	if !errors.Is(err, ledger.ErrTampered) {
		t.Fatalf("COPY of %d entries with a trigger dropping them: %v, want ErrTampered", n, err)
	}
}
