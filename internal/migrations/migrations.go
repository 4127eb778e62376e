// Package migrations splits a store's embedded schema file into its
// numbered, forward-only migrations: sections that each start with a line
// "-- migration N", N = 1, 2, 3, ... without gaps. The SQLite and
// PostgreSQL stores of package ledger share it.
package migrations

import (
	"fmt"
	"strconv"
	"strings"
)

// Migration is one numbered section of a schema file: Version (1 or
// more) and the SQL that follows its header line.
type Migration struct {
	Version int
	SQL     string
}

// Split splits schema (the text of schema.sql) into its migrations.
// Errors: a header whose number is not the next one, or no migration at
// all (a build mistake, reported as an error naming the line).
func Split(schema string) ([]Migration, error) {
	var out []Migration
	for _, line := range strings.SplitAfter(schema, "\n") {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(line), "-- migration "); ok {
			v, err := strconv.Atoi(rest)
			if err != nil || v != len(out)+1 {
				return nil, fmt.Errorf("schema.sql: bad migration header %q; expected %q", strings.TrimSpace(line), fmt.Sprintf("-- migration %d", len(out)+1))
			}
			out = append(out, Migration{Version: v})
			continue
		}
		if len(out) > 0 {
			out[len(out)-1].SQL += line
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("schema.sql: no migrations")
	}
	return out, nil
}
