package memstore

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"slices"
	"sync"

	"github.com/sealedhq/sealed/ledger"
	"golang.org/x/mod/sumdb/tlog"
)

// schemaVersion is the version Meta reports.
const schemaVersion = 1

// Store is an in-memory ledger.Store. The zero value is not usable; call
// New.
type Store struct {
	writeMu sync.Mutex // the log's write lock, held by Write

	mu          sync.RWMutex // guards the fields below
	meta        *ledger.Meta
	entries     map[int64]ledger.StoredEntry
	size        int64
	hashes      map[int64][]byte
	checkpoints []ledger.StoredCheckpoint
	replays     map[string][]byte
	cosigs      []ledger.StoredCosignature
	players     map[string]ledger.StoredPlayer
	seedCommits []ledger.StoredSeedCommit
}

// New returns an empty store holding no ledger.
func New() *Store {
	return &Store{entries: map[int64]ledger.StoredEntry{}, hashes: map[int64][]byte{}, replays: map[string][]byte{},
		players: map[string]ledger.StoredPlayer{}}
}

// ReadOnlyView returns a store sharing s's data that refuses writes with
// ledger.ErrReadOnly, as a read-only opening of a database would. Closing
// it does not close s.
func (s *Store) ReadOnlyView() ledger.Store {
	return &readOnly{s}
}

type readOnly struct{ *Store }

func (r *readOnly) Create(context.Context, *ledger.Meta, *ledger.StoredCheckpoint) error {
	return fmt.Errorf("creating a ledger: %w", ledger.ErrReadOnly)
}
func (r *readOnly) Write(context.Context, func(ledger.WriteTx) error) error {
	return fmt.Errorf("writing entries: %w", ledger.ErrReadOnly)
}
func (r *readOnly) PutCheckpoint(context.Context, *ledger.StoredCheckpoint) error {
	return fmt.Errorf("storing a checkpoint: %w", ledger.ErrReadOnly)
}
func (r *readOnly) PutReplay(context.Context, string, []byte) error {
	return fmt.Errorf("storing a replay: %w", ledger.ErrReadOnly)
}
func (r *readOnly) PutCosignature(context.Context, *ledger.StoredCosignature) error {
	return fmt.Errorf("storing a cosignature: %w", ledger.ErrReadOnly)
}
func (r *readOnly) Close() error { return nil }

// Meta implements ledger.Store.
func (s *Store) Meta(ctx context.Context) (*ledger.Meta, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.meta == nil {
		return nil, fmt.Errorf("in-memory store: %w", ledger.ErrNotLedger)
	}
	m := *s.meta
	m.Schema = schemaVersion
	return &m, nil
}

// Create implements ledger.Store.
func (s *Store) Create(ctx context.Context, m *ledger.Meta, first *ledger.StoredCheckpoint) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.meta != nil {
		return fmt.Errorf("in-memory store already holds a ledger (%s)", s.meta.Origin)
	}
	if first != nil && (len(s.entries) > 0 || len(s.hashes) > 0 || len(s.checkpoints) > 0 || len(s.cosigs) > 0 || len(s.replays) > 0 || len(s.players) > 0) {
		return fmt.Errorf("in-memory store: %w", ledger.ErrUnfinished)
	}
	mm := *m
	s.meta = &mm
	if first != nil {
		cp := *first
		cp.ID = int64(len(s.checkpoints)) + 1
		s.checkpoints = append(s.checkpoints, cp)
	}
	return nil
}

// Size implements ledger.Store.
func (s *Store) Size(ctx context.Context) (int64, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.size, nil
}

func readHashes(m map[int64][]byte, indexes []int64) ([]tlog.Hash, error) {
	out := make([]tlog.Hash, len(indexes))
	for i, x := range indexes {
		h, ok := m[x]
		if !ok {
			return nil, fmt.Errorf("stored hash %d: %w", x, ledger.ErrNotFound)
		}
		if len(h) != tlog.HashSize {
			return nil, fmt.Errorf("hashes: stored hash %d has %d bytes, want %d: %w", x, len(h), tlog.HashSize, ledger.ErrTampered)
		}
		out[i] = tlog.Hash(h)
	}
	return out, nil
}

// ReadHashes implements ledger.Store.
func (s *Store) ReadHashes(ctx context.Context, indexes []int64) ([]tlog.Hash, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return readHashes(s.hashes, indexes)
}

func cloneEntry(e ledger.StoredEntry) ledger.StoredEntry {
	e.Leaf = bytes.Clone(e.Leaf)
	e.LeafHash = bytes.Clone(e.LeafHash)
	e.Dedup = bytes.Clone(e.Dedup)
	return e
}

