package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"syscall"

	"github.com/sealedhq/sealed/ledger/tiles"
	"github.com/spf13/cobra"
)

func init() { ledgerSubcommands = append(ledgerSubcommands, newLedgerTilesCmd) }

// ledgerTilesOptions are the inputs of `sealed ledger tiles`.
type ledgerTilesOptions struct {
	DB  string
	Dir string
}

func newLedgerTilesCmd(a *app, g *ledgerGlobal) *cobra.Command {
	o := &ledgerTilesOptions{}
	c := &cobra.Command{
		Use:   "tiles --dir DIR",
		Short: "Write the ledger as static C2SP tlog-tiles files (checkpoint, tiles, entry bundles)",
		Long: `Write the ledger's latest checkpoint (with its witness cosignatures), every
hash tile and every entry bundle it covers under DIR, as C2SP tlog-tiles
lays them out (checkpoint, tile/<L>/<N>[.p/<W>], tile/entries/<N>[.p/<W>]),
so that any web server, CDN or object store can serve the log's read path.
Incremental: tiles already in DIR are kept (the bytes at a tile path never
change); run it after each checkpoint (or from cron). Each leaf is checked against its stored hash as
it is written. A DIR whose checkpoint is not of this ledger's tree (another
log's export, or a fork's) is refused (exit 1): its tiles cannot be kept.`,
		Args: cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			switch st, err := os.Stat(o.Dir); {
			case o.Dir == "":
				return usageErrorf("tiles needs --dir DIR")
			case o.Dir == "-":
				return usageErrorf("--dir -: the tiles are many files, not one output; expected a directory")
			case err == nil && !st.IsDir():
				return usageErrorf("--dir %s is not a directory; expected a directory to write the tiles under (it is made if missing)", o.Dir)
			}
			o.DB = g.DB
			return runLedgerTiles(a, o)
		},
	}
	c.Flags().StringVar(&o.Dir, "dir", "", "write the tiles under `DIR`")
	return c
}

func runLedgerTiles(a *app, o *ledgerTilesOptions) error {
	l, err := openLedgerRO(o.DB)
	if err != nil {
		return err
	}
	defer l.Close()
	progress, finish := a.progress("exporting", "entries")
	rep, err := tiles.Export(context.Background(), l.Store(), o.Dir, progress)
	finish()
	var big *tiles.LeafTooLargeError
	if errors.As(err, &big) {
		return failedf("%v", big).withHint("this ledger predates the 65,535-byte leaf limit; it cannot be served as tlog-tiles")
	}
	var de *tiles.DirError
	if errors.As(err, &de) {
		return failedf("%v", de).withHint("export into an empty directory, or into the one this ledger was exported to")
	}
	var pe *fs.PathError
	if errors.As(err, &pe) && (errors.Is(pe.Err, syscall.ENOSPC) || errors.Is(pe.Err, syscall.EFBIG)) {
		return usageErrorf("--dir %s: %v", o.Dir, pe).withHint("free space where --dir is stored, then run it again (tiles are written incrementally)")
	}
	if errors.As(err, &pe) {
		return usageErrorf("--dir %s: %v", o.Dir, pe).withHint("give a directory this user can write (it is made if missing)")
	}
	if err != nil {
		return failedf("exporting tiles: %v", err)
	}
	if a.json {
		return a.printJSON(map[string]any{"size": rep.Size, "written": rep.Written, "kept": rep.Kept, "dir": o.Dir})
	}
	_, err = fmt.Fprintf(a.out, "tree of %d entries: %d tiles and bundles written, %d kept, in %s\n", rep.Size, rep.Written, rep.Kept, o.Dir)
	return err
}
