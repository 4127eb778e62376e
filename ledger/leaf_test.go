package ledger_test

import (
	"context"
	"encoding/hex"
	"path/filepath"
	"sort"
	"strconv"
	"testing"

	"github.com/sealedhq/sealed/ledger"
	"golang.org/x/mod/sumdb/note"
	"golang.org/x/mod/sumdb/tlog"
)

// TestLeavesAndCheckpoint appends the bodies of testdata/leaves (expected
// leaves, leaf hashes and RFC 6962 roots computed independently by
// testdata/leaves/gen.py: json.dumps + hashlib), then checks the stored
// leaves and leaf hashes byte for byte, opens the signed checkpoint with
// note.Open and the verifier key, and compares its root with the Python
// root and with tlog.TreeHash over the stored entries.
func TestLeavesAndCheckpoint(t *testing.T) {
	files, _ := filepath.Glob("testdata/leaves/*-*.txt")
	sort.Strings(files)
	if len(files) != 5 {
		t.Fatalf("want 5 leaf vectors, got %d", len(files))
	}
	h0, _ := readVector(t, files[0])
	l, dbPath, vkey := newTestLedger(t, ledger.Options{Clock: fixedClock(t, h0["clock"])})
	ctx := context.Background()
	// The result vector names the replay of 0 bytes (printf '' | sha256sum
	// is e3b0c442...): the audit requires every replay a result names.
	if _, err := l.PutReplay([]byte{}); err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		h, want := readVector(t, f)
		idx, err := l.Append(ctx, []byte(h["input"]))
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if strconv.FormatInt(idx, 10) != h["index"] {
			t.Fatalf("%s: index %d, want %s", f, idx, h["index"])
		}
		e, err := l.Entry(idx)
		if err != nil {
			t.Fatal(err)
		}
		if string(e.Leaf) != string(want) {
			t.Errorf("%s: leaf\n%s\nwant\n%s", f, e.Leaf, want)
		}
		if got := hex.EncodeToString(e.LeafHash[:]); got != h["leaf-hash"] {
			t.Errorf("%s: leaf hash %s, want %s", f, got, h["leaf-hash"])
		}
		b, _ := ledger.ParseBody([]byte(h["input"]))
		dedup, err := ledger.DedupKey(b)
		if err != nil {
			t.Fatal(err)
		}
		if got := hex.EncodeToString(dedup[:]); got != h["dedup-sha256"] {
			t.Errorf("%s: duplicate key %s, want %s", f, got, h["dedup-sha256"])
		}
	}
	if err := l.Close(); err != nil { // signs the last checkpoint
		t.Fatal(err)
	}
	roots := readHeaders(t, "testdata/leaves/tree.txt")

	ro, err := openLedger(t, dbPath, ledger.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	cp, err := ro.LatestCheckpoint()
	if err != nil {
		t.Fatal(err)
	}
	v, err := note.NewVerifier(vkey)
	if err != nil {
		t.Fatal(err)
	}
	n, err := note.Open([]byte(cp.Note), note.VerifierList(v))
	if err != nil {
		t.Fatalf("note.Open: %v", err)
	}
	origin, size, root, err := ledger.ParseCheckpoint(n.Text)
	if err != nil || origin != testOrigin || size != 5 {
		t.Fatalf("checkpoint %q: %v", n.Text, err)
	}
	if root.String() != roots["root-5"] {
		t.Errorf("checkpoint root %s, want %s (gen.py)", root, roots["root-5"])
	}
	th, err := tlog.TreeHash(5, tlog.HashReaderFunc(func(ix []int64) ([]tlog.Hash, error) {
		return ro.Store().ReadHashes(context.Background(), ix)
	}))
	if err != nil || th != root {
		t.Errorf("tlog.TreeHash over the stored hashes = %s, %v; checkpoint root %s", th, err, root)
	}
	// And recomputed from the entry bodies alone.
	mem := map[int64]tlog.Hash{}
	rd := tlog.HashReaderFunc(func(ix []int64) ([]tlog.Hash, error) {
		out := make([]tlog.Hash, len(ix))
		for i, x := range ix {
			out[i] = mem[x]
		}
		return out, nil
	})
	es, err := ro.Entries(0, 10)
	if err != nil || len(es) != 5 {
		t.Fatalf("entries: %d, %v", len(es), err)
	}
	for i, e := range es {
		hs, err := tlog.StoredHashes(int64(i), e.Leaf, rd)
		if err != nil {
			t.Fatal(err)
		}
		for k, h := range hs {
			mem[tlog.StoredHashIndex(0, int64(i))+int64(k)] = h
		}
	}
	if th, _ := tlog.TreeHash(5, rd); th != root {
		t.Errorf("tlog.TreeHash over the entries = %s, checkpoint root %s", th, root)
	}
	rep, err := ro.Audit(ctx, nil)
	if err != nil || !rep.OK {
		t.Fatalf("audit: %+v %v", rep, err)
	}
}
