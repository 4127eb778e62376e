package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestEntryJSONExactLeaf: ledger get --json and list --json give the leaf's
// exact bytes (leaf as a string, leaf_base64), which a stranger hashes to
// leaf_hash by RFC 6962 §2.1 (SHA-256 of 0x00 and the leaf, computed here
// with crypto/sha256), and integrated_at as the leaf writes it; plain get
// prints the same bytes and a newline.
func TestEntryJSONExactLeaf(t *testing.T) {
	db := filepath.Join(t.TempDir(), "j.db")
	mustRun(t, 0, "", "ledger", "init", "--db", db, "--origin", "example.com/json")
	// printf %s 'hello world' | sha256sum
	mustRun(t, 0, "", "ledger", "append", "--db", db, "--kind", "commit", "--player", "ann", "--action-type", "bid",
		"--channel", "#a<b>&c", "--commitment", "b94d27b9934d3e08a52e52d7da7dabfac484efe37a5380ee9088f7ace2efcde9",
		"--posted-at", "2026-03-23T09:00:00.5Z")
	plain, _ := mustRun(t, 0, "", "ledger", "get", "0", "--db", db)
	if !strings.HasSuffix(plain, "}\n") || strings.Count(plain, "\n") != 1 {
		t.Fatalf("plain get: %q, want the leaf and one newline", plain)
	}
	leaf := []byte(strings.TrimSuffix(plain, "\n"))

	type entry struct {
		Leaf         string `json:"leaf"`
		LeafBase64   string `json:"leaf_base64"`
		LeafHash     string `json:"leaf_hash"`
		IntegratedAt string `json:"integrated_at"`
		PostedAt     string `json:"posted_at"`
	}
	one, _ := mustRun(t, 0, "", "ledger", "get", "--index", "0", "--db", db, "--json")
	var e entry
	if err := json.Unmarshal([]byte(one), &e); err != nil {
		t.Fatal(err)
	}
	list, _ := mustRun(t, 0, "", "ledger", "list", "--db", db, "--json")
	var es []entry
	if err := json.Unmarshal([]byte(list), &es); err != nil || len(es) != 1 {
		t.Fatalf("list --json: %v, %d entries", err, len(es))
	}
	for what, got := range map[string]entry{"get --json": e, "list --json": es[0]} {
		if got.Leaf != string(leaf) {
			t.Errorf("%s: leaf %q, want the plain get's bytes %q", what, got.Leaf, leaf)
		}
		raw, err := base64.StdEncoding.DecodeString(got.LeafBase64)
		if err != nil || !bytes.Equal(raw, leaf) {
			t.Errorf("%s: leaf_base64 decodes to %q (%v), want %q", what, raw, err, leaf)
		}
		h := sha256.Sum256(append([]byte{0}, raw...))
		if want := base64.StdEncoding.EncodeToString(h[:]); got.LeafHash != want {
			t.Errorf("%s: leaf_hash %s, SHA-256(0x00 || leaf) is %s", what, got.LeafHash, want)
		}
		m := regexp.MustCompile(`"integrated_at":"([^"]+)"`).FindStringSubmatch(got.Leaf)
		if m == nil || got.IntegratedAt != m[1] {
			t.Errorf("%s: integrated_at %q, the leaf has %v", what, got.IntegratedAt, m)
		}
		if got.PostedAt != "2026-03-23T09:00:00.500000000Z" {
			t.Errorf("%s: posted_at %q, want the leaf's form 2026-03-23T09:00:00.500000000Z", what, got.PostedAt)
		}
	}
}

// TestNotExistHint: a library error that wraps fs.ErrNotExist gets the
// CLI's hint to create a ledger; others get none from it.
func TestNotExistHint(t *testing.T) {
	e := withNotExistHint(usageErrorf("x"), fmt.Errorf("opening: %w", fs.ErrNotExist))
	if e.hint != "create a ledger with 'sealed ledger init', or give --db FILE" {
		t.Errorf("hint %q", e.hint)
	}
	if e := withNotExistHint(usageErrorf("x"), errors.New("other")); e.hint != "" {
		t.Errorf("hint %q for an error that is not fs.ErrNotExist", e.hint)
	}
	if e := withNotExistHint(usageErrorf("x").withHint("mine"), fs.ErrNotExist); e.hint != "mine" {
		t.Errorf("hint %q replaced the error's own", e.hint)
	}
}
