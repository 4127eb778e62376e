package ledger

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode"
	"unicode/utf8"

	"golang.org/x/mod/sumdb/note"
	"golang.org/x/mod/sumdb/tlog"
)

// DefaultCheckpointInterval is the shortest time between two checkpoints
// when Options.CheckpointInterval is zero.
const DefaultCheckpointInterval = 500 * time.Millisecond

// Options configure Open.
type Options struct {
	// KeyFile is the private signer key file written by Create (note
	// signer key format, mode 0600). Required unless ReadOnly.
	KeyFile string
	// Clock gives integration times; nil means time.Now. Checkpoint
	// scheduling uses the real clock either way.
	Clock func() time.Time
	// CheckpointInterval is the shortest time between checkpoints; a new
	// one is signed when the tree has grown and the interval has passed.
	// Zero means DefaultCheckpointInterval.
	CheckpointInterval time.Duration
	// ReadOnly opens the ledger read-only: no key needed, Append,
	// PutReplay and checkpoints are refused with ErrReadOnly.
	ReadOnly bool
}

// Ledger is an open ledger over a Store. Its methods are safe for
// concurrent use.
type Ledger struct {
	store    Store
	origin   string
	vkey     string
	signer   *logSigner
	readOnly bool
	clock    func() time.Time
	interval time.Duration

	mu     sync.RWMutex // guards closed against sends on reqs
	closed bool
	reqs   chan *request
	done   chan struct{}
	// unsigned is the sequencer's last word (set before done is
	// closed): the error of the checkpoint it could not store for the
	// entries it appended, nil when every one is covered.
	unsigned error

	verified      verifiedLeaves // what VerifiedSize has checked
	proven        provenNodes    // the stored hashes readers proved in a signed tree (proveIncluded)
	seedIndex     seedIndexCheck // the seed_commits rows held to the leaves (CheckSeedCommits)
	verifiedNotes sync.Map       // [32]byte SHA-256 of a checkpoint note -> struct{}: verified by checkpointOf
	latestSeen    atomic.Int64   // the largest size of a latest checkpoint LatestCheckpoint read

	// players caches players rows the sequencer has seen stored
	// (skeleton -> player), so that a commit by a known player needs no
	// lookup; used by the sequencer goroutine only.
	players map[string]string
	// scratch is the sequencer's working memory, reused from batch to
	// batch (sequencer goroutine only).
	scratch batchScratch

	cpMu     sync.Mutex
	cpLatest *Checkpoint
	cpNotify chan struct{} // closed and replaced when a checkpoint is stored

	// identityPending is set on the read-only ledger Copy audits before
	// it writes the identity rows (the store's log_meta is still empty).
	identityPending bool
}

// maxOrigin is the longest origin Create takes (a ledger made before the
// limit keeps its origin), in bytes: a checkpoint's
// first line, a schema-less URL (c2sp.org/tlog-checkpoint) such as
// example.com/sealed, which every checkpoint, receipt and witness request
// repeats.
const maxOrigin = 255

// checkOrigin applies the signed-note key name rules (non-empty UTF-8
// without spaces or "+"), which the checkpoint origin line must meet too.
func checkOrigin(origin string) error {
	if origin == "" || !utf8.ValidString(origin) || strings.ContainsFunc(origin, func(r rune) bool {
		return unicode.IsSpace(r) || r == '+' || unicode.IsControl(r)
	}) {
		return fmt.Errorf("origin %q: expected a non-empty name without spaces or '+', such as example.com/sealed", origin)
	}
	return nil
}

