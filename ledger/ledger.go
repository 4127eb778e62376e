package ledger

import (
	"crypto/rand"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
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
	// KeyFile is the private signer key file written by Init (note signer
	// key format, mode 0600). Required unless ReadOnly.
	KeyFile string
	// Clock gives integration times; nil means time.Now. Checkpoint
	// scheduling uses the real clock either way.
	Clock func() time.Time
	// CheckpointInterval is the shortest time between checkpoints; a new
	// one is signed when the tree has grown and the interval has passed.
	// Zero means DefaultCheckpointInterval.
	CheckpointInterval time.Duration
	// ReadOnly opens the database read-only: no key needed, Append,
	// PutReplay and checkpoints are refused with ErrReadOnly.
	ReadOnly bool
}

// Ledger is an open ledger. Its methods are safe for concurrent use.
type Ledger struct {
	path     string
	origin   string
	vkey     string
	signer   note.Signer
	w        *sql.DB // the single writer connection; nil if read-only
	r        *sql.DB // read-only pool
	clock    func() time.Time
	interval time.Duration

	mu     sync.RWMutex // guards closed against sends on reqs
	closed bool
	reqs   chan *request
	done   chan struct{}

	cpMu     sync.Mutex
	cpLatest *Checkpoint
	cpNotify chan struct{} // closed and replaced when a checkpoint is stored

	dedup       dedupIndex // owned by the sequencer goroutine
	commitments commitmentIndex
	inserts     insertCache // owned by the sequencer goroutine

	walStop chan struct{} // closed by Close to stop the WAL checkpointer
	walDone chan struct{}
}

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

