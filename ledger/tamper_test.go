package ledger_test

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sealedhq/sealed/ledger"
	"golang.org/x/mod/sumdb/tlog"
)

// copyFile copies the closed database file to a new temp dir.
func copyFile(t *testing.T, src string) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), "copy.db")
	in, err := os.Open(src)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.Create(dst)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	out.Close()
	return dst
}

// attack opens the SQLite file directly, as an attacker with the file
// would, and runs the statements.
func attack(t *testing.T, path string, stmts ...string) error {
	t.Helper()
	db, err := sql.Open("sqlite3", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, s := range stmts {
		if _, err := db.Exec(s); err != nil {
			return err
		}
	}
	return nil
}

const dropTriggers = `DROP TRIGGER entries_no_update; DROP TRIGGER hashes_no_update;
	DROP TRIGGER checkpoints_no_update; DROP TRIGGER entries_no_delete`

// flipByte flips the low bit of byte pos (0-based) of column col of the
// row of table where, directly in the file.
func flipByte(t *testing.T, path, table, col, where string, pos int) error {
	db, err := sql.Open("sqlite3", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var b []byte
	if err := db.QueryRow(`SELECT ` + col + ` FROM ` + table + ` WHERE ` + where).Scan(&b); err != nil {
		return err
	}
	b[pos] ^= 1
	_, err = db.Exec(`UPDATE `+table+` SET `+col+` = ? WHERE `+where, b)
	return err
}

// TestTamper changes one byte of an entry body, a leaf hash, a stored
// hash and a checkpoint directly in the file (after dropping the
// triggers): the audit must fail and name the entry (or checkpoint).
func TestTamper(t *testing.T) {
	l, dbPath, _ := newTestLedger(t, ledger.Options{})
	ctx := context.Background()
	for i := range 20 {
		if _, err := l.Append(ctx, []byte(commitBody(fmt.Sprintf("p%d", i), hashA))); err != nil {
			t.Fatal(err)
		}
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	// The triggers refuse changes while they exist.
	c := copyFile(t, dbPath)
	for _, s := range []string{`UPDATE entries SET body = x'00' WHERE idx = 3`, `DELETE FROM entries WHERE idx = 19`,
		`UPDATE hashes SET hash = x'00' WHERE id = 0`, `DELETE FROM hashes WHERE id = 0`, `DELETE FROM checkpoints`} {
		if err := attack(t, c, s); err == nil || !strings.Contains(err.Error(), "append-only") {
			t.Errorf("%s: %v, want the trigger's refusal", s, err)
		}
	}
	// Stored hash 9 is level 1, node 2 (leaves 4 and 5), written with entry 5:
	// leaves 0..5 take ids 0,1,3,4,7,8 and the level-1/2 nodes 2,5,6,9.
	if lv, n := tlog.SplitStoredHashIndex(9); lv != 1 || n != 2 {
		t.Fatalf("stored hash 9 = level %d node %d", lv, n)
	}
	type flip struct {
		table, col, where string
		pos               int
	}
	cases := []struct {
		name       string
		flip       *flip
		sql        string
		index, cpt int64
		what       string
	}{
		{"body", &flip{"entries", "body", "idx = 7", 40}, "", 7, -1, "body hashes to"},
		{"body byte 0", &flip{"entries", "body", "idx = 0", 0}, "", 0, -1, "body hashes to"},
		{"leaf hash", &flip{"entries", "leaf_hash", "idx = 12", 5}, "", 12, -1, "stored leaf hash"},
		{"stored leaf hash", &flip{"hashes", "hash", fmt.Sprintf("id = %d", tlog.StoredHashIndex(0, 16)), 31}, "", 16, -1, "level 0, node 16"},
		{"stored node hash", &flip{"hashes", "hash", "id = 9", 0}, "", 5, -1, "level 1, node 2"},
		{"deleted entry", nil, `DELETE FROM entries WHERE idx = 9`, 9, -1, "missing"},
		// The lookup columns rulings read must equal the signed leaf.
		{"kind column", nil, `UPDATE entries SET kind = 'result' WHERE idx = 4`, 4, -1, "columns disagree with the leaf"},
		{"posted_at column", nil, `UPDATE entries SET posted_at = 1795132800000000000 WHERE idx = 5`, 5, -1, "columns disagree with the leaf"},
		// Trial 14: a row copied far past the end was named as stored
		// hash 0 missing (the hash ids of a log that large overflow).
		{"row far past the end", nil, `INSERT INTO entries SELECT 9223372036854775806, kind, body, leaf_hash, integrated_at, posted_at, dedup, commitment, ref FROM entries WHERE idx = 19`, 9223372036854775806, -1, "past the size any log can have"},
		{"row past the end", nil, `INSERT INTO entries SELECT 100000, kind, body, leaf_hash, integrated_at, posted_at, dedup, commitment, ref FROM entries WHERE idx = 19`, 20, -1, "missing"},
		// Trial 14: a text posted_at stopped the audit with a scan error.
		{"posted_at column as text", nil, `UPDATE entries SET posted_at = 'x' WHERE idx = 5`, 5, -1, `posted_at "x" (leaf`},
		{"commitment column", nil, `UPDATE entries SET commitment = NULL WHERE idx = 6`, 6, -1, "columns disagree with the leaf"},
		{"ref column", nil, `UPDATE entries SET ref = 3 WHERE idx = 8`, 8, -1, "columns disagree with the leaf"},
		{"truncated log", nil, fmt.Sprintf(`DROP TRIGGER hashes_no_delete; DELETE FROM entries WHERE idx >= 17; DELETE FROM hashes WHERE id >= %d`, tlog.StoredHashIndex(0, 17)), 17, 20, "missing"},
		{"checkpoint root", &flip{"checkpoints", "root", "size = 20", 3}, "", -1, 20, "differ from the stored"},
		{"checkpoint note", &flip{"checkpoints", "note", "size = 20", 30}, "", -1, 20, "checkpoint"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := copyFile(t, dbPath)
			if err := attack(t, c, dropTriggers); err != nil {
				t.Fatal(err)
			}
			if tc.flip != nil {
				if err := flipByte(t, c, tc.flip.table, tc.flip.col, tc.flip.where, tc.flip.pos); err != nil {
					t.Fatal(err)
				}
			} else if err := attack(t, c, tc.sql); err != nil {
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
				t.Fatalf("audit passed after tampering with the %s", tc.name)
			}
			p := rep.Problem
			t.Logf("audit: %s", p)
			if p.Index != tc.index || p.Checkpoint != tc.cpt || !strings.Contains(p.What, tc.what) {
				t.Errorf("problem %+v, want index %d checkpoint %d and %q", p, tc.index, tc.cpt, tc.what)
			}
		})
	}
}
