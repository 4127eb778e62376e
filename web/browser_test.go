package web

import (
	"context"
	"crypto/sha256"
	"encoding/base32"
	"encoding/hex"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/sealedhq/sealed/commit"
)

// chromiumPath is Debian's chromium package, which .ci/run installs.
const chromiumPath = "/usr/bin/chromium"

// browser starts headless Chromium with a fresh profile and returns a
// chromedp context (at most 3 minutes). Without Chromium the test is skipped,
// except under CI=true, where it fails: CI installs it.
func browser(t *testing.T) context.Context {
	t.Helper()
	if _, err := os.Stat(chromiumPath); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is missing under CI=true; .ci/run installs the chromium package", chromiumPath)
		}
		t.Skipf("skipping the browser test: %s is not installed (apt-get install chromium; CI installs it)", chromiumPath)
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(chromiumPath),
		chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun, chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1200, 1000),
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute) // generous: a loaded 2-core machine
	t.Cleanup(cancel)
	actx, acancel := chromedp.NewExecAllocator(ctx, opts...)
	t.Cleanup(acancel)
	bctx, bcancel := chromedp.NewContext(actx)
	t.Cleanup(bcancel)
	if _, err := chromedp.Call(bctx, network.Enable, network.EnableParams{}); err != nil {
		t.Fatalf("starting chromium: %v", err)
	}
	// On failure, keep a screenshot in the test's artifact directory (a temp
	// dir, kept with go test -artifacts).
	t.Cleanup(func() {
		if !t.Failed() {
			return
		}
		png, err := chromedp.Run(bctx, chromedp.FullScreenshot(100))
		if err != nil {
			t.Logf("no screenshot: %v", err)
			return
		}
		p := filepath.Join(t.ArtifactDir(), "failure.png")
		if err := os.WriteFile(p, png, 0o644); err == nil {
			t.Logf("screenshot: %s", p)
		}
	})
	return bctx
}

// TestBrowser drives real headless Chromium: /hash computes, in the
// browser, the same commitment as sha256sum and Go for the same bytes, and
// makes no request while doing it; /c/{hash} shows a reveal full of markup
// as text, and no dialog opens.
func TestBrowser(t *testing.T) {
	f := newFixture(t)
	srv := httptest.NewServer(f.server(t, nil))
	defer srv.Close()
	ctx := browser(t)

	var mu sync.Mutex
	var requests []string
	dialogs := 0
	// Listen sees every event in order; the func must not run commands.
	if err := chromedp.Listen(ctx, func(ev any) {
		mu.Lock()
		defer mu.Unlock()
		switch e := ev.(type) {
		case *network.EventRequestWillBeSent:
			requests = append(requests, e.Request.URL)
		case *page.EventJavascriptDialogOpening:
			dialogs++
		}
	}); err != nil {
		t.Fatal(err)
	}
	// A dialog blocks the page: close any that opens, so the test fails
	// on the count instead of hanging.
	openDialogs := chromedp.Events(ctx, page.JavascriptDialogOpening)
	go func() {
		for _, err := range openDialogs {
			if err != nil {
				return
			}
			chromedp.Call(ctx, page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{Accept: false})
		}
	}()
	sent := func() []string { mu.Lock(); defer mu.Unlock(); return append([]string(nil), requests...) }
	value := func(id string) string {
		t.Helper()
		v, err := chromedp.Run(ctx, chromedp.Value(chromedp.ID(id)))
		if err != nil {
			t.Fatal(err)
		}
		return v
	}

	// The fixed salt of testdata/reveals/bid.txt, whose commitment
	// sha256sum gave.
	bid := readVector(t, "bid")
	const decl, salt = "I bid 15 on lot 3", "n5xgmzlwmvqwk2lqmv2xizlsmu"
	if err := chromedp.Do(ctx,
		chromedp.Navigate(srv.URL+"/hash"),
		chromedp.WaitReady(chromedp.ID("hash-button")),
		chromedp.SendKeys(chromedp.ID("declaration"), decl),
		chromedp.SendKeys(chromedp.ID("salt"), salt),
	); err != nil {
		t.Fatal(err)
	}
	before := sent()
	if err := chromedp.Do(ctx,
		chromedp.Click(chromedp.ID("hash-button")),
		chromedp.WaitVisible(chromedp.ID("result")),
	); err != nil {
		t.Fatal(err)
	}
	gotHash, gotReveal := value("commitment"), value("reveal")
	want := sha256.Sum256(commit.RevealText(decl, salt))
	if gotHash != hex.EncodeToString(want[:]) || gotHash != bid.Commitment {
		t.Errorf("browser hash %s; Go sha256 %x; sha256sum %s", gotHash, want, bid.Commitment)
	}
	if gotReveal != string(commit.RevealText(decl, salt)) || gotReveal != string(bid.Text) {
		t.Errorf("browser reveal %q, want %q", gotReveal, commit.RevealText(decl, salt))
	}

	// A drawn salt: 26 base32 characters of 128 bits, and the same hash as Go.
	if err := chromedp.Do(ctx,
		chromedp.Evaluate[chromedp.Void](`document.getElementById("salt").value = ""`),
		chromedp.Click(chromedp.ID("hash-button")),
		chromedp.Sleep(200*time.Millisecond),
	); err != nil {
		t.Fatal(err)
	}
	saltShown := value("salt")
	gotHash = value("commitment")
	raw, err := base32.StdEncoding.WithPadding(base32.NoPadding).DecodeString(strings.ToUpper(saltShown))
	if err != nil || len(raw) != 16 || len(saltShown) != 26 || saltShown != strings.ToLower(saltShown) {
		t.Errorf("drawn salt %q: %d bytes (%v), want 26 lowercase base32 characters of 16 bytes", saltShown, len(raw), err)
	}
	want = sha256.Sum256(commit.RevealText(decl, saltShown))
	if gotHash != hex.EncodeToString(want[:]) {
		t.Errorf("browser hash %s with a drawn salt, Go %x", gotHash, want)
	}
	if after := sent(); len(after) != len(before) {
		t.Errorf("hashing sent requests: %v", after[len(before):])
	}
	for _, u := range sent() {
		switch strings.TrimPrefix(u, srv.URL) {
		case "/hash", "/static/style.css", "/static/hash.js", "/favicon.ico":
		default:
			t.Errorf("request to %s: only the page and its own assets may be loaded", u)
		}
	}

	// The reveal with markup, on its commitment page.
	xss := readVector(t, "xss")
	if err := chromedp.Do(ctx,
		chromedp.Navigate(srv.URL+"/c/"+xss.Commitment),
		chromedp.WaitVisible(chromedp.CSS("pre.literal")),
		chromedp.Sleep(300*time.Millisecond), // time for any script or onerror to run
	); err != nil {
		t.Fatal(err)
	}
	shown, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS("pre.literal")))
	if err != nil {
		t.Fatal(err)
	}
	images, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.images.length`))
	if err != nil {
		t.Fatal(err)
	}
	scripts, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.scripts.length`))
	if err != nil {
		t.Fatal(err)
	}
	if shown != string(xss.Text) {
		t.Errorf("the page shows %q, want the reveal %q literally", shown, xss.Text)
	}
	if images != 0 || scripts != 0 {
		t.Errorf("the commitment page has %d images and %d scripts; the reveal's markup must stay text", images, scripts)
	}
	mu.Lock()
	defer mu.Unlock()
	if dialogs != 0 {
		t.Errorf("%d JavaScript dialogs opened", dialogs)
	}
}
