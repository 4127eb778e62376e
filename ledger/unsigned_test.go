package ledger_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sealedhq/sealed/ledger"
	"github.com/sealedhq/sealed/ledger/memstore"
)

// fullCheckpoints is a store whose PutCheckpoint fails while full is
// set, as a SQLite file on a full disk does after the entries' commit
// found room.
type fullCheckpoints struct {
	ledger.Store
	full atomic.Bool
}

var errNoRoom = errors.New("no room for the checkpoint")

func (s *fullCheckpoints) PutCheckpoint(ctx context.Context, cp *ledger.StoredCheckpoint) error {
	if s.full.Load() {
		return errNoRoom
	}
	return s.Store.PutCheckpoint(ctx, cp)
}

// TestCheckpointNotStored: an entry is appended (acknowledged, stored)
// but the checkpoint signing it cannot be stored. Close says so, with an
// error wrapping ErrUnsigned naming the entries and the store's error,
// where it returned nil and the CLI printed a plain success (the audit
// then failed a minute later: entries covered by no checkpoint). And a
// writer that takes no more entries tries again: once the store has
// room, the checkpoint covering the entry is stored.
func TestCheckpointNotStored(t *testing.T) {
	ctx := context.Background()
	s := &fullCheckpoints{Store: memstore.New()}
	key := filepath.Join(t.TempDir(), "k.key")
	if _, err := ledger.Create(ctx, s, testOrigin, key); err != nil {
		t.Fatal(err)
	}
	body := func(i int) []byte {
		return []byte(fmt.Sprintf(`{"kind":"commit","player":"p%d","action_type":"bid","channel":"c","commitment":"%064x"}`, i, i+1))
	}

	l, err := ledger.Open(ctx, s, ledger.Options{KeyFile: key, CheckpointInterval: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	s.full.Store(true)
	if i, err := l.Append(ctx, body(0)); err != nil || i != 0 {
		t.Fatalf("append = %d, %v", i, err)
	}
	err = l.Close()
	if !errors.Is(err, ledger.ErrUnsigned) || !errors.Is(err, errNoRoom) || !strings.Contains(err.Error(), "entries 0..0") {
		t.Fatalf("Close = %v; want an error wrapping ErrUnsigned and the store's error, naming entries 0..0", err)
	}

	l, err = ledger.Open(ctx, s, ledger.Options{KeyFile: key, CheckpointInterval: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if i, err := l.Append(ctx, body(1)); err != nil || i != 1 {
		t.Fatalf("append = %d, %v", i, err)
	}
	s.full.Store(false)
	// A guard against a hang, not a measure: the retry comes within the
	// checkpoint interval.
	wctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	cp, err := l.WaitCheckpoint(wctx, 2)
	if err != nil || cp.Size != 2 {
		t.Fatalf("WaitCheckpoint(2) = %+v, %v; want the checkpoint of size 2 stored once there is room", cp, err)
	}
}
