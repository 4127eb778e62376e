package witness_test

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sealedhq/sealed/internal/tlogtest"
	"github.com/sealedhq/sealed/ledger/tiles"
	"github.com/sealedhq/sealed/ledger/witness"
)

// TestZeroTimestampRefused (newcomer trial 7c, finding 2): C2SP
// tlog-witness says of add-checkpoint's answer "The cosignature MUST NOT
// omit the timestamp, i.e. the timestamp MUST NOT be zero". A witness
// written here from C2SP tlog-cosignature alone (crypto/ed25519, key ID
// SHA-256(name || "\n" || 0x04 || key)[:4], message "cosignature/v1\ntime
// T\n" and the note body) is accepted with a real timestamp and refused
// with timestamp 0, which sealed would otherwise show as "witnessed by
// 1970-01-01".
func TestZeroTimestampRefused(t *testing.T) {
	log := tlogtest.NewLog(t, "example.com/zero")
	log.Fill(t, 3, "z")
	signed, _, err := tiles.Checkpoint(context.Background(), log.Store)
	if err != nil {
		t.Fatal(err)
	}
	vkey, url, stamp := specWitness(t, "example.com/clockless")
	w, err := witness.NewWitness(vkey, url)
	if err != nil {
		t.Fatal(err)
	}
	real := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	stamp.Store(uint64(real.Unix()))
	cs, err := witness.AddCheckpoint(context.Background(), nil, w, 0, nil, signed)
	if err != nil || len(cs) != 1 || !cs[0].Time.Equal(real) {
		t.Fatalf("a cosignature at %v: %+v, %v", real, cs, err)
	}
	stamp.Store(0)
	if cs, err := witness.AddCheckpoint(context.Background(), nil, w, 0, nil, signed); err == nil {
		t.Errorf("a cosignature at time 0 accepted: %+v", cs)
	}
}

// TestWitnessClockSkew (newcomer trial 7c, left for a decision): the
// Cosigner refuses, and does not store, a cosignature timestamped more
// than MaxClockSkew before the checkpoint was signed (2001-09-09, Unix
// 1000000000) or after this machine's clock (a day ahead); one a minute
// old is stored. The witness is written from C2SP tlog-cosignature with
// crypto/ed25519 alone, as in TestZeroTimestampRefused.
func TestWitnessClockSkew(t *testing.T) {
	log := tlogtest.NewLog(t, "example.com/skew")
	log.Fill(t, 3, "s")
	vkey, url, stamp := specWitness(t, "example.com/skewed")
	p, err := witness.ParsePolicy([]byte("witness " + vkey + " " + url + "\nquorum 1\n"))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	c := &witness.Cosigner{Store: log.Store, Policy: p}
	for _, tc := range []struct {
		at   time.Time
		want string // "" for stored
	}{
		{time.Unix(1000000000, 0), "a cosignature timestamped 2001-09-09T01:46:40Z, before the checkpoint was signed"},
		{time.Now().Add(24 * time.Hour), "after this machine's clock"},
		{time.Now().Add(-time.Minute), ""},
	} {
		stamp.Store(uint64(tc.at.Unix()))
		rs, err := c.Cosign(ctx)
		if err != nil || len(rs) != 1 {
			t.Fatalf("Cosign at %v: %+v, %v", tc.at, rs, err)
		}
		cp, err := log.Store.LatestCheckpoint(ctx)
		if err != nil {
			t.Fatal(err)
		}
		stored, err := log.Store.Cosignatures(ctx, cp.ID, 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case tc.want != "" && (rs[0].Err == nil || !strings.Contains(rs[0].Err.Error(), tc.want) || len(stored) != 0):
			t.Errorf("a cosignature at %v: %v, %d stored; want refused saying %q, none stored", tc.at, rs[0].Err, len(stored), tc.want)
		case tc.want == "" && (rs[0].Err != nil || len(stored) != 1 || stored[0].Time != tc.at.Unix()):
			t.Errorf("a cosignature at %v: %v, stored %+v; want it stored", tc.at, rs[0].Err, stored)
		}
	}
}

// specWitness starts a witness written from C2SP tlog-cosignature alone
// (crypto/ed25519, key ID SHA-256(name || "\n" || 0x04 || key)[:4],
// message "cosignature/v1\ntime T\n" and the note body): it cosigns every
// add-checkpoint request with the timestamp the returned stamp holds
// (Unix seconds, set by the test). It returns its verifier key and URL;
// the server stops with the test.
func specWitness(t *testing.T, name string) (vkey, url string, stamp *atomic.Uint64) {
	t.Helper()
	c := newSpecCosigner(t, name)
	stamp = new(atomic.Uint64)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		i := bytes.Index(body, []byte("\n\n")) // end of the old size and proof
		cp := body[i+2:]
		io.WriteString(w, c.line(cp[:bytes.Index(cp, []byte("\n\n"))+1], stamp.Load()))
	}))
	t.Cleanup(srv.Close)
	return c.vkey, srv.URL, stamp
}

// specCosigner signs cosignature/v1 lines as C2SP tlog-cosignature
// defines them, with crypto/ed25519 alone: key ID SHA-256(name || "\n" ||
// 0x04 || key)[:4], message "cosignature/v1\ntime T\n" and the note body,
// signature the key ID, T as 8 big-endian bytes and the Ed25519
// signature.
type specCosigner struct {
	name string
	vkey string // name+keyID+base64(0x04 || key)
	kid  [4]byte
	priv ed25519.PrivateKey
}

func newSpecCosigner(t *testing.T, name string) *specCosigner {
	t.Helper()
	pub, priv, err := ed25519.GenerateKey(nil)
	if err != nil {
		t.Fatal(err)
	}
	kid := sha256.Sum256(append([]byte(name+"\n\x04"), pub...))
	vkey := name + "+" + hex.EncodeToString(kid[:4]) + "+" + base64.StdEncoding.EncodeToString(append([]byte{4}, pub...))
	return &specCosigner{name: name, vkey: vkey, kid: [4]byte(kid[:4]), priv: priv}
}

// line is the signature line of a cosignature of the note body body (its
// text, ending in a newline) timestamped ts.
func (c *specCosigner) line(body []byte, ts uint64) string {
	msg := append([]byte(fmt.Sprintf("cosignature/v1\ntime %d\n", ts)), body...)
	sig := binary.BigEndian.AppendUint64(c.kid[:], ts)
	sig = append(sig, ed25519.Sign(c.priv, msg)...)
	return "— " + c.name + " " + base64.StdEncoding.EncodeToString(sig) + "\n"
}
