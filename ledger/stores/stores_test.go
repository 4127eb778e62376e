package stores_test

import (
	"context"
	"errors"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/sealedhq/sealed/internal/pgtest"
	"github.com/sealedhq/sealed/ledger/stores"
)

// pw is the password of the tests' URLs: it must never show.
const pw = "S3cretPW"

func TestIsURLRedact(t *testing.T) {
	for _, c := range []struct {
		name  string
		isURL bool
		want  string
	}{
		{"postgres://pwuser:" + pw + "@/pwdb?host=/nonexistent/sock", true, "postgres://pwuser:xxxxx@/pwdb?host=/nonexistent/sock"},
		{"Postgres://pwuser:" + pw + "@/pwdb?host=/s", true, "postgres://pwuser:xxxxx@/pwdb?host=/s"},
		{"POSTGRESQL://pwuser:" + pw + "@h/db", true, "postgresql://pwuser:xxxxx@h/db"},
		{"postgres://pwuser:S3#cret@/pwdb?host=/s", true, "postgres://pwuser:xxxxx@/pwdb?host=/s"},
		{"postgres:///db?user=u&password=" + pw, true, "postgres:///db?user=u&password=xxxxx"},
		{"postgre://pwuser:" + pw + "@h/db", false, "postgre://pwuser:xxxxx@h/db"},
		{"ledger.db", false, "ledger.db"},
	} {
		if got := stores.IsURL(c.name); got != c.isURL {
			t.Errorf("IsURL(%q) = %v", c.name, got)
		}
		got := stores.Redact(c.name)
		if got != c.want {
			t.Errorf("Redact(%q) = %q, want %q", c.name, got, c.want)
		}
		if strings.Contains(got, "S3") {
			t.Errorf("Redact(%q) = %q shows the password", c.name, got)
		}
	}
}

// TestOpenStoreErrors: the errors of OpenStore on names that do not open
// a store never show the password, and say what went wrong (errors.Is).
// A URL with a mixed-case scheme reaches the server it names, parsed as
// a URL; pgx would otherwise parse it as keyword=value pairs and send the
// whole URL, password included, to the default server as the name of a
// parameter (here the test's server, through PGHOST and PGPORT, which
// would quote it back in its error).
func TestOpenStoreErrors(t *testing.T) {
	srv := pgtest.Start(t, pgtest.Options{NoFsync: true})
	t.Setenv("PGHOST", srv.SocketDir())
	t.Setenv("PGPORT", strconv.Itoa(srv.Port()))
	t.Setenv("PGUSER", pgtest.User)
	t.Setenv("PGDATABASE", "postgres")
	t.Setenv("PGPASSFILE", "/nonexistent")
	at := "?host=" + url.QueryEscape(srv.SocketDir()) + "&port=" + strconv.Itoa(srv.Port())
	ctx := context.Background()
	for _, c := range []struct {
		name string
		want error
	}{
		{"postgres://pwuser:" + pw + "@/pwdb?host=/nonexistent/sock", stores.ErrConnect},
		{"Postgres://pwuser:" + pw + "@/pwdb?host=/nonexistent/sock", stores.ErrConnect},
		{"POSTGRES://pwuser:" + pw + "@/pwdb?host=/nonexistent/sock", stores.ErrConnect},
		{"Postgresql://pwuser:" + pw + "@/postgres" + at, stores.ErrLogin}, // no such role
		{"postgres://pwuser:S3#cretPW@/postgres" + at, stores.ErrLogin},
		{"postgres://" + pgtest.User + ":" + pw + "@/nosuchdb" + at, stores.ErrNoDatabase},
		{"postgres://pwuser:p@" + pw + "@/postgres" + at, stores.ErrAmbiguousURL},
		{"postgre://pwuser:" + pw + "@/pwdb" + at, stores.ErrNotStore},
	} {
		for _, create := range []bool{false, true} {
			_, err := stores.OpenStore(ctx, c.name, !create, create)
			if err == nil {
				t.Fatalf("OpenStore(%q) opened", c.name)
			}
			if !errors.Is(err, c.want) {
				t.Errorf("OpenStore(%q): %v; want an error wrapping %q", c.name, err, c.want)
			}
			if strings.Contains(err.Error(), "S3") || strings.Contains(err.Error(), "does not parse") {
				t.Errorf("OpenStore(%q): %v", c.name, err)
			}
			if errors.Is(err, stores.ErrLogin) && !strings.Contains(err.Error(), "pwuser:xxxxx@") {
				t.Errorf("OpenStore(%q): %v; want the URL named, its password redacted", c.name, err)
			}
		}
	}
}

