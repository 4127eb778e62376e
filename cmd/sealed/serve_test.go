package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sealedhq/sealed/internal/demo"
)

// TestServeFlags checks that the flags reach the options.
func TestServeFlags(t *testing.T) {
	var got *serveOptions
	a := &app{in: strings.NewReader(""), out: io.Discard, errOut: io.Discard}
	c := serveCmd(a, func(_ context.Context, _ *app, o *serveOptions) error { got = o; return nil })
	c.SetArgs([]string{"--db", "l.db", "--addr", "127.0.0.1:9000", "--token-file", "t", "--key", "k", "--zone", "Europe/Paris"})
	if err := c.Execute(); err != nil {
		t.Fatal(err)
	}
	want := serveOptions{DB: "l.db", Addr: "127.0.0.1:9000", TokenFile: "t", KeyFile: "k", Zone: "Europe/Paris"}
	if got == nil || got.DB != want.DB || got.Addr != want.Addr || got.TokenFile != want.TokenFile || got.KeyFile != want.KeyFile || got.Zone != want.Zone {
		t.Fatalf("options %+v, want %+v", got, want)
	}
	c = serveCmd(a, func(_ context.Context, _ *app, o *serveOptions) error { got = o; return nil })
	c.SetArgs([]string{"--db", "l.db"})
	if err := c.Execute(); err != nil {
		t.Fatal(err)
	}
	if got.DB != "l.db" || got.Addr != "127.0.0.1:8080" || got.Zone != "UTC" || got.TokenFile != "" || got.KeyFile != "" {
		t.Fatalf("defaults %+v", got)
	}
}

// TestDemoFlags checks the demo's flags.
func TestDemoFlags(t *testing.T) {
	var got *demoOptions
	a := &app{in: strings.NewReader(""), out: io.Discard, errOut: io.Discard}
	c := demoCmd(a, func(_ context.Context, _ *app, o *demoOptions) error { got = o; return nil })
	c.SetArgs([]string{"--db", "d.db", "--serve", "--addr", "127.0.0.1:0"})
	if err := c.Execute(); err != nil {
		t.Fatal(err)
	}
	if got.DB != "d.db" || !got.Serve || got.Addr != "127.0.0.1:0" {
		t.Fatalf("options %+v", got)
	}
}

// serveUntil runs start in a goroutine, waits for the URL it reports,
// runs check against it, then stops the server and returns what start
// returned.
func serveUntil(t *testing.T, start func(ctx context.Context, ready func(string)) error, check func(url string)) error {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	urls := make(chan string, 1)
	done := make(chan error, 1)
	go func() { done <- start(ctx, func(u string) { urls <- u }) }()
	select {
	case u := <-urls:
		check(u)
	case err := <-done:
		t.Fatalf("the server stopped before listening: %v", err)
	case <-time.After(20 * time.Second):
		t.Fatal("the server did not listen within 20 s")
	}
	cancel()
	select {
	case err := <-done:
		return err
	case <-time.After(10 * time.Second):
		t.Fatal("the server did not stop within 10 s")
	}
	return nil
}

