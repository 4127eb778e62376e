package pgtest

import (
	"fmt"
	"os"
	"sync"
	"sync/atomic"
	"testing"
)

// shared is the server [Shared] hands out, started on first use and
// stopped by [Main].
var shared struct {
	inMain atomic.Bool // Main is running the tests
	once   sync.Once
	srv    *Server
	err    error
}

// Shared returns the test binary's shared server, starting it with the
// default [Options] on the first call; later calls, from any test, return
// the same server. Tests use [Server.NewDatabase] on it to get a database
// of their own. The server is stopped by [Main], which the package's
// TestMain must call; without it Shared fails tb.
//
// When the PostgreSQL binaries are not installed Shared skips tb, or fails
// it if the environment variable CI is "true". If the server failed to
// start, every call fails its test with that error.
func Shared(tb testing.TB) *Server {
	tb.Helper()
	if !shared.inMain.Load() {
		tb.Fatal("pgtest: Shared needs the package's TestMain to call pgtest.Main(m), which stops the server")
		return nil
	}
	shared.once.Do(func() { shared.srv, shared.err = start(Options{}) })
	if shared.err != nil {
		skipOrFail(tb, shared.err)
		return nil
	}
	return shared.srv
}

// Main runs the tests of m, stops the server [Shared] started, if any, and
// exits with the tests' status (1 also if the server did not stop cleanly).
// If a test failed, the last lines of the shared server's log go to standard
// error first. Call it from TestMain:
//
//	func TestMain(m *testing.M) { pgtest.Main(m) }
func Main(m *testing.M) {
	shared.inMain.Store(true)
	code := m.Run()
	if s := shared.srv; s != nil {
		if code != 0 {
			fmt.Fprintf(os.Stderr, "pgtest: last lines of the shared server's log %s:\n%s\n", s.logPath, tail(s.logPath, logTailLines))
		}
		if err := s.stop(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			code = max(code, 1)
		}
	}
	os.Exit(code)
}
