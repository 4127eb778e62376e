package sqlitestore

import (
	"context"
	"fmt"

	"github.com/sealedhq/sealed/ledger"
)

// PutCosignature implements ledger.Store.
func (s *Store) PutCosignature(ctx context.Context, c *ledger.StoredCosignature) (err error) {
	defer s.classify(&err)
	if err := s.readOnly("storing a cosignature"); err != nil {
		return err
	}
	res, err := s.w.ExecContext(ctx, `INSERT INTO cosignatures(checkpoint_id, witness, size, line, time)
		SELECT id, ?, size, ?, ? FROM checkpoints WHERE id = ? AND size = ?
		ON CONFLICT(checkpoint_id, witness) DO NOTHING`, c.Witness, c.Line, c.Time, c.CheckpointID, c.Size)
	if err != nil {
		return fmt.Errorf("storing a cosignature: %w", err)
	}
	if n, err := res.RowsAffected(); err == nil && n == 0 {
		var one int
		if err := s.w.QueryRowContext(ctx, `SELECT 1 FROM checkpoints WHERE id = ? AND size = ?`, c.CheckpointID, c.Size).Scan(&one); err != nil {
			return fmt.Errorf("cosignature of checkpoint %d of size %d: %w", c.CheckpointID, c.Size, ledger.ErrNotFound)
		}
	}
	return nil
}

// Cosignatures implements ledger.Store.
func (s *Store) Cosignatures(ctx context.Context, id, minSize int64, limit int) (_ []ledger.StoredCosignature, err error) {
	defer s.classify(&err)
	if limit <= 0 {
		limit = -1
	}
	rows, err := s.r.QueryContext(ctx, `SELECT checkpoint_id, size, witness, line, time FROM cosignatures
		WHERE (? = 0 OR checkpoint_id = ?) AND size >= ? ORDER BY time, checkpoint_id, witness LIMIT ?`, id, id, minSize, limit)
	if err != nil {
		return nil, fmt.Errorf("reading cosignatures: %w", err)
	}
	defer rows.Close()
	var out []ledger.StoredCosignature
	for rows.Next() {
		var v [5]any
		if err := rows.Scan(&v[0], &v[1], &v[2], &v[3], &v[4]); err != nil {
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

// cosignatureOfRow converts a cosignatures row (checkpoint_id, size,
// witness, line, time) read as SQLite's own values, refusing a value of
// the wrong type: an error wrapping ledger.ErrTampered naming the row
// and the column.
func cosignatureOfRow(v [5]any) (ledger.StoredCosignature, error) {
	var c ledger.StoredCosignature
	id, ok := v[0].(int64)
	if !ok {
		return c, fmt.Errorf("cosignatures: a row's checkpoint_id is %s, not an integer: %w", describe(v[0]), ledger.ErrTampered)
	}
	c.CheckpointID = id
	w, ok := v[2].(string)
	if !ok {
		return c, fmt.Errorf("cosignatures: a row of checkpoint_id %d holds %s in column witness; expected text: %w", id, describe(v[2]), ledger.ErrTampered)
	}
	c.Witness = w
	bad := func(col, got, want string) error {
		return fmt.Errorf("cosignatures: the row of checkpoint_id %d, witness %q holds %s in column %s; expected %s: %w", id, w, got, col, want, ledger.ErrTampered)
	}
	if c.Size, ok = v[1].(int64); !ok {
		return c, bad("size", describe(v[1]), "an integer")
	}
	if c.Line, ok = v[3].([]byte); !ok {
		return c, bad("line", describe(v[3]), "a blob")
	}
	if c.Time, ok = v[4].(int64); !ok {
		return c, bad("time", describe(v[4]), "an integer (Unix seconds)")
	}
	return c, nil
}
