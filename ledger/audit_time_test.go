package ledger_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/sealedhq/sealed/ledger"
)

// TestAuditTopLevelTime: a seed-commit whose config holds a member named
// integrated_at must not let a forged integrated_at column pass the audit
// (issue 11, 5a). The forged value is the nested one, worked by hand:
// 2020-01-01T00:00:00Z is 1577836800 s after the epoch.
func TestAuditTopLevelTime(t *testing.T) {
	l, dbPath, _ := newTestLedger(t, ledger.Options{})
	ctx := context.Background()
	const nested = "2020-01-01T00:00:00.000000000Z"
	body := `{"kind":"seed-commit","game":"auction","match_id":"m1","rules_version":"1",` +
		`"config":{"integrated_at":"` + nested + `"},"commitment":"` + hashA + `"}`
	if _, err := l.Append(ctx, []byte(body)); err != nil {
		t.Fatal(err)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if ns := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC).UnixNano(); ns != 1577836800000000000 {
		t.Fatalf("hand-worked time %d", ns)
	}
	c := copyFile(t, dbPath)
	if err := attack(t, c, dropTriggers, `UPDATE entries SET integrated_at = 1577836800000000000 WHERE idx = 0`); err != nil {
		t.Fatal(err)
	}
	ro, err := openLedger(t, c, ledger.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	rep, err := ro.Audit(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if rep.OK || rep.Problem == nil || rep.Problem.Index != 0 {
		t.Fatalf("audit of a forged integrated_at column equal to config's member: %+v", rep)
	}
	t.Logf("audit: %s", rep.Problem)
}

// TestParseInclusionProofDuplicateKeys: a proof with a member given twice
// is refused (issue 11, 5b), at the top level and inside nothing else.
func TestParseInclusionProofDuplicateKeys(t *testing.T) {
	// The checkpoint has a signed note's form (origin, size, root, a blank
	// line, a signature line); no signature is checked here.
	const ok = `{"index":0,"size":1,"leaf":"x","leaf_hash":"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=","proof":[],"checkpoint":"o\n1\nAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=\n\n— o AAAA\n"}`
	if _, err := ledger.ParseInclusionProof([]byte(ok)); err != nil {
		t.Fatalf("well-formed proof: %v", err)
	}
	for _, dup := range []string{
		strings.Replace(ok, `"index":0,`, `"index":0,"index":5,`, 1),
		strings.Replace(ok, `"checkpoint":`, `"checkpoint":"d","checkpoint":`, 1),
	} {
		if _, err := ledger.ParseInclusionProof([]byte(dup)); err == nil || !strings.Contains(err.Error(), "duplicate") {
			t.Errorf("%s: %v, want a duplicate-name error", dup, err)
		}
	}
	if _, err := ledger.ParseConsistencyProof([]byte(`{"size1":1,"size1":2,"size2":3,"proof":[],"checkpoint1":"a","checkpoint2":"b"}`)); err == nil {
		t.Error("consistency proof with a duplicate size1 accepted")
	}
}

// TestCheckNoteForm: text without a signed note's parts is malformed
// (trial 3, finding 4); a note's form is accepted whatever its signature.
func TestCheckNoteForm(t *testing.T) {
	const root = "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=" // 32 zero bytes
	if err := ledger.CheckNoteForm("o\n1\n" + root + "\n\n— o AAAA\n"); err != nil {
		t.Errorf("note form refused: %v", err)
	}
	for _, bad := range []string{
		"garbage",
		"o\n1\n" + root + "\n",                       // no blank line, no signature
		"o\n1\n" + root + "\n\nno dash\n",            // a signature line without "— "
		"o\nx\n" + root + "\n\n— o AAAA\n",           // size not a number
		"o\r\n1\r\n" + root + "\r\n\r\n— o AAAA\r\n", // CRLF
		// What golang.org/x/mod/sumdb/note refuses as malformed, so
		// OpenCheckpoint said "malformed note" of a proof, exit 1
		// (trial 10d, FuzzCheckNoteForm):
		"a\tb\n0\n" + root + "\n\n— a AAAAAAA=\n",                        // a control character
		"o\xff\n0\n" + root + "\n\n— o AAAAAAA=\n",                       // not UTF-8
		"o\n1\n" + root + "\n\n— \n",                                     // no key name
		"o\n1\n" + root + "\n\n— o\n",                                    // no signature
		"o\n1\n" + root + "\n\n— o+x AAAAAAA=\n",                         // a + in the name
		"o\n1\n" + root + "\n\n" + strings.Repeat("— o AAAAAAA=\n", 101), // over 100 signatures
	} {
		if err := ledger.CheckNoteForm(bad); err == nil || !strings.Contains(err.Error(), "not a signed note") {
			t.Errorf("%q: %v, want not a signed note", bad, err)
		}
	}
}
