package tiles_test

import (
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/sealedhq/sealed/internal/tlogtest"
	"github.com/sealedhq/sealed/ledger"
	"github.com/sealedhq/sealed/ledger/tiles"
	"golang.org/x/mod/sumdb/note"
)

// TestStoredCosignatureChecked (newcomer trial 7c, finding 9): the
// stored cosignature lines are appended to the checkpoint that
// /checkpoint, the export and receipts give out. One well-formed
// cosignature (made here from C2SP tlog-cosignature with crypto/ed25519)
// is served and the note opens with x/mod's note.Open; a row whose line
// is not a signature line (as only an altered database holds: the
// cosigner checks every answer) would make the note malformed for every
// client, so it is refused: 409 from the handler, ledger.ErrTampered from
// Export, and nothing is written.
func TestStoredCosignatureChecked(t *testing.T) {
	ctx := context.Background()
	log := tlogtest.NewLog(t, "example.com/cosig")
	log.Fill(t, 5, "c")
	cp, err := log.Store.LatestCheckpoint(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// A witness's cosignature/v1 line on the checkpoint, per the spec.
	const name = "witness.example/w"
	pub, priv, _ := ed25519.GenerateKey(nil)
	id := sha256.Sum256(append([]byte(name+"\n\x04"), pub...))
	const ts = 1796300000
	text := string(cp.Note[:strings.Index(string(cp.Note), "\n\n")+1])
	sig := binary.BigEndian.AppendUint64(id[:4:4], ts)
	sig = append(sig, ed25519.Sign(priv, []byte(fmt.Sprintf("cosignature/v1\ntime %d\n%s", ts, text)))...)
	good := "— " + name + " " + base64.StdEncoding.EncodeToString(sig) + "\n"
	if err := log.Store.PutCosignature(ctx, &ledger.StoredCosignature{CheckpointID: cp.ID, Size: cp.Size, Witness: name, Line: []byte(good), Time: ts}); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(&tiles.Handler{Store: log.Store})
	defer srv.Close()
	resp, b := get(t, srv.URL+"/checkpoint")
	v, _ := note.NewVerifier(log.VerifierKey)
	if _, err := note.Open(b, note.VerifierList(v)); resp.StatusCode != 200 || err != nil || !strings.HasSuffix(string(b), good) {
		t.Fatalf("/checkpoint with a good cosignature: %d, %v:\n%s", resp.StatusCode, err, b)
	}

	log.Fill(t, 6, "c")
	cp, err = log.Store.LatestCheckpoint(ctx)
	if err != nil {
		t.Fatal(err)
	}
	bad := "— evil.example/w AAAA\n" // 3 bytes: no key hash, no signature
	if err := log.Store.PutCosignature(ctx, &ledger.StoredCosignature{CheckpointID: cp.ID, Size: cp.Size, Witness: "evil.example/w", Line: []byte(bad), Time: 1}); err != nil {
		t.Fatal(err)
	}
	if _, err := note.Open(append(append([]byte(nil), cp.Note...), bad...), note.VerifierList(v)); err == nil {
		t.Fatal("x/mod's note.Open accepts the bad line: the test does not test anything")
	}
	resp, b = get(t, srv.URL+"/checkpoint")
	if resp.StatusCode != 409 || strings.Contains(string(b), bad) {
		t.Errorf("/checkpoint with a bad stored cosignature line: %d %q, want 409", resp.StatusCode, b)
	}
	dir := t.TempDir()
	if _, err := tiles.Export(ctx, log.Store, dir, nil); !errors.Is(err, ledger.ErrTampered) {
		t.Errorf("Export with a bad stored cosignature line: %v, want ledger.ErrTampered", err)
	}
}