// Init creates a new ledger database at path and an Ed25519 key pair whose
// name is origin (the checkpoint origin line, c2sp.org/tlog-checkpoint).
// The private signer key goes to keyFile, created with mode 0600 and never
// overwritten; the database stores the origin and the verifier key, which
// Init returns (note.NewVerifier format). Init signs the empty tree's
// checkpoint. It refuses an existing database or key file, or a key file
// that is the database.
func Init(path, origin, keyFile string) (verifierKey string, err error) {
	if err := checkOrigin(origin); err != nil {
		return "", err
	}
	ap, _ := filepath.Abs(path)
	ak, _ := filepath.Abs(keyFile)
	if ap == ak {
		return "", fmt.Errorf("the key file must be outside the database: both are %s", path)
	}
	for _, p := range []string{path, keyFile} {
		if _, err := os.Lstat(p); err == nil {
			return "", fmt.Errorf("%s already exists: refusing to overwrite it", p)
		}
	}
	skey, vkey, err := note.GenerateKey(rand.Reader, origin)
	if err != nil {
		return "", fmt.Errorf("generating the key pair: %w", err)
	}
	signer, err := note.NewSigner(skey)
	if err != nil {
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
	defer func() {
		if err != nil {
			os.Remove(keyFile)
			for _, s := range []string{"", "-wal", "-shm"} {
				os.Remove(path + s)
			}
		}
	}()
	db, err := openWriter(path, "rwc")
	if err != nil {
		return "", err
	}
	defer db.Close()
	if err := migrate(db); err != nil {
		return "", err
	}
	root, _ := tlog.TreeHash(0, nil)
	cp, err := signCheckpoint(signer, origin, 0, root)
	if err != nil {
		return "", err
	}
	tx, err := db.Begin()
	if err != nil {
		return "", err
	}
	defer tx.Rollback()
	if _, err := tx.Exec(`INSERT INTO log_meta(key, value) VALUES('origin', ?), ('verifier_key', ?)`, origin, vkey); err != nil {
		return "", err
	}
	if _, err := tx.Exec(`INSERT INTO checkpoints(size, root, note, created_at) VALUES(0, ?, ?, ?)`,
		root[:], []byte(cp), time.Now().UnixNano()); err != nil {
		return "", err
	}
	if err := tx.Commit(); err != nil {
		return "", err
	}
	return vkey, nil
}

// readSigner reads and checks the private key file: not readable by group
// or others, a note signer key, and the signer of verifierKey.
func readSigner(keyFile, verifierKey string) (note.Signer, error) {
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
	s, err := note.NewSigner(strings.TrimSpace(string(data)))
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

// Open opens the ledger at path (created by Init). Unless opts.ReadOnly it
// loads the signer key, starts the sequencer and brings the schema up to
// date. Errors: no database at path, a schema newer than this code, a key
// file that is missing, readable by others or not this ledger's key.
func Open(path string, opts Options) (*Ledger, error) {
	if _, err := os.Stat(path); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("no ledger at %s: create one with 'sealed ledger init'", path)
		}
		return nil, err
	}
	l := &Ledger{path: path, clock: opts.Clock, interval: opts.CheckpointInterval, cpNotify: make(chan struct{})}
	if l.clock == nil {
		l.clock = time.Now
	}
	if l.interval <= 0 {
		l.interval = DefaultCheckpointInterval
	}
	fail := func(err error) (*Ledger, error) {
		if l.w != nil {
			l.w.Close()
		}
		if l.r != nil {
			l.r.Close()
		}
		return nil, err
	}
	var err error
	if !opts.ReadOnly {
		if l.w, err = openWriter(path, "rw"); err != nil {
			return fail(err)
		}
		if err := migrate(l.w); err != nil {
			return fail(err)
		}
	}
	if l.r, err = openReaders(path); err != nil {
		return fail(err)
	}
	meta := map[string]string{}
	rows, err := l.r.Query(`SELECT key, value FROM log_meta`)
	if err != nil {
		return fail(fmt.Errorf("%s is not a sealed ledger: %w", path, err))
	}
	for rows.Next() {
		var k, v string
		if err := rows.Scan(&k, &v); err != nil {
			rows.Close()
			return fail(err)
		}
		meta[k] = v
	}
	rows.Close()
	l.origin, l.vkey = meta["origin"], meta["verifier_key"]
	if l.origin == "" || l.vkey == "" {
		return fail(fmt.Errorf("%s is not a sealed ledger: no origin or verifier key", path))
	}
	if cp, err := l.LatestCheckpoint(); err == nil {
		l.cpLatest = cp
	} else if !errors.Is(err, ErrNotFound) {
		return fail(err)
	}
	if opts.ReadOnly {
		return l, nil
	}
	if opts.KeyFile == "" {
		return fail(fmt.Errorf("a key file is needed to open the ledger for writing"))
	}
	if l.signer, err = readSigner(opts.KeyFile, l.vkey); err != nil {
		return fail(err)
	}
	size, err := treeSize(l.w)
	if err != nil {
		return fail(err)
	}
	f, err := loadFrontier(size, hashReader{l.w})
	if err != nil {
		return fail(fmt.Errorf("loading the tree edge: %w", err))
	}
	if err := l.inserts.prepare(l.w); err != nil {
		return fail(fmt.Errorf("preparing statements: %w", err))
	}
	l.reqs = make(chan *request, 4*maxBatch)
	l.done = make(chan struct{})
	go l.sequence(f)
	walDB, err := openWriterPlain(path)
	if err != nil {
		l.Close()
		return nil, err
	}
	l.walStop, l.walDone = make(chan struct{}), make(chan struct{})
	go walCheckpointer(walDB, l.walStop, l.walDone)
	return l, nil
}

// Close stops the sequencer after the queued appends, signs a last
// checkpoint if the tree grew since the previous one, and closes the
// database.
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
	if l.walStop != nil {
		close(l.walStop)
		<-l.walDone
	}
	// Readers first: the last connection to close checkpoints the WAL
	// into the database file and removes it.
	err := l.r.Close()
	if l.w != nil {
		if _, cerr := l.w.Exec(`PRAGMA wal_checkpoint(TRUNCATE)`); cerr != nil && err == nil {
			err = cerr
		}
		if cerr := l.w.Close(); err == nil {
			err = cerr
		}
	}
	return err
}

// Origin is the log's origin: the first line of its checkpoints and the
// name of its key.
func (l *Ledger) Origin() string { return l.origin }

// VerifierKey is the log's Ed25519 verifier key (note.NewVerifier format),
// all an offline checker needs besides a checkpoint and a proof.
func (l *Ledger) VerifierKey() string { return l.vkey }

// Path is the database file.
func (l *Ledger) Path() string { return l.path }
