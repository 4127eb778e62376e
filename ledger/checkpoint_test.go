package ledger_test

import (
	"encoding/base64"
	"strings"
	"testing"

	"github.com/sealedhq/sealed/ledger"
	"golang.org/x/mod/sumdb/note"
	"golang.org/x/mod/sumdb/tlog"
)

// TestCheckpointVector: the signed checkpoint of testdata/checkpoint.txt was
// made by Python's 'cryptography' Ed25519 (testdata/checkpoint_gen.py);
// Ed25519 is deterministic, so signing the same body with the same key here
// must give the same bytes, and OpenCheckpoint must open it.
func TestCheckpointVector(t *testing.T) {
	h, want := readVector(t, "testdata/checkpoint.txt")
	signer, err := note.NewSigner(h["signer-key"])
	if err != nil {
		t.Fatal(err)
	}
	root, err := tlog.ParseHash(h["root"])
	if err != nil {
		t.Fatal(err)
	}
	got, err := ledger.SignCheckpoint(signer, testOrigin, 5, root)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("signed checkpoint\n%s\nwant (Python)\n%s", got, want)
	}
	cp, err := ledger.OpenCheckpoint(h["verifier-key"], want)
	if err != nil || cp.Size != 5 || cp.Root != root || cp.Origin != testOrigin {
		t.Fatalf("OpenCheckpoint = %+v, %v", cp, err)
	}
	if err := ledger.CheckVerifierKey(h["verifier-key"]); err != nil {
		t.Error(err)
	}
}

// TestParseCheckpointRejects: bodies that break c2sp.org/tlog-checkpoint.
func TestParseCheckpointRejects(t *testing.T) {
	const root = "rPK6fLuC5a2Zw6jBESib/EIOmhJM0KG+gthXANtzye4="
	for _, text := range []string{
		"o\n5\n" + root,                          // no final newline
		"o\n5\n",                                 // no root line
		"\n5\n" + root + "\n",                    // empty origin
		"o\n05\n" + root + "\n",                  // leading zero
		"o\n-5\n" + root + "\n",                  // sign
		"o\n9223372036854775808\n" + root + "\n", // 2^63
		"o\n5\n" + root[:43] + "\n",              // bad base64
		"o\n5\nAAAA\n",                           // not 32 bytes
		"o\n5\n" + root + "\n\n",                 // empty extension line
	} {
		if _, _, _, err := ledger.ParseCheckpoint(text); err == nil {
			t.Errorf("%q accepted", text)
		}
	}
	if o, n, _, err := ledger.ParseCheckpoint("o\n0\n" + root + "\next\n"); err != nil || o != "o" || n != 0 {
		t.Errorf("size 0 with an extension line: %v", err)
	}
	if err := ledger.CheckVerifierKey("nonsense"); err == nil || !strings.Contains(err.Error(), "verifier key") {
		t.Errorf("CheckVerifierKey(nonsense) = %v", err)
	}
}

// TestOpenCheckpointLogLineTwice (trial 18): note.Open checks the first
// line of a key and skips any other, so a checkpoint with the log's line
// given twice, or followed by a line of the log's key hash whose
// signature is garbage, opened as the checkpoint: it is refused, as each
// checkpoint has one valid text.
func TestOpenCheckpointLogLineTwice(t *testing.T) {
	l, _, vkey := newTestLedger(t, ledger.Options{})
	cp, err := l.LatestCheckpoint()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ledger.OpenCheckpoint(vkey, []byte(cp.Note)); err != nil {
		t.Fatalf("the checkpoint as signed: %v", err)
	}
	body, block, _ := strings.Cut(cp.Note, "\n\n")
	lines := strings.SplitAfter(block, "\n")
	first := lines[0] // the log's Ed25519 line
	name, b64, _ := strings.Cut(strings.TrimPrefix(strings.TrimSuffix(first, "\n"), "— "), " ")
	raw, err := base64.StdEncoding.DecodeString(b64)
	if err != nil {
		t.Fatal(err)
	}
	garbage := append(append([]byte(nil), raw[:4]...), make([]byte, len(raw)-4)...)
	for what, extra := range map[string]string{
		"the log's line twice":          first,
		"a garbage line of the log key": "— " + name + " " + base64.StdEncoding.EncodeToString(garbage) + "\n",
	} {
		signed := body + "\n\n" + block + extra
		if _, err := ledger.OpenCheckpoint(vkey, []byte(signed)); err == nil || !strings.Contains(err.Error(), "two signature lines of "+name) {
			t.Errorf("%s: %v", what, err)
		}
	}
}
