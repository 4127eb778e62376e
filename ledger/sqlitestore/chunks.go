package sqlitestore

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/sealedhq/sealed/ledger"
)

// The audit's fast path (ledger.ChunkReader, ledger.ColumnChecker,
// ledger.PlayerReader): a
// range of rows read as a few aggregated blobs, one row through the
// driver instead of thousands. The audit uses a chunk only if every count
// and length shows every row of the range present; otherwise it reads the
// range row by row, and that reading decides what is reported.

// entryChunkQuery reads entries [?, ?) in index order as: the row count,
// the count of non-null integration times, the shortest leaf hash, the
// bodies concatenated, the leaf hashes concatenated, the body lengths and
// the integration times as comma-separated decimals. length() of a blob
// is its size in bytes, and of anything else at most the size of the
// text group_concat writes for it, so when the lengths add up to the
// concatenation every row's length is exact; a null body, leaf hash or
// time drops out of its aggregate and the counts no longer match.
const entryChunkQuery = `SELECT count(*), count(integrated_at), coalesce(min(length(leaf_hash)), 0),
	CAST(group_concat(body, '') AS BLOB), CAST(group_concat(leaf_hash, '') AS BLOB),
	CAST(group_concat(length(body), ',') AS BLOB), CAST(group_concat(integrated_at, ',') AS BLOB),
	coalesce(min(length(dedup)), 0), CAST(group_concat(dedup, '') AS BLOB)
	FROM (SELECT body, leaf_hash, integrated_at, dedup FROM entries WHERE idx >= ? AND idx < ? ORDER BY idx)`

// entryLeavesQuery is entryChunkQuery without the duplicate keys, and
// with the ref column (the chunk's Leaves): the storage class of its
// maximum and the column comma-separated, NULL as ”.
const entryLeavesQuery = `SELECT count(*), count(integrated_at), coalesce(min(length(leaf_hash)), 0),
	CAST(group_concat(body, '') AS BLOB), CAST(group_concat(leaf_hash, '') AS BLOB),
	CAST(group_concat(length(body), ',') AS BLOB), CAST(group_concat(integrated_at, ',') AS BLOB),
	typeof(max(ref)), CAST(group_concat(coalesce(ref, ''), ',') AS BLOB)
	FROM (SELECT body, leaf_hash, integrated_at, ref FROM entries WHERE idx >= ? AND idx < ? ORDER BY idx)`

// entryColumnsQuery is entryChunkQuery and the lookup columns, as
// ledger.EntryChunk describes them: the counts of non-NULL kind and
// commitment, the storage classes of their extremes, and each column
// comma-separated with NULL as ”.
const entryColumnsQuery = `SELECT count(*), count(integrated_at), coalesce(min(length(leaf_hash)), 0),
	CAST(group_concat(body, '') AS BLOB), CAST(group_concat(leaf_hash, '') AS BLOB),
	CAST(group_concat(length(body), ',') AS BLOB), CAST(group_concat(integrated_at, ',') AS BLOB),
	coalesce(min(length(dedup)), 0), CAST(group_concat(dedup, '') AS BLOB),
	count(kind), count(commitment),
	typeof(min(kind)) || ' ' || typeof(max(kind)) || ' ' || typeof(max(posted_at)) || ' ' || typeof(max(ref)) || ' ' ||
		typeof(min(commitment)) || ' ' || typeof(max(commitment)),
	CAST(group_concat(kind, ',') AS BLOB), CAST(group_concat(coalesce(posted_at, ''), ',') AS BLOB),
	CAST(group_concat(coalesce(ref, ''), ',') AS BLOB), CAST(group_concat(coalesce(commitment, ''), ',') AS BLOB)
	FROM (SELECT body, leaf_hash, integrated_at, dedup, kind, posted_at, ref, commitment FROM entries WHERE idx >= ? AND idx < ? ORDER BY idx)`

// hashChunkQuery reads stored hashes [?, ?) in id order as: the row
// count, the shortest hash and the hashes concatenated (a count of rows
// whose shortest is 32 bytes and whose concatenation is 32 bytes each has
// every hash 32 bytes long).
const hashChunkQuery = `SELECT count(*), coalesce(min(length(hash)), 0), CAST(group_concat(hash, '') AS BLOB)
	FROM (SELECT hash FROM hashes WHERE id >= ? AND id < ? ORDER BY id)`

