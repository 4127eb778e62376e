package tamper

import (
	"database/sql"
	"fmt"

	_ "github.com/mattn/go-sqlite3" // the "sqlite3" driver
)

// Restoring runs stmts on the SQLite file at path with every trigger
// dropped, then creates the triggers again from the SQL sqlite_master
// held for them. Errors: the file cannot be opened, a statement fails
// (named with its error).
func Restoring(path string, stmts ...string) error {
	db, err := sql.Open("sqlite3", "file:"+path)
	if err != nil {
		return err
	}
	defer db.Close()
	rows, err := db.Query(`SELECT name, sql FROM sqlite_master WHERE type = 'trigger'`)
	if err != nil {
		return err
	}
	var names, creates []string
	for rows.Next() {
		var n, s string
		if err := rows.Scan(&n, &s); err != nil {
			rows.Close()
			return err
		}
		names, creates = append(names, n), append(creates, s)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	var all []string
	for _, n := range names {
		all = append(all, `DROP TRIGGER `+n)
	}
	for _, s := range append(append(all, stmts...), creates...) {
		if _, err := db.Exec(s); err != nil {
			return fmt.Errorf("%s: %w", s, err)
		}
	}
	return nil
}
