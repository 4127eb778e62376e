package main

import (
	"context"
	"testing"
	"time"

	"github.com/sealedhq/sealed/internal/demo"
)

// buildDemo writes the demo ledger (internal/demo, dated now) to the
// SQLite file path, beside its key files.
func buildDemo(t *testing.T, path string) {
	t.Helper()
	if _, err := demo.Build(context.Background(), demo.Options{Path: path, Now: time.Now()}); err != nil {
		t.Fatal(err)
	}
}
