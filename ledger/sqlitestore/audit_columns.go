package sqlitestore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// columnsQuery finds the first entry whose lookup columns disagree with its
// leaf. The columns kind, posted_at, ref and commitment are copies of leaf
// fields kept for queries (the secret-action judge, the web pages and the
// lookups read them); the leaf is what the tree signs, so every copy must
// equal it. json_extract runs inside SQLite (the body is stored as a BLOB,
// which SQLite's JSON functions would read as JSONB: hence the CAST).
// posted_at in the leaf is TimeLayout ("2006-01-02T15:04:05.000000000Z",
// always UTC with nine digits); the column holds its Unix nanoseconds.
const columnsQuery = `
WITH l AS (
	SELECT idx, kind, posted_at, ref, commitment,
		json_extract(CAST(body AS TEXT), '$.kind') AS lkind,
		json_extract(CAST(body AS TEXT), '$.posted_at') AS lposted,
		coalesce(json_extract(CAST(body AS TEXT), '$.commit'), json_extract(CAST(body AS TEXT), '$.seed_commit')) AS lref,
		json_extract(CAST(body AS TEXT), '$.commitment') AS lcommitment
	FROM entries WHERE idx >= ? AND idx < ?
)
SELECT idx, kind, lkind, posted_at, lposted, ref, lref, commitment, lcommitment FROM l
WHERE kind IS NOT lkind
	OR ref IS NOT lref
	OR commitment IS NOT (CASE WHEN lkind = 'commit' THEN lcommitment END)
	OR posted_at IS NOT (CASE WHEN lposted IS NULL THEN NULL
		ELSE unixepoch(substr(lposted, 1, 19)) * 1000000000 + CAST(substr(lposted, 21, 9) AS INTEGER) END)
ORDER BY idx LIMIT 1`

// auditColumns checks, for entries [from, to), that the lookup columns
// equal the leaf's fields. It returns the first disagreeing entry's index
// and what differed, or -1.
func auditColumns(ctx context.Context, db *sql.DB, from, to int64) (int64, string, error) {
	// The columns are scanned as whatever SQLite holds: a disagreeing
	// row may hold a value of another type (a text posted_at), which is
	// the finding to name, not a scan error.
	var (
		idx                                                              int64
		kind, lkind, posted, lposted, ref, lref, commitment, lcommitment any
	)
	err := db.QueryRowContext(ctx, columnsQuery, from, to).Scan(&idx, &kind, &lkind, &posted, &lposted, &ref, &lref, &commitment, &lcommitment)
	if errors.Is(err, sql.ErrNoRows) {
		return -1, "", nil
	}
	if err != nil {
		return 0, "", err
	}
	show := func(v any) string {
		switch v := v.(type) {
		case nil:
			return "none"
		case string:
			return fmt.Sprintf("%q", v)
		case []byte:
			return fmt.Sprintf("%q", v)
		}
		return fmt.Sprint(v)
	}
	what := fmt.Sprintf("the stored columns disagree with the leaf: kind %s (leaf %s), posted_at %s (leaf %s), ref %s (leaf %s), commitment %s (leaf %s)",
		show(kind), show(lkind), show(posted), show(lposted), show(ref), show(lref), show(commitment), show(lcommitment))
	return idx, what, nil
}
