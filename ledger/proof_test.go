package ledger_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/sealedhq/sealed/ledger"
)

// growLedger appends n commits, waiting for a checkpoint after each so
// that every size 1..n has one (checkpoint interval 1 ms).
func growLedger(t *testing.T, n int) (*ledger.Ledger, string) {
	t.Helper()
	l, _, vkey := newTestLedger(t, ledger.Options{CheckpointInterval: time.Millisecond})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for i := range n {
		idx, err := l.Append(ctx, []byte(commitBody(fmt.Sprintf("p%d", i), hashA)))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := l.WaitCheckpoint(ctx, idx+1); err != nil {
			t.Fatal(err)
		}
	}
	return l, vkey
}

// TestInclusionProofs: every entry's proof in every checkpoint verifies
// offline; then every byte of one serialised proof is flipped in turn
// (XOR 0xff) and each altered proof must be rejected.
func TestInclusionProofs(t *testing.T) {
	l, vkey := growLedger(t, 13)
	for size := int64(1); size <= 13; size++ {
		for i := range size {
			p, err := l.ProveInclusion(i, size)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := ledger.CheckInclusion(vkey, nil, p); err != nil {
				t.Fatalf("proof of %d in %d: %v", i, size, err)
			}
		}
	}
	if _, err := l.ProveInclusion(13, 13); err == nil {
		t.Error("proved index 13 in a tree of 13")
	}
	p, err := l.ProveInclusion(5, 13)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := json.Marshal(p)
	check := func(b []byte) error {
		q, err := ledger.ParseInclusionProof(b)
		if err != nil {
			return err
		}
		_, err = ledger.CheckInclusion(vkey, nil, q)
		return err
	}
	if err := check(data); err != nil {
		t.Fatalf("unaltered proof: %v", err)
	}
	for i := range data {
		b := append([]byte(nil), data...)
		b[i] ^= 0xff
		if check(b) == nil {
			t.Errorf("byte %d flipped (%q): accepted", i, data[max(0, i-10):min(len(data), i+10)])
		}
	}
	// A proof checked against another checkpoint of the same log fails.
	other, _ := l.CheckpointAt(12)
	if _, err := ledger.CheckInclusion(vkey, []byte(other.Note), p); err == nil {
		t.Error("accepted against the checkpoint of size 12")
	}
}

// TestConsistencyProofs: every pair of checkpoints is consistent; every
// byte flip of one serialised proof is rejected.
func TestConsistencyProofs(t *testing.T) {
	l, vkey := growLedger(t, 11)
	for s1 := int64(1); s1 <= 11; s1++ {
		for s2 := s1; s2 <= 11; s2++ {
			p, err := l.ProveConsistency(s1, s2)
			if err != nil {
				t.Fatal(err)
			}
			if err := ledger.CheckConsistency(vkey, nil, nil, p); err != nil {
				t.Fatalf("%d -> %d: %v", s1, s2, err)
			}
		}
	}
	p, err := l.ProveConsistency(3, 11)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := json.Marshal(p)
	for i := range data {
		b := append([]byte(nil), data...)
		b[i] ^= 0xff
		q, err := ledger.ParseConsistencyProof(b)
		if err == nil && ledger.CheckConsistency(vkey, nil, nil, q) == nil {
			t.Errorf("byte %d flipped: accepted", i)
		}
	}
	// Swapped checkpoints, or another log's key, fail too.
	if err := ledger.CheckConsistency(vkey, []byte(p.Checkpoint2), []byte(p.Checkpoint1), p); err == nil {
		t.Error("swapped checkpoints accepted")
	}
}

// TestCheckpointSignatureFlips: flipping any byte of the Ed25519 signature
// (key hash and signature, base64-decoded) or any byte of the signed note
// text makes OpenCheckpoint fail.
func TestCheckpointSignatureFlips(t *testing.T) {
	l, vkey := growLedger(t, 3)
	cp, err := l.LatestCheckpoint()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ledger.OpenCheckpoint(vkey, []byte(cp.Note)); err != nil {
		t.Fatal(err)
	}
	text, sigLines, ok := strings.Cut(cp.Note, "\n\n")
	prefix := "— " + testOrigin + " "
	// The log's signature line first, then its timestamped one.
	sigLine, timedLine, _ := strings.Cut(sigLines, "\n")
	if !ok || !strings.HasPrefix(sigLine, prefix) || !strings.HasPrefix(timedLine, prefix) {
		t.Fatalf("unexpected note %q", cp.Note)
	}
	sig, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(sigLine, prefix))
	if err != nil || len(sig) != 4+64 {
		t.Fatalf("signature %d bytes, %v", len(sig), err)
	}
	for i := range sig {
		s := append([]byte(nil), sig...)
		s[i] ^= 0x01
		msg := text + "\n\n" + prefix + base64.StdEncoding.EncodeToString(s) + "\n" + timedLine
		if _, err := ledger.OpenCheckpoint(vkey, []byte(msg)); err == nil {
			t.Errorf("signature byte %d flipped: accepted", i)
		}
	}
	skip := timedName(t, []byte(cp.Note), testOrigin)
	for i := range len(cp.Note) {
		if skip(i) {
			continue
		}
		b := []byte(cp.Note)
		b[i] ^= 0x01
		if _, err := ledger.OpenCheckpoint(vkey, b); err == nil {
			t.Errorf("note byte %d flipped: accepted", i)
		}
	}
	// Another key with the same name does not verify it.
	_, otherV, _ := growLedgerKey(t)
	if _, err := ledger.OpenCheckpoint(otherV, []byte(cp.Note)); err == nil {
		t.Error("verified with another key")
	}
}

func growLedgerKey(t *testing.T) (*ledger.Ledger, string, string) {
	l, db, vkey := newTestLedger(t, ledger.Options{})
	return l, db, vkey
}
