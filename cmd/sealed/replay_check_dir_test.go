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
	"time"

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
	files, refused, err := expandFiles([]string{dir})
	if err != nil || len(files) != n || len(refused) != 0 {
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

// TestReplayCheckDirectoryFIFO: a *.json name under a directory that is a
// named pipe (or a link to one) is reported as not a regular file, exit 2,
// and the other replays are still checked. Opening it would wait for a
// writer: the check hung there, printing nothing, for as long as no
// process wrote to the pipe.
func TestReplayCheckDirectoryFIFO(t *testing.T) {
	dir := t.TempDir()
	data, err := os.ReadFile("../../rules/bargain/testdata/engine/seed-42.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "b.json"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "a.json")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	if err := os.Symlink("a.json", filepath.Join(dir, "c.json")); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	done := make(chan int, 1)
	go func() { done <- run([]string{"replay", "check", dir}, strings.NewReader(""), &out, &errOut) }()
	var code int
	select {
	case code = <-done:
	case <-time.After(20 * time.Second):
		for range 2 { // let the blocked opens of a.json and c.json return
			if w, err := os.OpenFile(fifo, os.O_WRONLY, 0); err == nil {
				w.Close()
			}
		}
		<-done
		t.Fatal("replay check of a directory holding a named pipe did not return within 20 s")
	}
	if code != exitUsage {
		t.Errorf("exit %d; expected %d", code, exitUsage)
	}
	for _, name := range []string{"a.json", "c.json"} {
		want := filepath.Join(dir, name) + ": not a regular file (a named pipe)"
		if !strings.Contains(errOut.String(), want) {
			t.Errorf("stderr %q does not say %q", errOut.String(), want)
		}
	}
	if !strings.Contains(out.String(), "b.json: clean: ") || !strings.Contains(errOut.String(), "2 of 3 replays could not be read") {
		t.Errorf("stdout %q, stderr %q", out.String(), errOut.String())
	}
}
