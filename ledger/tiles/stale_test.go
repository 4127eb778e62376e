//go:build unix

package tiles_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/sealedhq/sealed/ledger/tiles"
)

// TestExportRemovesStaleTemporaries: an export killed between writing a
// file under its temporary name (PATH.tmp-PID-N) and renaming it left
// that file in the published directory, and later exports never removed
// it. Now an export removes the temporary files of processes that are
// gone, and leaves those of a process still running.
func TestExportRemovesStaleTemporaries(t *testing.T) {
	ctx := context.Background()
	ro, out := exportedLedger(t, "example.com/stale", 3, false)
	// A process that has exited: its id names no running process.
	child := exec.Command(os.Args[0], "-test.run", "^$")
	if err := child.Run(); err != nil {
		t.Fatal(err)
	}
	dead := filepath.Join(out, "tile", "0", fmt.Sprintf("000.p.tmp-%d-7", child.Process.Pid))
	live := filepath.Join(out, "tile", "entries", fmt.Sprintf("000.p.tmp-%d-8", os.Getppid()))
	for _, p := range []string{dead, live} {
		if err := os.WriteFile(p, []byte("cut"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := tiles.Export(ctx, ro.Store(), out, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dead); err == nil {
		t.Errorf("%s: the temporary file of an exited process is still there", dead)
	}
	if _, err := os.Stat(live); err != nil {
		t.Errorf("%s: the temporary file of a running process was removed: %v", live, err)
	}
}
