package ledger_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/sealedhq/sealed/ledger"
)

// inChild runs the test named name in a child process with
// TRIAL16_CHILD=1, and fails if it has not exited within d: a check
// that loops forever would otherwise keep a goroutine spinning in this
// test binary.
func inChild(t *testing.T, name string, d time.Duration) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^"+name+"$", "-test.count=1")
	cmd.Env = append(os.Environ(), "TRIAL16_CHILD=1")
	out, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		t.Fatalf("%s did not return within %s (killed)", name, d)
	}
	if err != nil {
		t.Fatalf("%s: %v\n%s", name, err, out)
	}
}

// TestTrial16VerifyHugeSizeReturns: ledger.VerifyInclusion and
// VerifyConsistency take tree sizes "up to 2^64-1" and refuse those above
// 2^63-1, but a size above 2^62 (and below 2^63) makes them loop forever
// at 100% CPU: tlog's maxpow2 (golang.org/x/mod/sumdb/tlog) never ends for
// n > 2^62 (1<<63 overflows to a negative number, 1<<64 to 0, both < n).
// The same loop is behind `sealed ledger check-proof` on a proof whose
// signed checkpoint claims more than 2^62 entries, and `ledger prove
// --url` and `ledger watch` on a log whose checkpoint claims that many
// (tlog.ProveRecord, tlog.ProveTree): they hang instead of failing.
func TestTrial16VerifyHugeSizeReturns(t *testing.T) {
	if os.Getenv("TRIAL16_CHILD") == "" {
		inChild(t, "TestTrial16VerifyHugeSizeReturns", 10*time.Second)
		return
	}
	h := bytes.Repeat([]byte{1}, 32)
	const size = 1<<62 + 5
	if err := ledger.VerifyInclusion(5, size, h, h, [][]byte{h}); err == nil {
		t.Error("VerifyInclusion: a one-hash proof in a tree of 2^62+5 passed")
	}
	if err := ledger.VerifyConsistency(1, size, h, h, [][]byte{h}); err == nil {
		t.Error("VerifyConsistency: a one-hash proof from 1 to 2^62+5 passed")
	}
}
