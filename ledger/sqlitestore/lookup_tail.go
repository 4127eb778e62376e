package sqlitestore

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/sealedhq/sealed/ledger"
)

// lookupFoldAt is how many rows lookup_tail holds before the append that
// reaches it moves them into lookup (lookupTail.fold). A fold writes each
// page of lookup it touches once: on a young ledger that is a few pages
// for thousands of keys; on one of 1,000,000 entries (about 9,000 leaf
// pages of 30-byte keys) about 5,000 pages for 8,192 keys, still fewer
// than the one random page per append of an index. Readers scan the
// tail, so it stays small: 8,192 rows of about 35 bytes.
var lookupFoldAt = 8192

// lookupTail is the writer's copy of lookup_tail (schema.sql, migration
// 8): the indexes of its rows by their keys (tailKey), so a batch's
// duplicate lookups in the tail cost no scan; the entries found are read
// by index, as those found in lookup are. It is valid for the table's
// state (lo, hi): its smallest and largest index, which change whenever
// anyone writes the table (rows are only appended at larger indexes, or
// all moved out by a fold). Entries 0..keyedTo-1 are known to have their
// key rows (as far as writers of this schema keep them). Used only inside
// the writer's transactions (Store.Write holds writeMu).
type lookupTail struct {
	valid   bool
	lo, hi  int64              // min and max idx of lookup_tail; -1, -1 when empty
	n       int64              // its rows
	byKey   map[string]int64   // the index of each key's row
	more    map[string][]int64 // the indexes of further rows of a key (rare: keys are 16 bytes of a hash)
	keyedTo int64
}

// lookupBoundsQuery reads lookup_tail's smallest and largest index and
// the last entry's index (each one rowid seek), -1 when the table is
// empty.
const lookupBoundsQuery = `SELECT coalesce((SELECT min(idx) FROM lookup_tail), -1), coalesce((SELECT max(idx) FROM lookup_tail), -1),
	coalesce((SELECT max(idx) FROM entries), -1)`

// keyedQuery reports whether entry ?1 has its key row, in lookup_tail
// (by index) or lookup (by its keys): NULL if there is no such entry.
const keyedQuery = `SELECT EXISTS (SELECT 1 FROM lookup_tail AS t WHERE t.idx = e.idx)
	OR EXISTS (SELECT 1 FROM lookup AS l WHERE l.k = ` + lookupExprE + ` AND l.d = ` + dedupExprE + ` AND l.idx = e.idx)
	FROM entries AS e WHERE e.idx = ?1`

// keyMissing writes the key rows of entries from..to (SQL computes them
// from the entries' columns, as migration 8 did).
const keyMissing = `INSERT INTO lookup_tail(idx, k, d) SELECT idx, ` + lookupExpr + `, ` + dedupExpr + ` FROM entries WHERE idx >= ?1 AND idx <= ?2`

// appendTailKey appends to b the map key of a row's keys k (text or
// blob, told apart) and d.
func appendTailKey(b []byte, text bool, k, d []byte) []byte {
	tag := byte('b')
	if text {
		tag = 't'
	}
	return append(append(append(b, tag, byte(len(k))), k...), d...)
}

// appendEntryKey appends to b the map key of the keys lookupKeys gives
// for an entry's commitment and dedup columns.
func appendEntryKey(b []byte, commitment string, dedup []byte) []byte {
	k, text, d := entryKeys(commitment, dedup)
	if text {
		return append(append(append(b, 't', byte(len(k))), k...), d...)
	}
	return appendTailKey(b, false, d, d)
}

// tailHint is the size to make a tail's map for: the rows its bounds lo,
// hi (indexes; -1, -1 when empty) can hold, at most foldAt; foldAt when
// it is empty.
func tailHint(lo, hi int64, foldAt int) int {
	if lo < 0 || hi < lo {
		return foldAt
	}
	return int(min(hi-lo+1, int64(foldAt)))
}

// add records that the row of entry idx has the keys of map key key.
func (lt *lookupTail) add(key []byte, idx int64) {
	if _, ok := lt.byKey[string(key)]; !ok {
		lt.byKey[string(key)] = idx
		return
	}
	if lt.more == nil {
		lt.more = map[string][]int64{}
	}
	lt.more[string(key)] = append(lt.more[string(key)], idx)
}

