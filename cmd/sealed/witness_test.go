package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/sealedhq/sealed/internal/tlogtest"
)

// TestCheckProofWitness: with a real litewitness, `ledger cosign` stores
// its cosignature; check-proof with quorum 1 passes on the receipt that
// carries it, fails on a receipt without it and on one whose cosignature
// is over another body (another checkpoint); action post --receipt gives a
// player a cosigned receipt; ledger get --json shows who witnessed the
// entry and when.
func TestCheckProofWitness(t *testing.T) {
	w := tlogtest.StartWitness(t, "example.com/w")
	dir := t.TempDir()
	db, vkey := newFileLedger(t, dir, "example.com/cli", 5)
	w.AddLog(t, "example.com/cli", vkey)
	pol := filepath.Join(dir, "witnesses")
	os.WriteFile(pol, []byte("witness "+w.VerifierKey+" "+w.URL+"\nquorum 1\n"), 0o644)
	if code, out, errOut := sealed("ledger", "cosign", "--db", db, "--witnesses", pol); code != 0 || !strings.Contains(out, "cosigned by example.com/w at size 5") {
		t.Fatalf("cosign: %d %s %s\n%s", code, out, errOut, w.Log())
	}
	// Run again, or with the witness unreachable: nothing to submit, and
	// it says so (trial 3, finding 12).
	if code, out, errOut := sealed("ledger", "cosign", "--db", db, "--witnesses", pol); code != 0 || out != "the checkpoint of size 5 is already cosigned by example.com/w (quorum 1 met); nothing to submit\n" {
		t.Errorf("cosign again: %d %q %s", code, out, errOut)
	}
	down := filepath.Join(dir, "down")
	os.WriteFile(down, []byte("witness "+w.VerifierKey+" http://127.0.0.1:1\nquorum 1\n"), 0o644)
	if code, out, errOut := sealed("ledger", "cosign", "--db", db, "--witnesses", down); code != 0 || out != "the checkpoint of size 5 is already cosigned by example.com/w (quorum 1 met); nothing to submit\n" {
		t.Errorf("cosign with the witness down: %d %q %s", code, out, errOut)
	}
	receipt := func(name string, args ...string) string {
		code, out, errOut := sealed(append([]string{"ledger", "prove", "--db", db, "--format", "tlog-proof"}, args...)...)
		if code != 0 {
			t.Fatalf("prove %v: %d %s", args, code, errOut)
		}
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(out), 0o644)
		return p
	}
	check := func(p string) (int, string) {
		code, out, errOut := sealed("ledger", "check-proof", "--proof", p, "--vkey", vkey, "--witness", w.VerifierKey, "--quorum", "1")
		return code, out + errOut
	}
	cosigned := receipt("r5", "2")
	if code, out := check(cosigned); code != 0 || !regexp.MustCompile(`witnessed by example.com/w by \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ`).MatchString(out) {
		t.Errorf("cosigned receipt: %d %s", code, out)
	}
	// Without a policy the same receipt checks with the log's key alone.
	if code, _, errOut := sealed("ledger", "check-proof", "--proof", cosigned, "--vkey", vkey); code != 0 {
		t.Errorf("cosigned receipt without a policy: %d %s", code, errOut)
	}
	// A checkpoint of size 8 that no witness has seen.
	for _, b := range []string{"x1", "x2", "x3"} {
		h := strings.Repeat("ab", 32)
		if code, _, errOut := sealed("ledger", "append", "--db", db, "--kind", "commit", "--player", b, "--action-type", "bid", "--channel", "#a", "--commitment", h); code != 0 {
			t.Fatal(errOut)
		}
	}
	bare := receipt("r8", "2")
	if code, out := check(bare); code != 1 || !strings.Contains(out, "quorum") {
		t.Errorf("receipt without a cosignature: %d %s", code, out)
	}
	// The size-5 cosignature line moved onto the size-8 checkpoint.
	c5, _ := os.ReadFile(cosigned)
	line := regexp.MustCompile(`(?m)^— example\.com/w .*\n`).Find(c5)
	if line == nil {
		t.Fatalf("no cosignature line in %s", c5)
	}
	b8, _ := os.ReadFile(bare)
	other := filepath.Join(dir, "other")
	os.WriteFile(other, append(b8, line...), 0o644)
	if code, out := check(other); code != 1 {
		t.Errorf("receipt with a cosignature over another body: %d %s", code, out)
	}
	// A player's receipt, cosigned as the post is made.
	rp := filepath.Join(dir, "player.tlog-proof")
	code, out, errOut := sealed("action", "post", "--db", db, "--key", filepath.Join(dir, "l.key"), "--player", "ann", "--type", "bid",
		"--commitment", strings.Repeat("cd", 32), "--receipt", rp, "--witnesses", pol)
	if code != 0 {
		t.Fatalf("action post --receipt: %d %s %s", code, out, errOut)
	}
	if code, out := check(rp); code != 0 || !strings.Contains(out, "ok: entry 8 ") || !strings.Contains(out, "witnessed by example.com/w") {
		t.Errorf("player's receipt: %d %s", code, out)
	}
	code, out, _ = sealed("ledger", "get", "--db", db, "--json", "8")
	var j map[string]any
	if code != 0 || json.Unmarshal([]byte(out), &j) != nil || j["witnessed_by"] != "example.com/w" || j["witnessed_at"] == nil {
		t.Errorf("ledger get --json 8: %d %s", code, out)
	}
}
