package tlogclient_test

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"math/big"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"filippo.io/torchwood"
	"github.com/sealedhq/sealed/internal/tlogtest"
	"github.com/sealedhq/sealed/ledger"
	"github.com/sealedhq/sealed/ledger/tiles"
	"github.com/sealedhq/sealed/ledger/tlogclient"
	"github.com/sealedhq/sealed/ledger/witness"
	"golang.org/x/mod/sumdb/note"
	"golang.org/x/mod/sumdb/tlog"
)

// tamper serves h, with byte at of path flipped (low bit) when path is set.
type tamper struct {
	h    http.Handler
	mu   sync.Mutex
	path string
	at   int
}

func (t *tamper) set(path string, at int) {
	t.mu.Lock()
	t.path, t.at = path, at
	t.mu.Unlock()
}

func (t *tamper) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	// Asked without Accept-Encoding, the handler sends bundles as they
	// are (not gzip): the byte flipped is the bundle's own.
	r = r.Clone(r.Context())
	r.Header.Del("Accept-Encoding")
	rec := httptest.NewRecorder()
	t.h.ServeHTTP(rec, r)
	b := bytes.Clone(rec.Body.Bytes())
	t.mu.Lock()
	if r.URL.Path == "/"+t.path && t.at < len(b) {
		b[t.at] ^= 1
	}
	t.mu.Unlock()
	for k, v := range rec.Header() {
		w.Header()[k] = v
	}
	w.Header().Del("Content-Length")
	w.WriteHeader(rec.Code)
	w.Write(b)
}

// cosign adds a cosignature by a torchwood CosignatureSigner (a peer's
// implementation of C2SP tlog-cosignature) to the latest checkpoint.
func cosign(t *testing.T, log *tlogtest.Log, name string) string {
	t.Helper()
	_, priv, _ := ed25519.GenerateKey(rand.Reader)
	s, err := torchwood.NewCosignatureSigner(name, priv)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	cp, err := log.Store.LatestCheckpoint(ctx)
	if err != nil {
		t.Fatal(err)
	}
	n, err := note.Open(cp.Note, note.VerifierList(mustVerifier(t, log.VerifierKey)))
	if err != nil {
		t.Fatal(err)
	}
	signed, err := note.Sign(&note.Note{Text: n.Text}, s)
	if err != nil {
		t.Fatal(err)
	}
	line := signed[bytes.Index(signed, []byte("\n\n"))+2:]
	ts, _ := torchwood.CosignatureTimestamp(note.Signature{Base64: strings.Fields(string(line))[2]})
	if err := log.Store.PutCosignature(ctx, &ledger.StoredCosignature{CheckpointID: cp.ID, Size: cp.Size, Witness: name, Line: line, Time: ts}); err != nil {
		t.Fatal(err)
	}
	return s.Verifier().String()
}