// Create makes a new ledger in the empty store s and an Ed25519 key pair
// whose name is origin (the checkpoint origin line,
// c2sp.org/tlog-checkpoint). The private signer key goes to keyFile,
// created with mode 0600 and never overwritten (removed again if Create
// fails); the store keeps the origin and the verifier key, which Create
// returns (note.NewVerifier format). Create signs the empty tree's
// checkpoint. Errors: an origin that is not a valid key name or is longer
// than 255 bytes (maxOrigin), an existing
// key file, a store that already holds a ledger, a store that holds the
// rows of a copy that did not complete (ErrUnfinished), storage errors.
func Create(ctx context.Context, s Store, origin, keyFile string) (verifierKey string, err error) {
	if len(origin) > maxOrigin {
		return "", fmt.Errorf("origin of %d bytes: expected at most %d, a name such as example.com/sealed", len(origin), maxOrigin)
	}
	if err := checkOrigin(origin); err != nil {
		return "", err
	}
	if _, err := os.Lstat(keyFile); err == nil {
		return "", fmt.Errorf("%s already exists: refusing to overwrite it", keyFile)
	}
	// The rows of a copy that did not complete (Copy writes the identity
	// rows last) would be another log's under this one's identity. (A
	// census that fails is left to s.Create to report.)
	if c, err := s.Census(ctx); err == nil && len(c.MetaKeys) == 0 && rowCount(c) > 0 {
		return "", ErrUnfinished
	}
	skey, vkey, err := note.GenerateKey(rand.Reader, origin)
	if err != nil {
		return "", fmt.Errorf("generating the key pair: %w", err)
	}
	if _, err := newLogSigner(skey); err != nil {
		return "", err
	}
	kf, err := os.OpenFile(keyFile, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return "", fmt.Errorf("creating the key file: %w", err)
	}
	_, err = kf.WriteString(skey + "\n")
	if err == nil {
		err = kf.Sync()
	}
	if cerr := kf.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(keyFile)
		return "", fmt.Errorf("writing the key file: %w", err)
	}
	root, _ := tlog.TreeHash(0, nil)
	ls, err := newLogSigner(skey)
	var cp string
	var at time.Time
	if err == nil {
		cp, at, err = ls.sign(origin, 0, root)
	}
	if err == nil {
		err = s.Create(ctx, &Meta{Origin: origin, VerifierKey: vkey},
			&StoredCheckpoint{Size: 0, Root: root[:], Note: []byte(cp), CreatedAt: at.UnixNano()})
	}
	if err != nil {
		os.Remove(keyFile)
		return "", err
	}
	return vkey, nil
}

// readSigner reads and checks the private key file: not readable by group
// or others, a note signer key, and the signer of verifierKey.
func readSigner(keyFile, verifierKey string) (*logSigner, error) {
	st, err := os.Stat(keyFile)
	if err != nil {
		return nil, fmt.Errorf("key file: %w", err)
	}
	if st.Mode().Perm()&0o077 != 0 {
		return nil, fmt.Errorf("key file %s has mode %04o: it must not be readable by others (chmod 600)", keyFile, st.Mode().Perm())
	}
	data, err := os.ReadFile(keyFile)
	if err != nil {
		return nil, fmt.Errorf("key file: %w", err)
	}
	s, err := newLogSigner(strings.TrimSpace(string(data)))
	if err != nil {
		return nil, fmt.Errorf("key file %s: not a signer key: %w", keyFile, err)
	}
	v, err := note.NewVerifier(verifierKey)
	if err != nil {
		return nil, fmt.Errorf("stored verifier key: %w", err)
	}
	probe := "sealed key check\n"
	msg, err := note.Sign(&note.Note{Text: probe}, s)
	if err == nil {
		_, err = note.Open(msg, note.VerifierList(v))
	}
	if err != nil {
		return nil, fmt.Errorf("key file %s is not the key of this ledger (%s)", keyFile, v.Name())
	}
	return s, nil
}

// Open opens the ledger kept in s (made by Create). Unless opts.ReadOnly
// it loads the signer key and starts the sequencer. Close closes s too.
// Errors: a store holding no ledger (wrapping ErrNotLedger), a key file
// that is missing (wrapping fs.ErrNotExist), readable by others or not
// this ledger's key.
func Open(ctx context.Context, s Store, opts Options) (*Ledger, error) {
	m, err := s.Meta(ctx)
	if err != nil {
		return nil, err
	}
	return openMeta(ctx, s, m, opts)
}

