package pgurl

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"
)

func TestRedact(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"postgres://pwuser:S3cretPW@/pwdb?host=/nonexistent/sock", "postgres://pwuser:xxxxx@/pwdb?host=/nonexistent/sock"},
		{"postgresql://u:S3cretPW@db.example:5432/sealed", "postgresql://u:xxxxx@db.example:5432/sealed"},
		// pgx reads '#', '?' and ':' in a password (libpq's grammar).
		{"postgres://pwuser:S3#cretPW@/pwdb?host=/s", "postgres://pwuser:xxxxx@/pwdb?host=/s"},
		{"postgres://u:S3?cret:PW@h/db", "postgres://u:xxxxx@h/db"},
		{"postgres://u:p%40ss@h/db", "postgres://u:xxxxx@h/db"},
		// Query parameters, any case and escaped.
		{"postgres:///db?host=/s&user=u&password=S3cretPW&sslmode=disable", "postgres:///db?host=/s&user=u&password=xxxxx&sslmode=disable"},
		{"postgres:///db?PassWord=S3cretPW", "postgres:///db?PassWord=xxxxx"},
		{"postgres:///db?pass%77ord=S3cretPW", "postgres:///db?pass%77ord=xxxxx"},
		{"postgres:///db?sslpassword=S3cretPW&sslkey=/k", "postgres:///db?sslpassword=xxxxx&sslkey=/k"},
		{"postgres:///db?password=a=b", "postgres://" + Hidden},
		{"postgres:///db?password=&S3cretPW", "postgres://" + Hidden},
		// The scheme as written; other schemes too.
		{"Postgres://u:S3cretPW@h/db", "Postgres://u:xxxxx@h/db"},
		{"postgre://u:S3cretPW@h/db", "postgre://u:xxxxx@h/db"},
		// Ambiguous: not shown.
		{"postgres://u:p@S3cretPW@h/db", "postgres://" + Hidden},
		{"postgres://u:S3cret/PW@h/db", "postgres://" + Hidden},
		{"postgres://u:S3cretPW/db", "postgres://" + Hidden},
		{"postgres://u:p@s?S3cretPW@h", "postgres://" + Hidden},
		// Nothing secret: as it is.
		{"postgres://u@h:5432/db", "postgres://u@h:5432/db"},
		{"postgres://u:@h/db", "postgres://u@h/db"},
		{"postgres://[::1]:5432,h2:5433/db?user=a%40b", "postgres://[::1]:5432,h2:5433/db?user=a%40b"},
		{"postgres:///db?user=a@b&password=S3cretPW", "postgres://" + Hidden},
		{"ledger.db", "ledger.db"},
		{"./dir/u:S3cretPW@h", "./dir/u:S3cretPW@h"}, // a file path
	} {
		got := Redact(c.in)
		if got != c.want {
			t.Errorf("Redact(%q) = %q, want %q", c.in, got, c.want)
		}
		if strings.Contains(c.in, "://") && strings.Contains(got, "S3cret") {
			t.Errorf("Redact(%q) shows the password: %q", c.in, got)
		}
		if (got == "postgres://"+Hidden) != errors.Is(Check(c.in), ErrAmbiguous) {
			t.Errorf("Check(%q) = %v, but Redact gives %q", c.in, Check(c.in), got)
		}
	}
}

