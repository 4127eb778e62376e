package sqlitestore

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"github.com/sealedhq/sealed/ledger"
)

// CheckLookup implements ledger.LookupChecker for lookup and lookup_tail
// (migration 8): their rows below index n, as a multiset, must be
// exactly the keys and indexes of the entries below n (lookupExpr,
// dedupExpr, idx of each): one row per entry, none else. Each side is
// read in one statement (one snapshot: a fold that moves rows from one
// table to the other meanwhile changes nothing) and summed as a keyed
// multiset hash (rowsDigest); only when the sums differ is the entry
// without its row looked for, one seek per entry (lookupMissingQuery,
// about 5 s at 1,000,000 entries, where the sums take about 1), to name
// it. Read in key order, the key rows also show two entries with the
// same keys side by side: a pair with the same whole duplicate key is a
// duplicate the log holds, reported as an entries finding (sameDedup).
// Rows at n or past it must name an entry the file holds (another
// writer may append during the audit). A file opened read-only that
// predates the tables has nothing to check (its index entries_lookup is
// SQLite's, checked by CheckIntegrity).
func (s *Store) CheckLookup(ctx context.Context, n int64) (table, what string, err error) {
	defer s.classify(&err)
	if ok, err := s.hasLookup.check(ctx, s, "lookup_tail"); err != nil || !ok {
		return "", "", err
	}
	var key [32]byte
	if _, err := rand.Read(key[:]); err != nil {
		return "", "", err
	}
	type result struct {
		d   rowsDigest
		err error
	}
	keys := make(chan result, 1)
	var same [][2]int64
	go func() {
		d, err := digestRows(ctx, s.r, key, &same, keyRowsQuery, n)
		keys <- result{d, err}
	}()
	want, err := digestRows(ctx, s.r, key, nil, `SELECT `+lookupExpr+`, `+dedupExpr+`, idx FROM entries WHERE idx < ?1`, n)
	got := <-keys
	if err != nil || got.err != nil {
		return "", "", fmt.Errorf("reading lookup: %w", errors.Join(err, got.err))
	}
	var past, first, last int64
	if err := s.r.QueryRowContext(ctx, lookupPastQuery, n).Scan(&past, &first, &last); err != nil {
		return "", "", fmt.Errorf("reading lookup: %w", err)
	}
	switch {
	case past == 1:
		return "lookup", fmt.Sprintf("a row of lookup or lookup_tail names entry %d, past the end of the log (its last entry is %d): a row was added", first, last), nil
	case past > 1:
		return "lookup", fmt.Sprintf("%d rows of lookup and lookup_tail name entries past the end of the log (its last entry is %d), the first of them entry %d: rows were added", past, last, first), nil
	case got.d != want:
		return s.nameLookupProblem(ctx, n, got.d.rows, want.rows)
	}
	return s.sameDedup(ctx, same)
}

// keyRowsQuery reads the key rows below n (?1) in key order: lookup in
// its primary key's order, merged with the small tail, sorted (no sort of
// lookup: lookup_test.go checks the plan).
const keyRowsQuery = `SELECT k, d, idx FROM lookup WHERE idx < ?1
	UNION ALL SELECT k, d, idx FROM lookup_tail WHERE idx < ?1 ORDER BY 1, 2`

// sameDedup reads the duplicate keys of the pairs of entries whose key
// rows are alike (digestRows found them next to each other in key order:
// rare, as an append refuses a duplicate) and reports a pair with the
// same whole key: the log holds a duplicate, which a writer admitted
// while the first one's key row was missing (what trusts the table,
// docs/ledger.md), as an entries finding.
func (s *Store) sameDedup(ctx context.Context, pairs [][2]int64) (table, what string, err error) {
	for _, p := range pairs {
		var a, b []byte
		err := s.r.QueryRowContext(ctx, `SELECT (SELECT dedup FROM entries WHERE idx = ?1), (SELECT dedup FROM entries WHERE idx = ?2)`, p[0], p[1]).Scan(&a, &b)
		if err != nil {
			return "", "", fmt.Errorf("reading entries: %w", err)
		}
		if len(a) == 32 && bytes.Equal(a, b) {
			first, second := min(p[0], p[1]), max(p[0], p[1])
			return "entries", fmt.Sprintf("entries %d and %d have the same duplicate key %x: the log holds a duplicate of entry %d (a writer admitted it while that entry's lookup key row was missing)", first, second, a, first), nil
		}
	}
	return "", "", nil
}

