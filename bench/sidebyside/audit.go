package sidebyside

import (
	"context"
	"crypto/sha256"
	"fmt"
	"io"
	"time"

	"github.com/sealedhq/sealed/ledger"
	"github.com/sealedhq/sealed/ledger/stores"
	"golang.org/x/mod/sumdb/tlog"
)

// AuditResult is one round of the audit part.
type AuditResult struct {
	Round     int
	Entries   int64
	Audit     time.Duration // ledger.Audit, ledger opened read-only for it
	SHA       time.Duration // one-core SHA-256(0x00 || leaf) of every leaf, in memory
	AuditRate float64       // entries/s
	SHARate   float64       // entries/s
}

// runAudit runs the audit part: ledger.Audit of the cached AuditN-entry
// ledger against a one-core SHA-256 pass over its leaves (read into
// memory first, untimed), interleaved, AuditRounds times.
func runAudit(ctx context.Context, cfg *Config, out io.Writer) ([]AuditResult, error) {
	fmt.Fprintf(out, "\n== audit: ledger.Audit (ledger opened read-only, nil progress) of a %d-entry ledger vs one goroutine computing SHA-256(0x00 || leaf) of the same leaves held in memory; %d rounds, interleaved\n", cfg.AuditN, cfg.AuditRounds)
	db, err := cachedLedger(ctx, cfg.CacheDir, "audit", cfg.AuditN, 0, out)
	if err != nil {
		return nil, err
	}
	leaves, hashes, err := readLeaves(ctx, db)
	if err != nil {
		return nil, err
	}
	var results []AuditResult
	var rs, ss, ratio []float64
	for r := range cfg.AuditRounds {
		res := AuditResult{Round: r + 1}
		l, err := stores.Open(ctx, db, ledger.Options{ReadOnly: true})
		if err != nil {
			return results, err
		}
		t0 := time.Now()
		rep, err := l.Audit(ctx, nil)
		res.Audit = time.Since(t0)
		l.Close()
		if err != nil {
			return results, fmt.Errorf("audit: %w", err)
		}
		if !rep.OK {
			return results, fmt.Errorf("audit found a problem in the benchmark ledger %s: %s", db, rep.Problem)
		}
		res.Entries = rep.Size
		res.SHA, err = shaPass(leaves, hashes)
		if err != nil {
			return results, err
		}
		res.AuditRate = float64(res.Entries) / res.Audit.Seconds()
		res.SHARate = float64(len(leaves)) / res.SHA.Seconds()
		results = append(results, res)
		rs, ss, ratio = append(rs, res.AuditRate), append(ss, res.SHARate), append(ratio, res.AuditRate/res.SHARate)
		fmt.Fprintf(out, "   round %d: audit %d entries in %.2fs = %.0f entries/s; sha256 pass %.3fs = %.0f entries/s; audit/sha256 %.3f\n",
			res.Round, res.Entries, res.Audit.Seconds(), res.AuditRate, res.SHA.Seconds(), res.SHARate, res.AuditRate/res.SHARate)
	}
	a, s, q := spreadOf(rs), spreadOf(ss), spreadOf(ratio)
	fmt.Fprintf(out, "\n   medians over %d rounds (min-max)\n", cfg.AuditRounds)
	fmt.Fprintf(out, "   ledger.Audit       %10.0f entries/s (%.0f-%.0f)\n", a.Median, a.Min, a.Max)
	fmt.Fprintf(out, "   sha256, one core   %10.0f entries/s (%.0f-%.0f)\n", s.Median, s.Min, s.Max)
	fmt.Fprintf(out, "   ratio audit/sha256 %10.3f (%.3f-%.3f), taken within each round\n", q.Median, q.Min, q.Max)
	return results, nil
}

// readLeaves reads every leaf of the ledger at db and its stored leaf
// hash (untimed).
func readLeaves(ctx context.Context, db string) ([][]byte, []tlog.Hash, error) {
	l, err := stores.Open(ctx, db, ledger.Options{ReadOnly: true})
	if err != nil {
		return nil, nil, err
	}
	defer l.Close()
	size, err := l.Size()
	if err != nil {
		return nil, nil, err
	}
	leaves := make([][]byte, 0, size)
	hashes := make([]tlog.Hash, 0, size)
	for from := int64(0); from < size; {
		es, err := l.Entries(from, ledger.MaxEntries)
		if err != nil {
			return nil, nil, err
		}
		if len(es) == 0 {
			return nil, nil, fmt.Errorf("reading leaves: no entry at %d of %d", from, size)
		}
		for _, e := range es {
			leaves = append(leaves, []byte(e.Leaf))
			hashes = append(hashes, e.LeafHash)
		}
		from += int64(len(es))
	}
	return leaves, hashes, nil
}

// shaPass times SHA-256(0x00 || leaf) of every leaf on one goroutine, then
// (untimed) checks each against the stored leaf hash.
func shaPass(leaves [][]byte, want []tlog.Hash) (time.Duration, error) {
	got := make([]tlog.Hash, len(leaves))
	h := sha256.New()
	zero := []byte{0}
	t0 := time.Now()
	for i, leaf := range leaves {
		h.Reset()
		h.Write(zero)
		h.Write(leaf)
		h.Sum(got[i][:0])
	}
	d := time.Since(t0)
	for i := range got {
		if got[i] != want[i] {
			return d, fmt.Errorf("sha256 pass: leaf %d hashes to %x, the ledger stores %x", i, got[i], want[i])
		}
	}
	return d, nil
}
