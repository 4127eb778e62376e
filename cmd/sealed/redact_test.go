package main

import (
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// dbNames are the names of the variables and fields that hold a --db,
// --read-db, --from or --to value (a ledger name, maybe a URL with a
// password) in this package.
var dbNames = map[string]bool{"DB": true, "ReadDB": true, "db": true, "readDB": true, "From": true, "To": true}

// printers are the functions through which this package prints: their
// arguments are shown to the user.
var printers = map[string]bool{
	"Printf": true, "Println": true, "Print": true, "Fprintf": true, "Fprintln": true, "Fprint": true,
	"Sprintf": true, "Sprintln": true, "Sprint": true, "Errorf": true, "Appendf": true,
	"usageErrorf": true, "failedf": true, "withHint": true, "printJSON": true, "New": true,
}

// TestLedgerNamesRedacted: every --db, --read-db, --from and --to value
// this package prints goes through stores.Redact, the one helper that
// replaces a URL's password: in the source, an argument of a printing
// call (fmt's, usageErrorf, failedf, withHint, printJSON, errors.New)
// that names one of them (a variable or field named DB, ReadDB, db,
// readDB, From or To, at any depth, a map or struct literal included)
// is inside a call of stores.Redact (or of sayOnce, which names the
// ledger through it).
func TestLedgerNamesRedacted(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	checked := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(fset, name, src, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || !printers[calleeName(call)] {
				return true
			}
			checked++
			for _, arg := range call.Args {
				ast.Inspect(arg, func(n ast.Node) bool {
					if c, ok := n.(*ast.CallExpr); ok && isRedact(c) {
						return false
					}
					var id string
					switch e := n.(type) {
					case *ast.Ident:
						id = e.Name
					case *ast.SelectorExpr:
						id = e.Sel.Name
						if dbNames[id] {
							t.Errorf("%s: %s printed without stores.Redact", fset.Position(e.Pos()), src[fset.Position(e.Pos()).Offset:fset.Position(e.End()).Offset])
						}
						return false
					}
					if dbNames[id] {
						t.Errorf("%s: %s printed without stores.Redact", fset.Position(n.Pos()), id)
					}
					return true
				})
			}
			return true
		})
	}
	if checked < 100 {
		t.Fatalf("only %d printing calls found: the test no longer sees them", checked)
	}
}

// calleeName is the name of the function call calls (the selector's
// name for pkg.F and x.M).
func calleeName(call *ast.CallExpr) string {
	switch f := call.Fun.(type) {
	case *ast.Ident:
		return f.Name
	case *ast.SelectorExpr:
		return f.Sel.Name
	}
	return ""
}

// isRedact reports whether call is stores.Redact(...), or sayOnce(...),
// which names the ledger through it.
func isRedact(call *ast.CallExpr) bool {
	if id, ok := call.Fun.(*ast.Ident); ok && id.Name == "sayOnce" {
		return true
	}
	s, ok := call.Fun.(*ast.SelectorExpr)
	if !ok || s.Sel.Name != "Redact" {
		return false
	}
	x, ok := s.X.(*ast.Ident)
	return ok && x.Name == "stores"
}

// TestSayOnce: the ledger is named once, redacted, in the CLI's words.
func TestSayOnce(t *testing.T) {
	for _, c := range []struct{ db, err, want string }{
		{"postgres://u:S3cretPW@h/db", "postgres postgres://u:xxxxx@h/db: failed to connect", "cannot open the ledger postgres://u:xxxxx@h/db for appending: failed to connect"},
		{"Postgres://u:S3cretPW@h/db", "postgres postgres://u:xxxxx@h/db: failed to connect", "cannot open the ledger postgres://u:xxxxx@h/db for appending: failed to connect"},
		{"l", "vol: broken", "cannot open the ledger l for appending: vol: broken"},
		{"a.db", "the file a.db is locked", "cannot open the ledger for appending: the file a.db is locked"},
		{"a.db", "ledger a.db: stat a.db: gone", "cannot open the ledger a.db for appending: stat a.db: gone"},
		{"a.db", "open /tmp/a.db-wal: busy", "cannot open the ledger a.db for appending: open /tmp/a.db-wal: busy"},
		{"postgres://u:S3cretPW@h/db", "a key file: no such file", "cannot open the ledger postgres://u:xxxxx@h/db for appending: a key file: no such file"},
	} {
		if got := sayOnce("cannot open the ledger %s for appending", c.db, errors.New(c.err)); got != c.want {
			t.Errorf("sayOnce(%q, %q) = %q, want %q", c.db, c.err, got, c.want)
		}
	}
}
