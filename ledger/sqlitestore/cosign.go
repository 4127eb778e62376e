package sqlitestore

import (
	"context"
	"fmt"

	"github.com/sealedhq/sealed/ledger"
)

// PutCosignature implements ledger.Store.
func (s *Store) PutCosignature(ctx context.Context, c *ledger.StoredCosignature) error {
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
func (s *Store) Cosignatures(ctx context.Context, id, minSize int64, limit int) ([]ledger.StoredCosignature, error) {
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
		var c ledger.StoredCosignature
		if err := rows.Scan(&c.CheckpointID, &c.Size, &c.Witness, &c.Line, &c.Time); err != nil {
			return nil, fmt.Errorf("reading cosignatures: %w", err)
		}
		out = append(out, c)
	}
	return out, rows.Err()
}
