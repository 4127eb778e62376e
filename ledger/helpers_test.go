package ledger_test

import (
	"context"
	"encoding/base64"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sealedhq/sealed/internal/testvector"
	"github.com/sealedhq/sealed/ledger"
	"github.com/sealedhq/sealed/ledger/stores"
)

const testOrigin = "sealed.test/log"

// initLedger creates a SQLite ledger at path (stores.Init).
func initLedger(path, origin, keyFile string) (string, error) {
	return stores.Init(context.Background(), path, origin, keyFile)
}

// openLedger opens the SQLite ledger at path (stores.Open).
func openLedger(t testing.TB, path string, opts ledger.Options) (*ledger.Ledger, error) {
	return stores.Open(context.Background(), path, opts)
}

// newTestLedger creates a ledger in a temp dir and opens it for writing.
func newTestLedger(t testing.TB, opts ledger.Options) (l *ledger.Ledger, dbPath, vkey string) {
	t.Helper()
	dir := t.TempDir()
	dbPath = filepath.Join(dir, "sealed.db")
	keyPath := filepath.Join(dir, "sealed.key")
	vkey, err := initLedger(dbPath, testOrigin, keyPath)
	if err != nil {
		t.Fatal(err)
	}
	opts.KeyFile = keyPath
	l, err = openLedger(t, dbPath, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return l, dbPath, vkey
}

// fixedClock returns a clock stuck at s (RFC 3339).
func fixedClock(t testing.TB, s string) func() time.Time {
	tm, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		t.Fatal(err)
	}
	return func() time.Time { return tm }
}

// readVector reads an age-style vector file: "key: value" header lines, a
// blank line, then the raw bytes.
func readVector(t testing.TB, path string) (map[string]string, []byte) {
	t.Helper()
	f, err := testvector.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	return f.Map(), f.Body
}

// readHeaders reads a file of "key: value" lines ("#" lines are comments).
func readHeaders(t testing.TB, path string) map[string]string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	h, _ := readVector(t, writeTemp(t, append(data, '\n')))
	return h
}

func writeTemp(t testing.TB, data []byte) string {
	p := filepath.Join(t.TempDir(), "v")
	if err := os.WriteFile(p, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// timedName returns whether byte i of data (which holds a signed
// checkpoint note) is in the key name of the log's own timestamped
// signature line (cosignature/v1: 76 signature bytes;
// ledger.CheckpointTime). A changed name there makes the line one by an
// unknown key, which C2SP signed-note says to ignore: the checkpoint is
// still signed by the log, so accepting it is right. Every other byte of
// that line (key hash, timestamp, signature) must be refused.
func timedName(t testing.TB, data []byte, origin string) func(int) bool {
	t.Helper()
	prefix := "\u2014 " + origin + " "
	start := 0
	for _, line := range strings.SplitAfter(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, prefix); ok {
			if sig, err := base64.StdEncoding.DecodeString(strings.TrimSpace(rest)); err == nil && len(sig) == 76 {
				lo, hi := start+len("\u2014 "), start+len(prefix)-1
				return func(i int) bool { return i >= lo && i < hi }
			}
		}
		start += len(line)
	}
	t.Fatal("no timestamped signature line by the log")
	return nil
}
