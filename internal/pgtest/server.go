package pgtest

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// User is the superuser of every cluster pgtest creates; the URLs from
// [Server.URL] and [Server.NewDatabase] connect as this user, without a
// password (trust authentication).
const User = "pgtest"

const (
	// startTimeout bounds initdb plus the wait for the server to accept
	// connections; generous, for a loaded 2-core machine.
	startTimeout = 60 * time.Second
	// stopTimeout bounds the fast shutdown before pgtest escalates to an
	// immediate shutdown (SIGQUIT) and then to SIGKILL.
	stopTimeout = 30 * time.Second
	// sqlTimeout bounds each CREATE or DROP DATABASE.
	sqlTimeout = 60 * time.Second
	// logTailLines is how many lines of a log go into an error.
	logTailLines = 30
)

// Options configures a server started by [Start]. The zero value gives the
// defaults, which are also what [Shared] uses.
type Options struct {
	// NoFsync starts the server with fsync=off: writes are faster, but
	// committed data is no longer durable against a crash of the server or
	// the machine. Leave it false (fsync=on) for tests of durability.
	NoFsync bool
}

// A Server is a running PostgreSQL server in its own temporary directory,
// reachable only through a Unix socket in that directory. Its methods are
// safe for concurrent use by parallel tests.
type Server struct {
	dir     string // temporary directory: socket, data/, server.log
	port    int    // names the socket file .s.PGSQL.<port>; no TCP listener
	logPath string

	cmd     *exec.Cmd
	exited  chan struct{} // closed when the postgres process has exited
	waitErr error         // from cmd.Wait, valid once exited is closed

	nextDB   atomic.Int64 // numbers the databases NewDatabase creates
	stopOnce sync.Once
	stopErr  error
}

// Start starts a private server for the test or benchmark tb and stops it,
// removing its directory, when tb ends; if tb failed, the last lines of the
// server log are logged first.
//
// Startup (initdb, then the server) takes 1 to 2 s on a 2-core machine, so
// tests that only need a database of their own should prefer [Shared] and
// [Server.NewDatabase]; Start is for tests that need a server of their own
// or one configured differently by opts.
//
// When the PostgreSQL binaries are not installed Start skips tb, or fails it
// if the environment variable CI is "true". Any other failure to start
// (initdb failing, postgres exiting, no connection within 60 s) fails tb with
// the error and the last lines of the initdb output or server log.
func Start(tb testing.TB, opts Options) *Server {
	tb.Helper()
	s, err := start(opts)
	if err != nil {
		skipOrFail(tb, err)
		return nil
	}
	tb.Cleanup(func() {
		if tb.Failed() {
			tb.Logf("pgtest: last lines of the server log %s:\n%s", s.logPath, tail(s.logPath, logTailLines))
		}
		if err := s.stop(); err != nil {
			tb.Error(err)
		}
	})
	return s
}

// skipOrFail ends tb on a startup error: a skip when the binaries are missing
// (a fail if CI=true, since CI must not silently skip), a fail otherwise.
func skipOrFail(tb testing.TB, err error) {
	tb.Helper()
	if isNotInstalled(err) && os.Getenv("CI") != "true" {
		tb.Skip(err)
		return
	}
	tb.Fatal(err)
}

// SocketDir returns the directory holding the server's Unix socket, the
// host to give clients (a host starting with "/" is a socket directory).
func (s *Server) SocketDir() string { return s.dir }

// Port returns the server's port number. The server does not listen on TCP;
// the port only names the socket file SocketDir()/.s.PGSQL.<port>, and
// clients need it to find that file.
func (s *Server) Port() int { return s.port }

// URL returns a connection URL for the database dbname on s, connecting as
// [User] through the Unix socket:
//
//	postgres:///DBNAME?host=SOCKETDIR&port=PORT&user=pgtest
//
// It does not check that dbname exists; "postgres" always does.
func (s *Server) URL(dbname string) string {
	return "postgres:///" + url.PathEscape(dbname) +
		"?host=" + strings.ReplaceAll(url.QueryEscape(s.dir), "%2F", "/") +
		"&port=" + strconv.Itoa(s.port) +
		"&user=" + url.QueryEscape(User)
}

