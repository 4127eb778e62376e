package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/sealedhq/sealed/ledger"
	"github.com/spf13/cobra"
)

func init() { ledgerSubcommands = append(ledgerSubcommands, newLedgerCheckProofCmd) }

// ledgerCheckProofOptions are the inputs of `sealed ledger check-proof`.
type ledgerCheckProofOptions struct {
	Proof      string // --proof FILE|-
	VKey       string // --vkey KEY
	VKeyFile   string // --vkey-file FILE
	Checkpoint string // --checkpoint FILE: check against this signed checkpoint
	Leaf       string // --leaf FILE: a tlog-proof's leaf, when it has no extra line (or another)
	Policy     policyFlags
}

func newLedgerCheckProofCmd(a *app, g *ledgerGlobal) *cobra.Command {
	return ledgerCheckProofCmd(a, g, runLedgerCheckProof)
}

func ledgerCheckProofCmd(a *app, _ *ledgerGlobal, runF func(*app, *ledgerCheckProofOptions) error) *cobra.Command {
	o := &ledgerCheckProofOptions{}
	c := &cobra.Command{
		Use:   "check-proof --proof FILE|- (--vkey KEY | --vkey-file FILE) [--checkpoint FILE] [--leaf FILE]",
		Short: "Check an inclusion or consistency proof offline, with only the verifier key",
		Long: `Check a proof made by 'sealed ledger prove' or 'sealed ledger consistency'
without the database: the checkpoint's Ed25519 signature must verify with
the verifier key, and the proof must lead to its root hash. With
--checkpoint, an inclusion proof is checked against that signed
checkpoint instead of the one it carries (it must have the same size).
A C2SP tlog-proof receipt ('prove --format tlog-proof', 'action post
--receipt') is read too: its leaf comes from the extra line, or from
--leaf FILE (the leaf's bytes exactly), which a receipt without an extra
line needs: C2SP tlog-proof makes that line optional. With
--witness KEY (repeatable) and --quorum N, or --witnesses FILE, the
checkpoint must also carry valid cosignature/v1 cosignatures of at least
N of those witnesses; the earliest is printed ("witnessed by W at T").
Exit 0 if the proof holds, 1 if it does not, 2 on bad input.`,
		Args: cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			if o.Proof == "" {
				return usageErrorf("check-proof needs --proof FILE (or - for stdin)")
			}
			if (o.VKey == "") == (o.VKeyFile == "") {
				return usageErrorf("check-proof needs the verifier key: --vkey KEY or --vkey-file FILE (one of them)").
					withHint("'sealed ledger init' printed it; the ledger's operator publishes it")
			}
			return runF(a, o)
		},
	}
	c.Flags().StringVar(&o.Proof, "proof", "", "the proof `FILE` (- for stdin)")
	c.Flags().StringVar(&o.VKey, "vkey", "", "the ledger's verifier `KEY` (name+hash+key)")
	c.Flags().StringVar(&o.VKeyFile, "vkey-file", "", "read the verifier key from `FILE` (- for stdin)")
	c.Flags().StringVar(&o.Checkpoint, "checkpoint", "", "check against the signed checkpoint in `FILE` (- for stdin)")
	c.Flags().StringVar(&o.Leaf, "leaf", "", "a tlog-proof's leaf: the entry's bytes exactly, in `FILE` (- for stdin)")
	o.Policy.add(c)
	return c
}

// checkProofJSON is the --json output of check-proof.
type checkProofJSON struct {
	OK     bool   `json:"ok"`
	Kind   string `json:"kind"` // inclusion or consistency
	Error  string `json:"error,omitempty"`
	Origin string `json:"origin,omitempty"`
	Index  *int64 `json:"index,omitempty"`
	Size   int64  `json:"size,omitempty"`
	Size1  int64  `json:"size1,omitempty"`
	Root   string `json:"root,omitempty"`
	// WitnessedBy and WitnessedAt: the earliest valid cosignature of the
	// policy's witnesses (RFC 3339, whole seconds, UTC).
	WitnessedBy string `json:"witnessed_by,omitempty"`
	WitnessedAt string `json:"witnessed_at,omitempty"`
}

