package ledger

import (
	"context"
	"time"
)

// Witnessed is the earliest witness cosignature covering an entry: a
// stored cosignature of a checkpoint whose tree includes it (C2SP
// tlog-cosignature: the witness saw that tree by that time).
type Witnessed struct {
	Witness string    // the witness's name
	Time    time.Time // the cosignature's timestamp (whole seconds, UTC)
	Size    int64     // the size of the checkpoint it cosigned
}

// WitnessedBy returns the earliest stored cosignature of a checkpoint
// covering entry index (size > index), or nil if none does yet. The
// cosignatures were verified when stored (package ledger/witness); a
// reader who does not trust the operator checks them again with its
// own policy (sealed ledger check-proof --witness).
func (l *Ledger) WitnessedBy(ctx context.Context, index int64) (*Witnessed, error) {
	cs, err := l.store.Cosignatures(ctx, 0, index+1, 1)
	if err != nil || len(cs) == 0 {
		return nil, err
	}
	return &Witnessed{Witness: cs[0].Witness, Time: time.Unix(cs[0].Time, 0).UTC(), Size: cs[0].Size}, nil
}
