package demo

import (
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/sealedhq/sealed/ledger"
)

// Origin is the demo ledger's origin (the first line of its checkpoints and
// the name of its key). A database with this origin is a demo ledger, which
// Build may replace; any other file at the path is refused.
const Origin = "demo.sealed.invalid/ledger"

// KeyFile returns the signer key file of the demo ledger at path: path +
// ".key".
func KeyFile(path string) string { return path + ".key" }

// TokenFile returns the bearer-token file of the demo ledger at path:
// path + ".token".
func TokenFile(path string) string { return path + ".token" }

// ErrNotDemo is returned (wrapped) by Build when a file exists at the path
// and is not a demo ledger.
var ErrNotDemo = errors.New("not a sealed demo ledger")

// clear removes a previous demo ledger at path (the database, its WAL and
// shared-memory files, its key and token). A path that does not exist is
// fine; a file there that is not a demo ledger (another ledger, or
// anything else) is refused with ErrNotDemo and left alone.
func clear(path string) error {
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		for _, f := range []string{KeyFile(path), TokenFile(path)} {
			if _, err := os.Stat(f); err == nil {
				return fmt.Errorf("%s exists without the ledger %s; refusing to overwrite it: %w", f, path, ErrNotDemo)
			}
		}
		return nil
	} else if err != nil {
		return err
	}
	l, err := ledger.Open(path, ledger.Options{ReadOnly: true})
	if err != nil {
		return fmt.Errorf("%s exists and is not a ledger (%v); refusing to overwrite it: %w", path, err, ErrNotDemo)
	}
	origin := l.Origin()
	l.Close()
	if origin != Origin {
		return fmt.Errorf("%s is the ledger %q; refusing to overwrite it: %w", path, origin, ErrNotDemo)
	}
	for _, f := range []string{path, path + "-wal", path + "-shm", KeyFile(path), TokenFile(path)} {
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