// utf8 reports whether the database is UTF-8: SQLite keeps blob bytes
// unchanged through group_concat only then (the ledger creates UTF-8
// databases). Otherwise the chunk reads return empty aggregates, which
// never check out, and the audit reads rows.
func (s *Store) utf8(ctx context.Context) (bool, error) {
	s.encOnce.Do(func() {
		var enc string
		s.encErr = s.r.QueryRowContext(ctx, `PRAGMA encoding`).Scan(&enc)
		s.encUTF8 = strings.EqualFold(enc, "UTF-8")
	})
	return s.encUTF8, s.encErr
}

// EntryChunk implements ledger.ChunkReader.
func (s *Store) EntryChunk(ctx context.Context, from, to int64, c *ledger.EntryChunk) (err error) {
	defer s.classify(&err)
	if ok, err := s.utf8(ctx); err != nil || !ok {
		*c = ledger.EntryChunk{Count: -1}
		return err
	}
	q := entryChunkQuery
	leaves := c.Leaves && !c.Columns
	switch {
	case c.Columns:
		q = entryColumnsQuery
	case leaves:
		q = entryLeavesQuery
	}
	rows, err := s.r.QueryContext(ctx, q, from, to)
	if err != nil {
		return err
	}
	defer rows.Close()
	if !rows.Next() {
		if err := rows.Err(); err != nil {
			return err
		}
		return fmt.Errorf("audit: no row from the entry chunk query")
	}
	var bodies, hashes, lengths, instants, dedups sql.RawBytes
	var kinds, posted, refs, commitments sql.RawBytes
	dest := []any{&c.Count, &c.Times, &c.MinLeafHash, &bodies, &hashes, &lengths, &instants}
	switch {
	case leaves:
		dest = append(dest, &c.RefType, &refs)
	case c.Columns:
		dest = append(dest, &c.MinDedup, &dedups, &c.KindRows, &c.CommitmentRows, &c.Types, &kinds, &posted, &refs, &commitments)
	default:
		dest = append(dest, &c.MinDedup, &dedups)
	}
	if err := rows.Scan(dest...); err != nil {
		return err
	}
	if c.HasRefs = leaves; leaves {
		c.Refs = keep(c.Refs, refs)
	}
	if c.HasColumns = c.Columns; c.Columns {
		c.Kinds = keep(c.Kinds, kinds)
		c.PostedAts = keep(c.PostedAts, posted)
		c.Refs = keep(c.Refs, refs)
		c.Commitments = keep(c.Commitments, commitments)
	}
	c.Dedups = keep(c.Dedups, dedups)
	c.Bodies = keep(c.Bodies, bodies)
	c.LeafHashes = keep(c.LeafHashes, hashes)
	c.Lengths = keep(c.Lengths, lengths)
	c.Instants = keep(c.Instants, instants)
	return rows.Close()
}

// keep returns the aggregate raw as a chunk keeps it: copied into buf
// when the chunk has a buffer to reuse (the audit's readers), else raw
// itself. go-sqlite3 hands every blob as a fresh Go slice (C.GoBytes)
// that database/sql passes to a sql.RawBytes as is and the driver never
// writes again, so a chunk read into empty buffers (VerifiedSizeEach's)
// keeps it instead of copying megabytes.
func keep(buf []byte, raw sql.RawBytes) []byte {
	if buf == nil {
		return raw
	}
	return append(buf[:0], raw...)
}

// HashChunk implements ledger.ChunkReader.
func (s *Store) HashChunk(ctx context.Context, from, to int64, buf []byte) (count, shortest int64, blob []byte, err error) {
	defer s.classify(&err)
	if ok, err := s.utf8(ctx); err != nil || !ok {
		return -1, 0, buf[:0], err
	}
	rows, err := s.r.QueryContext(ctx, hashChunkQuery, from, to)
	if err != nil {
		return 0, 0, nil, err
	}
	defer rows.Close()
	if !rows.Next() {
		if err := rows.Err(); err != nil {
			return 0, 0, nil, err
		}
		return 0, 0, nil, fmt.Errorf("audit: no row from the hash chunk query")
	}
	var raw sql.RawBytes
	if err := rows.Scan(&count, &shortest, &raw); err != nil {
		return 0, 0, nil, err
	}
	blob = append(buf[:0], raw...)
	return count, shortest, blob, rows.Close()
}

