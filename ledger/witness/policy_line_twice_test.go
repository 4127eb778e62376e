package witness_test

import (
	"context"
	"encoding/base64"
	"strings"
	"testing"

	"github.com/sealedhq/sealed/internal/tlogtest"
	"github.com/sealedhq/sealed/ledger"
	"github.com/sealedhq/sealed/ledger/tiles"
	"github.com/sealedhq/sealed/ledger/witness"
)

// TestPolicyCheckWitnessLineTwice (trial 20): trial 18's fix to
// OpenCheckpoint (logLinesOnce) refuses a second signature line of the
// log's key, since note.Open verifies the first line of a name and key
// hash and skips any other unread. A witness's lines go through the same
// note.Open in Policy.Check, which has no such check: a checkpoint with a
// policy witness's valid cosignature followed by a second line of that
// witness's key hash whose signature (and timestamp, 0 here) is garbage
// opens (OpenCheckpoint) and meets the quorum (Policy.Check), so the
// checkpoint still has many valid texts, and the timestamp-0 check of
// trial 18 is skipped for that line. Want: refused, as the log's is.
func TestPolicyCheckWitnessLineTwice(t *testing.T) {
	log := tlogtest.NewLog(t, "example.com/twice")
	log.Fill(t, 2, "s")
	signed, _, err := tiles.Checkpoint(context.Background(), log.Store)
	if err != nil {
		t.Fatal(err)
	}
	body := signed[:strings.Index(string(signed), "\n\n")+1]
	c := newSpecCosigner(t, "w.example/twice")
	pol, err := witness.ParsePolicy([]byte("witness " + c.vkey + "\nquorum 1\n"))
	if err != nil {
		t.Fatal(err)
	}
	good := c.line(body, 1_800_000_000)
	garbage := "— " + c.name + " " + base64.StdEncoding.EncodeToString(append(c.kid[:], make([]byte, 8+64)...)) + "\n"
	one := append(append([]byte(nil), signed...), good...)
	if cs, err := pol.Check(one); err != nil || len(cs) != 1 {
		t.Fatalf("one cosignature: %+v, %v", cs, err)
	}
	for what, extra := range map[string]string{
		"the witness's line twice":          good,
		"a garbage line of the witness key": garbage,
	} {
		note := append(append([]byte(nil), one...), extra...)
		if _, err := ledger.OpenCheckpoint(log.VerifierKey, note); err != nil {
			continue // refused by the log's check: fine
		}
		if cs, err := pol.Check(note); err == nil {
			t.Errorf("%s: the checkpoint opens and meets the quorum (%d cosignature(s)); want it refused, as a second line of the log's key is", what, len(cs))
		}
	}
}