// nameLookupProblem names what differs once the key rows below n (rows of
// them) are not the keys of the entries below n (entries of them): an
// entry without its row (or whose dedup or commitment column changed
// type, which changes its keys while its bytes still pass the leaf's
// checks), an entry with two rows, else the counts. One seek per entry,
// then one pass.
func (s *Store) nameLookupProblem(ctx context.Context, n, rows, entries int64) (table, what string, err error) {
	counts := fmt.Sprintf("%d rows in lookup and lookup_tail for %d entries", rows, entries)
	var idx int64
	err = s.r.QueryRowContext(ctx, lookupMissingQuery, n).Scan(&idx)
	switch {
	case err == nil:
		var dedupType, commitmentType string
		if err := s.r.QueryRowContext(ctx, `SELECT typeof(dedup), typeof(commitment) FROM entries WHERE idx = ?`, idx).Scan(&dedupType, &commitmentType); err != nil {
			return "", "", fmt.Errorf("reading entries: %w", err)
		}
		if dedupType != "blob" {
			return "entries", fmt.Sprintf("entry %d: the dedup column holds %s; expected a blob (the entry's lookup keys no longer match it)", idx, sqliteType(dedupType)), nil
		}
		if commitmentType != "text" && commitmentType != "null" {
			return "entries", fmt.Sprintf("entry %d: the commitment column holds %s; expected text or NULL (the entry's lookup keys no longer match it)", idx, sqliteType(commitmentType)), nil
		}
		return "lookup", fmt.Sprintf("no row of lookup or lookup_tail holds entry %d's lookup keys (%s: a row was changed or deleted, and a duplicate of the entry, or its commitment, would not be found)", idx, counts), nil
	case !errors.Is(err, sql.ErrNoRows):
		return "", "", fmt.Errorf("reading lookup: %w", err)
	}
	err = s.r.QueryRowContext(ctx, lookupTwiceQuery, n).Scan(&idx)
	switch {
	case err == nil:
		return "lookup", fmt.Sprintf("entry %d has two rows of lookup keys (%s: a row was added)", idx, counts), nil
	case !errors.Is(err, sql.ErrNoRows):
		return "", "", fmt.Errorf("reading lookup: %w", err)
	case rows != entries:
		return "lookup", counts + "; expected one row of lookup keys per entry (rows were deleted or added)", nil
	}
	return "lookup", "the rows of lookup and lookup_tail are not the entries' lookup keys, one row each (a row was changed)", nil
}

// sqliteType says what a value of SQLite's storage class t (typeof) is:
// "text", "NULL", "a blob", "an integer", "a real".
func sqliteType(t string) string {
	switch t {
	case "text":
		return t
	case "null":
		return "NULL"
	}
	return ledger.WithArticle(t)
}

// lookupTwiceQuery finds an entry below n (?1) with more than one key
// row.
const lookupTwiceQuery = `SELECT idx FROM (SELECT idx FROM lookup WHERE idx < ?1 UNION ALL SELECT idx FROM lookup_tail WHERE idx < ?1)
	GROUP BY idx HAVING count(*) > 1 LIMIT 1`

