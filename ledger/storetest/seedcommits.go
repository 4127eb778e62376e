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
// SeedCommitment is set (and none for the others), inside the Write and
// rolled back with it; WriteTx.SeedCommits finds the smallest stored or
// staged index of each commitment asked, and nothing for the others;
// Store.SeedCommits lists one commitment's indexes in order,
// EachSeedCommit every row in (commitment, index) order, and Census
// counts them. A row of a commitment held twice (a ledger written before
// the log refused it) is kept and listed.
func testSeedCommits(ctx context.Context, t *testing.T, s ledger.Store) {
	closeAtEnd(t, s)
	create(ctx, t, s)
	a, b, c := strings.Repeat("a", 64), strings.Repeat("b", 64), strings.Repeat("c", 64)
	seed := func(i int64, commitment string) ledger.StoredEntry {
		e := entry(i, ledger.KindSeedCommit, -1, "")
		e.SeedCommitment = commitment
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
	want := []ledger.StoredSeedCommit{{Commitment: a, Index: 2}, {Commitment: a, Index: 3}, {Commitment: b, Index: 0}}
	if !slices.Equal(all, want) {
		t.Errorf("EachSeedCommit = %v; want %v", all, want)
	}
	cs, err := s.Census(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !cs.SeedCommitsTable || cs.SeedCommits != 3 {
		t.Errorf("Census: seed_commits table %v, %d rows; want true, 3", cs.SeedCommitsTable, cs.SeedCommits)
	}
	// The entries read back carry no SeedCommitment: it is a column of
	// seed_commits, not of entries.
	es, err := s.EntryRange(ctx, 0, 4)
	if err != nil || len(es) != 4 {
		t.Fatalf("EntryRange = %d entries, %v", len(es), err)
	}
	for _, e := range es {
		if e.SeedCommitment != "" {
			t.Errorf("EntryRange: entry %d has SeedCommitment %q; want \"\"", e.Index, e.SeedCommitment)
		}
	}
}
