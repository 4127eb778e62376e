package pgstore

import (
	"context"
	"fmt"

	"github.com/sealedhq/sealed/ledger"
)

// PutCosignature implements ledger.Store.
func (s *Store) PutCosignature(ctx context.Context, c *ledger.StoredCosignature) (err error) {
	defer s.classify(&err)
	if err := s.refuseReadOnly("storing a cosignature"); err != nil {
		return err
	}
	tag, err := s.pool.Exec(ctx, `INSERT INTO cosignatures(checkpoint_id, witness, size, line, time)
		SELECT id, $1, size, $2, $3 FROM checkpoints WHERE id = $4 AND size = $5
		ON CONFLICT (checkpoint_id, witness) DO NOTHING`, c.Witness, c.Line, c.Time, c.CheckpointID, c.Size)
	if err != nil {
		return fmt.Errorf("storing a cosignature: %w", err)
	}
	if tag.RowsAffected() == 0 {
		var one int
		if err := s.pool.QueryRow(ctx, `SELECT 1 FROM checkpoints WHERE id = $1 AND size = $2`, c.CheckpointID, c.Size).Scan(&one); err != nil {
			return fmt.Errorf("cosignature of checkpoint %d of size %d: %w", c.CheckpointID, c.Size, ledger.ErrNotFound)
		}
	}
	return nil
}

// Cosignatures implements ledger.Store. A row holding NULL or a value
// of another type than the schema's is an error wrapping
// ledger.ErrTampered naming the row and the column (cosignatureOfRow).
func (s *Store) Cosignatures(ctx context.Context, id, minSize int64, limit int) (_ []ledger.StoredCosignature, err error) {
	defer s.classify(&err)
	var lim *int
	if limit > 0 {
		lim = &limit
	}
	rows, err := s.pool.Query(ctx, `SELECT checkpoint_id, size, witness, line, time FROM cosignatures
		WHERE ($1 = 0 OR checkpoint_id = $1) AND size >= $2 ORDER BY time, checkpoint_id, witness LIMIT $3`, id, minSize, lim)
	if err != nil {
		return nil, fmt.Errorf("reading cosignatures: %w", err)
	}
	defer rows.Close()
	var out []ledger.StoredCosignature
	for rows.Next() {
		v, err := rowValues(rows, 5)
		if err != nil {
			return nil, fmt.Errorf("reading cosignatures: %w", err)
		}
		c, err := cosignatureOfRow(v)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

// cosignatureOfRow converts a row of checkpoint_id, size, witness, line,
// time, read as its values: a NULL or a value of another type is an
// error wrapping ledger.ErrTampered naming the row and the column.
func cosignatureOfRow(v []any) (ledger.StoredCosignature, error) {
	var c ledger.StoredCosignature
	id, ok := asInt64(v[0])
	if !ok {
		return c, fmt.Errorf("cosignatures: a row's checkpoint_id is %s, not an integer: %w", describe(v[0]), ledger.ErrTampered)
	}
	c.CheckpointID = id
	w, ok := asText(v[2])
	if !ok {
		return c, badValue("cosignatures", fmt.Sprintf("a row of checkpoint_id %d", id), "witness", v[2], "text")
	}
	c.Witness = w
	row := fmt.Sprintf("the row of checkpoint_id %d, witness %q", id, w)
	if c.Size, ok = asInt64(v[1]); !ok {
		return c, badValue("cosignatures", row, "size", v[1], "an integer")
	}
	if c.Line, ok = asBytes(v[3]); !ok {
		return c, badValue("cosignatures", row, "line", v[3], "bytes (bytea)")
	}
	if c.Time, ok = asInt64(v[4]); !ok {
		return c, badValue("cosignatures", row, "time", v[4], "an integer (Unix seconds)")
	}
	return c, nil
}
