package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sealedhq/sealed/internal/tlogtest"
	"github.com/sealedhq/sealed/ledger"
	"github.com/sealedhq/sealed/ledger/stores"
)

// newFileLedger makes a SQLite ledger of n commit entries in dir and
// returns its path and verifier key.
func newFileLedger(t *testing.T, dir, origin string, n int) (db, vkey string) {
	t.Helper()
	ctx := context.Background()
	db = filepath.Join(dir, "l.db")
	vkey, err := stores.Init(ctx, db, origin, filepath.Join(dir, "l.key"))
	if err != nil {
		t.Fatal(err)
	}
	l, err := stores.Open(ctx, db, ledger.Options{KeyFile: filepath.Join(dir, "l.key"), CheckpointInterval: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	done := make(chan error, n)
	for i := range n {
		go func() {
			_, err := l.Append(ctx, []byte(fmt.Sprintf(`{"kind":"commit","player":"p%d","action_type":"bid","channel":"#a","commitment":"%x"}`, i, sha256.Sum256([]byte(fmt.Sprint(i))))))
			done <- err
		}()
	}
	for range n {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
	if _, err := l.WaitCheckpoint(ctx, int64(n)); err != nil {
		t.Fatal(err)
	}
	return db, vkey
}

// sealed runs the sealed command in-process and returns its exit code,
// stdout and stderr.
func sealed(args ...string) (int, string, string) {
	var out, errOut bytes.Buffer
	code := run(args, strings.NewReader(""), &out, &errOut)
	return code, out.String(), errOut.String()
}

// TestFsck: Tessera's fsck, run against `sealed serve` over loopback,
// reports the log clean; served through a proxy that changes one byte of
// one tile, it fails.
func TestFsck(t *testing.T) {
	fsck := tlogtest.Tool(t, "fsck")
	dir := t.TempDir()
	db, vkey := newFileLedger(t, dir, "example.com/fsck", 600)
	keyFile := filepath.Join(dir, "vkey")
	os.WriteFile(keyFile, []byte(vkey+"\n"), 0o644)
	a := &app{in: strings.NewReader(""), out: io.Discard, errOut: io.Discard}
	runFsck := func(u string) (string, error) {
		cmd := exec.Command(fsck, "--storage_url", u, "--public_key", keyFile, "--ui=false", "-N", "4")
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	err := serveUntil(t, func(ctx context.Context, ready func(string)) error {
		return runServe(ctx, a, &serveOptions{DB: db, Addr: "127.0.0.1:0", Zone: "UTC", ready: ready})
	}, func(u string) {
		out, err := runFsck(u)
		if err != nil || !strings.Contains(out, "Successfully fsck'd log with size 600") {
			t.Errorf("fsck of the served log: %v\n%s", err, out)
		}
		target, _ := url.Parse(u)
		for _, path := range []string{"/tile/0/001", "/tile/entries/000", "/tile/1/000.p/2", "/tile/0/002.p/88"} {
			proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				resp, err := http.Get(target.String() + strings.TrimPrefix(r.URL.Path, "/"))
				if err != nil {
					http.Error(w, err.Error(), http.StatusBadGateway)
					return
				}
				defer resp.Body.Close()
				b, _ := io.ReadAll(resp.Body)
				if r.URL.Path == path {
					b[len(b)/2] ^= 1
				}
				w.WriteHeader(resp.StatusCode)
				w.Write(b)
			}))
			// fsck v1.0.4 exits 0 even when the check fails (it logs
			// "fsck failed: ..."): read its verdict from its output.
			out, _ := runFsck(proxy.URL + "/")
			// Our own client agrees, and says which check failed.
			if code, _, errOut := sealed("ledger", "audit", "--url", proxy.URL, "--vkey", vkey); code != 1 || !strings.Contains(errOut, "audit of") || strings.Contains(errOut, "connection refused") {
				t.Errorf("audit --url with a byte of %s changed: %d %s", path, code, errOut)
			}
			proxy.Close()
			if !strings.Contains(out, "fsck failed") || strings.Contains(out, "Successfully fsck'd") {
				t.Errorf("fsck did not fail the log with a byte of %s changed:\n%.2000s", path, out)
			} else if !strings.Contains(path, "entries") && !strings.Contains(out, "fsck failed: failed: tile/") {
				// A changed hash tile is named as a tile that does not
				// match (a changed bundle shows as a tile above it not
				// matching, or as a bundle that does not parse, depending
				// on the byte and on fsck's fetch order).
				t.Errorf("fsck failed the log with a byte of %s changed, but named no tile:\n%.500s", path, out)
			}
		}
		if code, out, errOut := sealed("ledger", "audit", "--url", u, "--vkey", vkey); code != 0 || !strings.Contains(out, "ok: 600 entries") {
			t.Errorf("audit --url: %d %s %s", code, out, errOut)
		}
		// The in-process client's pool may hold a connection it dialed but
		// never used; the server's Shutdown waits 5 s for such a one.
		http.DefaultTransport.(*http.Transport).CloseIdleConnections()
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestRemoteEmptyLog (newcomer trial 7c, finding 3): prove --url on an
// empty log is bad input (exit 2) and its hint says the log is empty,
// not "give an index below 0".
func TestRemoteEmptyLog(t *testing.T) {
	db, _ := newFileLedger(t, t.TempDir(), "example.com/empty", 0)
	a := &app{in: strings.NewReader(""), out: io.Discard, errOut: io.Discard}
	err := serveUntil(t, func(ctx context.Context, ready func(string)) error {
		return runServe(ctx, a, &serveOptions{DB: db, Addr: "127.0.0.1:0", Zone: "UTC", ready: ready})
	}, func(u string) {
		code, _, errOut := sealed("ledger", "prove", "0", "--url", u)
		if want := "sealed: entry 0 is not in the log: its checkpoint covers no entries yet\nhint: the log is empty: prove an entry once a checkpoint covers it\n"; code != 2 || errOut != want {
			t.Errorf("prove 0 --url on an empty log: exit %d, %q; want 2, %q", code, errOut, want)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestRemoteErrors: prove --url with an index past the log's checkpoint is
// bad input (exit 2), as it is for a local ledger, with no hint about the
// URL; a log that answers 409 with an explanation has it quoted, exit 1,
// and no "check the URL" hint (trial 3, finding 5).
func TestRemoteErrors(t *testing.T) {
	dir := t.TempDir()
	db, vkey := newFileLedger(t, dir, "example.com/remote", 5)
	a := &app{in: strings.NewReader(""), out: io.Discard, errOut: io.Discard}
	const altered = "nothing is served from this ledger's altered data: the stored data does not match what was signed (the database was altered)"
	err := serveUntil(t, func(ctx context.Context, ready func(string)) error {
		return runServe(ctx, a, &serveOptions{DB: db, Addr: "127.0.0.1:0", Zone: "UTC", ready: ready})
	}, func(u string) {
		code, _, errOut := sealed("ledger", "prove", "30", "--url", u)
		if want := "sealed: entry 30 is not in the log: its checkpoint covers 5 entries (indexes 0..4)\nhint: give an index below 5, the log's checkpoint size\n"; code != 2 || errOut != want {
			t.Errorf("prove 30 --url: exit %d, %q; want 2, %q", code, errOut, want)
		}
		// A log whose bundles answer 409, as sealed serve does when its
		// database was altered.
		proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if strings.HasPrefix(r.URL.Path, "/tile/entries/") {
				http.Error(w, altered, http.StatusConflict)
				return
			}
			resp, err := http.Get(strings.TrimSuffix(u, "/") + r.URL.Path)
			if err != nil {
				http.Error(w, err.Error(), http.StatusBadGateway)
				return
			}
			defer resp.Body.Close()
			w.WriteHeader(resp.StatusCode)
			io.Copy(w, resp.Body)
		}))
		defer proxy.Close()
		code, _, errOut = sealed("ledger", "audit", "--url", proxy.URL, "--vkey", vkey)
		if code != 1 || !strings.Contains(errOut, "409 Conflict: the log says \""+altered+"\"\n") || strings.Contains(errOut, "check the URL") {
			t.Errorf("audit --url of a log answering 409: exit %d\n%s", code, errOut)
		}
		http.DefaultTransport.(*http.Transport).CloseIdleConnections()
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestCheckProofJSONTrailingData (newcomer trial 7c, finding 4): a JSON
// proof followed by more data, or cut short, is bad input (exit 2) said
// as such, not "not a JSON proof ... expected a JSON object" when it
// begins with one.
func TestCheckProofJSONTrailingData(t *testing.T) {
	dir := t.TempDir()
	db, vkey := newFileLedger(t, dir, "example.com/trailing", 3)
	code, proof, errOut := sealed("ledger", "prove", "1", "--db", db)
	if code != 0 {
		t.Fatalf("prove: exit %d: %s", code, errOut)
	}
	for _, tc := range []struct{ name, data, want string }{
		{"another object after it", proof + "{}\n", "is not a well-formed proof: data after the JSON object (from byte "},
		{"cut short", proof[:len(proof)/2], "is not a well-formed proof: not valid JSON: unexpected EOF"},
	} {
		f := filepath.Join(dir, "p.json")
		if err := os.WriteFile(f, []byte(tc.data), 0o644); err != nil {
			t.Fatal(err)
		}
		code, _, errOut := sealed("ledger", "check-proof", "--proof", f, "--vkey", vkey)
		if code != 2 || !strings.Contains(errOut, f+" "+tc.want) {
			t.Errorf("%s: exit %d, %q; want 2 and %q", tc.name, code, errOut, tc.want)
		}
	}
}

// TestCheckProofReceiptWithoutExtra (newcomer trial 7c, finding 7): C2SP
// tlog-proof makes the extra line optional ("If no extra data is
// present, this line is omitted"); a receipt without one gives
// check-proof no leaf to check, which is bad input (exit 2), not a proof
// that does not hold (exit 1).
func TestCheckProofReceiptWithoutExtra(t *testing.T) {
	dir := t.TempDir()
	db, vkey := newFileLedger(t, dir, "example.com/noextra", 3)
	code, receipt, errOut := sealed("ledger", "prove", "1", "--db", db, "--format", "tlog-proof")
	if code != 0 {
		t.Fatalf("prove: exit %d: %s", code, errOut)
	}
	lines := strings.SplitAfter(receipt, "\n")
	if !strings.HasPrefix(lines[1], "extra ") {
		t.Fatalf("receipt's second line %q, want the extra line", lines[1])
	}
	f := filepath.Join(dir, "r.tlog-proof")
	if err := os.WriteFile(f, []byte(lines[0]+strings.Join(lines[2:], "")), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errOut = sealed("ledger", "check-proof", "--proof", f, "--vkey", vkey)
	if code != 2 || !strings.Contains(errOut, "has no extra line") || !strings.Contains(errOut, "--leaf FILE") {
		t.Errorf("a receipt without its extra line: exit %d, %q; want 2, \"has no extra line\" and a hint for --leaf", code, errOut)
	}
	// With --leaf, the leaf's bytes: the extra line's base64 (C2SP
	// tlog-proof: "extra <base64 of the extra data>") decoded. The proof
	// holds; with a byte of the leaf changed it does not (exit 1); --leaf
	// with a JSON proof, which carries its leaf, is bad input.
	leaf, err := base64.StdEncoding.DecodeString(strings.TrimSpace(strings.TrimPrefix(lines[1], "extra ")))
	if err != nil {
		t.Fatal(err)
	}
	leafFile, badFile := filepath.Join(dir, "leaf"), filepath.Join(dir, "bad-leaf")
	bad := append([]byte(nil), leaf...)
	bad[len(bad)/2] ^= 1
	if err := os.WriteFile(leafFile, leaf, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(badFile, bad, 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, errOut := sealed("ledger", "check-proof", "--proof", f, "--vkey", vkey, "--leaf", leafFile); code != 0 {
		t.Errorf("the receipt without extra, --leaf the leaf: exit %d, %s %s; want 0", code, out, errOut)
	}
	if code, _, errOut := sealed("ledger", "check-proof", "--proof", f, "--vkey", vkey, "--leaf", badFile); code != 1 {
		t.Errorf("--leaf a changed leaf: exit %d, %s; want 1", code, errOut)
	}
	code, proof, errOut := sealed("ledger", "prove", "1", "--db", db)
	if code != 0 {
		t.Fatalf("prove: exit %d: %s", code, errOut)
	}
	pf := filepath.Join(dir, "p.json")
	if err := os.WriteFile(pf, []byte(proof), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := sealed("ledger", "check-proof", "--proof", pf, "--vkey", vkey, "--leaf", leafFile); code != 2 || !strings.Contains(errOut, "--leaf goes with a tlog-proof") {
		t.Errorf("--leaf with a JSON proof: exit %d, %s; want 2", code, errOut)
	}
}