// lookupPastQuery counts the rows of lookup and lookup_tail at index n
// (?1) or past it that name no entry the file holds, in one snapshot,
// and reads the smallest index they name and the last entry's index (-1
// if none).
const lookupPastQuery = `WITH last(m) AS (SELECT coalesce(max(idx), -1) FROM entries),
	past(idx) AS (SELECT idx FROM lookup, last WHERE idx >= ?1 AND idx > m
		UNION ALL SELECT idx FROM lookup_tail, last WHERE idx >= ?1 AND idx > m)
	SELECT count(*), coalesce(min(idx), -1), (SELECT m FROM last) FROM past`

// lookupMissingQuery finds an entry below index n (?1) with no row of its
// keys in lookup or lookup_tail: one seek of each table's key per entry.
const lookupMissingQuery = `SELECT e.idx FROM entries AS e
	WHERE e.idx < ?1 AND NOT EXISTS (SELECT 1 FROM lookup AS l
		WHERE l.k = ` + lookupExprE + ` AND l.d = ` + dedupExprE + ` AND l.idx = e.idx)
	AND NOT EXISTS (SELECT 1 FROM lookup_tail AS t
		WHERE t.idx = e.idx AND t.k = ` + lookupExprE + ` AND t.d = ` + dedupExprE + `)
	LIMIT 1`

// rowsDigest is a multiset hash of rows: their count and the sum, lane
// by lane modulo 2^64, of SHA-256(key || row) over the rows, the key 32
// random bytes drawn for one check. Whoever changed the rows did so
// without the key, so the rows' hashes are independent random values to
// them, and two different multisets sum alike with probability about
// 2^-256 (a sum without a key would be open to a generalised birthday
// search over chosen rows).
type rowsDigest struct {
	rows int64
	sum  [4]uint64
}

// digestRows reads the rows of q run with args (three columns: two keys
// and an index, each read as the value SQLite holds) into a rowsDigest
// under key. With same not nil, the rows come in key order, and the
// indexes of each two rows next to each other with the same keys are
// appended to it.
func digestRows(ctx context.Context, db *sql.DB, key [32]byte, same *[][2]int64, q string, args ...any) (rowsDigest, error) {
	var d rowsDigest
	rows, err := db.QueryContext(ctx, q, args...)
	if err != nil {
		return d, err
	}
	defer rows.Close()
	buf := make([]byte, 0, 128)
	var prevKeys []byte
	var prevIdx any
	var k, dk, idx any
	for rows.Next() {
		if err := rows.Scan(&k, &dk, &idx); err != nil {
			return d, err
		}
		buf = append(buf[:0], key[:]...)
		keys := len(buf)
		buf = appendValue(appendValue(buf, k), dk)
		if same != nil {
			if d.rows > 0 && bytes.Equal(buf[keys:], prevKeys) {
				i, iok := prevIdx.(int64)
				j, jok := idx.(int64)
				if iok && jok {
					*same = append(*same, [2]int64{i, j})
				}
			}
			prevKeys, prevIdx = append(prevKeys[:0], buf[keys:]...), idx
		}
		buf = appendValue(buf, idx)
		h := sha256.Sum256(buf)
		for i := range d.sum {
			d.sum[i] += binary.LittleEndian.Uint64(h[8*i:])
		}
		d.rows++
	}
	return d, rows.Err()
}

// appendValue appends an SQLite value as a type tag and its bytes
// (length-prefixed where they vary), so that values of different types
// or lengths never encode alike.
func appendValue(b []byte, v any) []byte {
	switch v := v.(type) {
	case nil:
		return append(b, 'n')
	case int64:
		return binary.BigEndian.AppendUint64(append(b, 'i'), uint64(v))
	case float64:
		return binary.BigEndian.AppendUint64(append(b, 'f'), math.Float64bits(v))
	case string:
		return append(binary.BigEndian.AppendUint32(append(b, 't'), uint32(len(v))), v...)
	case []byte:
		return append(binary.BigEndian.AppendUint32(append(b, 'b'), uint32(len(v))), v...)
	default:
		return fmt.Appendf(append(b, '?'), "%T %v;", v, v)
	}
}
