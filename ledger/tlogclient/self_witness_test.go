package tlogclient_test

import (
	"context"
	"net/http/httptest"
	"testing"

	"github.com/sealedhq/sealed/internal/tlogtest"
	"github.com/sealedhq/sealed/ledger/tiles"
	"github.com/sealedhq/sealed/ledger/tlogclient"
	"github.com/sealedhq/sealed/ledger/witness"
)

// TestLogIsNotItsOwnWitness (trial 18): the log signs each checkpoint a
// second time as a cosignature/v1 line with its own key (docs/ledger.md,
// "Checkpoints"), and witness.NewWitness takes a plain Ed25519 vkey as
// that cosignature key. So a policy naming the log's own verifier key
// (the vkey.txt every user holds; `--witness "$(cat vkey.txt)"`) is met
// by the log alone: `audit --url` prints "cosigned by example.com/...",
// the log's name, and check-proof "witnessed by" it. A witness is there
// to be independent of the log (C2SP tlog-witness): a policy witness whose
// key is the log's should be refused, not counted.
func TestLogIsNotItsOwnWitness(t *testing.T) {
	log := tlogtest.NewLog(t, "example.com/self")
	log.Fill(t, 3, "s")
	srv := httptest.NewServer(&tiles.Handler{Store: log.Store})
	defer srv.Close()
	pol, err := witness.ParsePolicy([]byte("witness " + log.VerifierKey + "\nquorum 1\n"))
	if err != nil {
		return // refused up front: fine
	}
	c := &tlogclient.Client{URL: srv.URL, VerifierKey: log.VerifierKey, Policy: pol}
	rep, err := c.Audit(context.Background(), nil)
	if err == nil {
		t.Errorf("a policy whose only witness is the log's own key is met: cosigned by %v", rep.Cosignatures)
	}
}
