package witness_test

import (
	"bytes"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"testing"

	tdnote "github.com/transparency-dev/formats/note"
	"golang.org/x/mod/sumdb/note"

	"github.com/sealedhq/sealed/ledger/witness"
)

// fuzzKey makes a deterministic Ed25519 note key named name from seed
// byte b: the signer key, and the witness's cosignature/v1 signer and
// verifier key.
func fuzzKey(t testing.TB, name string, b byte) (skey string, cosigner note.Signer, vkey string) {
	skey, plain, err := note.GenerateKey(bytes.NewReader(bytes.Repeat([]byte{b}, 32)), name)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := tdnote.NewSignerForCosignatureV1(skey)
	if err != nil {
		t.Fatal(err)
	}
	vkey, err = tdnote.VKeyToCosignatureV1(plain)
	if err != nil {
		t.Fatal(err)
	}
	return skey, cs, vkey
}

// formatPolicy writes p back in the policy file's syntax.
func formatPolicy(p *witness.Policy) string {
	var b strings.Builder
	for _, w := range p.Witnesses {
		b.WriteString("witness " + w.VerifierKey)
		if w.URL != "" {
			b.WriteString(" " + w.URL)
		}
		b.WriteString("\n")
	}
	b.WriteString("quorum " + strconv.Itoa(p.Quorum) + "\n")
	return b.String()
}

// checkPolicy: ParsePolicy never panics; what it accepts has a quorum
// from 0 to the number of witnesses, witnesses of distinct names, each
// the name of its key, URLs of http or https; written back in the file's
// syntax it parses to the same policy.
func checkPolicy(t *testing.T, data []byte) {
	p, err := witness.ParsePolicy(data)
	if err != nil {
		return
	}
	if p.Quorum < 0 || p.Quorum > len(p.Witnesses) {
		t.Fatalf("%q: quorum %d of %d witnesses", data, p.Quorum, len(p.Witnesses))
	}
	names := map[string]bool{}
	for _, w := range p.Witnesses {
		v, err := note.NewVerifier(w.VerifierKey)
		if err != nil {
			// A cosignature/v1 key (type 0x04) is not x/mod's; its
			// name is still the part before the first +.
			if n, _, _ := strings.Cut(w.VerifierKey, "+"); n != w.Name {
				t.Fatalf("%q: witness %q with key %q", data, w.Name, w.VerifierKey)
			}
		} else if v.Name() != w.Name {
			t.Fatalf("%q: witness %q with key of %q", data, w.Name, v.Name())
		}
		if names[w.Name] {
			t.Fatalf("%q: witness %q twice", data, w.Name)
		}
		names[w.Name] = true
		if w.URL != "" {
			// What AddCheckpoint posts to: net/http must read it as
			// an http(s) URL with a host and the path it was given.
			req, err := http.NewRequest(http.MethodPost, w.URL+"/add-checkpoint", nil)
			if err != nil || req.URL.Host == "" || (req.URL.Scheme != "http" && req.URL.Scheme != "https") ||
				!strings.HasSuffix(req.URL.Path, "/add-checkpoint") || req.URL.RawQuery != "" || req.URL.Fragment != "" {
				t.Fatalf("%q: witness URL %q; add-checkpoint request URL %v (%v)", data, w.URL, req.URL, err)
			}
		}
	}
	text := formatPolicy(p)
	q, err := witness.ParsePolicy([]byte(text))
	if err != nil {
		t.Fatalf("%q accepted, written back as %q, refused: %v", data, text, err)
	}
	if again := formatPolicy(q); again != text {
		t.Fatalf("%q accepted, written back as %q, read again as %q", data, text, again)
	}
}

// FuzzParsePolicy: checkPolicy on mutated policy files, the input of
// --witness-policy (go test -run '^$' -fuzz '^FuzzParsePolicy$' ./ledger/witness).
func FuzzParsePolicy(f *testing.F) {
	_, _, v1 := fuzzKey(f, "w1.example", 1)
	_, _, v2 := fuzzKey(f, "w2.example/x", 2)
	for _, s := range []string{
		"witness " + v1 + " https://w1.example/\nwitness " + v2 + "\nquorum 1\n",
		"# c\n\n  witness\t" + v1 + "  http://w1.example  \n",
		"witness " + v1 + "\nwitness " + v1 + "\n",
		"quorum 0\n", "quorum 1\n", "quorum -1\n", "quorum 1\nquorum 1\n", "witness x+00000000+AQ==\n",
		"witness " + v1 + " ftp://w1\n", "witness " + v1 + " https://\r\n", "witness " + v1 + " https:///\n",
		"witness " + v1 + " https://w.example?a=b\n", "witness " + v1 + " https://w.example/#x\n", "witness " + v1 + " https://w.example:99999\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(checkPolicy)
}

// FuzzPolicyCheck: Policy.Check on mutated cosigned checkpoints (what a
// witness answers, what a log serves) never panics, and each cosignature
// it returns verifies alone on the checkpoint's text with its witness's
// key through golang.org/x/mod/sumdb/note
// (go test -run '^$' -fuzz '^FuzzPolicyCheck$' ./ledger/witness).
func FuzzPolicyCheck(f *testing.F) {
	logKey, _, _ := fuzzKey(f, "log.example", 0)
	logSigner, err := note.NewSigner(logKey)
	if err != nil {
		f.Fatal(err)
	}
	_, c1, v1 := fuzzKey(f, "w1.example", 1)
	_, c2, v2 := fuzzKey(f, "w2.example", 2)
	p, err := witness.ParsePolicy([]byte("witness " + v1 + "\nwitness " + v2 + "\nquorum 1\n"))
	if err != nil {
		f.Fatal(err)
	}
	text := "log.example\n5\nrPK6fLuC5a2Zw6jBESib/EIOmhJM0KG+gthXANtzye4=\n"
	for _, signers := range [][]note.Signer{{logSigner}, {logSigner, c1}, {c2, logSigner, c1}, {c1}} {
		signed, err := note.Sign(&note.Note{Text: text}, signers...)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(signed)
	}
	verifiers := map[string]note.Verifier{}
	for _, w := range p.Witnesses {
		verifiers[w.Name] = w.Verifier()
	}
	f.Fuzz(func(t *testing.T, signed []byte) {
		cs, err := p.Check(signed)
		var qe *witness.QuorumError
		if err != nil && !errors.As(err, &qe) {
			return
		}
		body, _, _ := bytes.Cut(signed, []byte("\n\n"))
		for _, c := range cs {
			v := verifiers[c.Witness]
			if v == nil {
				t.Fatalf("%q: cosignature by %q, not a policy witness", signed, c.Witness)
			}
			alone := string(body) + "\n\n" + c.Line
			n, err := note.Open([]byte(alone), note.VerifierList(v))
			if err != nil || len(n.Sigs) != 1 {
				t.Fatalf("%q: cosignature %q does not verify alone: %v", signed, c.Line, err)
			}
			ts, err := tdnote.CoSigV1Timestamp(n.Sigs[0])
			if err != nil || !ts.Equal(c.Time) {
				t.Fatalf("%q: cosignature %q at %v, its timestamp %v (%v)", signed, c.Line, c.Time, ts, err)
			}
		}
		if err == nil && len(cs) < p.Quorum {
			t.Fatalf("%q: %d cosignatures, quorum %d, no error", signed, len(cs), p.Quorum)
		}
	})
}