// appendIndexes appends to dst the indexes of the rows whose keys have
// map key key.
func (lt *lookupTail) appendIndexes(dst []int64, key []byte) []int64 {
	if i, ok := lt.byKey[string(key)]; ok {
		dst = append(dst, i)
		dst = append(dst, lt.more[string(key)]...)
	}
	return dst
}

// sync makes the copy match the table as tx sees it (bounds is
// lookupBoundsQuery prepared on the writer connection): it compares the
// bounds and reads the whole tail again (at most about lookupFoldAt
// small rows) if they moved (another process appended or folded) or the
// copy was invalidated by a failed commit or a fold.
//
// Entries at the end of the log without key rows were appended by a
// writer of an earlier sealed, still running when this one migrated the
// file (it knows nothing of the tables): their rows are written first,
// so that this batch's duplicate lookups see them.
func (lt *lookupTail) sync(ctx context.Context, tx *sql.Tx, bounds *sql.Stmt) error {
	var lo, hi, last int64
	if err := tx.StmtContext(ctx, bounds).QueryRowContext(ctx).Scan(&lo, &hi, &last); err != nil {
		return fmt.Errorf("reading lookup_tail: %w", err)
	}
	if lt.valid && lo == lt.lo && hi == lt.hi && last < lt.keyedTo {
		return nil
	}
	// The entries up to the tail's last row have theirs (those below it
	// were folded with it, or are in it).
	if known := max(hi+1, lt.keyedTo); last >= known {
		// Whatever is missing is a suffix of the log: walk back from its
		// end to the first entry with its row.
		from := last + 1
		for from-1 >= known {
			var has sql.NullBool
			if err := tx.QueryRowContext(ctx, keyedQuery, from-1).Scan(&has); err != nil {
				return fmt.Errorf("reading lookup: %w", err)
			}
			if has.Valid && has.Bool {
				break
			}
			from--
		}
		if from <= last {
			if _, err := tx.ExecContext(ctx, keyMissing, from, last); err != nil {
				return fmt.Errorf("writing the lookup keys of entries %d..%d, appended by a writer of an earlier sealed: %w", from, last, err)
			}
			if err := tx.StmtContext(ctx, bounds).QueryRowContext(ctx).Scan(&lo, &hi, &last); err != nil {
				return fmt.Errorf("reading lookup_tail: %w", err)
			}
		}
	}
	lt.keyedTo = last + 1
	if lt.valid && lo == lt.lo && hi == lt.hi {
		return nil
	}
	rows, err := tx.QueryContext(ctx, `SELECT idx, typeof(k) = 'text', k, d FROM lookup_tail`)
	if err != nil {
		return fmt.Errorf("reading lookup_tail: %w", err)
	}
	defer rows.Close()
	// Sized for the rows read, or for a full tail when it is empty (a
	// fold, so that it does not grow append by append). Invalid until
	// every row is read.
	lt.valid = false
	lt.byKey, lt.more = make(map[string]int64, tailHint(lo, hi, lookupFoldAt)), nil
	n := int64(0)
	var buf []byte
	var idx int64
	var text bool
	var k, d sql.RawBytes
	for rows.Next() {
		if err := rows.Scan(&idx, &text, &k, &d); err != nil {
			return fmt.Errorf("reading lookup_tail: %w", err)
		}
		buf = appendTailKey(buf[:0], text, k, d)
		lt.add(buf, idx)
		n++
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("reading lookup_tail: %w", err)
	}
	lt.valid, lt.lo, lt.hi, lt.n = true, lo, hi, n
	return nil
}

// added records the entries a committed transaction appended to
// lookup_tail.
func (lt *lookupTail) added(entries []ledger.StoredEntry) {
	var buf [2 + 16 + 8]byte
	for _, e := range entries {
		lt.add(appendEntryKey(buf[:0], e.Commitment, e.Dedup), e.Index)
		if lt.lo < 0 {
			lt.lo = e.Index
		}
		lt.hi = max(lt.hi, e.Index)
		lt.keyedTo = max(lt.keyedTo, e.Index+1)
		lt.n++
	}
}