func get(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func post(t *testing.T, url, token, body string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest("POST", url, strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// TestServe runs `sealed serve` on a demo ledger with the write API on:
// pages answer, an append with the token is 201 and shows at once, and
// the server stops cleanly when its context ends.
func TestServe(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "d.db")
	buildDemo(t, db)
	tokenFile := filepath.Join(dir, "token")
	const token = "serve-test-token-0123456789"
	if err := os.WriteFile(tokenFile, []byte(token+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	a := &app{in: strings.NewReader(""), out: &out, errOut: io.Discard}
	// printf '' | sha256sum
	const c = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
	err := serveUntil(t, func(ctx context.Context, ready func(string)) error {
		return runServe(ctx, a, &serveOptions{DB: db, Addr: "127.0.0.1:0", TokenFile: tokenFile, KeyFile: demo.KeyFile(db), Zone: "UTC", ready: ready})
	}, func(url string) {
		if code, body := get(t, url); code != 200 || !strings.Contains(body, "Latest checkpoint") {
			t.Errorf("GET /: %d", code)
		}
		if code, body := get(t, url+"replay/12"); code != 200 || !strings.Contains(body, "Clean:") {
			t.Errorf("GET /replay/12: %d", code)
		}
		// The site shows the demo's match with contributions and a beacon
		// round, and the abandoned match.
		if code, body := get(t, url+"replay/5"); code != 200 || !strings.Contains(body, "Tied to the ledger") ||
			!strings.Contains(body, "seat 0's client seed <span class=\"mono\">lucky 7</span> (entry <a href=\"/entry/2\">2</a>)") ||
			!strings.Contains(body, "drand quicknet round 657413 (published 2023-09-15T11:00:03Z; its signature <span class=\"ok\">verifies</span>") ||
			!strings.Contains(body, "after the commitment was integrated") {
			t.Errorf("GET /replay/5: %d %s", code, body)
		}
		if code, body := get(t, url+"operators"); code != 200 || !strings.Contains(body, "demo-house") ||
			!strings.Contains(body, `<span class="bad">1 abandoned</span>`) || !strings.Contains(body, "never revealed") {
			t.Errorf("GET /operators: %d %s", code, body)
		}
		if code, body := post(t, url+"api/v1/entries", token, `{"kind":"commit","player":"you","action_type":"bid","channel":"#auctions","commitment":"`+c+`"}`); code != 201 || !strings.Contains(body, `"index":27`) {
			t.Errorf("append: %d %s", code, body)
		}
		if code, _ := post(t, url+"api/v1/entries", "wrong-token-wrong-token", `{}`); code != 401 {
			t.Errorf("append with a wrong token: %d, want 401", code)
		}
		if code, body := get(t, url+"c/"+c); code != 200 || !strings.Contains(body, "<td>you</td>") {
			t.Errorf("GET /c/: %d", code)
		}
	})
	if err != nil {
		t.Fatalf("serve returned %v", err)
	}
	if !strings.Contains(out.String(), "serving ledger "+db) || !strings.Contains(out.String(), "the write API is enabled") {
		t.Errorf("stdout: %s", out.String())
	}
}

// TestServeReadOnly: without --token-file the write API answers 403.
func TestServeReadOnly(t *testing.T) {
	db := filepath.Join(t.TempDir(), "d.db")
	buildDemo(t, db)
	var out bytes.Buffer
	a := &app{in: strings.NewReader(""), out: &out, errOut: io.Discard}
	err := serveUntil(t, func(ctx context.Context, ready func(string)) error {
		return runServe(ctx, a, &serveOptions{DB: db, Addr: "127.0.0.1:0", Zone: "UTC", ready: ready})
	}, func(url string) {
		if code, body := post(t, url+"api/v1/entries", "x", `{}`); code != 403 || !strings.Contains(body, "--token-file") {
			t.Errorf("append without a token file: %d %s", code, body)
		}
		// Served, the demo ledger (only the demo's own entries) is in use:
		// sealed demo --db d.db --force refuses to replace it.
		if _, err := demo.Build(context.Background(), demo.Options{Path: db, Now: time.Now(), Force: true}); !errors.Is(err, demo.ErrInUse) {
			t.Errorf("rebuild with --force while served: %v, want ErrInUse", err)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "the write API is disabled") {
		t.Errorf("stdout: %s", out.String())
	}
}

// TestDemoServe runs `sealed demo --serve`: the summary names the URL and
// the token file, and the site serves the demo with writes enabled.
func TestDemoServe(t *testing.T) {
	db := filepath.Join(t.TempDir(), "d.db")
	var out bytes.Buffer
	a := &app{in: strings.NewReader(""), out: &out, errOut: io.Discard}
	err := serveUntil(t, func(ctx context.Context, ready func(string)) error {
		return runDemo(ctx, a, &demoOptions{DB: db, Serve: true, Addr: "127.0.0.1:0", ready: ready})
	}, func(url string) {
		if !strings.Contains(out.String(), "open "+url) || !strings.Contains(out.String(), "verdict: everything verifies") {
			t.Errorf("summary: %s", out.String())
		}
		// The banner's curl sends the JSON content type the write API
		// requires, and says when a bid counts (seed 004: Auction Phase,
		// Monday 00:00 to Thursday 00:00, UTC for the demo).
		if !strings.Contains(out.String(), `-H 'Content-Type: application/json' -d '{"kind":"commit"`) ||
			!strings.Contains(out.String(), "\nA bid counts only when its commitment is posted in the Auction Phase, Monday 00:00 to Thursday 00:00 UTC. It is the ") {
			t.Errorf("banner: %s", out.String())
		}
		tok, err := os.ReadFile(demo.TokenFile(db))
		if err != nil {
			t.Fatal(err)
		}
		if code, body := post(t, url+"api/v1/entries", strings.TrimSpace(string(tok)), `{"kind":"edit","commit":8,"player":"alice"}`); code != 201 {
			t.Errorf("append with the demo token: %d %s", code, body)
		}
		if code, body := get(t, url+"replay/14"); code != 200 || !strings.Contains(body, "Negotiation Games") {
			t.Errorf("GET /replay/14: %d", code)
		}
		// While it is served, a rebuild is refused even with --force: the
		// ledger, its entry posted above and the token stay.
		if _, err := demo.Build(context.Background(), demo.Options{Path: db, Now: time.Now(), Force: true}); !errors.Is(err, demo.ErrPosted) {
			t.Errorf("rebuild with --force over a posted entry: %v, want ErrPosted", err)
		}
		if _, err := os.Stat(demo.TokenFile(db)); err != nil {
			t.Errorf("the token file after the refused rebuild: %v", err)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
}
