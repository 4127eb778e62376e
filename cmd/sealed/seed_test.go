package main

import (
	"encoding/json"
	"testing"
)

// TestSeedRoundTrip makes a seed and checks it against its commitment, then
// against another seed's commitment.
func TestSeedRoundTrip(t *testing.T) {
	var a, b struct{ Seed, Commitment string }
	for _, v := range []any{&a, &b} {
		code, stdout, stderr := runSealed(t, "", "seed", "new", "--json")
		if code != 0 {
			t.Fatalf("seed new: exit %d: %s", code, stderr)
		}
		if err := json.Unmarshal([]byte(stdout), v); err != nil {
			t.Fatal(err)
		}
	}
	if code, stdout, _ := runSealed(t, "", "seed", "check", "--seed", a.Seed, "--commitment", a.Commitment); code != 0 {
		t.Fatalf("seed check of its own commitment: exit %d: %s", code, stdout)
	}
	if code, _, _ := runSealed(t, "", "seed", "check", "--seed", a.Seed, "--commitment", b.Commitment); code != 1 {
		t.Fatalf("seed check against another commitment: exit %d, want 1", code)
	}
}
