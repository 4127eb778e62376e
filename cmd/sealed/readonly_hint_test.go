package main

import (
	"fmt"
	"strings"
	"testing"

	sqlite3 "github.com/mattn/go-sqlite3"
)

// TestReadonlyHint: a write SQLite refuses because the file is read-only
// to the user (trial 5b, finding 7) gets a hint about the file's and the
// directory's permissions, whether the error is kept or only its text.
func TestReadonlyHint(t *testing.T) {
	for _, err := range []error{
		fmt.Errorf("writing to the ledger: %w", sqlite3.Error{Code: sqlite3.ErrReadonly}),
		fmt.Errorf("writing to the ledger: %v", sqlite3.Error{Code: sqlite3.ErrReadonly}),
	} {
		msg, hint := errorText(err)
		if !strings.Contains(msg, "readonly") || !strings.Contains(hint, "permissions") {
			t.Errorf("%v: message %q, hint %q", err, msg, hint)
		}
	}
	if _, hint := errorText(fmt.Errorf("writing to the ledger: %w", sqlite3.Error{Code: sqlite3.ErrFull})); hint != "" {
		t.Errorf("a full disk got the read-only hint %q", hint)
	}
}