// NewDatabase creates a new, empty database on s for the test tb, named
// after the test and unique on s (at most 63 bytes, of a-z, 0-9 and _), and
// returns its connection URL as [Server.URL] gives it. The database is
// dropped, with any connections still open to it, when tb ends. Failures
// to create or drop the database fail tb.
func (s *Server) NewDatabase(tb testing.TB) string {
	tb.Helper()
	name := dbName(s.nextDB.Add(1), tb.Name())
	if err := s.exec("CREATE DATABASE " + pgx.Identifier{name}.Sanitize()); err != nil {
		tb.Fatalf("pgtest: creating database %s: %v", name, err)
	}
	tb.Cleanup(func() {
		if err := s.exec("DROP DATABASE IF EXISTS " + pgx.Identifier{name}.Sanitize() + " WITH (FORCE)"); err != nil {
			tb.Errorf("pgtest: dropping database %s: %v", name, err)
		}
	})
	return s.URL(name)
}

// exec runs one statement in the postgres database, on a connection of its
// own (CREATE and DROP DATABASE cannot run inside a transaction).
func (s *Server) exec(sql string) error {
	ctx, cancel := context.WithTimeout(context.Background(), sqlTimeout)
	defer cancel()
	conn, err := pgx.Connect(ctx, s.URL("postgres"))
	if err != nil {
		return err
	}
	defer conn.Close(context.Background())
	_, err = conn.Exec(ctx, sql)
	return err
}

// dbName makes the name of database number n for the test named test:
// "t<n>_" and the test name lowercased, every byte outside a-z0-9 turned
// into "_", cut to PostgreSQL's 63-byte limit on identifiers.
func dbName(n int64, test string) string {
	var b strings.Builder
	b.WriteString("t" + strconv.FormatInt(n, 10) + "_")
	for _, c := range []byte(strings.ToLower(test)) {
		if b.Len() == 63 {
			break
		}
		if c >= 'a' && c <= 'z' || c >= '0' && c <= '9' {
			b.WriteByte(c)
		} else {
			b.WriteByte('_')
		}
	}
	return b.String()
}

// start creates a cluster in a new temporary directory and starts a server
// on it, returning once the server accepts connections.
func start(opts Options) (_ *Server, err error) {
	bins, err := findBinaries(debianRoot)
	if err != nil {
		return nil, err
	}
	cred, err := credential()
	if err != nil {
		return nil, err
	}
	deadline := time.Now().Add(startTimeout)

	dir, err := os.MkdirTemp("", "pgtest-")
	if err != nil {
		return nil, fmt.Errorf("pgtest: %w", err)
	}
	defer func() {
		if err != nil {
			os.RemoveAll(dir)
		}
	}()
	if cred != nil {
		if err := checkSearchable(filepath.Dir(dir)); err != nil {
			return nil, err
		}
		if err := os.Chown(dir, int(cred.Uid), int(cred.Gid)); err != nil {
			return nil, fmt.Errorf("pgtest: %w", err)
		}
	}
	data := filepath.Join(dir, "data")

	ictx, cancel := context.WithDeadline(context.Background(), deadline)
	defer cancel()
	initdb := exec.CommandContext(ictx, bins.initdb,
		"--pgdata="+data, "--username="+User, "--auth=trust",
		"--encoding=UTF8", "--no-locale", "--no-sync")
	initdb.Dir = dir
	initdb.Env = childEnv(dir)
	initdb.SysProcAttr = procAttr(cred)
	if out, err := initdb.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("pgtest: %s failed: %v; last lines of its output:\n%s",
			bins.initdb, err, lastLines(string(out), logTailLines))
	}

	s := &Server{
		dir:     dir,
		port:    20000 + rand.IntN(40000),
		logPath: filepath.Join(dir, "server.log"),
		exited:  make(chan struct{}),
	}
	logFile, err := os.Create(s.logPath)
	if err != nil {
		return nil, fmt.Errorf("pgtest: %w", err)
	}
	defer logFile.Close() // postgres has its own descriptor once started
	fsync := "on"
	if opts.NoFsync {
		fsync = "off"
	}
	s.cmd = exec.Command(bins.postgres,
		"-D", data,
		"-k", dir,
		"-p", strconv.Itoa(s.port),
		"-c", "listen_addresses=",
		"-c", "fsync="+fsync)
	s.cmd.Dir = dir
	s.cmd.Env = childEnv(dir)
	s.cmd.Stdout = logFile
	s.cmd.Stderr = logFile
	s.cmd.SysProcAttr = procAttr(cred)
	if err := s.cmd.Start(); err != nil {
		return nil, fmt.Errorf("pgtest: starting %s: %w", bins.postgres, err)
	}
	go func() {
		s.waitErr = s.cmd.Wait()
		close(s.exited)
	}()
	if err := s.waitReady(deadline); err != nil {
		s.stop()
		return nil, err
	}
	return s, nil
}

