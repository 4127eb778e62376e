package sqlitestore_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/sealedhq/sealed/ledger"
	"github.com/sealedhq/sealed/ledger/sqlitestore"
)

// TestIndexDisagreesWithTable: one byte of a key changed in the file, in
// a B-tree that SQLite's quick_check does not hold to the rows, so that
// a lookup through it no longer finds its entry (trial 10b, finding 12,
// where a writer then admitted a duplicate the key guarded against). The
// audit finds it and names the B-tree:
//   - seed_commits_match, an SQLite index (PRAGMA integrity_check
//     compares it with its table; quick_check does not): an error
//     wrapping ledger.ErrTampered, the file damaged below its rows.
//   - lookup, the lookup keys kept as a table (migration 8: no SQLite
//     check relates it to the entries; the store's CheckLookup does): a
//     finding, as for a row changed by SQL.
func TestIndexDisagreesWithTable(t *testing.T) {
	for _, c := range []struct {
		name string // the index or WITHOUT ROWID table damaged
		// fold, if set, is run on the file first; key reads, from the
		// file, the bytes of the key changed.
		fold, key string
		integrity string // what PRAGMA integrity_check must say after
	}{
		{"seed_commits_match", "", `SELECT CAST(match_id AS BLOB) FROM seed_commits`, "seed_commits_match"},
		// The rows moved from lookup_tail into lookup, as the writer's
		// fold moves them once the tail is long.
		{"lookup", `INSERT INTO lookup(k, d, idx) SELECT k, d, idx FROM lookup_tail ORDER BY k, d, idx; DELETE FROM lookup_tail`,
			`SELECT d FROM lookup WHERE idx = 7`, "ok"},
	} {
		t.Run(c.name, func(t *testing.T) {
			db, key := newLedgerFile(t, 20)
			appendSeedCommit(t, db, key, "match-damage-0001")
			if c.fold != "" {
				w, err := sql.Open("sqlite3", "file:"+db)
				if err == nil {
					_, err = w.Exec(c.fold)
					w.Close()
				}
				if err != nil {
					t.Fatal(err)
				}
			}
			damageKey(t, db, c.name, c.key)

			r, err := sql.Open("sqlite3", "file:"+db+"?mode=ro")
			if err != nil {
				t.Fatal(err)
			}
			var quick, full string
			err = r.QueryRow(`PRAGMA quick_check`).Scan(&quick)
			if err == nil {
				err = r.QueryRow(`PRAGMA integrity_check`).Scan(&full)
			}
			r.Close()
			if err != nil || quick != "ok" || !strings.Contains(full, c.integrity) {
				t.Fatalf("quick_check = %q, integrity_check = %q, %v; want ok and %q: the case this test is for", quick, full, err, c.integrity)
			}

			s, err := sqlitestore.Open(db, sqlitestore.Options{ReadOnly: true})
			if err != nil {
				t.Fatal(err)
			}
			l, err := ledger.Open(context.Background(), s, ledger.Options{ReadOnly: true})
			if err != nil {
				t.Fatal(err)
			}
			defer l.Close()
			rep, err := l.Audit(context.Background(), nil)
			if c.integrity == "ok" {
				if err != nil || rep.OK || rep.Problem.Table != c.name {
					t.Errorf("audit = %+v, %v; want a finding naming %s", rep, err, c.name)
				}
			} else if !errors.Is(err, ledger.ErrTampered) || !strings.Contains(err.Error(), c.name) {
				t.Errorf("audit = %+v, %v; want an error wrapping ErrTampered naming %s", rep, err, c.name)
			}
		})
	}
}

// appendSeedCommit appends a seed-commit of match matchID to the ledger
// file db.
func appendSeedCommit(t *testing.T, db, key, matchID string) {
	t.Helper()
	ctx := context.Background()
	s, err := sqlitestore.Open(db, sqlitestore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	l, err := ledger.Open(ctx, s, ledger.Options{KeyFile: key})
	if err != nil {
		t.Fatal(err)
	}
	body := fmt.Sprintf(`{"kind":"seed-commit","game":"auction","match_id":%q,"rules_version":"1","config":{},"commitment":"%x"}`,
		matchID, sha256.Sum256([]byte(matchID)))
	if _, err := l.Append(ctx, []byte(body)); err != nil {
		t.Fatal(err)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
}

// damageKey flips the last bit of the bytes keySQL reads, where they
// appear once on the root page of the B-tree name (an index, or a
// WITHOUT ROWID table: small enough here for its root page to be its one
// leaf). The keys' order is kept.
func damageKey(t *testing.T, db, name, keySQL string) {
	t.Helper()
	c, err := sql.Open("sqlite3", "file:"+db+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	var root, pageSize int64
	var key []byte
	err = c.QueryRow(`SELECT rootpage FROM sqlite_master WHERE name = ?`, name).Scan(&root)
	if err == nil {
		err = c.QueryRow(`PRAGMA page_size`).Scan(&pageSize)
	}
	if err == nil {
		err = c.QueryRow(keySQL).Scan(&key)
	}
	c.Close()
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(db)
	if err != nil {
		t.Fatal(err)
	}
	page := data[(root-1)*pageSize : root*pageSize]
	if page[0] != 10 { // an index leaf page (fileformat2.html, "B-tree Pages")
		t.Fatalf("%s's root page has type %d; want 10, one leaf holding every key", name, page[0])
	}
	at := bytes.Index(page, key)
	if at < 0 || bytes.Contains(page[at+1:], key) {
		t.Fatalf("key %x is not on %s's page exactly once", key, name)
	}
	page[at+len(key)-1] ^= 0x01
	if err := os.WriteFile(db, data, 0o644); err != nil {
		t.Fatal(err)
	}
}
