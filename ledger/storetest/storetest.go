package storetest

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/sealedhq/sealed/ledger"
	"golang.org/x/mod/sumdb/tlog"
)

// Run runs the conformance suite. newStore must return a new, empty,
// writable store holding no ledger each time it is called; the suite
// closes the stores it opens.
func Run(t *testing.T, newStore func(t *testing.T) ledger.Store) {
	ctx := context.Background()
	t.Run("Meta", func(t *testing.T) { testMeta(ctx, t, newStore(t)) })
	t.Run("IdentityLast", func(t *testing.T) { testIdentityLast(ctx, t, newStore(t)) })
	t.Run("Write", func(t *testing.T) { testWrite(ctx, t, newStore(t)) })
	t.Run("ShortHash", func(t *testing.T) { testShortHash(ctx, t, newStore(t)) })
	t.Run("Rollback", func(t *testing.T) { testRollback(ctx, t, newStore(t)) })
	t.Run("Conflict", func(t *testing.T) { testConflict(ctx, t, newStore(t)) })
	t.Run("Lookups", func(t *testing.T) { testLookups(ctx, t, newStore(t)) })
	t.Run("Checkpoints", func(t *testing.T) { testCheckpoints(ctx, t, newStore(t)) })
	t.Run("Replays", func(t *testing.T) { testReplays(ctx, t, newStore(t)) })
	t.Run("Cosignatures", func(t *testing.T) { testCosignatures(ctx, t, newStore(t)) })
	t.Run("Players", func(t *testing.T) { testPlayers(ctx, t, newStore(t)) })
	t.Run("SeedCommits", func(t *testing.T) { testSeedCommits(ctx, t, newStore(t)) })
	t.Run("ConcurrentWriters", func(t *testing.T) { testConcurrentWriters(ctx, t, newStore(t)) })
	t.Run("ReusedSlices", func(t *testing.T) { testReusedSlices(ctx, t, newStore(t)) })
	t.Run("ReadOwnWrites", func(t *testing.T) { testReadOwnWrites(ctx, t, newStore(t)) })
	t.Run("Ledger", func(t *testing.T) { testLedger(ctx, t, newStore(t)) })
}

func closeAtEnd(t *testing.T, s ledger.Store) {
	t.Cleanup(func() { s.Close() })
}

func create(ctx context.Context, t *testing.T, s ledger.Store) {
	t.Helper()
	err := s.Create(ctx, &ledger.Meta{Origin: "storetest.example/log", VerifierKey: "storetest.example/log+00000000+AAAA"},
		&ledger.StoredCheckpoint{Size: 0, Root: make([]byte, 32), Note: []byte("note 0\n"), CreatedAt: 1})
	if err != nil {
		t.Fatalf("Create: %v", err)
	}
}

