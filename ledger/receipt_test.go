package ledger_test

import (
	"context"
	"strings"
	"testing"

	"github.com/sealedhq/sealed/ledger"
)

// specProof is the example of C2SP tlog-proof (c2sp.org/tlog-proof), as
// the spec prints it.
const specProof = `c2sp.org/tlog-proof@v1
extra YWdlLXYxLjIuMS1kYXJ3aW4tYXJtNjQudGFyLmd6kYXJ3aW4tYXJ
index 73894
gSKyXoYZUgZ6jduWYrkDOARinOMGJveXjgMkBTcdPlQ=
B95lDa8R83lS8n0eG+o0buTxRKQTYFi//1U8anccXmA=
EKNzoDWG8LGC0Yp9o+sv3qllpMP9uHQ9B20KNL+Q1zs=
RoopEkOdqkYqMB4MJXrbt/hMjOxsVn0IrWjpz1ZMMes=
AHCioX9nLjsrse6YhjRRmk1WUEirVOLLRoOQ6vfO5vk=

example.com/fancylog
109482
sFodV/vSp5O8n9a8QpW6PRY97tfOSW5bsc2Xl/EQi08=

— example.com/fancylog hI2DJw[...]1roloI=
— witness1.example mJirIklj[...]qY9v2B/5bg==
`

// TestReceiptSpecExample: the spec's example parses to its index, five
// proof lines and checkpoint, and formats back to the same bytes.
func TestReceiptSpecExample(t *testing.T) {
	r, err := ledger.ParseReceipt([]byte(specProof))
	if err != nil {
		t.Fatal(err)
	}
	if r.Index != 73894 || len(r.Proof) != 5 || !strings.HasPrefix(r.Checkpoint, "example.com/fancylog\n109482\n") ||
		string(r.Extra) != "age-v1.2.1-darwin-arm64.tar.gz\x91\x85\xc9\xdd\xa5\xb8\xb5\x85\xc9" {
		t.Errorf("parsed %+v", r)
	}
	if got := string(r.Format()); got != specProof {
		t.Errorf("Format:\n%s\nwant\n%s", got, specProof)
	}
	for _, bad := range []string{
		strings.Replace(specProof, "@v1", "@v2", 1),
		strings.Replace(specProof, "index 73894", "index 073894", 1),
		strings.Replace(specProof, "index 73894", "index -1", 1),
		strings.Replace(specProof, "gSKy", "gSK!", 1),
		strings.Replace(specProof, "\n\nexample.com", "\nexample.com", 1),
		strings.Replace(specProof, "extra YWdl", "extra YWd", 1),
	} {
		if _, err := ledger.ParseReceipt([]byte(bad)); err == nil {
			t.Errorf("accepted:\n%s", bad)
		}
	}
}

// TestReceiptRoundTrip: a receipt of our log checks with the key, and
// every byte flipped makes it fail (or not parse).
func TestReceiptRoundTrip(t *testing.T) {
	l, _, vkey := newTestLedger(t, ledger.Options{})
	for i := range 6 {
		if _, err := l.Append(context.Background(), []byte(commitBody("p"+string(rune('a'+i)), hashA))); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := l.WaitCheckpoint(context.Background(), 6); err != nil {
		t.Fatal(err)
	}
	p, err := l.ProveInclusion(4, 6)
	if err != nil {
		t.Fatal(err)
	}
	data := p.Receipt().Format()
	r, err := ledger.ParseReceipt(data)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ledger.CheckReceipt(vkey, r, nil); err != nil {
		t.Fatalf("receipt: %v", err)
	}
	skip := timedName(t, data, testOrigin)
	for i := range data {
		if skip(i) {
			continue
		}
		b := append([]byte(nil), data...)
		b[i] ^= 1
		r, err := ledger.ParseReceipt(b)
		if err == nil {
			_, err = ledger.CheckReceipt(vkey, r, nil)
		}
		if err == nil {
			t.Errorf("byte %d flipped: accepted", i)
		}
	}
}
