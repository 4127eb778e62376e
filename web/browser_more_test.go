package web

import (
	"fmt"
	"math"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/sealedhq/sealed/commit"
	"github.com/sealedhq/sealed/ledger"
)

// TestBrowserWeakSalt: /hash warns about a weak salt the user typed, as
// `sealed commit --salt abc 'I bid 15 on lot 3'` does ("warning: weak
// salt: about 2^30.7 (1.8e+09) guesses ..."), and not about a 26-character
// base32 salt; the page's estimate (hash.js saltAudit) equals
// commit.AuditSalt's for a spread of salts.
func TestBrowserWeakSalt(t *testing.T) {
	f := newFixture(t)
	srv := httptest.NewServer(f.server(t, nil))
	defer srv.Close()
	ctx := browser(t)
	const decl = "I bid 15 on lot 3"
	hashWith := func(salt string) (hidden bool, text string) {
		t.Helper()
		if err := chromedp.Do(ctx,
			chromedp.Navigate(srv.URL+"/hash"),
			chromedp.WaitReady(chromedp.ID("hash-button")),
			chromedp.SendKeys(chromedp.ID("declaration"), decl),
			chromedp.SendKeys(chromedp.ID("salt"), salt),
			chromedp.Click(chromedp.ID("hash-button")),
			chromedp.WaitVisible(chromedp.ID("result")),
		); err != nil {
			t.Fatal(err)
		}
		hidden, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.getElementById("salt-warning").hidden`))
		if err != nil {
			t.Fatal(err)
		}
		text, err = chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById("salt-warning").textContent`))
		if err != nil {
			t.Fatal(err)
		}
		return hidden, text
	}
	if hidden, text := hashWith("abc"); hidden || !strings.Contains(text, "Weak salt: about 2^30.7 (1.8e+9) guesses") {
		t.Errorf("salt abc: warning hidden %v, %q; want the 2^30.7 warning of sealed commit --salt abc", hidden, text)
	}
	if hidden, text := hashWith("n5xgmzlwmvqwk2lqmv2xizlsmu"); !hidden {
		t.Errorf("a 26-character base32 salt drew a warning: %q", text)
	}

	// The JavaScript estimate against the Go one.
	for _, c := range []struct{ decl, salt string }{
		{decl, "abc"}, {decl, "42"}, {decl, "aaaaaaaa"}, {decl, "deadbeef"}, {decl, "Tr0ub4dor&3"},
		{decl, "hazelnut-walnut-pecan-almond"}, {decl, "n5xgmzlwmvqwk2lqmv2xizlsmu"}, {decl, "ABCdef012~"},
		{decl, "grüße-ünïcode"}, {"I fold", "xyz"}, {"Hand: 2C 3D 4H 5S 6C, lot 12", "pq7"},
	} {
		js := fmt.Sprintf(`saltAudit(%q, %q).guessesLog2`, c.decl, c.salt)
		got, err := chromedp.Run(ctx, chromedp.Evaluate[float64](js))
		if err != nil {
			t.Fatal(err)
		}
		want := commit.AuditSalt(commit.RevealText(c.decl, c.salt))
		if math.Abs(got-want.GuessesLog2) > 1e-9 {
			t.Errorf("decl %q salt %q: JS 2^%v, Go commit.AuditSalt 2^%v", c.decl, c.salt, got, want.GuessesLog2)
		}
	}
}