// EntryRange implements ledger.Store.
func (s *Store) EntryRange(ctx context.Context, from, to int64) ([]ledger.StoredEntry, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	var out []ledger.StoredEntry
	if from < 0 {
		from = 0
	}
	for i := from; i < to && i < s.size; i++ {
		if e, ok := s.entries[i]; ok {
			out = append(out, cloneEntry(e))
		}
	}
	return out, nil
}

// HashRange implements ledger.Store.
func (s *Store) HashRange(ctx context.Context, from, to int64) ([]ledger.StoredHash, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	var out []ledger.StoredHash
	for id := max(from, 0); id < to && id < tlog.StoredHashCount(s.size); id++ {
		if h, ok := s.hashes[id]; ok {
			out = append(out, ledger.StoredHash{ID: id, Hash: bytes.Clone(h)})
		}
	}
	return out, nil
}

func (s *Store) filter(keep func(*ledger.StoredEntry) bool) []ledger.StoredEntry {
	s.mu.RLock()
	defer s.mu.RUnlock()
	var out []ledger.StoredEntry
	for i := range s.size {
		if e, ok := s.entries[i]; ok && keep(&e) {
			out = append(out, cloneEntry(e))
		}
	}
	return out
}

// EntriesByCommitment implements ledger.Store (a scan: this store is for
// tests).
func (s *Store) EntriesByCommitment(ctx context.Context, commitment string) ([]ledger.StoredEntry, error) {
	return s.filter(func(e *ledger.StoredEntry) bool { return e.Commitment == commitment }), nil
}

// EntriesByRef implements ledger.Store.
func (s *Store) EntriesByRef(ctx context.Context, index int64) ([]ledger.StoredEntry, error) {
	return s.filter(func(e *ledger.StoredEntry) bool { return e.Ref == index && index >= 0 }), nil
}

func cloneCheckpoint(c ledger.StoredCheckpoint) *ledger.StoredCheckpoint {
	c.Root = bytes.Clone(c.Root)
	c.Note = bytes.Clone(c.Note)
	return &c
}

// Checkpoints implements ledger.Store.
func (s *Store) Checkpoints(ctx context.Context, maxSize int64) ([]ledger.StoredCheckpoint, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	var out []ledger.StoredCheckpoint
	for _, c := range s.checkpoints {
		if c.Size <= maxSize {
			out = append(out, *cloneCheckpoint(c))
		}
	}
	slices.SortStableFunc(out, func(a, b ledger.StoredCheckpoint) int {
		if a.Size != b.Size {
			return cmpInt(a.Size, b.Size)
		}
		return cmpInt(a.ID, b.ID)
	})
	return out, nil
}

func cmpInt(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// LatestCheckpoint implements ledger.Store.
func (s *Store) LatestCheckpoint(ctx context.Context) (*ledger.StoredCheckpoint, error) {
	cps, _ := s.Checkpoints(ctx, math.MaxInt64)
	if len(cps) == 0 {
		return nil, ledger.ErrNotFound
	}
	best := cps[len(cps)-1]
	for _, c := range cps {
		if c.Size == best.Size {
			return &c, nil
		}
	}
	return &best, nil
}

// CheckpointAt implements ledger.Store.
func (s *Store) CheckpointAt(ctx context.Context, size int64) (*ledger.StoredCheckpoint, error) {
	cps, _ := s.Checkpoints(ctx, size)
	for _, c := range cps {
		if c.Size == size {
			return &c, nil
		}
	}
	return nil, fmt.Errorf("size %d: %w", size, ledger.ErrNotFound)
}

// Replay implements ledger.Store.
func (s *Store) Replay(ctx context.Context, digest string) ([]byte, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	b, ok := s.replays[digest]
	if !ok {
		return nil, ledger.ErrNotFound
	}
	return bytes.Clone(b), nil
}

// Write implements ledger.Store: fn's writes are staged and applied
// together if it returns nil.
func (s *Store) Write(ctx context.Context, fn func(ledger.WriteTx) error) error {
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	if err := ctx.Err(); err != nil {
		return err
	}
	tx := &writeTx{s: s}
	if err := fn(tx); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, e := range tx.entries {
		if e.SeedCommit != nil {
			r := *e.SeedCommit
			r.Index = e.Index
			s.seedCommits = append(s.seedCommits, r)
			e.SeedCommit = nil // a row of seed_commits, not columns of entries
		}
		s.entries[e.Index] = e
		s.size = max(s.size, e.Index+1)
	}
	for _, h := range tx.hashes {
		s.hashes[h.ID] = h.Hash
	}
	for _, p := range tx.players {
		s.players[p.Skeleton] = p
	}
	return nil
}

// PutCheckpoint implements ledger.Store.
func (s *Store) PutCheckpoint(ctx context.Context, cp *ledger.StoredCheckpoint) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, o := range s.checkpoints {
		if o.Size == cp.Size && bytes.Equal(o.Note, cp.Note) {
			return nil // the same note, signed by another writer
		}
	}
	c := *cloneCheckpoint(*cp)
	c.ID = int64(len(s.checkpoints)) + 1
	s.checkpoints = append(s.checkpoints, c)
	return nil
}

