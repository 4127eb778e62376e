package main

import (
	"encoding/base64"

	"github.com/sealedhq/sealed/ledger"
	"golang.org/x/mod/sumdb/tlog"
)

// entryJSON is an entry in the --json output of the verbs that print
// entries (ledger get, list and append; action post, edit and reveal). It
// gives the leaf's exact bytes, so anyone can hash them: leaf is the leaf
// (its RFC 8785 canonical JSON) as a JSON string, and leaf_base64 the same
// bytes in standard base64; SHA-256 of a 0x00 byte and those bytes is
// leaf_hash (RFC 6962 §2.1, base64). integrated_at and posted_at are
// written exactly as the leaf writes them (ledger.TimeLayout, nine
// fraction digits, UTC). (ledger.Entry's own JSON embeds the leaf as a
// JSON value, which an indenting encoder re-indents, and writes the times
// as RFC 3339 with trailing zeros dropped.)
type entryJSON struct {
	Index        int64       `json:"index"`
	Kind         ledger.Kind `json:"kind"`
	Leaf         string      `json:"leaf"`
	LeafBase64   string      `json:"leaf_base64"`
	LeafHash     tlog.Hash   `json:"leaf_hash"`
	IntegratedAt string      `json:"integrated_at"`
	PostedAt     string      `json:"posted_at,omitempty"`
	// WitnessedBy and WitnessedAt (ledger get): the earliest witness
	// cosignature of a checkpoint covering the entry, RFC 3339 UTC.
	WitnessedBy string `json:"witnessed_by,omitempty"`
	WitnessedAt string `json:"witnessed_at,omitempty"`
}

// newEntryJSON is e's entryJSON.
func newEntryJSON(e *ledger.Entry) entryJSON {
	j := entryJSON{
		Index:        e.Index,
		Kind:         e.Kind,
		Leaf:         string(e.Leaf),
		LeafBase64:   base64.StdEncoding.EncodeToString(e.Leaf),
		LeafHash:     e.LeafHash,
		IntegratedAt: e.IntegratedAt.UTC().Format(ledger.TimeLayout),
	}
	if !e.PostedAt.IsZero() {
		j.PostedAt = e.PostedAt.UTC().Format(ledger.TimeLayout)
	}
	return j
}

// entriesJSON is es as entryJSON, never nil (an empty list prints as []).
func entriesJSON(es []ledger.Entry) []entryJSON {
	out := make([]entryJSON, 0, len(es))
	for i := range es {
		out = append(out, newEntryJSON(&es[i]))
	}
	return out
}
