package witness_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/sealedhq/sealed/internal/tlogtest"
	"github.com/sealedhq/sealed/ledger"
	"github.com/sealedhq/sealed/ledger/tiles"
	"github.com/sealedhq/sealed/ledger/witness"
)

// TestCosignerWitnessWithLogKey (trial 20): trial 18 refuses a policy
// witness with the log's own key where checkpoints are read
// (Policy.CheckNotLog: audit --url, watch, check-proof), but not where
// they are cosigned: 'sealed ledger cosign --witnesses FILE' and
// 'sealed serve --witnesses FILE' give the policy to a Cosigner as
// parsed. A "witness" naming the log's verifier key whose add-checkpoint
// answer is the log's own cosignature/v1 line (which the published
// checkpoint carries) is counted ("cosigned by example.com/self at size
// 3", exit 0) and stored as a cosignature row. That row is one no reader
// opens (OpenCheckpoint: two signature lines of the log's key), so from
// then on 'ledger tiles', /checkpoint and 'ledger audit' fail saying the
// database was altered, on an append-only ledger that cannot drop it.
// Want: the cosigner refuses such a witness (or such an answer) and
// stores nothing.
func TestCosignerWitnessWithLogKey(t *testing.T) {
	ctx := context.Background()
	log := tlogtest.NewLog(t, "example.com/self")
	log.Fill(t, 3, "s")
	signed, _, err := tiles.Checkpoint(ctx, log.Store)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(strings.TrimSuffix(string(signed), "\n"), "\n")
	own := lines[len(lines)-1] // the log's cosignature/v1 line
	if !strings.HasSuffix(own, "\n") {
		own += "\n"
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(own))
	}))
	defer srv.Close()
	pol, err := witness.ParsePolicy([]byte("witness " + log.VerifierKey + " " + srv.URL + "\nquorum 1\n"))
	if err != nil {
		return // refused up front: fine
	}
	res, err := (&witness.Cosigner{Store: log.Store, Policy: pol}).Cosign(ctx)
	if err != nil {
		return
	}
	cp, err := log.Store.LatestCheckpoint(ctx)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := log.Store.Cosignatures(ctx, cp.ID, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) > 0 {
		_, _, terr := tiles.Checkpoint(ctx, log.Store)
		t.Errorf("a witness with the log's own key: results %+v; %d cosignature row(s) stored (witness %q); the checkpoint then reads as %v; want the witness refused and nothing stored",
			res, len(rows), rows[0].Witness, terr)
		if ledger.CheckCosignature(log.VerifierKey, cp, &rows[0]) == nil {
			t.Log("(CheckCosignature passes the row)")
		}
	}
}
