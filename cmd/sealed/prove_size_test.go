package main

import (
	"strings"
	"testing"
)

// TestProveSizeZero (trial 16): --size 0 (and consistency's --size2 0)
// names the empty tree, which holds no entry; it was read as "the
// latest" and proved against the latest checkpoint without a word. Bad
// usage, exit 2; without the flag the latest checkpoint is used.
func TestProveSizeZero(t *testing.T) {
	db, key := newCLILedger(t)
	mustRun(t, 0, "", "action", "post", "--db", db, "--key", key, "--player", "ann", "--type", "bid", "--commitment", strings.Repeat("ab", 32))
	mustRun(t, 0, "", "action", "post", "--db", db, "--key", key, "--player", "bob", "--type", "bid", "--commitment", strings.Repeat("cd", 32))
	for _, args := range [][]string{
		{"ledger", "prove", "0", "--db", db, "--size", "0"},
		{"ledger", "consistency", "--db", db, "--size1", "1", "--size2", "0"},
	} {
		if code, stdout, stderr := runSealed(t, "", args...); code != 2 || !strings.Contains(stderr, "sealed: ") {
			t.Errorf("%q: exit %d, want 2\n%s%s", args, code, stdout, stderr)
		}
	}
	stdout, _ := mustRun(t, 0, "", "ledger", "prove", "0", "--db", db)
	if !strings.Contains(stdout, `"size": 2`) && !strings.Contains(stdout, `"size":2`) {
		t.Errorf("prove without --size: not against the latest checkpoint (size 2):\n%s", stdout)
	}
}