func testMeta(ctx context.Context, t *testing.T, s ledger.Store) {
	closeAtEnd(t, s)
	if _, err := s.Meta(ctx); !errors.Is(err, ledger.ErrNotLedger) {
		t.Fatalf("Meta of an empty store: got %v, want an error wrapping ErrNotLedger", err)
	}
	create(ctx, t, s)
	m, err := s.Meta(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if m.Origin != "storetest.example/log" || m.VerifierKey != "storetest.example/log+00000000+AAAA" || m.Schema < 1 {
		t.Errorf("Meta = %+v", m)
	}
	if err := s.Create(ctx, &ledger.Meta{Origin: "other", VerifierKey: "other+1+AAAA"},
		&ledger.StoredCheckpoint{Root: make([]byte, 32), Note: []byte("x")}); err == nil {
		t.Error("a second Create succeeded")
	}
	if m, err := s.Meta(ctx); err != nil || m.Origin != "storetest.example/log" {
		t.Errorf("after a refused Create: Meta = %+v, %v", m, err)
	}
	if n, err := s.Size(ctx); err != nil || n != 0 {
		t.Errorf("Size of a new ledger = %d, %v; want 0", n, err)
	}
}

// testIdentityLast: rows stored before the identity rows, as
// ledger.Copy stores them, make no ledger (Meta: ErrNotLedger) until
// Create with no checkpoint writes the identity rows, which keeps the
// stored checkpoints (ids from 1) and adds none.
func testIdentityLast(ctx context.Context, t *testing.T, s ledger.Store) {
	closeAtEnd(t, s)
	cp := ledger.StoredCheckpoint{Size: 0, Root: make([]byte, 32), Note: []byte("note 0\n"), CreatedAt: 1}
	if err := s.PutCheckpoint(ctx, &cp); err != nil {
		t.Fatalf("PutCheckpoint before Create: %v", err)
	}
	err := s.Write(ctx, func(tx ledger.WriteTx) error {
		return tx.Insert(ctx, []ledger.StoredEntry{entry(0, ledger.KindCommit, -1, "")}, []ledger.StoredHash{{ID: 0, Hash: hashOf(0)}})
	})
	if err != nil {
		t.Fatalf("Write before Create: %v", err)
	}
	if _, err := s.Meta(ctx); !errors.Is(err, ledger.ErrNotLedger) {
		t.Fatalf("Meta of rows without the identity rows: %v, want ErrNotLedger", err)
	}
	m := &ledger.Meta{Origin: "storetest.example/log", VerifierKey: "storetest.example/log+00000000+AAAA"}
	// A new ledger (Create with its first checkpoint) is never made over
	// those rows: they are another log's (trial 19: init racing a copy).
	first := ledger.StoredCheckpoint{Size: 0, Root: make([]byte, 32), Note: []byte("a new ledger's note\n"), CreatedAt: 2}
	if err := s.Create(ctx, m, &first); !errors.Is(err, ledger.ErrUnfinished) {
		t.Fatalf("Create of a new ledger over a copy's rows: %v; want ErrUnfinished", err)
	}
	if _, err := s.Meta(ctx); !errors.Is(err, ledger.ErrNotLedger) {
		t.Fatalf("Meta after the refused Create: %v, want ErrNotLedger", err)
	}
	if err := s.Create(ctx, m, nil); err != nil {
		t.Fatalf("Create with no checkpoint: %v", err)
	}
	if got, err := s.Meta(ctx); err != nil || got.Origin != m.Origin || got.VerifierKey != m.VerifierKey {
		t.Fatalf("Meta after Create = %+v, %v", got, err)
	}
	cps, err := s.Checkpoints(ctx, math.MaxInt64)
	if err != nil || len(cps) != 1 || cps[0].ID != 1 || !bytes.Equal(cps[0].Note, cp.Note) {
		t.Errorf("checkpoints after Create with no checkpoint = %+v, %v; want the one stored, id 1", cps, err)
	}
	if err := s.Create(ctx, m, nil); err == nil {
		t.Error("a second Create succeeded")
	}
	if n, err := s.Size(ctx); err != nil || n != 1 {
		t.Errorf("Size = %d, %v; want 1", n, err)
	}
}

// entry makes a stored entry i with distinct content; ref < 0 for none.
func entry(i int64, kind ledger.Kind, ref int64, commitment string) ledger.StoredEntry {
	leaf := []byte(fmt.Sprintf(`{"i":%d,"kind":%q}`, i, kind))
	lh := tlog.RecordHash(leaf)
	d := sha256.Sum256(leaf)
	e := ledger.StoredEntry{Index: i, Kind: kind, Leaf: leaf, LeafHash: lh[:], IntegratedAt: 1000 + i, Dedup: d[:], Commitment: commitment, Ref: ref}
	if i%2 == 1 {
		e.PostedAt, e.HasPostedAt = 500+i, true
	}
	return e
}

func hashOf(id int64) []byte {
	h := sha256.Sum256([]byte(fmt.Sprint("hash ", id)))
	return h[:]
}

func same(t *testing.T, what string, got, want ledger.StoredEntry) {
	t.Helper()
	if got.Index != want.Index || got.Kind != want.Kind || !bytes.Equal(got.Leaf, want.Leaf) ||
		!bytes.Equal(got.LeafHash, want.LeafHash) || got.IntegratedAt != want.IntegratedAt ||
		got.HasPostedAt != want.HasPostedAt || (want.HasPostedAt && got.PostedAt != want.PostedAt) ||
		!bytes.Equal(got.Dedup, want.Dedup) || got.Commitment != want.Commitment || got.Ref != want.Ref {
		t.Errorf("%s: got %+v, want %+v", what, got, want)
	}
}

func testWrite(ctx context.Context, t *testing.T, s ledger.Store) {
	closeAtEnd(t, s)
	create(ctx, t, s)
	var want []ledger.StoredEntry
	for i := range int64(5) {
		want = append(want, entry(i, ledger.KindCommit, -1, ""))
	}
	err := s.Write(ctx, func(tx ledger.WriteTx) error {
		size, last, err := tx.Tail(ctx)
		if err != nil {
			return err
		}
		if size != 0 || last != math.MinInt64 {
			t.Errorf("Tail of an empty log = %d, %d; want 0, MinInt64", size, last)
		}
		hs := []ledger.StoredHash{{ID: 0, Hash: hashOf(0)}, {ID: 1, Hash: hashOf(1)}, {ID: 2, Hash: hashOf(2)}}
		if err := tx.Insert(ctx, want[:3], hs); err != nil {
			return err
		}
		// The transaction reads its own writes.
		got, err := tx.ReadHashes(ctx, []int64{2, 0})
		if err != nil {
			return err
		}
		if !bytes.Equal(got[0][:], hashOf(2)) || !bytes.Equal(got[1][:], hashOf(0)) {
			t.Errorf("ReadHashes inside the transaction: wrong hashes or order")
		}
		if size, last, err := tx.Tail(ctx); err != nil || size != 3 || last != want[2].IntegratedAt {
			t.Errorf("Tail after Insert = %d, %d, %v; want 3, %d", size, last, err, want[2].IntegratedAt)
		}
		return tx.Insert(ctx, want[3:], []ledger.StoredHash{{ID: 3, Hash: hashOf(3)}})
	})
	if err != nil {
		t.Fatalf("Write: %v", err)
	}
	if n, err := s.Size(ctx); err != nil || n != 5 {
		t.Fatalf("Size = %d, %v; want 5", n, err)
	}
	got, err := s.EntryRange(ctx, 0, 100)
	if err != nil || len(got) != 5 {
		t.Fatalf("EntryRange(0, 100) = %d entries, %v; want 5", len(got), err)
	}
	for i := range got {
		same(t, fmt.Sprintf("entry %d", i), got[i], want[i])
	}
	if got, err := s.EntryRange(ctx, 2, 4); err != nil || len(got) != 2 || got[0].Index != 2 || got[1].Index != 3 {
		t.Errorf("EntryRange(2, 4) = %v, %v", got, err)
	}
	if got, err := s.EntryRange(ctx, 7, 9); err != nil || len(got) != 0 {
		t.Errorf("EntryRange past the end = %v, %v; want none", got, err)
	}
	hs, err := s.ReadHashes(ctx, []int64{3, 1})
	if err != nil || !bytes.Equal(hs[0][:], hashOf(3)) || !bytes.Equal(hs[1][:], hashOf(1)) {
		t.Errorf("ReadHashes(3, 1): %v", err)
	}
	if _, err := s.ReadHashes(ctx, []int64{1, 99}); !errors.Is(err, ledger.ErrNotFound) {
		t.Errorf("ReadHashes of a missing hash: got %v, want ErrNotFound", err)
	}
	hr, err := s.HashRange(ctx, 1, 3)
	if err != nil || len(hr) != 2 || hr[0].ID != 1 || hr[1].ID != 2 || !bytes.Equal(hr[1].Hash, hashOf(2)) {
		t.Errorf("HashRange(1, 3) = %v, %v", hr, err)
	}
}

// testShortHash: a stored hash that is not 32 bytes, which the log never
// writes, is read as an error wrapping ErrTampered (a writer loading the
// tree's edge refuses the ledger, exit 1), not as a hash.
func testShortHash(ctx context.Context, t *testing.T, s ledger.Store) {
	closeAtEnd(t, s)
	create(ctx, t, s)
	err := s.Write(ctx, func(tx ledger.WriteTx) error {
		return tx.Insert(ctx, []ledger.StoredEntry{entry(0, ledger.KindCommit, -1, "")}, []ledger.StoredHash{{ID: 0, Hash: hashOf(0)[:5]}})
	})
	if err != nil {
		t.Fatalf("Write: %v", err)
	}
	for _, read := range []func(context.Context, []int64) ([]tlog.Hash, error){
		s.ReadHashes,
		func(ctx context.Context, ids []int64) (hs []tlog.Hash, err error) {
			err = s.Write(ctx, func(tx ledger.WriteTx) error {
				hs, err = tx.ReadHashes(ctx, ids)
				return err
			})
			return hs, err
		},
	} {
		if _, err := read(ctx, []int64{0}); !errors.Is(err, ledger.ErrTampered) {
			t.Errorf("ReadHashes of a 5-byte stored hash: %v; want an error wrapping ErrTampered", err)
		}
	}
}

func testRollback(ctx context.Context, t *testing.T, s ledger.Store) {
	closeAtEnd(t, s)
	create(ctx, t, s)
	boom := errors.New("boom")
	err := s.Write(ctx, func(tx ledger.WriteTx) error {
		if err := tx.Insert(ctx, []ledger.StoredEntry{entry(0, ledger.KindCommit, -1, "")}, []ledger.StoredHash{{ID: 0, Hash: hashOf(0)}}); err != nil {
			return err
		}
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("Write returned %v, want fn's error", err)
	}
	if n, _ := s.Size(ctx); n != 0 {
		t.Fatalf("after a failed Write, Size = %d; want 0", n)
	}
	if _, err := s.ReadHashes(ctx, []int64{0}); !errors.Is(err, ledger.ErrNotFound) {
		t.Errorf("a hash of a failed Write is readable: %v", err)
	}
	// The log is still writable at the same index.
	if err := s.Write(ctx, func(tx ledger.WriteTx) error {
		return tx.Insert(ctx, []ledger.StoredEntry{entry(0, ledger.KindCommit, -1, "")}, []ledger.StoredHash{{ID: 0, Hash: hashOf(0)}})
	}); err != nil {
		t.Fatalf("Write after a failed Write: %v", err)
	}
}

func testConflict(ctx context.Context, t *testing.T, s ledger.Store) {
	closeAtEnd(t, s)
	create(ctx, t, s)
	put := func(i int64, hashID int64) error {
		return s.Write(ctx, func(tx ledger.WriteTx) error {
			return tx.Insert(ctx, []ledger.StoredEntry{entry(i, ledger.KindCommit, -1, "")}, []ledger.StoredHash{{ID: hashID, Hash: hashOf(hashID)}})
		})
	}
	if err := put(0, 0); err != nil {
		t.Fatal(err)
	}
	if err := put(0, 10); !errors.Is(err, ledger.ErrConflict) {
		t.Errorf("an entry at an index already stored: got %v, want ErrConflict", err)
	}
	if err := put(1, 0); !errors.Is(err, ledger.ErrConflict) {
		t.Errorf("a hash at an id already stored: got %v, want ErrConflict", err)
	}
	if n, _ := s.Size(ctx); n != 1 {
		t.Errorf("after refused writes, Size = %d; want 1", n)
	}
}

func testLookups(ctx context.Context, t *testing.T, s ledger.Store) {
	closeAtEnd(t, s)
	create(ctx, t, s)
	c1 := fmt.Sprintf("%x", sha256.Sum256([]byte("c1")))
	c2 := fmt.Sprintf("%x", sha256.Sum256([]byte("c2")))
	es := []ledger.StoredEntry{
		entry(0, ledger.KindCommit, -1, c1),
		entry(1, ledger.KindSeedCommit, -1, ""),
		entry(2, ledger.KindReveal, 0, ""),
		entry(3, ledger.KindCommit, -1, c1),
		entry(4, ledger.KindEdit, 0, ""),
		entry(5, ledger.KindSeedReveal, 1, ""),
		entry(6, ledger.KindCommit, -1, c2),
	}
	es[3].Dedup = es[0].Dedup // two rows with one key: the first is named
	if err := s.Write(ctx, func(tx ledger.WriteTx) error {
		return tx.Insert(ctx, es, nil)
	}); err != nil {
		t.Fatal(err)
	}
	got, err := s.EntriesByCommitment(ctx, c1)
	if err != nil || len(got) != 2 || got[0].Index != 0 || got[1].Index != 3 {
		t.Errorf("EntriesByCommitment(c1) = %v, %v; want 0 and 3", got, err)
	}
	if got, _ := s.EntriesByCommitment(ctx, fmt.Sprintf("%x", sha256.Sum256([]byte("none")))); len(got) != 0 {
		t.Errorf("EntriesByCommitment of an unknown commitment = %v", got)
	}
	got, err = s.EntriesByRef(ctx, 0)
	if err != nil || len(got) != 2 || got[0].Index != 2 || got[1].Index != 4 {
		t.Errorf("EntriesByRef(0) = %v, %v; want 2 and 4", got, err)
	}
	if got, _ := s.EntriesByRef(ctx, 1); len(got) != 1 || got[0].Index != 5 {
		t.Errorf("EntriesByRef(1) = %v; want 5", got)
	}
	err = s.Write(ctx, func(tx ledger.WriteTx) error {
		kinds, err := tx.Kinds(ctx, []int64{1, 2, 40})
		if err != nil {
			return err
		}
		if len(kinds) != 2 || kinds[1] != ledger.KindSeedCommit || kinds[2] != ledger.KindReveal {
			t.Errorf("Kinds(1, 2, 40) = %v", kinds)
		}
		other := sha256.Sum256([]byte("not stored"))
		// A commit is probed with its commitment, any other entry by its
		// key alone; a stored commitment with another key (other, c2) and
		// an unknown key are not duplicates.
		dups, err := tx.Duplicates(ctx, []ledger.DuplicateProbe{
			{Dedup: [32]byte(es[0].Dedup), Commitment: c1},
			{Dedup: [32]byte(es[6].Dedup), Commitment: c2},
			{Dedup: [32]byte(es[2].Dedup)},
			{Dedup: other, Commitment: c2},
			{Dedup: sha256.Sum256([]byte("not stored either"))},
		})
		if err != nil {
			return err
		}
		if len(dups) != 3 || dups[[32]byte(es[0].Dedup)] != (ledger.IndexKind{Index: 0, Kind: ledger.KindCommit}) ||
			dups[[32]byte(es[6].Dedup)] != (ledger.IndexKind{Index: 6, Kind: ledger.KindCommit}) ||
			dups[[32]byte(es[2].Dedup)] != (ledger.IndexKind{Index: 2, Kind: ledger.KindReveal}) {
			t.Errorf("Duplicates = %v; want entries 0, 6 and 2", dups)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// testReadOwnWrites: a transaction's reads see the entries it inserted
// (WriteTx: "reads see what the transaction wrote"): their duplicate
// keys, by key alone and with a commit's commitment, and their kinds;
// an entry stored by an earlier transaction is found too, with the
// smaller index named when two share a key.
func testReadOwnWrites(ctx context.Context, t *testing.T, s ledger.Store) {
	closeAtEnd(t, s)
	create(ctx, t, s)
	c := fmt.Sprintf("%x", sha256.Sum256([]byte("own")))
	first := []ledger.StoredEntry{entry(0, ledger.KindSeedCommit, -1, "")}
	if err := s.Write(ctx, func(tx ledger.WriteTx) error { return tx.Insert(ctx, first, nil) }); err != nil {
		t.Fatal(err)
	}
	es := []ledger.StoredEntry{
		entry(1, ledger.KindCommit, -1, c),
		entry(2, ledger.KindSeedReveal, 0, ""),
		entry(3, ledger.KindSeedCommit, -1, ""),
	}
	es[2].Dedup = first[0].Dedup // shares entry 0's key: 0 is named
	err := s.Write(ctx, func(tx ledger.WriteTx) error {
		if err := tx.Insert(ctx, es, nil); err != nil {
			return err
		}
		dups, err := tx.Duplicates(ctx, []ledger.DuplicateProbe{
			{Dedup: [32]byte(es[0].Dedup), Commitment: c},
			{Dedup: [32]byte(es[1].Dedup)},
			{Dedup: [32]byte(es[2].Dedup)},
			{Dedup: sha256.Sum256([]byte("not stored"))},
		})
		if err != nil {
			return err
		}
		want := map[[32]byte]ledger.IndexKind{
			[32]byte(es[0].Dedup): {Index: 1, Kind: ledger.KindCommit},
			[32]byte(es[1].Dedup): {Index: 2, Kind: ledger.KindSeedReveal},
			[32]byte(es[2].Dedup): {Index: 0, Kind: ledger.KindSeedCommit},
		}
		if len(dups) != len(want) {
			t.Errorf("Duplicates after Insert in one transaction = %v; want entries 1, 2 and 0", dups)
		}
		for k, v := range want {
			if dups[k] != v {
				t.Errorf("Duplicates after Insert in one transaction: key of entry %d gives %v, want %v", v.Index, dups[k], v)
			}
		}
		kinds, err := tx.Kinds(ctx, []int64{1, 3})
		if err != nil {
			return err
		}
		if kinds[1] != ledger.KindCommit || kinds[3] != ledger.KindSeedCommit {
			t.Errorf("Kinds(1, 3) after Insert in one transaction = %v", kinds)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func testCheckpoints(ctx context.Context, t *testing.T, s ledger.Store) {
	closeAtEnd(t, s)
	if _, err := s.LatestCheckpoint(ctx); !errors.Is(err, ledger.ErrNotFound) && !errors.Is(err, ledger.ErrNotLedger) {
		// An empty store may say either.
		t.Logf("LatestCheckpoint of an empty store: %v", err)
	}
	create(ctx, t, s)
	for _, c := range []ledger.StoredCheckpoint{
		{Size: 5, Root: hashOf(5), Note: []byte("five a"), CreatedAt: 10},
		{Size: 3, Root: hashOf(3), Note: []byte("three"), CreatedAt: 11},
		{Size: 5, Root: hashOf(5), Note: []byte("five b"), CreatedAt: 12},
		// The same note again (two writers signed one tree in one
		// second): not stored twice.
		{Size: 5, Root: hashOf(5), Note: []byte("five a"), CreatedAt: 10},
	} {
		if err := s.PutCheckpoint(ctx, &c); err != nil {
			t.Fatal(err)
		}
	}
	all, err := s.Checkpoints(ctx, math.MaxInt64)
	if err != nil {
		t.Fatal(err)
	}
	var notes []string
	for _, c := range all {
		notes = append(notes, string(c.Note))
	}
	if fmt.Sprint(notes) != "[note 0\n three five a five b]" {
		t.Errorf("Checkpoints in (size, id) order: %q", notes)
	}
	if all[0].ID >= all[2].ID || all[2].ID >= all[3].ID {
		t.Errorf("ids not in storing order: %v", all)
	}
	if c, _ := s.Checkpoints(ctx, 3); len(c) != 2 {
		t.Errorf("Checkpoints(3) = %d rows; want 2", len(c))
	}
	if c, err := s.LatestCheckpoint(ctx); err != nil || string(c.Note) != "five a" || c.CreatedAt != 10 || !bytes.Equal(c.Root, hashOf(5)) {
		t.Errorf("LatestCheckpoint = %+v, %v; want the first of size 5", c, err)
	}
	if c, err := s.CheckpointAt(ctx, 3); err != nil || string(c.Note) != "three" {
		t.Errorf("CheckpointAt(3) = %+v, %v", c, err)
	}
	if _, err := s.CheckpointAt(ctx, 4); !errors.Is(err, ledger.ErrNotFound) {
		t.Errorf("CheckpointAt(4): got %v, want ErrNotFound", err)
	}
}

func testReplays(ctx context.Context, t *testing.T, s ledger.Store) {
	closeAtEnd(t, s)
	create(ctx, t, s)
	data := []byte(`{"replay":1}`)
	d := fmt.Sprintf("%x", sha256.Sum256(data))
	if _, err := s.Replay(ctx, d); !errors.Is(err, ledger.ErrNotFound) {
		t.Errorf("Replay before PutReplay: got %v, want ErrNotFound", err)
	}
	for range 2 {
		if err := s.PutReplay(ctx, d, data); err != nil {
			t.Fatalf("PutReplay: %v", err)
		}
	}
	if got, err := s.Replay(ctx, d); err != nil || !bytes.Equal(got, data) {
		t.Errorf("Replay = %q, %v", got, err)
	}
	empty := fmt.Sprintf("%x", sha256.Sum256(nil))
	if err := s.PutReplay(ctx, empty, []byte{}); err != nil {
		t.Fatal(err)
	}
	if got, err := s.Replay(ctx, empty); err != nil || got == nil || len(got) != 0 {
		t.Errorf("empty replay = %v, %v; want empty and non-nil", got, err)
	}
}

// testConcurrentWriters has writers race to append the next index: the
// write lock must make each Write see the others' commits.
func testConcurrentWriters(ctx context.Context, t *testing.T, s ledger.Store) {
	closeAtEnd(t, s)
	create(ctx, t, s)
	const writers, each = 4, 25
	var wg sync.WaitGroup
	errs := make(chan error, writers*each)
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range each {
				errs <- s.Write(ctx, func(tx ledger.WriteTx) error {
					size, _, err := tx.Tail(ctx)
					if err != nil {
						return err
					}
					e := entry(size, ledger.KindCommit, -1, "")
					e.Leaf = append(e.Leaf, byte('a'+w))
					return tx.Insert(ctx, []ledger.StoredEntry{e}, []ledger.StoredHash{{ID: 1000 + size, Hash: hashOf(size)}})
				})
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatalf("concurrent Write: %v", err)
		}
	}
	if n, _ := s.Size(ctx); n != writers*each {
		t.Errorf("Size = %d; want %d", n, writers*each)
	}
}

// testLedger runs the log logic on the store: appends, a checkpoint, an
// inclusion proof checked offline against a root computed here from the
// leaves, duplicates refused, and a clean audit.
func testLedger(ctx context.Context, t *testing.T, s ledger.Store) {
	key := filepath.Join(t.TempDir(), "test.key")
	vkey, err := ledger.Create(ctx, s, "storetest.example/ledger", key)
	if err != nil {
		t.Fatal(err)
	}
	l, err := ledger.Open(ctx, s, ledger.Options{KeyFile: key, CheckpointInterval: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	var leafHashes []tlog.Hash
	const n = 20
	for i := range n {
		body := fmt.Sprintf(`{"kind":"commit","player":"p%d","action_type":"bid","channel":"chat","commitment":"%x"}`, i, sha256.Sum256([]byte(fmt.Sprint(i))))
		idx, err := l.Append(ctx, []byte(body))
		if err != nil || idx != int64(i) {
			t.Fatalf("Append %d = %d, %v", i, idx, err)
		}
		e, err := l.Entry(idx)
		if err != nil {
			t.Fatal(err)
		}
		leafHashes = append(leafHashes, sha256.Sum256(append([]byte{0}, e.Leaf...)))
	}
	body := fmt.Sprintf(`{"kind":"commit","player":"p3","action_type":"bid","channel":"chat","commitment":"%x"}`, sha256.Sum256([]byte("3")))
	var dup *ledger.DuplicateError
	if _, err := l.Append(ctx, []byte(body)); !errors.As(err, &dup) || dup.Index != 3 {
		t.Errorf("a duplicate commit: got %v, want a DuplicateError naming 3", err)
	}
	cp, err := l.WaitCheckpoint(ctx, n)
	if err != nil {
		t.Fatal(err)
	}
	// The root from the leaf hashes alone, by RFC 6962's definition.
	if root := rfc6962Root(leafHashes); cp.Size != n || cp.Root != root {
		t.Fatalf("checkpoint size %d root %s; want %d and %s", cp.Size, cp.Root, n, root)
	}
	p, err := l.ProveInclusion(7, n)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ledger.CheckInclusion(vkey, nil, p); err != nil {
		t.Errorf("CheckInclusion: %v", err)
	}
	rep, err := l.Audit(ctx, nil)
	if err != nil || !rep.OK {
		t.Errorf("Audit = %+v, %v", rep, err)
	}
}

// rfc6962Root is the Merkle tree hash of RFC 6962 §2.1, written out
// directly (the split at the largest power of two below n).
func rfc6962Root(leaves []tlog.Hash) tlog.Hash {
	if len(leaves) == 1 {
		return leaves[0]
	}
	k := 1
	for k*2 < len(leaves) {
		k *= 2
	}
	l, r := rfc6962Root(leaves[:k]), rfc6962Root(leaves[k:])
	return sha256.Sum256(append(append([]byte{1}, l[:]...), r[:]...))
}

// testReusedSlices: the caller reuses the slices it gives WriteTx's
// methods (ledger.WriteTx), as the sequencer does from batch to batch:
// between two Inserts of one transaction, after an InsertPlayers, after
// a Write that failed, and from one Write to the next, it overwrites
// them with other rows. What the store read from them is what it keeps:
// the duplicates, players, entries and hashes of every committed row as
// given, none of the overwriting values, nothing of the failed Write.
func testReusedSlices(ctx context.Context, t *testing.T, s ledger.Store) {
	closeAtEnd(t, s)
	create(ctx, t, s)
	c := func(i int) string { return fmt.Sprintf("%x", sha256.Sum256([]byte(fmt.Sprint("commitment ", i)))) }
	es := make([]ledger.StoredEntry, 0, 4)
	hs := make([]ledger.StoredHash, 0, 4)
	ps := make([]ledger.StoredPlayer, 0, 4)
	probes := make([]ledger.DuplicateProbe, 0, 8)
	sks := make([]string, 0, 8)
	// decoy overwrites the slices' rows with rows never stored, at the
	// same indexes and ids (a store that kept a slice would see other
	// rows at the indexes it wrote).
	decoy := func() {
		for i := range es[:cap(es)] {
			e := &es[:cap(es)][i]
			d := entry(e.Index, ledger.KindSeedCommit, -1, c(100+i))
			d.Dedup = bytes.Repeat([]byte{byte(i + 1)}, 32)
			*e = d
		}
		for i := range hs[:cap(hs)] {
			h := &hs[:cap(hs)][i]
			*h = ledger.StoredHash{ID: h.ID, Hash: hashOf(100 + int64(i))}
		}
		for i := range ps[:cap(ps)] {
			p := &ps[:cap(ps)][i]
			*p = ledger.StoredPlayer{Skeleton: fmt.Sprint("decoy", i), Player: "decoy", Index: p.Index}
		}
		for i := range probes[:cap(probes)] {
			probes[:cap(probes)][i] = ledger.DuplicateProbe{Dedup: sha256.Sum256([]byte(fmt.Sprint("decoy ", i)))}
		}
		for i := range sks[:cap(sks)] {
			sks[:cap(sks)][i] = fmt.Sprint("decoy", i)
		}
	}
	var want []ledger.StoredEntry
	var wantHashes []ledger.StoredHash
	var wantPlayers []ledger.StoredPlayer
	// check: each stored entry is its own duplicate and each stored
	// player is found (the failed Write's rows and the decoys are not).
	check := func() {
		t.Helper()
		probes = probes[:0]
		for _, e := range want {
			probes = append(probes, ledger.DuplicateProbe{Dedup: [32]byte(e.Dedup), Commitment: e.Commitment})
		}
		notStored := []ledger.StoredEntry{entry(4, ledger.KindCommit, -1, c(50)), entry(100, ledger.KindCommit, -1, c(100))}
		for _, e := range notStored {
			probes = append(probes, ledger.DuplicateProbe{Dedup: [32]byte(e.Dedup), Commitment: e.Commitment})
		}
		sks = append(sks[:0], "player0", "player1", "player2", "player3", "failed", "decoy0")
		err := s.Write(ctx, func(tx ledger.WriteTx) error {
			dups, err := tx.Duplicates(ctx, probes)
			if err != nil {
				return err
			}
			if len(dups) != len(want) {
				t.Errorf("Duplicates found %d entries; want %d: %v", len(dups), len(want), dups)
			}
			for _, e := range want {
				if got := dups[[32]byte(e.Dedup)]; got != (ledger.IndexKind{Index: e.Index, Kind: e.Kind}) {
					t.Errorf("Duplicates of entry %d = %v", e.Index, got)
				}
			}
			got, err := tx.Players(ctx, sks)
			if err != nil {
				return err
			}
			if len(got) != len(wantPlayers) {
				t.Errorf("Players = %v; want %v", got, wantPlayers)
			}
			for _, p := range wantPlayers {
				if got[p.Skeleton] != p {
					t.Errorf("Players[%s] = %v; want %v", p.Skeleton, got[p.Skeleton], p)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	// Entries 0..3 in two transactions, each of two Inserts of two
	// entries (one hash each), each with a new player; between them a
	// Write of entries 4.. that fails.
	for w := range 2 {
		err := s.Write(ctx, func(tx ledger.WriteTx) error {
			for k := range 2 {
				i := int64(2*w + k)
				es = append(es[:0], entry(i, ledger.KindCommit, -1, c(int(i))))
				hs = append(hs[:0], ledger.StoredHash{ID: i, Hash: hashOf(i)})
				ps = append(ps[:0], ledger.StoredPlayer{Skeleton: fmt.Sprint("player", i), Player: fmt.Sprint("Player", i), Index: i})
				probes = append(probes[:0], ledger.DuplicateProbe{Dedup: [32]byte(es[0].Dedup), Commitment: es[0].Commitment})
				sks = append(sks[:0], ps[0].Skeleton)
				if dups, err := tx.Duplicates(ctx, probes); err != nil || len(dups) != 0 {
					t.Errorf("Duplicates of entry %d before it is stored = %v, %v; want none", i, dups, err)
				}
				decoy()
				probes = append(probes[:0], ledger.DuplicateProbe{Dedup: sha256.Sum256([]byte("x"))})
				if got, err := tx.Players(ctx, sks); err != nil || len(got) != 0 {
					t.Errorf("Players of a new skeleton = %v, %v; want none", got, err)
				}
				decoy()
				es = append(es[:0], entry(i, ledger.KindCommit, -1, c(int(i))))
				hs = append(hs[:0], ledger.StoredHash{ID: i, Hash: hashOf(i)})
				ps = append(ps[:0], ledger.StoredPlayer{Skeleton: fmt.Sprint("player", i), Player: fmt.Sprint("Player", i), Index: i})
				want, wantHashes, wantPlayers = append(want, es[0]), append(wantHashes, hs[0]), append(wantPlayers, ps[0])
				if err := tx.Insert(ctx, es, hs); err != nil {
					return err
				}
				decoy()
				ps = append(ps[:0], wantPlayers[len(wantPlayers)-1])
				if err := tx.InsertPlayers(ctx, ps); err != nil {
					return err
				}
				decoy()
			}
			return nil
		})
		if err != nil {
			t.Fatalf("Write %d: %v", w, err)
		}
		// Right after the commit (the writer's copies of its tables
		// are those the commit built).
		decoy()
		check()
		boom := errors.New("boom")
		err = s.Write(ctx, func(tx ledger.WriteTx) error {
			es = append(es[:0], entry(4, ledger.KindCommit, -1, c(50)), entry(5, ledger.KindCommit, -1, c(51)))
			hs = append(hs[:0], ledger.StoredHash{ID: 4, Hash: hashOf(50)})
			ps = append(ps[:0], ledger.StoredPlayer{Skeleton: "failed", Player: "failed", Index: 4})
			if err := tx.Insert(ctx, es, hs); err != nil {
				return err
			}
			if err := tx.InsertPlayers(ctx, ps); err != nil {
				return err
			}
			return boom
		})
		if !errors.Is(err, boom) {
			t.Fatalf("failing Write: %v; want boom", err)
		}
		decoy()
	}
	check()
	got, err := s.EntryRange(ctx, 0, 100)
	if err != nil || len(got) != len(want) {
		t.Fatalf("EntryRange = %d entries, %v; want %d", len(got), err, len(want))
	}
	for i := range got {
		same(t, fmt.Sprintf("entry %d", i), got[i], want[i])
	}
	hr, err := s.HashRange(ctx, 0, 100)
	if err != nil || len(hr) != len(wantHashes) {
		t.Fatalf("HashRange = %d hashes, %v; want %d", len(hr), err, len(wantHashes))
	}
	for i, h := range hr {
		if h.ID != wantHashes[i].ID || !bytes.Equal(h.Hash, wantHashes[i].Hash) {
			t.Errorf("hash %d = %d %x; want %d %x", i, h.ID, h.Hash, wantHashes[i].ID, wantHashes[i].Hash)
		}
	}
	for _, p := range wantPlayers {
		if q, err := s.PlayerBySkeleton(ctx, p.Skeleton); err != nil || *q != p {
			t.Errorf("PlayerBySkeleton(%s) = %v, %v; want %v", p.Skeleton, q, err, p)
		}
	}
}
