package ledger

import (
	"encoding/hex"
	"fmt"
	"sync"
)

// commitmentIndex maps the commitments of commit entries to their indexes,
// in memory (about 50 bytes per commit entry). It is caught up from the
// entries table in index order before each lookup: entries never change,
// so reading the new ones is enough. It replaces a SQLite index on a
// random key, which would cost a random page write per append.
type commitmentIndex struct {
	mu    sync.Mutex
	first map[[16]byte]int64   // commitment prefix -> first commit index
	more  map[[16]byte][]int64 // later commit indexes with the same prefix
	size  int64                // entries [0, size) are indexed
}

// lookup returns the indexes of commit entries whose commitment (64
// lowercase hex) starts with the same 16 bytes, catching up first; the
// caller filters by the full commitment.
func (c *commitmentIndex) lookup(q queryer, commitment string) ([]int64, error) {
	raw, err := hex.DecodeString(commitment)
	if err != nil || len(raw) != 32 {
		return nil, fmt.Errorf("commitment %q: expected 64 hex characters", commitment)
	}
	var key [16]byte
	copy(key[:], raw)
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.catchUp(q); err != nil {
		return nil, err
	}
	i, ok := c.first[key]
	if !ok {
		return nil, nil
	}
	return append([]int64{i}, c.more[key]...), nil
}

func (c *commitmentIndex) catchUp(q queryer) error {
	if c.first == nil {
		c.first, c.more = map[[16]byte]int64{}, map[[16]byte][]int64{}
	}
	size, err := treeSize(q)
	if err != nil || size <= c.size {
		return err
	}
	rows, err := q.Query(`SELECT idx, commitment FROM entries WHERE idx >= ? AND idx < ? AND kind = 'commit' ORDER BY idx`, c.size, size)
	if err != nil {
		return fmt.Errorf("indexing commitments: %w", err)
	}
	defer rows.Close()
	var buf [32]byte
	for rows.Next() {
		var idx int64
		var s string
		if err := rows.Scan(&idx, &s); err != nil {
			return err
		}
		if n, err := hex.Decode(buf[:], []byte(s)); err != nil || n != 32 {
			return fmt.Errorf("entry %d: stored commitment %q is not 64 hex characters", idx, s)
		}
		var key [16]byte
		copy(key[:], buf[:16])
		if _, ok := c.first[key]; ok {
			c.more[key] = append(c.more[key], idx)
		} else {
			c.first[key] = idx
		}
	}
	if err := rows.Err(); err != nil {
		return err
	}
	c.size = size
	return nil
}
