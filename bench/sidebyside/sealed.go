package sidebyside

import (
	"context"
	"path/filepath"

	"github.com/sealedhq/sealed/ledger"
	"github.com/sealedhq/sealed/ledger/stores"
)

// sealedOrigin is the origin of the ledgers the benchmark makes.
const sealedOrigin = "bench.sealed.invalid/log"

// sealedSystem is sealed's ledger on a new SQLite file with the durable
// defaults (stores.Init, then stores.Open with only the key file set).
func sealedSystem() system {
	return system{
		Name:    "sealed",
		Options: "ledger.Open via ledger/stores on a new SQLite file, default options (WAL, synchronous=FULL, checkpoint interval 500 ms); Append returns after the durable commit",
		open: func(ctx context.Context, dir string) (appendLog, error) {
			l, err := newSealedLedger(ctx, dir, ledger.Options{})
			if err != nil {
				return nil, err
			}
			return sealedLog{l}, nil
		},
	}
}

// newSealedLedger creates a ledger in dir (ledger.db, ledger.key) and opens
// it for writing with opts (KeyFile is set here).
func newSealedLedger(ctx context.Context, dir string, opts ledger.Options) (*ledger.Ledger, error) {
	db, key := filepath.Join(dir, "ledger.db"), filepath.Join(dir, "ledger.key")
	if _, err := stores.Init(ctx, db, sealedOrigin, key); err != nil {
		return nil, err
	}
	opts.KeyFile = key
	return stores.Open(ctx, db, opts)
}

type sealedLog struct{ l *ledger.Ledger }

func (s sealedLog) Append(ctx context.Context, e *Entry) (int64, error) {
	return s.l.Append(ctx, e.Body)
}
func (s sealedLog) Size(context.Context) (int64, error) { return s.l.Size() }
func (s sealedLog) Close() error                        { return s.l.Close() }
