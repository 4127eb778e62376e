package pgtest

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5"
)

// QueryInt runs query, which must give one row of one integer column, on
// the database at url over a connection of its own, and returns the
// value. Any error fails t.
func QueryInt(t testing.TB, url, query string, args ...any) int64 {
	t.Helper()
	ctx := context.Background()
	c, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(ctx)
	var n int64
	if err := c.QueryRow(ctx, query, args...).Scan(&n); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return n
}

// CountTables is the number of ordinary tables in the current schema of
// the database at url (pg_class, relkind 'r'). Any error fails t.
func CountTables(t testing.TB, url string) int {
	t.Helper()
	return int(QueryInt(t, url, `SELECT count(*) FROM pg_class WHERE relnamespace = current_schema()::regnamespace AND relkind = 'r'`))
}

// Exec runs the statements in turn on the database at url over a
// connection of its own, and returns the first statement's error (a
// failure to connect fails t).
func Exec(t testing.TB, url string, sqls ...string) error {
	t.Helper()
	ctx := context.Background()
	c, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(ctx)
	for _, q := range sqls {
		if _, err := c.Exec(ctx, q); err != nil {
			return err
		}
	}
	return nil
}