// TestRedactWhatPgxReads: for passwords made of the characters that are
// special in a URL, written into a URL unencoded, Redact never shows the
// password the writer meant, nor the one pgx reads from the URL.
func TestRedactWhatPgxReads(t *testing.T) {
	t.Setenv("PGPASSFILE", "/nonexistent")
	t.Setenv("PGPASSWORD", "")
	r := rand.New(rand.NewPCG(1, 2))
	const chars = "abcdefgh0123@/:?#&=%[],"
	for range 5000 {
		pw := make([]byte, 6+r.IntN(6))
		for i := range pw {
			pw[i] = chars[r.IntN(len(chars))]
		}
		for _, u := range []string{
			"postgres://user:" + string(pw) + "@host:5432/db?sslmode=disable",
			"postgres://user:" + string(pw) + "@/db?host=/run/postgresql",
			"postgres:///db?user=u&password=" + string(pw),
		} {
			got := Redact(u)
			if strings.Contains(got, string(pw)) {
				t.Fatalf("Redact(%q) = %q shows the password", u, got)
			}
			cfg, err := pgconn.ParseConfig(u)
			if err != nil {
				continue
			}
			if len(cfg.Password) >= 3 && strings.Contains(got, cfg.Password) {
				t.Fatalf("Redact(%q) = %q shows the password pgx reads, %q", u, got, cfg.Password)
			}
			if Check(u) == nil && cfg.Password != "" && !strings.Contains(got, "xxxxx") {
				t.Fatalf("Redact(%q) = %q: pgx reads a password, and none is redacted", u, got)
			}
		}
	}
}

func TestIsURLNormalize(t *testing.T) {
	for _, c := range []struct {
		in    string
		isURL bool
		norm  string
	}{
		{"postgres://h/db", true, "postgres://h/db"},
		{"Postgres://U:PW@H/DB", true, "postgres://U:PW@H/DB"},
		{"POSTGRESQL://h/db", true, "postgresql://h/db"},
		{"postgre://h/db", false, "postgre://h/db"},
		{" postgres://h/db", false, " postgres://h/db"},
		{"postgres:/h/db", false, "postgres:/h/db"},
		{"sealed.db", false, "sealed.db"},
	} {
		if got := IsURL(c.in); got != c.isURL {
			t.Errorf("IsURL(%q) = %v", c.in, got)
		}
		if got := Normalize(c.in); got != c.norm {
			t.Errorf("Normalize(%q) = %q, want %q", c.in, got, c.norm)
		}
	}
	// pgx parses the normalized URL as a URL: the password is the
	// password, not part of a keyword sent to the server.
	t.Setenv("PGPASSFILE", "/nonexistent")
	cfg, err := pgconn.ParseConfig(Normalize("Postgres://pwuser:S3cretPW@/pwdb?host=/nonexistent/sock"))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Password != "S3cretPW" || cfg.User != "pwuser" || cfg.Database != "pwdb" || len(cfg.RuntimeParams) != 0 {
		t.Errorf("pgx read user %q password %q database %q runtime params %v", cfg.User, cfg.Password, cfg.Database, cfg.RuntimeParams)
	}
}

// TestIsConnString: the strings libpq (and pgx) read as keyword=value
// connection strings, which sealed refuses as a --db and never prints,
// against names that are file paths. pgx itself is the independent
// reader: it finds the password in each connection string.
func TestIsConnString(t *testing.T) {
	t.Setenv("PGPASSFILE", "/nonexistent")
	for _, s := range []string{
		"host=127.0.0.1 port=5432 user=u password=S3cretPW dbname=d",
		"dbname=d password=S3cretPW",
		"  password = S3cretPW host=/run/postgresql",
		"user=u password='S3cretPW' host=h",
	} {
		if !IsConnString(s) {
			t.Errorf("IsConnString(%q) = false", s)
		}
		if got := Redact(s); strings.Contains(got, "S3cretPW") || got != ConnStringHidden {
			t.Errorf("Redact(%q) = %q, want %q", s, got, ConnStringHidden)
		}
		cfg, err := pgconn.ParseConfig(s)
		if err != nil || cfg.Password != "S3cretPW" {
			t.Errorf("pgx does not read %q as a connection string with its password: %v", s, err)
		}
	}
	for _, s := range []string{"sealed.db", "./host=x.db", "hostname=x.db", "dir/password=x", "postgres://u:p@h/d", "postgre://h/d", "=x", ""} {
		if IsConnString(s) {
			t.Errorf("IsConnString(%q) = true", s)
		}
	}
}
