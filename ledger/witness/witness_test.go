package witness_test

import (
	"context"
	"errors"
	"net/http"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/sealedhq/sealed/internal/tlogtest"
	"github.com/sealedhq/sealed/ledger/tiles"
	"github.com/sealedhq/sealed/ledger/witness"
)

// TestLitewitness: torchwood's litewitness, started on 127.0.0.1 with our
// log's key, cosigns a growing log (sizes 3, 8, 1,000); its own state
// (witnessctl list-logs) follows; a second ledger with the same key and
// origin but other entries, at a size the witness cosigned, is refused and
// our log names the witness and its answer.
func TestLitewitness(t *testing.T) {
	w := tlogtest.StartWitness(t, "example.com/witness1")
	log := tlogtest.NewLog(t, "example.com/game")
	w.AddLog(t, "example.com/game", log.VerifierKey)
	pol, err := witness.ParsePolicy([]byte("witness " + w.VerifierKey + " " + w.URL + "\nquorum 1\n"))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	c := &witness.Cosigner{Store: log.Store, Policy: pol}
	for _, n := range []int64{3, 8, 1000} {
		log.Fill(t, n, "a")
		res, err := c.Cosign(ctx)
		if err != nil || len(res) != 1 || res[0].Err != nil || res[0].Size != n {
			t.Fatalf("size %d: %+v, %v\nlitewitness: %s", n, res, err, w.Log())
		}
		signed, _, err := tiles.Checkpoint(ctx, log.Store)
		if err != nil {
			t.Fatal(err)
		}
		cs, err := pol.Check(signed)
		if err != nil || len(cs) != 1 || cs[0].Witness != "example.com/witness1" {
			t.Fatalf("size %d: served checkpoint's cosignatures %+v, %v", n, cs, err)
		}
		// The witness's own record of the log.
		out, err := exec.Command(tlogtest.Tool(t, "witnessctl"), "list-logs", "-db", w.DB).Output()
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(out), `"size":`+itoa(n)) {
			t.Errorf("witnessctl list-logs after size %d: %s", n, out)
		}
	}
	// A new Cosigner (a restarted server) knows no sizes: the 409 tells it.
	log.Fill(t, 1001, "a")
	res, err := (&witness.Cosigner{Store: log.Store, Policy: pol}).Cosign(ctx)
	if err != nil || len(res) != 1 || res[0].Err != nil {
		t.Fatalf("after a restart: %+v, %v", res, err)
	}

	// The forked ledger: same key and origin, other entries, size 1000 <=
	// the witness's 1001: it cannot even prove consistency; at 1001 and
	// beyond the witness answers 422.
	for _, n := range []int64{8, 1001, 1005} {
		fork := tlogtest.SameKey(t, log)
		fork.Fill(t, n, "b")
		res, err := (&witness.Cosigner{Store: fork.Store, Policy: pol}).Cosign(ctx)
		if err != nil || len(res) != 1 || res[0].Err == nil {
			t.Fatalf("fork of size %d: %+v, %v: cosigned", n, res, err)
		}
		msg := res[0].Err.Error()
		t.Logf("fork of size %d: %s", n, msg)
		if !strings.Contains(msg, "example.com/witness1") {
			t.Errorf("fork of size %d: %q does not name the witness", n, msg)
		}
		var refused *witness.RefusedError
		if n >= 1001 && (!errors.As(res[0].Err, &refused) || refused.Status != http.StatusUnprocessableEntity) {
			t.Errorf("fork of size %d: %v, want the witness's 422", n, res[0].Err)
		}
		if n < 1001 && !strings.Contains(msg, "1001") {
			t.Errorf("fork of size %d: %q does not give the witness's size", n, msg)
		}
		if cs, _ := fork.Store.Cosignatures(ctx, 0, 0, 0); len(cs) != 0 {
			t.Errorf("fork of size %d: cosignatures stored: %+v", n, cs)
		}
	}
	// A log the witness does not know: refused and named. The spec says
	// 404; litewitness v0.6.1 answers 403 "unknown log". Either is
	// reported as a RefusedError with the status, never a crash.
	other := tlogtest.NewLog(t, "example.com/other")
	other.Fill(t, 2, "c")
	res, _ = (&witness.Cosigner{Store: other.Store, Policy: pol}).Cosign(ctx)
	var refused *witness.RefusedError
	if len(res) != 1 || !errors.As(res[0].Err, &refused) || (refused.Status != http.StatusNotFound && refused.Status != http.StatusForbidden) {
		t.Errorf("unknown origin: %+v, want a 404 or 403", res)
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
