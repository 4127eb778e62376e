package tlogtest

import (
	"context"
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sealedhq/sealed/ledger"
	"github.com/sealedhq/sealed/ledger/memstore"
	"golang.org/x/mod/sumdb/note"
	"golang.org/x/mod/sumdb/tlog"
)

// Log is an in-memory ledger for the tests.
type Log struct {
	*ledger.Ledger
	Store       *memstore.Store
	KeyFile     string
	VerifierKey string
}

// NewLog creates an in-memory ledger with a new key, checkpointing every
// millisecond; it is closed when the test ends.
func NewLog(t testing.TB, origin string) *Log {
	t.Helper()
	s := memstore.New()
	key := filepath.Join(t.TempDir(), "log.key")
	vkey, err := ledger.Create(context.Background(), s, origin, key)
	if err != nil {
		t.Fatal(err)
	}
	return open(t, s, key, vkey)
}

// Signer returns the note signer of log's key: what its operator, or
// whoever holds the key, signs checkpoints with.
func (l *Log) Signer(t testing.TB) note.Signer {
	t.Helper()
	b, err := os.ReadFile(l.KeyFile)
	if err != nil {
		t.Fatal(err)
	}
	signer, err := note.NewSigner(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	return signer
}

// SameKey creates another in-memory ledger signed with log's key and
// origin: what an operator who forks or cuts the log would run.
func SameKey(t testing.TB, log *Log) *Log {
	t.Helper()
	signer := log.Signer(t)
	root, _ := tlog.TreeHash(0, nil)
	origin := signer.Name()
	msg, err := note.Sign(&note.Note{Text: ledger.FormatCheckpoint(origin, 0, root)}, signer)
	if err != nil {
		t.Fatal(err)
	}
	s := memstore.New()
	if err := s.Create(context.Background(), &ledger.Meta{Origin: origin, VerifierKey: log.VerifierKey},
		&ledger.StoredCheckpoint{Size: 0, Root: root[:], Note: msg, CreatedAt: time.Now().UnixNano()}); err != nil {
		t.Fatal(err)
	}
	return open(t, s, log.KeyFile, log.VerifierKey)
}

func open(t testing.TB, s *memstore.Store, key, vkey string) *Log {
	l, err := ledger.Open(context.Background(), s, ledger.Options{KeyFile: key, CheckpointInterval: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return &Log{Ledger: l, Store: s, KeyFile: key, VerifierKey: vkey}
}

// Fill appends commit entries until the log has n, each by player
// tag-<index>, 64 at a time, and waits for a checkpoint of exactly n.
func (l *Log) Fill(t testing.TB, n int64, tag string) *ledger.Checkpoint {
	t.Helper()
	ctx := context.Background()
	size, err := l.Size()
	if err != nil {
		t.Fatal(err)
	}
	for size < n {
		k := min(n-size, 64)
		var wg sync.WaitGroup
		errs := make([]error, k)
		for j := range k {
			wg.Add(1)
			go func() {
				defer wg.Done()
				i := size + j
				body := fmt.Sprintf(`{"kind":"commit","player":"%s-%d","action_type":"bid","channel":"#a","commitment":"%x"}`, tag, i, sha256.Sum256([]byte(fmt.Sprint(tag, i))))
				_, errs[j] = l.Append(ctx, []byte(body))
			}()
		}
		wg.Wait()
		for _, err := range errs {
			if err != nil {
				t.Fatal(err)
			}
		}
		size += k
	}
	cp, err := l.WaitCheckpoint(ctx, n)
	if err != nil {
		t.Fatal(err)
	}
	if cp.Size != n {
		t.Fatalf("checkpoint of size %d, want %d", cp.Size, n)
	}
	return cp
}
