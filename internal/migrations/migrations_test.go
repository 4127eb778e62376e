package migrations_test

import (
	"strings"
	"testing"

	"github.com/sealedhq/sealed/internal/migrations"
)

// TestSplit: sections by hand, and the refusals of a gap and of none.
func TestSplit(t *testing.T) {
	ms, err := migrations.Split("-- header comment\n-- migration 1\nCREATE TABLE a(x);\n-- migration 2\nCREATE TABLE b(y);\n")
	if err != nil || len(ms) != 2 || ms[0].Version != 1 || ms[0].SQL != "CREATE TABLE a(x);\n" || ms[1].Version != 2 || ms[1].SQL != "CREATE TABLE b(y);\n" {
		t.Fatalf("Split = %+v, %v", ms, err)
	}
	if _, err := migrations.Split("-- migration 1\nx;\n-- migration 3\ny;\n"); err == nil || !strings.Contains(err.Error(), `expected "-- migration 2"`) {
		t.Errorf("a gap: %v", err)
	}
	if _, err := migrations.Split("CREATE TABLE a(x);\n"); err == nil {
		t.Error("no migration accepted")
	}
}
