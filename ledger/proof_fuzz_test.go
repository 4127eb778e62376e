package ledger_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"golang.org/x/mod/sumdb/note"
	"golang.org/x/mod/sumdb/tlog"

	"github.com/sealedhq/sealed/ledger"
)

// proofSeeds are an inclusion and a consistency proof of a tree of five
// leaves, signed with the key of testdata/checkpoint.txt, in JSON as
// 'sealed ledger prove' writes them; and the verifier key.
func proofSeeds(t testing.TB) (inclusion, consistency []byte, vkey string) {
	h, _ := readVector(t, "testdata/checkpoint.txt")
	signer, err := note.NewSigner(h["signer-key"])
	if err != nil {
		t.Fatal(err)
	}
	var hashes []tlog.Hash
	leaves := []string{`{"a":1}`, `{"b":2}`, `{"c":3}`, `{"d":4}`, `{"e":5}`}
	for i, l := range leaves {
		hs, err := tlog.StoredHashes(int64(i), []byte(l), tlog.HashReaderFunc(func(idx []int64) ([]tlog.Hash, error) {
			out := make([]tlog.Hash, len(idx))
			for j, x := range idx {
				out[j] = hashes[x]
			}
			return out, nil
		}))
		if err != nil {
			t.Fatal(err)
		}
		hashes = append(hashes, hs...)
	}
	hr := tlog.HashReaderFunc(func(idx []int64) ([]tlog.Hash, error) {
		out := make([]tlog.Hash, len(idx))
		for j, x := range idx {
			out[j] = hashes[x]
		}
		return out, nil
	})
	sign := func(n int64) string {
		root, err := tlog.TreeHash(n, hr)
		if err != nil {
			t.Fatal(err)
		}
		s, err := ledger.SignCheckpoint(signer, testOrigin, n, root)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	rp, err := tlog.ProveRecord(5, 2, hr)
	if err != nil {
		t.Fatal(err)
	}
	inclusion, _ = json.Marshal(&ledger.InclusionProof{Index: 2, Size: 5, Leaf: leaves[2], LeafHash: tlog.RecordHash([]byte(leaves[2])), Proof: rp, Checkpoint: sign(5)})
	tp, err := tlog.ProveTree(5, 3, hr)
	if err != nil {
		t.Fatal(err)
	}
	consistency, _ = json.Marshal(&ledger.ConsistencyProof{Size1: 3, Size2: 5, Proof: tp, Checkpoint1: sign(3), Checkpoint2: sign(5)})
	return inclusion, consistency, h["verifier-key"]
}

// checkProofFile: a JSON proof file ('sealed ledger check-proof') parses
// or not without panicking; what ParseInclusionProof or
// ParseConsistencyProof accepts keeps its documented ranges, its
// checkpoints pass checkNoteForm, written again as JSON it parses to the
// same proof; checking it with the key never panics.
func checkProofFile(t *testing.T, vkey string, data []byte) {
	if p, err := ledger.ParseInclusionProof(data); err == nil {
		if p.Size < 1 || p.Index < 0 || p.Index >= p.Size {
			t.Fatalf("%q: accepted index %d, size %d", data, p.Index, p.Size)
		}
		checkNoteForm(t, p.Checkpoint)
		again, _ := json.Marshal(p)
		q, err := ledger.ParseInclusionProof(again)
		if err != nil || !reflect.DeepEqual(normProof(p.Proof), normProof(q.Proof)) || p.Index != q.Index || p.Size != q.Size ||
			p.Leaf != q.Leaf || p.LeafHash != q.LeafHash || p.Checkpoint != q.Checkpoint {
			t.Fatalf("%q accepted as %+v; written again %s, read as %+v (%v)", data, p, again, q, err)
		}
		ledger.CheckInclusion(vkey, nil, p)
	}
	if p, err := ledger.ParseConsistencyProof(data); err == nil {
		if p.Size1 < 1 || p.Size1 > p.Size2 {
			t.Fatalf("%q: accepted sizes %d, %d", data, p.Size1, p.Size2)
		}
		checkNoteForm(t, p.Checkpoint1)
		checkNoteForm(t, p.Checkpoint2)
		again, _ := json.Marshal(p)
		q, err := ledger.ParseConsistencyProof(again)
		if err != nil || !reflect.DeepEqual(normProof(p.Proof), normProof(q.Proof)) || p.Size1 != q.Size1 || p.Size2 != q.Size2 ||
			p.Checkpoint1 != q.Checkpoint1 || p.Checkpoint2 != q.Checkpoint2 {
			t.Fatalf("%q accepted as %+v; written again %s, read as %+v (%v)", data, p, again, q, err)
		}
		ledger.CheckConsistency(vkey, nil, nil, p)
	}
}

// normProof treats no proof hashes and an empty list alike.
func normProof(p []tlog.Hash) []tlog.Hash {
	if len(p) == 0 {
		return nil
	}
	return p
}

// FuzzParseProofFile: checkProofFile on mutated JSON proofs
// (go test -run '^$' -fuzz '^FuzzParseProofFile$' ./ledger).
func FuzzParseProofFile(f *testing.F) {
	inc, con, vkey := proofSeeds(f)
	for _, s := range []string{string(inc), string(con),
		`{"index":0,"size":1,"leaf":"x","leaf_hash":"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=","proof":[],"checkpoint":"o\n1\nAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=\n\n— o AAAA\n"}`,
		`{"index":0,"size":1,"leaf":"x","leaf_hash":"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=","proof":null,"checkpoint":"o\n1\nAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=\n\n— o AAAA\n"}`,
		`{"size1":1,"size2":1,"proof":[],"checkpoint1":"o\n1\nAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=\n\n— o AAAA\n","checkpoint2":"o\n1\nAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=\n\n— o AAAA\n"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) { checkProofFile(t, vkey, data) })
}

// TestProofSeedsCheck: the seeds of FuzzParseProofFile are proofs that
// hold, so the fuzzer starts from the checks' success paths.
func TestProofSeedsCheck(t *testing.T) {
	inc, con, vkey := proofSeeds(t)
	p, err := ledger.ParseInclusionProof(inc)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ledger.CheckInclusion(vkey, nil, p); err != nil {
		t.Error(err)
	}
	c, err := ledger.ParseConsistencyProof(con)
	if err != nil {
		t.Fatal(err)
	}
	if err := ledger.CheckConsistency(vkey, nil, nil, c); err != nil {
		t.Error(err)
	}
}
