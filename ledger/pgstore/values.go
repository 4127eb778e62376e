package pgstore

import (
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/sealedhq/sealed/ledger"
)

// The readers the audit goes through read each row as the values pgx
// decodes from whatever types the columns have (pgx.Rows.Values), then
// check them: a NULL, or a value of another type than the schema's (a
// column altered, which the schema check names first), is an error
// wrapping ledger.ErrTampered that names the table, the row and the
// column, never a driver's scan error.

// rowValues reads the current row's values, n of them.
func rowValues(rows pgx.Rows, n int) ([]any, error) {
	v, err := rows.Values()
	if err != nil {
		return nil, err
	}
	if len(v) != n {
		return nil, fmt.Errorf("%d columns, want %d", len(v), n)
	}
	return v, nil
}

// asInt64 is v as an integer, if it is one (bigint, or a smaller integer
// type).
func asInt64(v any) (int64, bool) {
	switch x := v.(type) {
	case int64:
		return x, true
	case int32:
		return int64(x), true
	case int16:
		return int64(x), true
	}
	return 0, false
}

// asText is v as text, if it is text.
func asText(v any) (string, bool) {
	s, ok := v.(string)
	return s, ok
}

// asBytes is v as bytes, if it is bytea.
func asBytes(v any) ([]byte, bool) {
	b, ok := v.([]byte)
	return b, ok
}

// describe names a value read from a row, for a finding.
func describe(v any) string {
	switch x := v.(type) {
	case nil:
		return "NULL"
	case string:
		if len(x) > 64 {
			return fmt.Sprintf("the text %q...", x[:64])
		}
		return fmt.Sprintf("the text %q", x)
	case []byte:
		return fmt.Sprintf("%d bytes", len(x))
	}
	return fmt.Sprintf("the %T value %v", v, v)
}

// badValue is the finding for the value v in column col of the row of
// table that row names ("the row at index 5", "the row of id 3"):
// expected what the schema declares (want).
func badValue(table, row, col string, v any, want string) error {
	return fmt.Errorf("%s: %s holds %s in column %s; expected %s: %w", table, row, describe(v), col, want, ledger.ErrTampered)
}
