package ledger_test

import (
	"bytes"
	"encoding/base64"
	"errors"
	"os"
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/mod/sumdb/note"

	"github.com/sealedhq/sealed/ledger"
)

// signedNoteText reports whether text is what C2SP signed-note allows a
// note to be: UTF-8 with no ASCII control characters but newline.
func signedNoteText(text string) bool {
	if !utf8.ValidString(text) {
		return false
	}
	for _, r := range text {
		if r < 0x20 && r != '\n' {
			return false
		}
	}
	return true
}

// unelided returns text with each signature line's signature that is
// not base64 of a key hash and signature (at least 5 bytes), as the C2SP
// examples print them ("hI2DJw[...]1roloI="), replaced by one that is:
// CheckNoteForm checks the form of a note, not its signatures.
func unelided(text string) string {
	body, sigs, _ := strings.Cut(text, "\n\n")
	lines := strings.Split(strings.TrimSuffix(sigs, "\n"), "\n")
	for i, l := range lines {
		name, b64, _ := strings.Cut(strings.TrimPrefix(l, "— "), " ")
		if raw, err := base64.StdEncoding.DecodeString(b64); b64 != "" && (err != nil || len(raw) < 5) {
			lines[i] = "— " + name + " AAAAAAA="
		}
	}
	return body + "\n\n" + strings.Join(lines, "\n") + "\n"
}

// checkNoteForm: what CheckNoteForm accepts is a note as
// golang.org/x/mod/sumdb/note reads one (note.Open with no verifiers
// finds it well formed, its signatures unverified), once elided
// signatures are filled in; its body is a checkpoint that FormatCheckpoint writes back
// the same when it has no extension lines.
func checkNoteForm(t *testing.T, text string) {
	if err := ledger.CheckNoteForm(text); err != nil {
		return
	}
	if !signedNoteText(text) {
		t.Fatalf("CheckNoteForm accepted %q, which has invalid UTF-8 or a control character", text)
	}
	_, err := note.Open([]byte(unelided(text)), note.VerifierList())
	var ue *note.UnverifiedNoteError
	if !errors.As(err, &ue) {
		t.Fatalf("CheckNoteForm accepted %q; note.Open: %v", text, err)
	}
	body, _, _ := strings.Cut(text, "\n\n")
	origin, size, root, err := ledger.ParseCheckpoint(body + "\n")
	if err != nil {
		t.Fatalf("CheckNoteForm accepted %q; ParseCheckpoint: %v", text, err)
	}
	if strings.Count(body, "\n") == 2 {
		if f := ledger.FormatCheckpoint(origin, size, root); f != body+"\n" {
			t.Fatalf("%q parsed as %q %d %x, formatted as %q", text, origin, size, root, f)
		}
	}
}

// checkReceipt: ParseReceipt never panics, and what it accepts, formatted
// again, is the same bytes (a tlog-proof has one spelling), and its
// checkpoint passes checkNoteForm.
func checkReceipt(t *testing.T, data []byte) {
	r, err := ledger.ParseReceipt(data)
	if err != nil {
		return
	}
	if f := r.Format(); !bytes.Equal(f, data) {
		t.Fatalf("ParseReceipt accepted %q, which formats as %q", data, f)
	}
	if len(r.Proof) > 63 || r.Index < 0 {
		t.Fatalf("ParseReceipt accepted %q: index %d, %d proof lines", data, r.Index, len(r.Proof))
	}
	checkNoteForm(t, r.Checkpoint)
}

func receiptSeeds(t testing.TB) []string {
	cp, err := os.ReadFile("testdata/checkpoint.txt")
	if err != nil {
		t.Fatal(err)
	}
	_, note, _ := strings.Cut(string(cp), "\n\n")
	return []string{
		specProof,
		ledger.ReceiptHeader + "\nindex 0\n\n" + note,
		ledger.ReceiptHeader + "\nextra \nindex 4\ngSKyXoYZUgZ6jduWYrkDOARinOMGJveXjgMkBTcdPlQ=\n\n" + note,
		ledger.ReceiptHeader + "\r\nindex 0\r\n\r\n" + note,
		ledger.ReceiptHeader + "\nindex 9223372036854775808\n\n" + note,
		ledger.ReceiptHeader + "\nindex 01\n\n" + note,
		ledger.ReceiptHeader + "\nindex 1\n\nexample.com/log\n2\nsFodV/vSp5O8n9a8QpW6PRY97tfOSW5bsc2Xl/EQi08=\next\n\n— example.com/log AAAAAAA=\n",
	}
}

// FuzzParseReceipt: checkReceipt on mutated tlog-proofs, the input of
// 'sealed ledger check-proof' (go test -run '^$' -fuzz '^FuzzParseReceipt$' ./ledger).
func FuzzParseReceipt(f *testing.F) {
	for _, s := range receiptSeeds(f) {
		f.Add([]byte(s))
	}
	f.Fuzz(checkReceipt)
}

// FuzzCheckNoteForm: checkNoteForm on mutated signed checkpoints, the
// input of check-proof's --checkpoint and of every checkpoint read from
// a log or a witness (go test -run '^$' -fuzz '^FuzzCheckNoteForm$' ./ledger).
func FuzzCheckNoteForm(f *testing.F) {
	for _, s := range receiptSeeds(f) {
		_, cp, _ := strings.Cut(s, "\n\n")
		f.Add(cp)
	}
	f.Add("a\tb\n0\nsFodV/vSp5O8n9a8QpW6PRY97tfOSW5bsc2Xl/EQi08=\n\n— a AAAAAAA=\n")
	f.Fuzz(checkNoteForm)
}