// TestBrowserLongNames: a 256-character player and channel name wrap
// inside the page on /ledger and /c/ instead of widening it, and a
// reveal's hidden characters show as marks. The screenshots are kept with
// go test -artifacts for a look.
func TestBrowserLongNames(t *testing.T) {
	f := newFixture(t)
	long := strings.Repeat("w", 256)
	v := readVector(t, "bidi")
	f.add(t, "long", "2026-03-09T13:00:00Z", &ledger.Body{Kind: ledger.KindCommit, Player: long, ActionType: "bid", Channel: "#" + long[1:], Commitment: v.Commitment})
	c, text := f.idx["long"], string(v.Text)
	f.add(t, "long-reveal", "2026-03-09T14:00:00Z", &ledger.Body{Kind: ledger.KindReveal, Commit: &c, Player: long, Text: &text})
	srv := httptest.NewServer(f.server(t, func(o *Options) { o.Now = func() time.Time { return at(t, "2026-03-20T00:00:00Z") } }))
	defer srv.Close()
	ctx := browser(t)
	for _, page := range []string{"/ledger", "/c/" + v.Commitment, fmt.Sprintf("/entry/%d", c)} {
		if err := chromedp.Do(ctx,
			chromedp.Navigate(srv.URL+page),
			chromedp.WaitReady(chromedp.CSS("main")),
		); err != nil {
			t.Fatal(err)
		}
		// The window is 1200 px wide (browser); nothing may scroll sideways.
		width, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.documentElement.scrollWidth`))
		if err != nil {
			t.Fatal(err)
		}
		inner, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.documentElement.clientWidth`))
		if err != nil {
			t.Fatal(err)
		}
		if width > inner {
			t.Errorf("%s is %d px wide in a %d px window: a long name overflows", page, width, inner)
		}
		png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
		if err == nil {
			p := filepath.Join(t.ArtifactDir(), strings.NewReplacer("/", "_").Replace(page)[:min(len(page), 20)]+".png")
			if os.WriteFile(p, png, 0o644) == nil {
				t.Logf("screenshot: %s", p)
			}
		}
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/c/"+v.Commitment), chromedp.WaitVisible(chromedp.CSS("pre.literal"))); err != nil {
		t.Fatal(err)
	}
	lit, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS("pre.literal")))
	if err != nil {
		t.Fatal(err)
	}
	if want := "I bid 1 on lot 1 </script><U+202E>evil<U+200B>\nsalt: hrbd4qk2xw7m3zjv5nyc6tpe2a"; lit != want {
		t.Errorf("the literal reveal shows %q, want %q", lit, want)
	}
}

// TestBrowserRightToLeftName: on a player's page the heading reads
// "Entries naming NAME N entries"; a right-to-left name (Hebrew) must not
// take the page's count into its run. Chromium lays the first character of
// the count out to the right of the name, as in the markup (trial 10c: it
// showed "Entries naming 3 דוד entries", the count left of the name).
func TestBrowserRightToLeftName(t *testing.T) {
	f := newFixture(t)
	v := readVector(t, "bid")
	f.add(t, "david", "2026-03-02T12:00:00Z", &ledger.Body{Kind: ledger.KindCommit, Player: "\u05d3\u05d5\u05d3", ActionType: "hand", Channel: "#game-actions", Commitment: v.Commitment})
	srv := httptest.NewServer(f.server(t, nil))
	defer srv.Close()
	ctx := browser(t)
	if err := chromedp.Do(ctx,
		chromedp.Navigate(srv.URL+"/ledger?player="+url.QueryEscape("\u05d3\u05d5\u05d3")),
		chromedp.WaitReady(chromedp.CSS("h1 .muted")),
	); err != nil {
		t.Fatal(err)
	}
	const js = `(() => {
		const name = document.querySelector('h1 .name').getBoundingClientRect();
		const count = document.querySelector('h1 .muted');
		const r = document.createRange();
		r.setStart(count.firstChild, 0); r.setEnd(count.firstChild, 1);
		const c = r.getBoundingClientRect();
		return [count.firstChild.textContent.slice(0, 1), c.left - name.right];
	})()`
	got, err := chromedp.Run(ctx, chromedp.Evaluate[[]any](js))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0] != "1" {
		t.Fatalf("the heading's count starts %v, want 1", got)
	}
	if gap, _ := got[1].(float64); gap < 0 {
		t.Errorf("the count's first digit is %.1f px left of the name's right edge: the name took it into its right-to-left run", -gap)
	}
}
