package web

import (
	"encoding/json"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/sealedhq/sealed/commit"
	"github.com/sealedhq/sealed/ledger"
)

// TestBrowserCommitRules: /hash refuses what `sealed commit` refuses, by
// the same rules: a declaration with a line starting "salt:" in any letter
// case after any line break (hash.js saltLine against
// commit.FindSaltLine), and a declaration whose reveal could not be
// recorded in a ledger leaf (hash.js leafSize against
// ledger.RevealLeafSize).
func TestBrowserCommitRules(t *testing.T) {
	f := newFixture(t)
	srv := httptest.NewServer(f.server(t, nil))
	defer srv.Close()
	ctx := browser(t)
	if err := chromedp.Do(ctx,
		chromedp.Navigate(srv.URL+"/hash"),
		chromedp.WaitReady(chromedp.ID("hash-button")),
	); err != nil {
		t.Fatal(err)
	}
	js := func(expr string, v any) {
		t.Helper()
		raw, err := chromedp.Run(ctx, chromedp.Evaluate[string](`JSON.stringify(`+expr+`)`))
		if err != nil {
			t.Fatalf("%s: %v", expr, err)
		}
		if err := json.Unmarshal([]byte(raw), v); err != nil {
			t.Fatalf("%s = %s: %v", expr, raw, err)
		}
	}
	quote := func(s string) string { b, _ := json.Marshal(s); return string(b) }

	for _, d := range []string{
		"I bid 40 on lot 2", "I bid 40 on lot 2 salt: x", "I bid 40 on lot 2\n salt: x", "I bid 40\nſalt: x",
		"salt: x", "I bid 1 on lot 1\nSALT: x", "I bid 1 on lot 1\rsalt: x", "I bid 1\r\nSalt:x", "a\r\rsalt:",
		"a\vsalt:", "a\fsalt:", "a\u0085sAlT:", "a\u2028salt:", "a\u2029b\nsalt:", "a\u2028b", "sal\nt:",
	} {
		var got *struct {
			Number        int
			Prefix, After string
		}
		js(`saltLine(`+quote(d)+`)`, &got)
		want, ok := commit.FindSaltLine(d)
		if (got != nil) != ok || ok && (got.Number != want.Number || got.Prefix != want.Prefix || got.After != want.After) {
			t.Errorf("declaration %q: hash.js saltLine %+v, commit.FindSaltLine %+v, %v", d, got, want, ok)
		}
	}

	// White space as `sealed commit` trims it (Go's strings.TrimSpace:
	// U+0085 is space, U+FEFF is not; JavaScript's trim() has it the
	// other way round, trial 21), and one final line break dropped from
	// the declaration (sealed commit --help: "one trailing newline (LF or
	// CRLF) is dropped").
	for _, s := range []string{"\u0085", "\ufeff", " a\u0085", "\ufeffabc", "\u00a0x\u3000", "\u200bx", "\t\n\v\f\r x \u2028\u2029"} {
		var got string
		js(`goTrim(`+quote(s)+`)`, &got)
		if want := strings.TrimSpace(s); got != want {
			t.Errorf("%q: hash.js goTrim %q, strings.TrimSpace %q", s, got, want)
		}
	}
	for text, want := range map[string]string{"I bid 40\n": "I bid 40", "I bid 40\r\n": "I bid 40", "a\n\n": "a\n", "a\r": "a\r", "a": "a"} {
		var got string
		js(`declarationOf(`+quote(text)+`)`, &got)
		if got != want {
			t.Errorf("typed %q: hash.js declarationOf %q, want %q as sealed commit takes it", text, got, want)
		}
	}

	var overhead int
	js(`Number(document.getElementById("hash-form").dataset.leafOverhead)`, &overhead)
	var maxLeaf int
	js(`Number(document.getElementById("hash-form").dataset.maxLeaf)`, &maxLeaf)
	if maxLeaf != ledger.MaxLeafSize {
		t.Errorf("data-max-leaf %d, want %d", maxLeaf, ledger.MaxLeafSize)
	}
	for _, r := range []string{
		"", "I bid 15 on lot 1\nsalt: x", strings.Repeat("\x01", 100), "é\"\\\t/", "</script>\u2028\u2029&<>'", "\x7f\u0085\U0001F600",
		// A leading byte order mark is part of the reveal (trial 21: a
		// TextDecoder strips it by default, 3 bytes short).
		"\ufeff", "\ufeffI bid 40 on lot 2\nsalt: abc", "\ufeff" + strings.Repeat("a", 64848) + "\nsalt: abc",
	} {
		var got int
		js(`leafSize(new TextEncoder().encode(`+quote(r)+`), `+strconv.Itoa(overhead)+`)`, &got)
		if want := ledger.RevealLeafSize([]byte(r)); got != want {
			t.Errorf("reveal %q: hash.js leafSize %d, ledger.RevealLeafSize %d", r, got, want)
		}
	}

	// The page refuses, with its error, and shows no commitment.
	refuse := func(decl, wantErr string) {
		t.Helper()
		if err := chromedp.Do(ctx,
			chromedp.Navigate(srv.URL+"/hash"),
			chromedp.WaitReady(chromedp.ID("hash-button")),
			chromedp.Evaluate[chromedp.Void](`document.getElementById("declaration").value = `+quote(decl)),
			chromedp.Click(chromedp.ID("hash-button")),
			chromedp.WaitNotPresent(`#hash-error:empty`),
		); err != nil {
			t.Fatal(err)
		}
		msg, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById("hash-error").textContent`))
		if err != nil {
			t.Fatal(err)
		}
		hidden, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.getElementById("result").hidden`))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(msg, wantErr) || !hidden {
			t.Errorf("declaration %.40q: error %q (result hidden %v), want %q", decl, msg, hidden, wantErr)
		}
	}
	// A textarea's value has LF for CR (HTML's newline normalisation).
	refuse("I bid 1 on lot 1\rsalt: x", `Line 2 of the declaration (after the line break LF) starts with "salt:"`)
	refuse("I bid 1 on lot 1\nSALT: x", `(after the line break LF) starts with "SALT:"`)
	refuse("I bid 1 on lot 1\u2028salt: x", `(after the line break U+2028) starts with "salt:"`)
	big := "I bid 15 on lot 1 " + strings.Repeat("x", 65400)
	n := ledger.RevealLeafSize(commit.RevealText(big, strings.Repeat("a", 26)))
	refuse(big, "would need a ledger leaf of up to "+strconv.Itoa(n)+" bytes, more than the 65535 a leaf can hold")
	refuse(strings.Repeat("\x01", 12000), "its reveal could never be recorded")
	// Just within the limit, with a drawn 26-character salt: hashed.
	salt := strings.Repeat("a", 26)
	ok := strings.Repeat("x", ledger.MaxLeafSize-ledger.RevealLeafSize(commit.RevealText("", salt)))
	if s := ledger.RevealLeafSize(commit.RevealText(ok, salt)); s != ledger.MaxLeafSize {
		t.Fatalf("the declaration under the limit makes a leaf of %d bytes", s)
	}
	if err := chromedp.Do(ctx,
		chromedp.Navigate(srv.URL+"/hash"),
		chromedp.WaitReady(chromedp.ID("hash-button")),
		chromedp.Evaluate[chromedp.Void](`document.getElementById("declaration").value = `+quote(ok)),
		chromedp.Click(chromedp.ID("hash-button")),
		chromedp.WaitVisible(chromedp.ID("result")),
	); err != nil {
		t.Fatal(err)
	}
}