// openMeta is Open with the log's identity m given rather than read from
// the store (Copy audits a copy before it writes the identity rows).
func openMeta(ctx context.Context, s Store, m *Meta, opts Options) (*Ledger, error) {
	l := &Ledger{store: s, readOnly: opts.ReadOnly, clock: opts.Clock, interval: opts.CheckpointInterval, cpNotify: make(chan struct{}), players: map[string]string{}}
	if l.clock == nil {
		l.clock = time.Now
	}
	if l.interval <= 0 {
		l.interval = DefaultCheckpointInterval
	}
	l.origin, l.vkey = m.Origin, m.VerifierKey
	// A latest checkpoint that does not verify leaves a read-only ledger
	// open, for the audit to name it; a writer refuses it.
	cp, err := l.LatestCheckpoint()
	switch {
	case err == nil:
		l.cpLatest = cp
	case errors.Is(err, ErrTampered) && opts.ReadOnly:
	case !errors.Is(err, ErrNotFound):
		return nil, err
	}
	if opts.ReadOnly {
		return l, nil
	}
	if opts.KeyFile == "" {
		return nil, fmt.Errorf("a key file is needed to open the ledger for writing")
	}
	// A writer signs with the origin the store names: it must be the
	// verifier key's name, or every checkpoint it signs would be refused.
	if v, err := note.NewVerifier(l.vkey); err != nil || v.Name() != l.origin {
		return nil, fmt.Errorf("log_meta: the origin %q is not the name of the stored verifier key %q; refusing to sign with it: %w", l.origin, l.vkey, ErrTampered)
	}
	if l.signer, err = readSigner(opts.KeyFile, l.vkey); err != nil {
		return nil, err
	}
	size, err := s.Size(ctx)
	if err != nil {
		return nil, err
	}
	f, err := loadFrontier(size, hashReader{ctx, s})
	if errors.Is(err, ErrNotFound) {
		// The log wrote every stored hash below its size.
		return nil, fmt.Errorf("loading the tree edge: %v, which the log wrote: %w", err, ErrTampered)
	}
	if err != nil {
		return nil, fmt.Errorf("loading the tree edge: %w", err)
	}
	if err := l.checkEdge(ctx, f, l.cpLatest, nothing); err != nil {
		return nil, err
	}
	if f.newest, err = l.newestTime(ctx, f, hashReader{ctx, s}); err != nil {
		return nil, err
	}
	l.reqs = make(chan *request, 4*maxBatch)
	l.done = make(chan struct{})
	go l.sequence(f)
	return l, nil
}

// Close stops the sequencer after the queued appends, signs a last
// checkpoint if the tree grew since the previous one, and closes the
// store. If that checkpoint could not be stored (the store full or
// failing), the appended entries stay stored, acknowledged, and are
// covered by the next checkpoint any writer signs; Close then returns an
// error wrapping ErrUnsigned saying which entries and why.
func (l *Ledger) Close() error {
	l.mu.Lock()
	if l.closed {
		l.mu.Unlock()
		return nil
	}
	l.closed = true
	if l.reqs != nil {
		close(l.reqs)
	}
	l.mu.Unlock()
	if l.done != nil {
		<-l.done
	}
	err := l.store.Close()
	if l.unsigned != nil && err != nil {
		return fmt.Errorf("%w; closing the store: %v", l.unsigned, err)
	} else if l.unsigned != nil {
		return l.unsigned
	}
	return err
}

// Origin is the log's origin: the first line of its checkpoints and the
// name of its key.
func (l *Ledger) Origin() string { return l.origin }

// VerifierKey is the log's Ed25519 verifier key (note.NewVerifier format),
// all an offline checker needs besides a checkpoint and a proof.
func (l *Ledger) VerifierKey() string { return l.vkey }

// Store is the store the ledger was opened on.
func (l *Ledger) Store() Store { return l.store }
