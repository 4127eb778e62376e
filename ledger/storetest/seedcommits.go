package storetest

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/sealedhq/sealed/ledger"
)

// testSeedCommits: Insert writes a seed_commits row for each entry whose
// SeedCommit is set (and none for the others), inside the Write and
// rolled back with it; WriteTx.SeedCommits finds the smallest stored or
// staged index of each commitment asked, and nothing for the others;
// Store.SeedCommits lists one commitment's indexes in order,
// SeedCommitsOfMatch one match's (game and match id compared byte for
// byte), EachSeedCommit every row in (commitment, index) order, and
// Census counts them. A row of a commitment held twice (a ledger written before
// the log refused it) is kept and listed.
func testSeedCommits(ctx context.Context, t *testing.T, s ledger.Store) {
	closeAtEnd(t, s)
	create(ctx, t, s)
	a, b, c := strings.Repeat("a", 64), strings.Repeat("b", 64), strings.Repeat("c", 64)
	games := []string{"auction", "bargain"}
	seed := func(i int64, commitment string) ledger.StoredEntry {
		e := entry(i, ledger.KindSeedCommit, -1, "")
		e.SeedCommit = &ledger.StoredSeedCommit{Commitment: commitment, Index: i, Game: games[i%2], MatchID: "m" + commitment[:1]}
		return e
	}
	err := s.Write(ctx, func(tx ledger.WriteTx) error {
		es := []ledger.StoredEntry{seed(0, b), entry(1, ledger.KindCommit, -1, a), seed(2, a)}
		if err := tx.Insert(ctx, es, nil); err != nil {
			return err
		}
		got, err := tx.SeedCommits(ctx, []string{a, b, c})
		if err != nil {
			return err
		}
		if len(got) != 2 || got[a] != 2 || got[b] != 0 {
			t.Errorf("SeedCommits inside the transaction = %v; want a at 2 and b at 0 (the commit entry holding a is no seed-commit)", got)
		}
		return nil
	})
	if err != nil {
		t.Fatalf("Write: %v", err)
	}
	boom := errors.New("boom")
	if err := s.Write(ctx, func(tx ledger.WriteTx) error {
		if err := tx.Insert(ctx, []ledger.StoredEntry{seed(3, c)}, nil); err != nil {
			return err
		}
		return boom
	}); !errors.Is(err, boom) {
		t.Fatalf("Write returned %v, want fn's error", err)
	}
	if got, err := s.SeedCommits(ctx, c); err != nil || len(got) != 0 {
		t.Errorf("SeedCommits(c) after a failed Write = %v, %v; want none", got, err)
	}
	// A second seed-commit of a: a store keeps what it is given (the log
	// refuses it before Insert).
	if err := s.Write(ctx, func(tx ledger.WriteTx) error {
		if err := tx.Insert(ctx, []ledger.StoredEntry{seed(3, a)}, nil); err != nil {
			return err
		}
		got, err := tx.SeedCommits(ctx, []string{a})
		if err != nil {
			return err
		}
		if got[a] != 2 {
			t.Errorf("SeedCommits(a) with entries 2 and 3 = %v; want the smallest, 2", got)
		}
		return nil
	}); err != nil {
		t.Fatalf("Write: %v", err)
	}
	if got, err := s.SeedCommits(ctx, a); err != nil || !slices.Equal(got, []int64{2, 3}) {
		t.Errorf("SeedCommits(a) = %v, %v; want [2 3]", got, err)
	}
	if got, err := s.SeedCommits(ctx, b); err != nil || !slices.Equal(got, []int64{0}) {
		t.Errorf("SeedCommits(b) = %v, %v; want [0]", got, err)
	}
	var all []ledger.StoredSeedCommit
	if err := s.EachSeedCommit(ctx, func(r ledger.StoredSeedCommit) error { all = append(all, r); return nil }); err != nil {
		t.Fatal(err)
	}
	want := []ledger.StoredSeedCommit{{Commitment: a, Index: 2, Game: "auction", MatchID: "ma"}, {Commitment: a, Index: 3, Game: "bargain", MatchID: "ma"},
		{Commitment: b, Index: 0, Game: "auction", MatchID: "mb"}}
	if !slices.Equal(all, want) {
		t.Errorf("EachSeedCommit = %v; want %v", all, want)
	}
	for _, m := range []struct {
		game, id string
		want     []int64
	}{{"auction", "ma", []int64{2}}, {"bargain", "ma", []int64{3}}, {"auction", "mb", []int64{0}}, {"auction", "MA", nil}, {"bargain", "mb", nil}} {
		if got, err := s.SeedCommitsOfMatch(ctx, m.game, m.id); err != nil || !slices.Equal(got, m.want) {
			t.Errorf("SeedCommitsOfMatch(%s, %s) = %v, %v; want %v", m.game, m.id, got, err, m.want)
		}
	}
	cs, err := s.Census(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !cs.SeedCommitsTable || cs.SeedCommits != 3 {
		t.Errorf("Census: seed_commits table %v, %d rows; want true, 3", cs.SeedCommitsTable, cs.SeedCommits)
	}
	// The entries read back carry no SeedCommit: it is a row of
	// seed_commits, not columns of entries.
	es, err := s.EntryRange(ctx, 0, 4)
	if err != nil || len(es) != 4 {
		t.Fatalf("EntryRange = %d entries, %v", len(es), err)
	}
	for _, e := range es {
		if e.SeedCommit != nil {
			t.Errorf("EntryRange: entry %d has SeedCommit %+v; want nil", e.Index, e.SeedCommit)
		}
	}
}
