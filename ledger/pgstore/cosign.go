package pgstore

import (
	"context"
	"fmt"

	"github.com/sealedhq/sealed/ledger"
)

// PutCosignature implements ledger.Store.
func (s *Store) PutCosignature(ctx context.Context, c *ledger.StoredCosignature) error {
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

// Cosignatures implements ledger.Store.
func (s *Store) Cosignatures(ctx context.Context, id, minSize int64, limit int) ([]ledger.StoredCosignature, error) {
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
		var c ledger.StoredCosignature
		if err := rows.Scan(&c.CheckpointID, &c.Size, &c.Witness, &c.Line, &c.Time); err != nil {
			return nil, fmt.Errorf("reading cosignatures: %w", err)
		}
		out = append(out, c)
	}
	return out, rows.Err()
}
