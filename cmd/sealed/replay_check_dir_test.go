//go:build linux

package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"syscall"
	"testing"

	"github.com/sealedhq/sealed/verify"
	"golang.org/x/sys/unix"
)

// openPTY opens a pseudo-terminal pair (Linux /dev/ptmx, unlocked, and its
// /dev/pts/N) for a command's stderr to be a terminal.
func openPTY(t *testing.T) (master, slave *os.File) {
	t.Helper()
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatalf("opening a pseudo-terminal: %v", err)
	}
	t.Cleanup(func() { m.Close() })
	if err := unix.IoctlSetPointerInt(int(m.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Fatal(err)
	}
	n, err := unix.IoctlGetUint32(int(m.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Fatal(err)
	}
	s, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	return m, s
}

// TestReplayCheckDirectory: `sealed replay check DIR` over a directory of
// 10,000 replays (the engine's 65 replays, hard-linked over and over)
// reports each one clean and exits 0; with stderr a terminal (a
// pseudo-terminal) it draws a progress bar counting the replays; and the
// check runs on one worker per CPU the process may use
// (runtime.GOMAXPROCS), each of which checks replays. (Not with -short.)
func TestReplayCheckDirectory(t *testing.T) {
	if testing.Short() {
		t.Skip("checks 10,000 replays")
	}
	const n = 10000
	srcs, _ := filepath.Glob("../../rules/bargain/testdata/engine/*.json")
	if len(srcs) != 65 {
		t.Fatalf("%d engine replays", len(srcs))
	}
	dir := t.TempDir()
	for i := range n {
		src, dst := srcs[i%len(srcs)], filepath.Join(dir, fmt.Sprintf("r%05d.json", i))
		if err := os.Link(src, dst); err != nil {
			data, err := os.ReadFile(src)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(dst, data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}

	master, slave := openPTY(t)
	var term bytes.Buffer
	read := make(chan struct{})
	go func() {
		io.Copy(&term, master) // ends with EIO once the slave is closed
		close(read)
	}()
	var out bytes.Buffer
	code := run([]string{"replay", "check", dir}, strings.NewReader(""), &out, slave)
	slave.Close()
	<-read
	if code != exitOK {
		t.Fatalf("exit %d; stdout %.500s; terminal %.500q", code, out.String(), term.String())
	}
	if got := strings.Count(out.String(), ": clean: negotiation.replay.v1 (engine dialect)"); got != n {
		t.Errorf("%d clean lines; expected %d", got, n)
	}
	// The bar: "checking", a count of replays out of 10000 and a rate.
	bar := regexp.MustCompile(`checking\s.*\(\d+/10000, \d+ replays/s\)`)
	if !bar.MatchString(term.String()) {
		t.Errorf("no progress bar on the terminal: %.300q", term.String())
	}
	if strings.Contains(out.String(), "checking") {
		t.Error("the progress bar went to stdout")
	}

	// The same files, one worker per CPU, every worker at work.
	files, err := expandFiles([]string{dir})
	if err != nil || len(files) != n {
		t.Fatalf("%d files, %v", len(files), err)
	}
	a := &app{in: strings.NewReader(""), out: io.Discard, errOut: io.Discard}
	results, perWorker := checkAll(a, files, 0, verify.ReplayOptions{})
	if len(perWorker) != runtime.GOMAXPROCS(0) {
		t.Errorf("%d workers; expected %d, one per CPU (GOMAXPROCS)", len(perWorker), runtime.GOMAXPROCS(0))
	}
	total := 0
	for w, k := range perWorker {
		if k == 0 {
			t.Errorf("worker %d of %d checked no replay: %v", w, len(perWorker), perWorker)
		}
		total += k
	}
	if total != n {
		t.Errorf("workers checked %d replays; expected %d", total, n)
	}
	for i, r := range results {
		if r.err != nil || !r.rep.Clean() {
			t.Fatalf("%s: %v %+v", files[i], r.err, r.rep)
		}
	}
}