// waitReady polls the server with connection attempts until one succeeds,
// the server exits, or deadline passes.
func (s *Server) waitReady(deadline time.Time) error {
	started := time.Now()
	for {
		ctx, cancel := context.WithTimeout(context.Background(), min(time.Until(deadline), 5*time.Second))
		conn, err := pgx.Connect(ctx, s.URL("postgres"))
		cancel()
		if err == nil {
			conn.Close(context.Background())
			return nil
		}
		select {
		case <-s.exited:
			return fmt.Errorf("pgtest: postgres exited during startup (%v); last lines of %s:\n%s",
				s.waitErr, s.logPath, tail(s.logPath, logTailLines))
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("pgtest: postgres did not accept connections within %v (last error: %v); last lines of %s:\n%s",
				time.Since(started).Round(time.Second), err, s.logPath, tail(s.logPath, logTailLines))
		}
	}
}

// stop shuts the server down and removes its directory. It asks for a fast
// shutdown (SIGINT: roll back open transactions, checkpoint, exit), then
// after stopTimeout for an immediate one (SIGQUIT), then kills it. It
// returns an error if postgres did not exit with status 0 or the directory
// could not be removed. Only the first call does anything.
func (s *Server) stop() error {
	s.stopOnce.Do(func() {
		var errs []error
		s.cmd.Process.Signal(syscall.SIGINT)
		select {
		case <-s.exited:
		case <-time.After(stopTimeout):
			errs = append(errs, fmt.Errorf("pgtest: postgres did not stop within %v of SIGINT; sent SIGQUIT", stopTimeout))
			s.cmd.Process.Signal(syscall.SIGQUIT)
			select {
			case <-s.exited:
			case <-time.After(stopTimeout):
				s.cmd.Process.Kill()
				<-s.exited
			}
		}
		if s.waitErr != nil {
			errs = append(errs, fmt.Errorf("pgtest: postgres: %v; last lines of %s:\n%s",
				s.waitErr, s.logPath, tail(s.logPath, logTailLines)))
		}
		if err := os.RemoveAll(s.dir); err != nil {
			errs = append(errs, fmt.Errorf("pgtest: %w", err))
		}
		s.stopErr = errors.Join(errs...)
	})
	return s.stopErr
}

// childEnv is the environment for initdb and postgres: this process's,
// without PG* variables (PGDATA, PGPORT, ... would override the flags) and
// locale variables, with LC_ALL=C and HOME set to dir.
func childEnv(dir string) []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "PG") || strings.HasPrefix(k, "LC_") || k == "LANG" || k == "LANGUAGE" || k == "HOME" {
			continue
		}
		env = append(env, kv)
	}
	return append(env, "LC_ALL=C", "HOME="+dir)
}

// tail returns the last n lines of the file at path, or a note saying why
// it could not be read.
func tail(path string, n int) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return fmt.Sprintf("(cannot read log: %v)", err)
	}
	return lastLines(string(b), n)
}

// lastLines returns the last n lines of s.
func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
