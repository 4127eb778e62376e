package pgtest_test

import (
	"context"
	"fmt"
	"os"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/sealedhq/sealed/internal/pgtest"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// connect opens a pgx connection to url, closed when t ends.
func connect(t *testing.T, url string) *pgx.Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatalf("connecting to %s: %v", url, err)
	}
	t.Cleanup(func() { conn.Close(context.Background()) })
	return conn
}

// queryString runs a query returning one text value.
func queryString(t *testing.T, conn *pgx.Conn, sql string, args ...any) string {
	t.Helper()
	var s string
	if err := conn.QueryRow(context.Background(), sql, args...).Scan(&s); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	return s
}

func TestSharedTwoDatabases(t *testing.T) {
	srv := pgtest.Shared(t)
	urlA, urlB := srv.NewDatabase(t), srv.NewDatabase(t)
	if urlA == urlB {
		t.Fatalf("NewDatabase returned %s twice", urlA)
	}
	a, b := connect(t, urlA), connect(t, urlB)
	ctx := context.Background()

	// Each connection is to the database its URL names.
	for _, c := range []struct {
		url  string
		conn *pgx.Conn
	}{{urlA, a}, {urlB, b}} {
		cfg, err := pgconn.ParseConfig(c.url)
		if err != nil {
			t.Fatal(err)
		}
		if got := queryString(t, c.conn, "SELECT current_database()"); got != cfg.Database {
			t.Errorf("%s: current_database() = %q, want %q", c.url, got, cfg.Database)
		}
	}
	if queryString(t, a, "SELECT current_database()") == queryString(t, b, "SELECT current_database()") {
		t.Fatal("both URLs reach the same database")
	}

	// A table and a row in one database are invisible in the other.
	if _, err := a.Exec(ctx, "CREATE TABLE items (id int PRIMARY KEY, note text NOT NULL)"); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Exec(ctx, "INSERT INTO items VALUES ($1, $2)", 1, "héllo, A"); err != nil {
		t.Fatal(err)
	}
	if got := queryString(t, a, "SELECT note FROM items WHERE id = 1"); got != "héllo, A" {
		t.Errorf("A: read back %q, want %q", got, "héllo, A")
	}
	var exists bool
	if err := b.QueryRow(ctx, "SELECT to_regclass('items') IS NOT NULL").Scan(&exists); err != nil {
		t.Fatal(err)
	}
	if exists {
		t.Fatal("table items created in A is visible in B")
	}
	if _, err := b.Exec(ctx, "CREATE TABLE items (id int PRIMARY KEY, note text NOT NULL)"); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Exec(ctx, "INSERT INTO items VALUES (2, 'B')"); err != nil {
		t.Fatal(err)
	}
	if got := queryString(t, a, "SELECT string_agg(id || ':' || note, ',' ORDER BY id) FROM items"); got != "1:héllo, A" {
		t.Errorf("A holds %q, want only its own row 1:héllo, A", got)
	}
	if got := queryString(t, b, "SELECT string_agg(id || ':' || note, ',' ORDER BY id) FROM items"); got != "2:B" {
		t.Errorf("B holds %q, want only its own row 2:B", got)
	}

	// The server settings the package documents.
	for _, c := range []struct{ setting, want string }{
		{"fsync", "on"},
		{"listen_addresses", ""},
		{"server_encoding", "UTF8"},
		{"lc_collate", "C"},
	} {
		if got := queryString(t, a, "SHOW "+c.setting); got != c.want {
			t.Errorf("SHOW %s = %q, want %q", c.setting, got, c.want)
		}
	}
	if got := queryString(t, a, "SELECT current_user"); got != "pgtest" {
		t.Errorf("current_user = %q, want pgtest", got)
	}
	// A Unix-socket connection has no server IP address.
	if got := queryString(t, a, "SELECT coalesce(host(inet_server_addr()), 'unix socket')"); got != "unix socket" {
		t.Errorf("connected over TCP to %s, want a Unix socket", got)
	}
}

func TestURLForm(t *testing.T) {
	srv := pgtest.Shared(t)
	url := srv.NewDatabase(t)
	if !strings.HasPrefix(url, "postgres:///") {
		t.Errorf("URL %q does not start with postgres:///", url)
	}
	cfg, err := pgconn.ParseConfig(url)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Host != srv.SocketDir() || int(cfg.Port) != srv.Port() || cfg.User != pgtest.User {
		t.Errorf("pgx reads %s as host %q port %d user %q, want %q %d %q",
			url, cfg.Host, cfg.Port, cfg.User, srv.SocketDir(), srv.Port(), pgtest.User)
	}
	// The socket file is where PostgreSQL's naming rule puts it.
	sock := filepath.Join(srv.SocketDir(), ".s.PGSQL."+strconv.Itoa(srv.Port()))
	fi, err := os.Stat(sock)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Type() != os.ModeSocket {
		t.Errorf("%s has mode %v, want a socket", sock, fi.Mode())
	}
}

func TestNewDatabaseDroppedAtCleanup(t *testing.T) {
	srv := pgtest.Shared(t)
	var name string
	t.Run("inner", func(t *testing.T) {
		cfg, err := pgconn.ParseConfig(srv.NewDatabase(t))
		if err != nil {
			t.Fatal(err)
		}
		name = cfg.Database
		connect(t, srv.URL(name)) // still open when the drop runs
	})
	admin := connect(t, srv.URL("postgres"))
	var n int
	if err := admin.QueryRow(context.Background(), "SELECT count(*) FROM pg_database WHERE datname = $1", name).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 0 {
		t.Errorf("database %s still exists after its test ended", name)
	}
}

func TestNewDatabaseParallel(t *testing.T) {
	srv := pgtest.Shared(t)
	for i := range 4 {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			t.Parallel()
			conn := connect(t, srv.NewDatabase(t))
			ctx := context.Background()
			if _, err := conn.Exec(ctx, "CREATE TABLE t (v int)"); err != nil {
				t.Fatal(err)
			}
			if _, err := conn.Exec(ctx, "INSERT INTO t VALUES ($1)", i); err != nil {
				t.Fatal(err)
			}
			if got := queryString(t, conn, "SELECT string_agg(v::text, ',') FROM t"); got != strconv.Itoa(i) {
				t.Errorf("table holds %s, want only %d", got, i)
			}
		})
	}
}

func TestStartNoFsync(t *testing.T) {
	srv := pgtest.Start(t, pgtest.Options{NoFsync: true})
	conn := connect(t, srv.NewDatabase(t))
	if got := queryString(t, conn, "SHOW fsync"); got != "off" {
		t.Errorf("SHOW fsync = %q, want off", got)
	}
	if srv.SocketDir() == pgtest.Shared(t).SocketDir() {
		t.Error("Start returned the shared server")
	}
}

// TestRunsAsNobodyUnderRoot checks that, under root, the cluster belongs to
// the user nobody as /etc/passwd gives it.
func TestRunsAsNobodyUnderRoot(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("not running as root")
	}
	nobody, err := user.Lookup("nobody")
	if err != nil {
		t.Skip(err)
	}
	srv := pgtest.Shared(t)
	fi, err := os.Stat(filepath.Join(srv.SocketDir(), "data", "PG_VERSION"))
	if err != nil {
		t.Fatal(err)
	}
	if uid := strconv.Itoa(int(fi.Sys().(*syscall.Stat_t).Uid)); uid != nobody.Uid {
		t.Errorf("data directory owned by uid %s, want nobody's uid %s", uid, nobody.Uid)
	}
}
