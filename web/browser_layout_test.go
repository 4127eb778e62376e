package web

import (
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// layoutProblems is JavaScript run on a page that lists, as strings, what
// does not read at the window's width: the page scrolls sideways; a
// navigation link, a button or a table header breaks its label over two
// lines; a cell of the ledger's "what" column is narrower than six
// characters (a column collapsed to a letter per line); a word of the
// /hash curl snippet (up to 40 characters: flags, quoted keys) is broken
// over two lines. Each check measures what the browser laid out
// (Range.getClientRects: one rectangle per line a text occupies).
const layoutProblems = `(() => {
  const out = [];
  const de = document.documentElement;
  if (de.scrollWidth > de.clientWidth + 1) out.push("the page is " + de.scrollWidth + " px wide in a " + de.clientWidth + " px window");
  const lines = (node) => { const r = document.createRange(); r.selectNodeContents(node); return new Set(Array.from(r.getClientRects()).filter(x => x.width > 0).map(x => Math.round(x.top))).size; };
  for (const el of document.querySelectorAll("header nav a, button, th, .kind")) {
    if (el.offsetParent === null) continue;
    if (lines(el) > 1) out.push(el.tagName.toLowerCase() + " " + JSON.stringify(el.textContent.trim()) + " wraps over " + lines(el) + " lines");
  }
  const em = parseFloat(getComputedStyle(document.body).fontSize);
  for (const row of document.querySelectorAll("table.entries tr")) {
    const td = row.children[3];
    if (td && td.tagName === "TD" && td.getBoundingClientRect().width < 6 * em) out.push("ledger 'what' cell is " + Math.round(td.getBoundingClientRect().width) + " px wide: " + JSON.stringify(td.textContent.slice(0, 30)));
  }
  const pre = document.getElementById("post-example");
  if (pre && pre.offsetParent !== null) {
    const text = pre.firstChild;
    if (text) {
      const s = text.textContent;
      const re = /\S+/g; let m;
      while ((m = re.exec(s)) !== null) {
        if (m[0].length > 40) continue;
        const r = document.createRange(); r.setStart(text, m.index); r.setEnd(text, m.index + m[0].length);
        const tops = new Set(Array.from(r.getClientRects()).filter(x => x.width > 0).map(x => Math.round(x.top)));
        if (tops.size > 1) out.push("curl snippet word " + JSON.stringify(m[0]) + " is broken over " + tops.size + " lines");
      }
    }
  }
  return out;
})()`

// TestBrowserWidths: every page reads on a phone (390 px wide, as an
// iPhone 12-15 in portrait) and on a laptop (1280 px): nothing scrolls
// sideways, no label of the navigation, a button or a header wraps, the
// ledger's "what" column keeps its words, the /hash curl snippet breaks
// only between words (layoutProblems). A screenshot of each page at each
// width is kept with go test -artifacts, to be looked at.
func TestBrowserWidths(t *testing.T) {
	f := newFixture(t)
	srv := httptest.NewServer(f.server(t, func(o *Options) { o.Now = func() time.Time { return at(t, "2026-03-20T00:00:00Z") } }))
	defer srv.Close()
	ctx := browser(t)
	e, err := f.r.Entry(f.idx["alice"])
	if err != nil {
		t.Fatal(err)
	}
	b, err := e.Body()
	if err != nil {
		t.Fatal(err)
	}
	pages := []string{"/", "/hash", "/verify", "/ledger", "/entry/0", "/entry/6", "/c/" + b.Commitment, "/tree", "/readings", "/replay/6", "/replay/7", "/replay/8"}
	for _, width := range []int64{390, 1280} {
		if err := chromedp.Do(ctx, chromedp.EmulateViewport(width, 844)); err != nil {
			t.Fatal(err)
		}
		for _, page := range pages {
			if err := chromedp.Do(ctx,
				chromedp.Navigate(srv.URL+page),
				chromedp.WaitReady(chromedp.CSS("footer")),
			); err != nil {
				t.Fatalf("%s at %d px: %v", page, width, err)
			}
			if page == "/hash" {
				// Fill the curl snippet as the page does after hashing.
				if err := chromedp.Do(ctx,
					chromedp.SendKeys(chromedp.ID("declaration"), "I bid 15 on lot 3"),
					chromedp.Click(chromedp.ID("hash-button")),
					chromedp.WaitVisible(chromedp.ID("result")),
				); err != nil {
					t.Fatal(err)
				}
			}
			problems, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](layoutProblems))
			if err != nil {
				t.Fatalf("%s at %d px: %v", page, width, err)
			}
			for _, p := range problems {
				t.Errorf("%s at %d px: %s", page, width, p)
			}
			if png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100)); err == nil {
				name := fmt.Sprintf("%d%s.png", width, strings.NewReplacer("/", "_").Replace(page)[:min(len(page), 16)])
				if p := filepath.Join(t.ArtifactDir(), name); os.WriteFile(p, png, 0o644) == nil {
					t.Logf("screenshot: %s", p)
				}
			}
		}
	}
}