func runLedgerCheckProof(a *app, o *ledgerCheckProofOptions) error {
	if err := oneStdin([2]string{"--proof", o.Proof}, [2]string{"--checkpoint", o.Checkpoint}, [2]string{"--vkey-file", o.VKeyFile}, [2]string{"--leaf", o.Leaf}); err != nil {
		return err
	}
	vkey := o.VKey
	if o.VKeyFile != "" {
		b, err := readInputFile(a, o.VKeyFile, 64<<10)
		if err != nil {
			return usageErrorf("reading the verifier key: %s: %v", o.VKeyFile, unwrapPathError(err)).
				withHint("'sealed ledger init' printed it; the ledger's operator publishes it")
		}
		vkey = strings.TrimSpace(string(b))
	}
	if err := ledger.CheckVerifierKey(vkey); err != nil {
		return usageErrorf("%v", err)
	}
	data, err := readInput(a, o.Proof, 16<<20)
	if ee := (*exitError)(nil); errors.As(err, &ee) && ee.hint == "" {
		return ee.withHint("make one with 'sealed ledger prove' or 'sealed ledger consistency'")
	}
	if err != nil {
		return err
	}
	var cpText []byte
	if o.Checkpoint != "" {
		if cpText, err = readInput(a, o.Checkpoint, 1<<20); err != nil {
			return err
		}
	}
	var leaf []byte
	if o.Leaf != "" {
		if leaf, err = readInput(a, o.Leaf, ledger.MaxLeafSize); err != nil {
			return err
		}
	}
	pol, err := o.Policy.policy(a, vkey)
	if err != nil {
		return err
	}
	if cpText != nil {
		if err := ledger.CheckNoteForm(string(cpText)); err != nil {
			return usageErrorf("--checkpoint %s: %v", o.Checkpoint, err).
				withHint("give the checkpoint as 'sealed ledger checkpoint' or GET /checkpoint prints it")
		}
	}
	var fields map[string]json.RawMessage
	receipt := bytes.HasPrefix(data, []byte(ledger.ReceiptHeader+"\n")) || bytes.HasPrefix(data, []byte(ledger.ReceiptHeader+"\r\n"))
	if !receipt {
		if len(bytes.TrimSpace(data)) == 0 {
			return usageErrorf("%s is empty; expected a JSON proof or a tlog-proof", o.Proof).
				withHint("make one with 'sealed ledger prove' or 'sealed ledger consistency'")
		}
		if err := json.Unmarshal(data, &fields); err != nil {
			if bytes.TrimSpace(data)[0] == '{' {
				return usageErrorf("%s is not a well-formed proof: %s", o.Proof, jsonObjectProblem(data)).
					withHint("make one with 'sealed ledger prove' or 'sealed ledger consistency'")
			}
			return usageErrorf("%s is not a JSON proof or a tlog-proof: expected a JSON object or the line %q first", o.Proof, ledger.ReceiptHeader).
				withHint("make one with 'sealed ledger prove' or 'sealed ledger consistency'")
		}
	}
	res := checkProofJSON{Kind: "inclusion"}
	var check error
	var checkpoints []string // the signed checkpoints the proof is checked against
	if receipt {
		res.Kind = "tlog-proof"
		r, err := ledger.ParseReceipt(data)
		if err != nil && bytes.HasPrefix(data, []byte(ledger.ReceiptHeader+"\r\n")) {
			return usageErrorf("%s is not a well-formed proof: %v", o.Proof, err).
				withHint("strip the carriage returns: tr -d '\\r' < %s > proof.tlog-proof", o.Proof)
		}
		if err != nil {
			return badProof(o.Proof, err)
		}
		if r.Extra == nil && leaf == nil {
			// C2SP tlog-proof makes the extra line optional; without it
			// the leaf must come from elsewhere: nothing can be checked,
			// so this is bad input.
			return usageErrorf("%s has no extra line, so it does not carry the entry's leaf", o.Proof).
				withHint("give the leaf's bytes with --leaf FILE; a receipt from 'sealed ledger prove --format tlog-proof' or 'action post --receipt' carries it")
		}
		if cpText != nil {
			r.Checkpoint = string(cpText)
		}
		cp, err := ledger.CheckReceipt(vkey, r, leaf)
		checkpoints = []string{r.Checkpoint}
		res.Index = &r.Index
		if cp != nil {
			res.Origin, res.Root, res.Size = cp.Origin, cp.Root.String(), cp.Size
		}
		check = err
	} else if _, ok := fields["size1"]; ok {
		res.Kind = "consistency"
		if cpText != nil {
			return usageErrorf("--checkpoint goes with inclusion proofs")
		}
		if leaf != nil {
			return usageErrorf("--leaf goes with a tlog-proof; a consistency proof has no leaf")
		}
		p, err := ledger.ParseConsistencyProof(data)
		if err != nil {
			return badProof(o.Proof, err)
		}
		check = ledger.CheckConsistency(vkey, nil, nil, p)
		checkpoints = []string{p.Checkpoint1, p.Checkpoint2}
		res.Size1, res.Size = p.Size1, p.Size2
	} else {
		if leaf != nil {
			return usageErrorf("--leaf goes with a tlog-proof; a JSON inclusion proof carries its leaf")
		}
		p, err := ledger.ParseInclusionProof(data)
		if err != nil {
			return badProof(o.Proof, err)
		}
		cp, err := ledger.CheckInclusion(vkey, cpText, p)
		checkpoints = []string{p.Checkpoint}
		if cpText != nil {
			checkpoints = []string{string(cpText)}
		}
		res.Index, res.Size = &p.Index, p.Size
		if cp != nil {
			res.Origin, res.Root = cp.Origin, cp.Root.String()
		}
		check = err
	}
	if check == nil && pol != nil {
		cs, err := pol.Check([]byte(checkpoints[len(checkpoints)-1]))
		if len(cs) > 0 {
			res.WitnessedBy, res.WitnessedAt = cs[0].Witness, cs[0].Time.Format(time.RFC3339)
		}
		check = err
	}
	res.OK = check == nil
	if check != nil {
		res.Error = plainDecoderError(check.Error())
		if m := originMismatch(vkey, checkpoints); m != "" {
			res.Error = m + " (" + res.Error + ")"
		}
	}
	if a.json {
		if err := a.printJSON(res); err != nil {
			return err
		}
		if !res.OK {
			return errSilentFailure
		}
		return nil
	}
	if check != nil {
		return failedf("%s proof does not hold: %s", res.Kind, res.Error)
	}
	if res.Kind == "consistency" {
		_, err = fmt.Fprintf(a.out, "ok: the tree of size %d extends the tree of size %d\n", res.Size, res.Size1)
	} else {
		_, err = fmt.Fprintf(a.out, "ok: entry %d is in the tree of size %d signed by %s (root %s)\n", *res.Index, res.Size, res.Origin, res.Root)
	}
	if err == nil && res.WitnessedBy != "" {
		_, err = fmt.Fprintf(a.out, "witnessed by %s by %s\n", terminalSafe(res.WitnessedBy), res.WitnessedAt)
	}
	return err
}