func mustVerifier(t *testing.T, vkey string) note.Verifier {
	v, err := note.NewVerifier(vkey)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestFlips: every byte of a hash tile, an entry bundle and the cosigned
// checkpoint flipped in turn: Audit rejects each.
func TestFlips(t *testing.T) {
	log := tlogtest.NewLog(t, "example.com/flips")
	log.Fill(t, 11, "f")
	wkey := cosign(t, log, "witness.example/w1")
	pol, err := witness.ParsePolicy([]byte("witness " + wkey + "\nquorum 1\n"))
	if err != nil {
		t.Fatal(err)
	}
	tp := &tamper{h: &tiles.Handler{Store: log.Store}}
	srv := httptest.NewServer(tp)
	defer srv.Close()
	c := &tlogclient.Client{URL: srv.URL, VerifierKey: log.VerifierKey, Policy: pol}
	ctx := context.Background()
	rep, err := c.Audit(ctx, nil)
	if err != nil || rep.Checkpoint.Size != 11 || len(rep.Cosignatures) != 1 {
		t.Fatalf("untampered audit: %+v, %v", rep, err)
	}
	for _, path := range []string{"tile/0/000.p/11", "tile/entries/000.p/11", "checkpoint"} {
		b, err := c.Fetch(ctx, path)
		if err != nil {
			t.Fatal(err)
		}
		skip := func(int) bool { return false }
		if path == "checkpoint" {
			skip = timedNameBytes(t, b, "example.com/flips")
		}
		for i := range b {
			if skip(i) {
				continue
			}
			tp.set(path, i)
			if _, err := c.Audit(ctx, nil); err == nil {
				t.Errorf("%s with byte %d (%q) flipped: audit passed", path, i, b[i])
			}
		}
		tp.set("", 0)
	}
}

// TestQuorum: no cosignature, or one by a witness outside the policy, or a
// cosignature over another body, fails a quorum of 1.
func TestQuorum(t *testing.T) {
	log := tlogtest.NewLog(t, "example.com/quorum")
	log.Fill(t, 4, "q")
	srv := httptest.NewServer(&tiles.Handler{Store: log.Store})
	defer srv.Close()
	_, priv, _ := ed25519.GenerateKey(rand.Reader)
	s, _ := torchwood.NewCosignatureSigner("witness.example/w2", priv)
	pol, err := witness.ParsePolicy([]byte("witness " + s.Verifier().String() + "\n"))
	if err != nil {
		t.Fatal(err)
	}
	c := &tlogclient.Client{URL: srv.URL, VerifierKey: log.VerifierKey, Policy: pol}
	var ce *tlogclient.CheckError
	if _, err := c.Audit(context.Background(), nil); !errors.As(err, &ce) || !strings.Contains(err.Error(), "quorum") {
		t.Errorf("no cosignature: %v, want a quorum failure", err)
	}
	cosign(t, log, "witness.example/other")
	if _, err := c.Audit(context.Background(), nil); !errors.As(err, &ce) {
		t.Errorf("another witness's cosignature: %v, want a quorum failure", err)
	}
	// w2's cosignature of another body (size 3) on this checkpoint.
	other := ledger.FormatCheckpoint("example.com/quorum", 3, tlog.Hash{})
	signed, _ := note.Sign(&note.Note{Text: other}, s)
	line := signed[bytes.Index(signed, []byte("\n\n"))+2:]
	cp, _ := log.Store.LatestCheckpoint(context.Background())
	log.Store.PutCosignature(context.Background(), &ledger.StoredCosignature{CheckpointID: cp.ID, Size: cp.Size, Witness: "witness.example/w2", Line: line, Time: 1})
	if _, err := c.Audit(context.Background(), nil); err == nil {
		t.Error("a cosignature over another body: audit passed")
	}
}

// TestTorchwoodClient: torchwood's tlog-tiles client fetches entries and
// inclusion proofs of random entries from our tiles; they verify against
// our checkpoint with tlog.CheckRecord, and the entries are our leaves.
func TestTorchwoodClient(t *testing.T) {
	log := tlogtest.NewLog(t, "example.com/torchwood")
	cp := log.Fill(t, 700, "t")
	srv := httptest.NewServer(&tiles.Handler{Store: log.Store})
	defer srv.Close()
	f, err := torchwood.NewTileFetcher(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	tc, err := torchwood.NewClient(f)
	if err != nil {
		t.Fatal(err)
	}
	tree := tlog.Tree{N: cp.Size, Hash: cp.Root}
	for range 20 {
		r, _ := rand.Int(rand.Reader, big.NewInt(cp.Size))
		i := r.Int64()
		entry, proof, err := tc.Entry(context.Background(), tree, i)
		if err != nil {
			t.Fatalf("torchwood Entry(%d): %v", i, err)
		}
		if err := tlog.CheckRecord(proof, cp.Size, cp.Root, i, tlog.RecordHash(entry)); err != nil {
			t.Errorf("entry %d: torchwood's proof does not verify: %v", i, err)
		}
		e, _ := log.Entry(i)
		if !bytes.Equal(entry, e.Leaf) {
			t.Errorf("entry %d: torchwood read %q, the leaf is %q", i, entry, e.Leaf)
		}
	}
	// Every entry, in order, through torchwood's Entries iterator (which
	// may stop before a partial bundle; resuming yields the rest).
	n := int64(0)
	for range 3 {
		for i, entry := range tc.Entries(context.Background(), tree, n) {
			e, _ := log.Entry(i)
			if i != n || !bytes.Equal(entry, e.Leaf) {
				t.Fatalf("torchwood Entries: %d %q", i, entry)
			}
			n++
		}
	}
	if err := tc.Err(); err != nil || n != cp.Size {
		t.Errorf("torchwood Entries read %d entries, err %v", n, err)
	}
	// Our client's proofs from tiles check with ledger.CheckInclusion.
	p, err := (&tlogclient.Client{URL: srv.URL}).ProveInclusion(context.Background(), 345)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ledger.CheckInclusion(log.VerifierKey, nil, p); err != nil {
		t.Errorf("proof from tiles: %v", err)
	}
}

// TestWatch: a monitor catches a rollback (the log cut and re-signed) and
// forks (same size with other entries; a bigger tree with other entries).
func TestWatch(t *testing.T) {
	log := tlogtest.NewLog(t, "example.com/watch")
	log.Fill(t, 10, "w")
	h := &swap{}
	h.set(&tiles.Handler{Store: log.Store})
	srv := httptest.NewServer(h)
	defer srv.Close()
	c := &tlogclient.Client{URL: srv.URL, VerifierKey: log.VerifierKey}
	ctx := context.Background()
	first, err := c.Watch(ctx, nil)
	if err != nil || first.Size != 10 {
		t.Fatalf("first watch: %v, %v", first, err)
	}
	log.Fill(t, 300, "w")
	second, err := c.Watch(ctx, []byte(first.Note))
	if err != nil || second.Size != 300 {
		t.Fatalf("grown log: %v, %v", second, err)
	}
	for _, tc := range []struct {
		name string
		n    int64
		tag  string
		what string
	}{{"cut", 5, "w", "rollback"}, {"same size", 300, "x", "fork"}, {"bigger", 310, "x", "fork"}} {
		fork := tlogtest.SameKey(t, log)
		fork.Fill(t, tc.n, tc.tag)
		h.set(&tiles.Handler{Store: fork.Store})
		_, err := c.Watch(ctx, []byte(second.Note))
		var we *tlogclient.WatchError
		if !errors.As(err, &we) || we.What != tc.what {
			t.Errorf("%s: %v, want a %s", tc.name, err, tc.what)
			continue
		}
		if !strings.Contains(err.Error(), second.Note) || !strings.Contains(err.Error(), we.New.Note) {
			t.Errorf("%s: the error does not show both checkpoints: %v", tc.name, err)
		}
	}
}

type swap struct {
	mu sync.Mutex
	h  http.Handler
}

func (s *swap) set(h http.Handler) { s.mu.Lock(); s.h = h; s.mu.Unlock() }
func (s *swap) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	h := s.h
	s.mu.Unlock()
	h.ServeHTTP(w, r)
}

// timedNameBytes returns whether byte i of the signed checkpoint is in the
// key name of the log's own timestamped signature line (cosignature/v1,
// 76 signature bytes; ledger.CheckpointTime). A changed name there makes
// the line one by an unknown key, which C2SP signed-note says to ignore:
// the checkpoint is still signed by the log, so the audit rightly passes.
// Every other byte of that line (its key hash and signature) must fail.
func timedNameBytes(t *testing.T, note []byte, origin string) func(int) bool {
	t.Helper()
	prefix := "\u2014 " + origin + " "
	start := 0
	for _, line := range strings.SplitAfter(string(note), "\n") {
		if rest, ok := strings.CutPrefix(line, prefix); ok {
			if sig, err := base64.StdEncoding.DecodeString(strings.TrimSpace(rest)); err == nil && len(sig) == 76 {
				lo, hi := start+len("\u2014 "), start+len(prefix)-1
				return func(i int) bool { return i >= lo && i < hi }
			}
		}
		start += len(line)
	}
	t.Fatal("the checkpoint has no timestamped signature line by the log")
	return nil
}