// CheckColumns implements ledger.ColumnChecker with json_extract inside
// SQLite.
func (s *Store) CheckColumns(ctx context.Context, from, to int64) (_ int64, _ string, err error) {
	defer s.classify(&err)
	return auditColumns(ctx, s.r, from, to)
}

// playerRowsQuery looks up the players rows of a JSON array of skeletons
// (one primary-key seek each, inside SQLite) and returns, in the array's
// order: the count of skeletons, of rows found, of those of the right
// types, the rows' idx comma-separated, their players concatenated and
// the players' lengths in bytes comma-separated. A skeleton without a row
// drops out of every aggregate but the first count.
const playerRowsQuery = `SELECT count(*), count(skeleton), coalesce(sum(typeof(player) = 'text' AND typeof(idx) = 'integer'), 0),
	CAST(group_concat(idx, ',') AS BLOB), CAST(group_concat(CAST(player AS BLOB), '') AS BLOB),
	CAST(group_concat(length(CAST(player AS BLOB)), ',') AS BLOB)
	FROM (SELECT p.skeleton AS skeleton, p.player AS player, p.idx AS idx
		FROM json_each(?) AS j LEFT JOIN players AS p ON p.skeleton = j.value ORDER BY j.key)`

// playerRowsTailQuery is playerRowsQuery over players and players_tail
// (migration 6) together: a skeleton players lacks is looked up among the
// tail's rows of the list's skeletons (one scan of the small tail,
// materialised, then an automatic index on it), so it runs only for a
// list with a skeleton players lacks. A skeleton with rows in both, or
// twice in the tail, is a tampered table: it yields the players row, or
// two rows, and the count shows it.
const playerRowsTailQuery = `WITH t AS MATERIALIZED (SELECT skeleton, player, idx FROM players_tail
		WHERE skeleton IN (SELECT value FROM json_each(?1)))
	SELECT count(*), count(skeleton), coalesce(sum(typeof(player) = 'text' AND typeof(idx) = 'integer'), 0),
	CAST(group_concat(idx, ',') AS BLOB), CAST(group_concat(CAST(player AS BLOB), '') AS BLOB),
	CAST(group_concat(length(CAST(player AS BLOB)), ',') AS BLOB)
	FROM (SELECT coalesce(p.skeleton, t.skeleton) AS skeleton,
			CASE WHEN p.skeleton IS NOT NULL THEN p.player ELSE t.player END AS player,
			CASE WHEN p.skeleton IS NOT NULL THEN p.idx ELSE t.idx END AS idx
		FROM json_each(?1) AS j LEFT JOIN players AS p ON p.skeleton = j.value
		LEFT JOIN t ON p.skeleton IS NULL AND t.skeleton = j.value
		ORDER BY j.key)`

// PlayerRows implements ledger.PlayerReader: players' key, and for a
// list with a skeleton players lacks, players and players_tail together
// (playerRowsTailQuery).
func (s *Store) PlayerRows(ctx context.Context, skeletons []string, c *ledger.PlayerChunk) (_ bool, err error) {
	defer s.classify(&err)
	if ok, err := s.hasPlayers.check(ctx, s, "players"); err != nil || !ok {
		return false, err
	}
	if ok, err := s.utf8(ctx); err != nil || !ok {
		return false, err
	}
	arr, err := json.Marshal(skeletons)
	if err != nil {
		return false, err
	}
	tail, err := s.hasPlayersTail(ctx)
	if err != nil {
		return false, err
	}
	if err := s.playerRows(ctx, playerRowsQuery, string(arr), c); err != nil || c.Found == c.Count || !tail {
		return err == nil, err
	}
	return true, s.playerRows(ctx, playerRowsTailQuery, string(arr), c)
}

// playerRows runs one of the players queries over the JSON array arr
// into c.
func (s *Store) playerRows(ctx context.Context, q, arr string, c *ledger.PlayerChunk) error {
	rows, err := s.r.QueryContext(ctx, q, arr)
	if err != nil {
		return err
	}
	defer rows.Close()
	if !rows.Next() {
		if err := rows.Err(); err != nil {
			return err
		}
		return fmt.Errorf("audit: no row from the players query")
	}
	var idx, players, lengths sql.RawBytes
	if err := rows.Scan(&c.Count, &c.Found, &c.Typed, &idx, &players, &lengths); err != nil {
		return err
	}
	c.Indexes = append(c.Indexes[:0], idx...)
	c.Players = append(c.Players[:0], players...)
	c.Lengths = append(c.Lengths[:0], lengths...)
	return rows.Close()
}