// badProof reports a proof file that does not parse as a proof (a missing
// or unknown field, a number out of range): bad input, exit 2, not a proof
// that fails to verify.
func badProof(file string, err error) error {
	return usageErrorf("%s is not a well-formed proof: %v", file, err).
		withHint("make one with 'sealed ledger prove' or 'sealed ledger consistency'")
}

// originMismatch says, when a checkpoint's origin (its first line, C2SP
// tlog-checkpoint) is not the verifier key's name (the part before the
// first "+", as golang.org/x/mod/sumdb/note writes keys), that the key is
// another log's: note verification then only says "note has no verifiable
// signatures". It returns "" when the names agree.
func originMismatch(vkey string, checkpoints []string) string {
	name, _, _ := strings.Cut(vkey, "+")
	for _, cp := range checkpoints {
		origin, _, _ := strings.Cut(cp, "\n")
		if origin != name {
			return fmt.Sprintf("the checkpoint's origin is %q but the verifier key is named %q: it is the key of another log", origin, name)
		}
	}
	return ""
}

// jsonObjectProblem says what is wrong with data, which begins with '{'
// but does not parse as one JSON object: the object itself, or what
// follows it.
func jsonObjectProblem(data []byte) string {
	dec := json.NewDecoder(bytes.NewReader(data))
	var v map[string]json.RawMessage
	if err := dec.Decode(&v); err != nil {
		return "not valid JSON: " + plainDecoderError(err.Error())
	}
	return fmt.Sprintf("data after the JSON object (from byte %d); expected one JSON object", dec.InputOffset())
}
