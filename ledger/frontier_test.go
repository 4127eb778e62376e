package ledger

import (
	"crypto/sha256"
	"fmt"
	"testing"

	"golang.org/x/mod/sumdb/tlog"
)

// hashMap is a tlog.HashReader over every stored hash, as tlog's own
// tests keep them.
type hashMap map[int64]tlog.Hash

func (m hashMap) ReadHashes(indexes []int64) ([]tlog.Hash, error) {
	out := make([]tlog.Hash, len(indexes))
	for i, x := range indexes {
		h, ok := m[x]
		if !ok {
			return nil, fmt.Errorf("no stored hash %d", x)
		}
		out[i] = h
	}
	return out, nil
}

// TestFrontierAddLeaf: growing a frontier leaf by leaf (addLeaf, the
// check against a checkpoint) keeps the same right edge as growing it by
// tlog.StoredHashesForRecordHash (add, the sequencer's way), and its root
// is tlog.TreeHash over every hash tlog.StoredHashes stores, at every
// size from 1 to 1,100.
func TestFrontierAddLeaf(t *testing.T) {
	var a, b frontier
	all := hashMap{}
	for n := int64(0); n < 1100; n++ {
		h := tlog.RecordHash(fmt.Appendf(nil, "leaf %d", n))
		a.addLeaf(h)
		hs, err := tlog.StoredHashesForRecordHash(n, h, &b)
		if err != nil {
			t.Fatal(err)
		}
		b.add(hs)
		for i, sh := range hs {
			all[tlog.StoredHashIndex(0, n)+int64(i)] = sh
		}
		if a.size != b.size || a.hash != b.hash || a.idx != b.idx {
			t.Fatalf("size %d: addLeaf's right edge differs from add's", n+1)
		}
		got, err := a.root()
		if err != nil {
			t.Fatal(err)
		}
		want, err := tlog.TreeHash(n+1, all)
		if err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Fatalf("size %d: root %s, tlog.TreeHash %s", n+1, got, want)
		}
	}
	// A tree of two leaves is RFC 6962's SHA-256(0x01 || leaf0 || leaf1).
	var f frontier
	l0, l1 := tlog.RecordHash([]byte("a")), tlog.RecordHash([]byte("b"))
	f.addLeaf(l0)
	f.addLeaf(l1)
	want := sha256.Sum256(append(append([]byte{1}, l0[:]...), l1[:]...))
	if got, _ := f.root(); got != tlog.Hash(want) {
		t.Fatalf("root of two leaves %s, want %x", got, want)
	}
}
