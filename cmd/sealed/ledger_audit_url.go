package main

import (
	"context"
	"fmt"

	"github.com/sealedhq/sealed/ledger/tlogclient"
)

// ledgerAuditURLJSON is the --json output of audit --url.
type ledgerAuditURLJSON struct {
	OK           bool     `json:"ok"`
	Error        string   `json:"error,omitempty"`
	URL          string   `json:"url"`
	Size         int64    `json:"size"`
	Root         string   `json:"root,omitempty"`
	Tiles        int      `json:"tiles"`
	Bundles      int      `json:"bundles"`
	Cosignatures []string `json:"cosigned_by,omitempty"`
	VerifierKey  string   `json:"verifier_key"`
}

// runLedgerAuditURL audits a remote tlog-tiles log (audit --url).
func runLedgerAuditURL(a *app, o *ledgerAuditOptions) error {
	vkey, err := auditVerifierKey(a, o)
	if err != nil {
		return err
	}
	if vkey == "" {
		return usageErrorf("audit --url needs the log's verifier key: --vkey KEY or --vkey-file FILE").
			withHint("the log's operator publishes it; a remote log's own word for its key proves nothing")
	}
	pol, err := o.Policy.policy(a, vkey)
	if err != nil {
		return err
	}
	c := &tlogclient.Client{URL: o.URL, VerifierKey: vkey, Policy: pol}
	progress, finish := a.progress("auditing", "entries")
	rep, err := c.Audit(context.Background(), progress)
	finish()
	out := ledgerAuditURLJSON{OK: err == nil, URL: o.URL, VerifierKey: vkey}
	if rep != nil {
		out.Tiles, out.Bundles = rep.Tiles, rep.Bundles
		if rep.Checkpoint != nil {
			out.Size, out.Root = rep.Checkpoint.Size, rep.Checkpoint.Root.String()
		}
		for _, c := range rep.Cosignatures {
			out.Cosignatures = append(out.Cosignatures, c.Witness+" at "+c.Time.Format("2006-01-02T15:04:05Z"))
		}
	}
	if err != nil {
		out.Error = err.Error()
	}
	if a.json {
		if err := a.printJSON(out); err != nil {
			return err
		}
		if !out.OK {
			return errSilentFailure
		}
		return nil
	}
	if err != nil {
		return remoteErr("audit of "+o.URL, err)
	}
	fmt.Fprintf(a.out, "ok: %d entries re-derived from %d entry bundles; %d tiles and the root %s of the checkpoint match\n", out.Size, out.Bundles, out.Tiles, out.Root)
	for _, c := range out.Cosignatures {
		fmt.Fprintf(a.out, "cosigned by %s\n", terminalSafe(c))
	}
	return nil
}
