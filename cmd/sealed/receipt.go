package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"time"

	"github.com/sealedhq/sealed/ledger"
	"github.com/sealedhq/sealed/ledger/tiles"
	"github.com/sealedhq/sealed/ledger/witness"
)

// writeReceipt waits (up to a minute) for a checkpoint covering entry i,
// has it cosigned by the witnesses in witnessFile (if given), and writes
// the entry's C2SP tlog-proof receipt to path, with the checkpoint's
// stored cosignatures.
func writeReceipt(a *app, l *ledger.Ledger, i int64, path, witnessFile string) error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cp, err := l.WaitCheckpoint(ctx, i+1)
	if err != nil {
		return failedf("entry %d was appended, but no checkpoint covers it yet: %v", i, err).
			withHint("make the receipt later with: sealed ledger prove %d --format tlog-proof", i)
	}
	if witnessFile != "" {
		b, err := readInput(a, witnessFile, 1<<20)
		if err != nil {
			return err
		}
		pol, err := witness.ParsePolicy(b)
		if err != nil {
			return usageErrorf("--witnesses %s: %v", witnessFile, err)
		}
		res, err := (&witness.Cosigner{Store: l.Store(), Policy: pol, Log: slog.New(slog.DiscardHandler)}).Cosign(ctx)
		if err != nil {
			return err
		}
		for _, r := range res {
			if r.Err != nil {
				fmt.Fprintf(a.errOut, "sealed: %s\n", terminalSafe(r.Err.Error()))
			}
		}
	}
	// The latest checkpoint (the one the witnesses were given) covers i.
	scp, err := l.Store().LatestCheckpoint(ctx)
	if err != nil {
		return err
	}
	if scp.Size < cp.Size {
		return fmt.Errorf("the latest checkpoint (size %d) is older than the one covering entry %d", scp.Size, i)
	}
	p, err := l.ProveInclusion(i, scp.Size)
	if err != nil {
		return err
	}
	note, err := tiles.WithCosignatures(ctx, l.Store(), scp)
	if errors.Is(err, ledger.ErrTampered) {
		return failedf("%v", err).withHint("run 'sealed ledger audit' on it")
	} else if err != nil {
		return err
	}
	p.Checkpoint = string(note)
	if err := os.WriteFile(path, p.Receipt().Format(), 0o644); err != nil {
		return usageErrorf("--receipt: %v", unwrapPathError(err))
	}
	return nil
}
