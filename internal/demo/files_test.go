package demo_test

import (
	"testing"

	"github.com/sealedhq/sealed/internal/demo"
)

// TestKeyFile checks the one key-file naming rule of every verb (issue
// 14): X.db -> X.key, anything else gets .key appended; the token and
// verifier-key files follow it.
func TestKeyFile(t *testing.T) {
	for _, c := range []struct{ db, key, token, vkey string }{
		{"./sealed.db", "./sealed.key", "./sealed.token", "./sealed.vkey"},
		{"o2.db", "o2.key", "o2.token", "o2.vkey"},
		{"/srv/game/ledger.db", "/srv/game/ledger.key", "/srv/game/ledger.token", "/srv/game/ledger.vkey"},
		{"o2", "o2.key", "o2.token", "o2.vkey"},
		{"notes.txt", "notes.txt.key", "notes.txt.token", "notes.txt.vkey"},
		{"ledger.sqlite", "ledger.sqlite.key", "ledger.sqlite.token", "ledger.sqlite.vkey"},
		{"x.db.bak", "x.db.bak.key", "x.db.bak.token", "x.db.bak.vkey"},
		// A file named only ".db" keeps its name: ".key" would be another
		// hidden file's name, not this database's key.
		{".db", ".db.key", ".db.token", ".db.vkey"},
		{"dir/.db", "dir/.db.key", "dir/.db.token", "dir/.db.vkey"},
	} {
		if got := demo.KeyFile(c.db); got != c.key {
			t.Errorf("KeyFile(%q) = %q, want %q", c.db, got, c.key)
		}
		if got := demo.TokenFile(c.db); got != c.token {
			t.Errorf("TokenFile(%q) = %q, want %q", c.db, got, c.token)
		}
		if got := demo.VerifierKeyFile(c.db); got != c.vkey {
			t.Errorf("VerifierKeyFile(%q) = %q, want %q", c.db, got, c.vkey)
		}
	}
}
