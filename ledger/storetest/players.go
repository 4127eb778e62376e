package storetest

import (
	"context"
	"errors"
	"testing"

	"github.com/sealedhq/sealed/ledger"
)

// testPlayers: players rows are written inside a Write (and rolled back
// with it), looked up by skeleton inside the transaction and after it,
// refused with ErrConflict for a skeleton already stored, listed in
// skeleton order and counted by Census. The skeletons here are plain
// keys: the store compares them as it stores them, byte for byte.
func testPlayers(ctx context.Context, t *testing.T, s ledger.Store) {
	closeAtEnd(t, s)
	create(ctx, t, s)
	if _, err := s.PlayerBySkeleton(ctx, "alice"); !errors.Is(err, ledger.ErrNotFound) {
		t.Fatalf("PlayerBySkeleton on a new ledger: %v; want ErrNotFound", err)
	}
	// "\u0430lice" (Cyrillic a) and "alice" are different keys to a store.
	rows := []ledger.StoredPlayer{{Skeleton: "bob", Player: "bob", Index: 1}, {Skeleton: "alice", Player: "\u0430lice", Index: 0}}
	err := s.Write(ctx, func(tx ledger.WriteTx) error {
		if err := tx.InsertPlayers(ctx, rows); err != nil {
			return err
		}
		got, err := tx.Players(ctx, []string{"alice", "carol", "bob"})
		if err != nil {
			return err
		}
		if len(got) != 2 || got["alice"] != rows[1] || got["bob"] != rows[0] {
			t.Errorf("Players inside the transaction = %v; want the two rows written", got)
		}
		return nil
	})
	if err != nil {
		t.Fatalf("Write: %v", err)
	}
	if p, err := s.PlayerBySkeleton(ctx, "alice"); err != nil || *p != rows[1] {
		t.Errorf("PlayerBySkeleton(alice) = %v, %v; want %v", p, err, rows[1])
	}
	if _, err := s.PlayerBySkeleton(ctx, "\u0430lice"); !errors.Is(err, ledger.ErrNotFound) {
		t.Errorf("PlayerBySkeleton of a name that is no stored skeleton: %v; want ErrNotFound", err)
	}
	boom := errors.New("boom")
	if err := s.Write(ctx, func(tx ledger.WriteTx) error {
		if err := tx.InsertPlayers(ctx, []ledger.StoredPlayer{{Skeleton: "carol", Player: "carol", Index: 2}}); err != nil {
			return err
		}
		return boom
	}); !errors.Is(err, boom) {
		t.Fatalf("Write returned %v, want fn's error", err)
	}
	if _, err := s.PlayerBySkeleton(ctx, "carol"); !errors.Is(err, ledger.ErrNotFound) {
		t.Errorf("a players row of a failed Write is readable: %v", err)
	}
	if err := s.Write(ctx, func(tx ledger.WriteTx) error {
		return tx.InsertPlayers(ctx, []ledger.StoredPlayer{{Skeleton: "bob", Player: "b\u03bfb", Index: 5}})
	}); !errors.Is(err, ledger.ErrConflict) {
		t.Errorf("a second row of skeleton bob: %v; want ErrConflict", err)
	}
	var all []ledger.StoredPlayer
	if err := s.EachPlayer(ctx, func(p ledger.StoredPlayer) error { all = append(all, p); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(all) != 2 || all[0] != rows[1] || all[1] != rows[0] {
		t.Errorf("EachPlayer = %v; want alice's row, then bob's", all)
	}
	c, err := s.Census(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !c.PlayersTable || c.Players != 2 {
		t.Errorf("Census: players table %v, %d rows; want true, 2", c.PlayersTable, c.Players)
	}
}
