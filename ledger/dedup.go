package ledger

import (
	"fmt"
)

// dedupKey is the first 16 bytes of an entry's SHA-256 duplicate key
// (docs/ledger.md "Duplicates"); 128 bits make an accidental collision
// negligible (birthday bound 2^64 entries).
type dedupKey [16]byte

func dedupKeyOf(full [32]byte) (k dedupKey) {
	copy(k[:], full[:16])
	return k
}

// dedupIndex maps the duplicate keys of the entries to their indexes. It
// lives in memory (about 40 bytes per entry), owned by the sequencer, and
// is loaded from the entries' dedup column on the first batch.
type dedupIndex struct {
	m    map[dedupKey]int64
	size int64 // entries [0, size) are in m
}

// catchUp adds the keys of entries [d.size, size) read through q: all of
// them on the first batch, those another process appended later.
func (d *dedupIndex) catchUp(q queryer, size int64) error {
	if d.m == nil {
		d.m = make(map[dedupKey]int64, size+1024)
	}
	if size <= d.size {
		return nil
	}
	rows, err := q.Query(`SELECT idx, dedup FROM entries WHERE idx >= ? AND idx < ?`, d.size, size)
	if err != nil {
		return fmt.Errorf("loading duplicate keys: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var idx int64
		var k []byte
		if err := rows.Scan(&idx, &k); err != nil {
			return err
		}
		if len(k) != 32 {
			return fmt.Errorf("entry %d: duplicate key of %d bytes", idx, len(k))
		}
		var full [32]byte
		copy(full[:], k)
		d.m[dedupKeyOf(full)] = idx
	}
	if err := rows.Err(); err != nil {
		return err
	}
	d.size = size
	return nil
}

// forget removes keys added by a batch whose transaction failed.
func (d *dedupIndex) forget(keys []dedupKey) {
	for _, k := range keys {
		delete(d.m, k)
	}
}