// lookupFoldSQL moves the tail's rows into lookup in key order (one pass
// over the B-tree) and deletes the rows moved. A row lookup already holds
// (a tampered table) is not moved twice; the audit finds it.
const lookupFoldSQL = `INSERT INTO lookup(k, d, idx)
	SELECT k, d, idx FROM lookup_tail WHERE true ORDER BY k, d, idx
	ON CONFLICT DO NOTHING;
DELETE FROM lookup_tail WHERE EXISTS (SELECT 1 FROM lookup l
	WHERE l.k = lookup_tail.k AND l.d = lookup_tail.d AND l.idx = lookup_tail.idx)`

// fold runs lookupFoldSQL in tx when the tail (with staged, the rows tx
// appended) has reached lookupFoldAt rows, and reports whether it did.
func (lt *lookupTail) fold(ctx context.Context, tx *sql.Tx, staged int) (bool, error) {
	if !lt.valid || lt.n+int64(staged) < int64(lookupFoldAt) {
		return false, nil
	}
	if _, err := tx.ExecContext(ctx, lookupFoldSQL); err != nil {
		return false, fmt.Errorf("moving lookup_tail into lookup: %w", err)
	}
	return true, nil
}

// lookupKeys are an entry's two keys in lookup and lookup_tail, as the
// expressions lookupExpr and dedupExpr compute them from its columns: the
// commitment's first 16 characters (text) for an entry with one, else
// the duplicate key's first 8 bytes (blob); and the duplicate key's first
// 8 bytes.
func lookupKeys(commitment string, dedup []byte) (k, d any) {
	ck, text, dk := entryKeys(commitment, dedup)
	if text {
		return ck, dk
	}
	return dk, dk
}

// entryKeys is the rule lookupKeys and appendEntryKey share, unboxed: the
// commitment's first 16 characters as k (text true) for an entry with
// one, and the duplicate key's first 8 bytes as d (also the key k, a
// blob, when text is false).
func entryKeys(commitment string, dedup []byte) (k string, text bool, d []byte) {
	d = dedup[:min(8, len(dedup))]
	if commitment != "" {
		return commitment[:min(16, len(commitment))], true, d
	}
	return "", false, d
}

// dupQuery looks one probe up in lookup (migration 8) by its keys: one
// seek of lookup's primary key. One prepared statement run per probe
// costs a few microseconds; an OR of 64 such terms in one statement cost
// about 25 a probe (SQLite's multi-index OR collects and sorts the
// rowids), and a row-value IN list is not seeked at all (lookup_test.go
// checks the plan). Joined here with entries for the kind and the whole
// duplicate key, each arm cost 10 µs instead of 0.5, found or not: the
// caller reads the few entries found by index. The tail is the writer's
// copy.
const dupQuery = `SELECT idx FROM lookup WHERE k = ? AND d = ?`

// commitmentQuery (after queryEntries' SELECT) reads the entries whose
// lookup key is ?1 (lookup's primary key, then a scan of the small tail)
// and whose commitment column is ?2, in one statement, so one snapshot:
// a fold committed between two reads cannot hide a row.
const commitmentQuery = `WHERE idx IN (
	SELECT idx FROM lookup WHERE k = ?1 UNION ALL SELECT idx FROM lookup_tail WHERE k = ?1)
	AND commitment = ?2`

// commitmentQueryOld is commitmentQuery on a file opened read-only whose
// schema predates migration 8: the expression of the index
// entries_lookup (migration 5) names it.
const commitmentQueryOld = `WHERE ` + lookupExpr + ` = ?1 AND commitment = ?2`

// lookupExpr and dedupExpr compute an entry's keys from its columns: the
// columns of migration 5's index entries_lookup (a query on a file that
// still has it uses the index only when it names them exactly), and of
// lookup and lookup_tail.
const (
	lookupExpr = `coalesce(substr(commitment, 1, 16), substr(dedup, 1, 8))`
	dedupExpr  = `substr(dedup, 1, 8)`
	// lookupExprE and dedupExprE are the two on the entries row named e
	// in a query that reads other tables too.
	lookupExprE = `coalesce(substr(e.commitment, 1, 16), substr(e.dedup, 1, 8))`
	dedupExprE  = `substr(e.dedup, 1, 8)`
)

// lookupKey is p's key k: the commitment's first 16 characters (text) for
// a commit, the duplicate key's first 8 bytes (blob) otherwise.
func lookupKey(p ledger.DuplicateProbe) any {
	k, _ := lookupKeys(p.Commitment, p.Dedup[:])
	return k
}
