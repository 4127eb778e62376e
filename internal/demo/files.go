package demo

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/sealedhq/sealed/ledger"
	"github.com/sealedhq/sealed/ledger/stores"
)

// Origin is the demo ledger's origin (the first line of its checkpoints and
// the name of its key). A database with this origin is a demo ledger, which
// Build may replace; any other file at the path is refused.
const Origin = "demo.sealed.invalid/ledger"

// KeyFile returns the signer key file of the ledger database at path, the
// one naming rule every sealed verb uses (ledger init, ledger append,
// action, serve, demo): a path ending in ".db" has that suffix replaced
// by ".key" ("./sealed.db" -> "./sealed.key", "o2.db" -> "o2.key"); any
// other path gets ".key" appended ("ledger" -> "ledger.key",
// "notes.txt" -> "notes.txt.key").
func KeyFile(path string) string { return sibling(path, ".key") }

// TokenFile returns the bearer-token file of the demo ledger at path, by
// KeyFile's rule with ".token": "demo.db" -> "demo.token".
func TokenFile(path string) string { return sibling(path, ".token") }

// VerifierKeyFile returns the file the demo writes its verifier key to, by
// KeyFile's rule with ".vkey": "demo.db" -> "demo.vkey". The verifier key
// is public: auditors pin it with --vkey-file.
func VerifierKeyFile(path string) string { return sibling(path, ".vkey") }

// sibling names the file next to the database path with suffix ext: the
// ".db" of path replaced, or ext appended when path does not end in ".db"
// (or is only ".db", a hidden file's name).
func sibling(path, ext string) string {
	if base, ok := strings.CutSuffix(path, ".db"); ok && base != "" && !strings.HasSuffix(base, "/") && !strings.HasSuffix(base, string(filepath.Separator)) {
		return base + ext
	}
	return path + ext
}

// ErrNotDemo is returned (wrapped) by Build when a file exists at the path
// and is not a demo ledger.
var ErrNotDemo = errors.New("not a sealed demo ledger")

// ErrPosted is returned (wrapped) by Build, even with Options.Force, when
// the demo ledger at the path holds entries beyond the demo's own (posted
// to it since, e.g. through the served write API): replacing it would lose
// them.
var ErrPosted = errors.New("entries were posted to the demo ledger")

// ErrExists is returned (wrapped) by Build when a demo ledger exists at the
// path and Options.Force is not set. A demo ledger may be in use (served,
// with entries posted to it), so Build never replaces one unasked.
var ErrExists = errors.New("a demo ledger exists at the path")

// ErrInUse is returned (wrapped) by Build when the demo ledger at the path
// is being served (Hold holds it), even with Options.Force.
var ErrInUse = errors.New("the demo ledger is in use")

// gamesPlayed is the number of games the demo plays; each records a
// seed-commit, a seed-reveal and a result entry.
const gamesPlayed = 2

// contributedEntries are the entries of the match with contributions (a
// seed-commit, two contributions, a seed-reveal, a result) and of the
// abandoned match (a seed-commit).
const contributedEntries = 6

// ownSize is the number of entries Build records: the games' entries and
// the week's commits, edits and reveals.
func ownSize() int64 {
	return int64(3*gamesPlayed + len(weekActions) + len(weekEdits) + len(weekReveals) + contributedEntries)
}

// clear removes a previous demo ledger at path (the database, its WAL and
// shared-memory files, its key, token and verifier key) when force is set and it holds
// nothing but the demo's own entries and is not in use. A path that does
// not exist is fine. Refused, and left alone: a file that is not a demo
// ledger (ErrNotDemo); a demo ledger with more entries than the demo
// records (ErrPosted); any other demo ledger without force (ErrExists); a demo ledger
// being served (ErrInUse); a key, token or verifier-key file without its ledger
// (ErrNotDemo).
func clear(path string, force bool) error {
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		for _, f := range []string{KeyFile(path), TokenFile(path), VerifierKeyFile(path)} {
			if _, err := os.Stat(f); err == nil {
				return fmt.Errorf("%s exists without the ledger %s; refusing to overwrite it: %w", f, path, ErrNotDemo)
			}
		}
		return nil
	} else if err != nil {
		return err
	}
	l, err := stores.Open(context.Background(), path, ledger.Options{ReadOnly: true})
	if err != nil {
		return fmt.Errorf("%s exists and is not a ledger (%v); refusing to overwrite it: %w", path, err, ErrNotDemo)
	}
	origin := l.Origin()
	size, err := l.Size()
	l.Close()
	if err != nil {
		return fmt.Errorf("%s: reading its size: %v; refusing to overwrite it: %w", path, err, ErrNotDemo)
	}
	if origin != Origin {
		return fmt.Errorf("%s is the ledger %q; refusing to overwrite it: %w", path, origin, ErrNotDemo)
	}
	if own := ownSize(); size > own {
		return fmt.Errorf("%s is a demo ledger holding %d entries, %d more than the demo records (posted to it since); refusing to replace it: %w",
			path, size, size-own, ErrPosted)
	}
	if !force {
		return fmt.Errorf("%s already exists (a demo ledger of %d entries); refusing to replace it: %w", path, size, ErrExists)
	}
	if busy, err := inUse(path); err != nil {
		return fmt.Errorf("%s: cannot tell whether it is in use: %v; refusing to replace it: %w", path, err, ErrInUse)
	} else if busy {
		return fmt.Errorf("%s is being served (sealed serve or sealed demo --serve); refusing to replace it: %w", path, ErrInUse)
	}
	for _, f := range []string{path, path + "-wal", path + "-shm", KeyFile(path), TokenFile(path), VerifierKeyFile(path)} {
		if err := os.Remove(f); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	return nil
}

// WriteToken draws a bearer token for the demo's write API (32 bytes from
// crypto/rand, base64url without padding) and writes it to TokenFile(path)
// with mode 0600, replacing an earlier one. It returns the token.
func WriteToken(path string) (string, error) {
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	tok := base64.RawURLEncoding.EncodeToString(b[:])
	f := TokenFile(path)
	if err := os.WriteFile(f, []byte(tok+"\n"), 0o600); err != nil {
		return "", err
	}
	if err := os.Chmod(f, 0o600); err != nil {
		return "", err
	}
	return tok, nil
}