// TestInitRefusals: Init refuses a database that holds a ledger, and a
// key file that exists (errors wrapping fs.ErrExist), and checks the key
// file's directory before it touches the database.
func TestInitRefusals(t *testing.T) {
	srv := pgtest.Start(t, pgtest.Options{NoFsync: true})
	ctx := context.Background()
	dir := t.TempDir()
	db := srv.NewDatabase(t)

	_, err := stores.Init(ctx, db, "example.com/a", filepath.Join(dir, "nodir", "a.key"))
	if err == nil || !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("Init with a key in a directory that does not exist: %v", err)
	}
	conn, err := pgx.Connect(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var n int
	if err := conn.QueryRow(ctx, `SELECT count(*) FROM pg_tables WHERE schemaname = 'public'`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 0 {
		t.Errorf("the failed Init left %d tables in the database", n)
	}

	if _, err := stores.Init(ctx, db, "example.com/a", filepath.Join(dir, "a.key")); err != nil {
		t.Fatal(err)
	}
	_, err = stores.Init(ctx, db, "example.com/b", filepath.Join(dir, "b.key"))
	if !errors.Is(err, fs.ErrExist) || !strings.Contains(err.Error(), "already holds a ledger (origin example.com/a)") {
		t.Errorf("Init on a database holding a ledger: %v", err)
	}
	if _, serr := os.Stat(filepath.Join(dir, "b.key")); serr == nil {
		t.Errorf("Init refused the database and wrote the key file")
	}
	_, err = stores.Init(ctx, srv.NewDatabase(t), "example.com/c", filepath.Join(dir, "a.key"))
	if !errors.Is(err, fs.ErrExist) || !strings.Contains(err.Error(), "a.key already exists") {
		t.Errorf("Init with a key file that exists: %v", err)
	}
	file := filepath.Join(dir, "l.db")
	if _, err := stores.Init(ctx, file, "example.com/d", filepath.Join(dir, "d.key")); err != nil {
		t.Fatal(err)
	}
	_, err = stores.Init(ctx, file, "example.com/e", filepath.Join(dir, "e.key"))
	if !errors.Is(err, fs.ErrExist) {
		t.Errorf("Init on a file that exists: %v", err)
	}
}

// TestConnStringRefused: a libpq keyword=value connection string given
// where a store is named (OpenStore, Init, Copy's destination) is refused
// as no store (ErrNotStore), its password never in the error, and no
// SQLite file is made under that name (which would hold the password).
func TestConnStringRefused(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	t.Chdir(dir)
	const name = "host=127.0.0.1 port=5432 user=u password=" + pw + " dbname=d"
	check := func(what string, err error) {
		t.Helper()
		if !errors.Is(err, stores.ErrNotStore) {
			t.Errorf("%s: %v; want an error wrapping ErrNotStore", what, err)
		}
		if err != nil && strings.Contains(err.Error(), pw) {
			t.Errorf("%s: %v shows the password", what, err)
		}
	}
	for _, create := range []bool{false, true} {
		_, err := stores.OpenStore(ctx, name, !create, create)
		check("OpenStore", err)
	}
	_, err := stores.Init(ctx, name, "example.com/kv", filepath.Join(dir, "kv.key"))
	check("Init", err)
	src := filepath.Join(dir, "src.db")
	if _, err := stores.Init(ctx, src, "example.com/src", filepath.Join(dir, "src.key")); err != nil {
		t.Fatal(err)
	}
	s, err := stores.OpenStore(ctx, src, true, false)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	_, err = stores.Copy(ctx, s, name, nil)
	check("Copy", err)
	if got := stores.Redact(name); strings.Contains(got, pw) {
		t.Errorf("Redact(%q) = %q", name, got)
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if strings.Contains(e.Name(), pw) {
			t.Errorf("a file %q was made", e.Name())
		}
	}
}
