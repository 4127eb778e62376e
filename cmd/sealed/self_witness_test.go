package main

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLogIsNotItsOwnWitnessCLI (trial 18, finding 3): a --witness whose
// key is the log's own verifier key is refused (exit 2, naming it) by
// every verb that checks cosignatures: the log signs a cosignature/v1
// line of its own, so that "witness" was met by the log alone
// (check-proof said "witnessed by" the log, exit 0).
func TestLogIsNotItsOwnWitnessCLI(t *testing.T) {
	db, _ := newCLILedger(t)
	mustRun(t, 0, "", "action", "post", "--db", db, "--key", strings.TrimSuffix(db, ".db")+".key", "--player", "ann", "--type", "bid", "--commitment", strings.Repeat("ab", 32))
	vkey := readLedger(t, db).VerifierKey()
	proof, _ := mustRun(t, 0, "", "ledger", "prove", "--db", db, "--index", "0")
	pf := filepath.Join(t.TempDir(), "proof.json")
	if err := os.WriteFile(pf, []byte(proof), 0o644); err != nil {
		t.Fatal(err)
	}
	// The same key written as the witness type (0x04), with its own key
	// hash (C2SP signed-note: SHA-256 of name, newline, type and key).
	f := strings.SplitN(vkey, "+", 3)
	raw, err := base64.StdEncoding.DecodeString(f[2])
	if err != nil {
		t.Fatal(err)
	}
	typed := append([]byte{0x04}, raw[1:]...)
	kh := sha256.Sum256(append([]byte(f[0]+"\n"), typed...))
	asWitness := f[0] + "+" + hex.EncodeToString(kh[:4]) + "+" + base64.StdEncoding.EncodeToString(typed)
	for _, w := range []string{vkey, asWitness} {
		for _, args := range [][]string{
			{"ledger", "check-proof", "--proof", pf, "--vkey", vkey, "--witness", w},
			{"ledger", "audit", "--db", db, "--witness", w},
			{"ledger", "audit", "--db", db, "--vkey", vkey, "--witness", w},
		} {
			code, stdout, stderr := runSealed(t, "", args...)
			if code != 2 || !strings.Contains(stderr, "has the log's own key") || !strings.Contains(stderr, "hint: ") {
				t.Errorf("%q: exit %d, want 2 refusing the log as its own witness\nstdout: %s\nstderr: %s", args, code, stdout, stderr)
			}
		}
	}
}

// TestCosignLogAsWitnessCLI (trial 20): 'ledger cosign' refuses a policy
// naming the log's own key before submitting anything (exit 2), as the
// reading side does, and stores no row.
func TestCosignLogAsWitnessCLI(t *testing.T) {
	db, _ := newCLILedger(t)
	vkey := readLedger(t, db).VerifierKey()
	pol := filepath.Join(t.TempDir(), "witnesses")
	if err := os.WriteFile(pol, []byte("witness "+vkey+" http://127.0.0.1:9/\nquorum 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runSealed(t, "", "ledger", "cosign", "--db", db, "--witnesses", pol)
	if code != 2 || !strings.Contains(stderr, "has the log's own key") {
		t.Errorf("cosign with the log as its witness: exit %d\n%s%s", code, stdout, stderr)
	}
}
