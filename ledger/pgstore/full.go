package pgstore

import (
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/sealedhq/sealed/ledger"
)

// diskFull is SQLSTATE 53100 (disk_full).
const diskFull = "53100"

// noRoom wraps a write the server refused for lack of disk space (SQLSTATE
// 53100) as ledger.ErrStoreFull: nothing of it was stored (the
// transaction rolled back), and it can be made again once there is room.
func noRoom(err *error) {
	var pe *pgconn.PgError
	if *err != nil && errors.As(*err, &pe) && pe.Code == diskFull && !errors.Is(*err, ledger.ErrStoreFull) {
		*err = fmt.Errorf("%w: the PostgreSQL server's disk is full (%w)", ledger.ErrStoreFull, *err)
	}
}