// PutReplay implements ledger.Store.
func (s *Store) PutReplay(ctx context.Context, digest string, replay []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.replays[digest]; !ok {
		s.replays[digest] = bytes.Clone(replay)
	}
	return nil
}

// Close implements ledger.Store; the data stays readable through s.
func (s *Store) Close() error { return nil }

// writeTx stages one Write's rows.
type writeTx struct {
	s       *Store
	entries []ledger.StoredEntry
	hashes  []ledger.StoredHash
	players []ledger.StoredPlayer
}

func (t *writeTx) Tail(ctx context.Context) (int64, int64, error) {
	t.s.mu.RLock()
	defer t.s.mu.RUnlock()
	size := t.s.size
	last := int64(math.MinInt64)
	if n := len(t.entries); n > 0 {
		return t.entries[n-1].Index + 1, t.entries[n-1].IntegratedAt, nil
	}
	if e, ok := t.s.entries[size-1]; ok {
		last = e.IntegratedAt
	}
	return size, last, nil
}

func (t *writeTx) ReadHashes(ctx context.Context, indexes []int64) ([]tlog.Hash, error) {
	t.s.mu.RLock()
	defer t.s.mu.RUnlock()
	m := t.s.hashes
	if len(t.hashes) > 0 {
		m = maps(t.s.hashes, t.hashes)
	}
	return readHashes(m, indexes)
}

func maps(base map[int64][]byte, add []ledger.StoredHash) map[int64][]byte {
	m := make(map[int64][]byte, len(base)+len(add))
	for k, v := range base {
		m[k] = v
	}
	for _, h := range add {
		m[h.ID] = h.Hash
	}
	return m
}

func (t *writeTx) Kinds(ctx context.Context, indexes []int64) (map[int64]ledger.Kind, error) {
	t.s.mu.RLock()
	defer t.s.mu.RUnlock()
	out := map[int64]ledger.Kind{}
	for _, i := range indexes {
		if e, ok := t.s.entries[i]; ok {
			out[i] = e.Kind
		}
	}
	for _, e := range t.entries {
		if slices.Contains(indexes, e.Index) {
			out[e.Index] = e.Kind
		}
	}
	return out, nil
}

func (t *writeTx) Duplicates(ctx context.Context, probes []ledger.DuplicateProbe) (map[[32]byte]ledger.IndexKind, error) {
	t.s.mu.RLock()
	defer t.s.mu.RUnlock()
	want := map[[32]byte]bool{}
	for _, p := range probes {
		want[p.Dedup] = true
	}
	out := map[[32]byte]ledger.IndexKind{}
	consider := func(e *ledger.StoredEntry) {
		if len(e.Dedup) != 32 {
			return
		}
		k := [32]byte(e.Dedup)
		if prev, ok := out[k]; want[k] && (!ok || e.Index < prev.Index) {
			out[k] = ledger.IndexKind{Index: e.Index, Kind: e.Kind}
		}
	}
	for _, e := range t.s.entries {
		consider(&e)
	}
	for i := range t.entries {
		consider(&t.entries[i])
	}
	return out, nil
}

func (t *writeTx) Insert(ctx context.Context, entries []ledger.StoredEntry, hashes []ledger.StoredHash) error {
	t.s.mu.RLock()
	defer t.s.mu.RUnlock()
	for _, e := range entries {
		if _, ok := t.s.entries[e.Index]; ok {
			return fmt.Errorf("entry %d: %w", e.Index, ledger.ErrConflict)
		}
		for _, s := range t.entries {
			if s.Index == e.Index {
				return fmt.Errorf("entry %d: %w", e.Index, ledger.ErrConflict)
			}
		}
		t.entries = append(t.entries, cloneEntry(e))
	}
	for _, h := range hashes {
		if _, ok := t.s.hashes[h.ID]; ok {
			return fmt.Errorf("stored hash %d: %w", h.ID, ledger.ErrConflict)
		}
		t.hashes = append(t.hashes, ledger.StoredHash{ID: h.ID, Hash: bytes.Clone(h.Hash)})
	}
	return nil
}

// Tamper gives tests direct access to the stored rows, to change what
// the audit must catch: fn runs under the store's lock.
func (s *Store) Tamper(fn func(entries map[int64]ledger.StoredEntry, hashes map[int64][]byte, checkpoints *[]ledger.StoredCheckpoint)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	fn(s.entries, s.hashes, &s.checkpoints)
}
