package ledger_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/sealedhq/sealed/ledger"
)

// TestRevealLeafSize: the bound, worked by hand, is never below the leaf
// Append makes for a reveal of the same text by the longest player name
// (256 backslashes, each escaped), and a text over it is refused by
// Append.
func TestRevealLeafSize(t *testing.T) {
	// The members other than text, each at its largest:
	// {"commit":9223372036854775807,"integrated_at":"<30 bytes>","kind":"reveal",
	// "player":"<256 x \\>","posted_at":"<30 bytes>","text":""}
	// = 2 braces + 5 commas + (9+19) + (16+32) + (7+8) + (9+514) + (12+32) + (7+2) = 674.
	const empty = 674
	for _, c := range []struct {
		text string
		want int
	}{
		{"", empty},
		{"I bid 15 on lot 1\nsalt: x", empty + 25 + 1},                       // \n takes 2 bytes
		{strings.Repeat("\x01", 10), empty + 60},                             // \u0001 takes 6
		{"é\"\\\t", empty + 2 + 2 + 2 + 2},                                   // é raw (2 bytes), \" \\ \t
		{"</script>\u2028&", empty + 9 + 3 + 1},                              // RFC 8785 escapes none of these
		{"\xff\xfe", empty - len(`"text":""`) + len(`"text_base64":"//4="`)}, // not UTF-8
	} {
		if got := ledger.RevealLeafSize([]byte(c.text)); got != c.want {
			t.Errorf("RevealLeafSize(%q) = %d, want %d", c.text, got, c.want)
		}
	}

	l, _, _ := newTestLedger(t, ledger.Options{})
	ctx := context.Background()
	player := strings.Repeat(`\`, 256)
	if _, err := l.AppendBody(ctx, &ledger.Body{Kind: ledger.KindCommit, Player: player, ActionType: "bid", Channel: "#auctions", Commitment: strings.Repeat("0", 64)}); err != nil {
		t.Fatal(err)
	}
	zero := int64(0)
	reveal := func(text string) error {
		_, err := l.AppendBody(ctx, &ledger.Body{Kind: ledger.KindReveal, Player: player, Commit: &zero, Text: &text, PostedAt: "2026-01-01T00:00:00Z"})
		return err
	}
	// The longest text of control characters (six bytes each in the leaf)
	// that the bound lets through is appended, in a leaf within the bound.
	text := strings.Repeat("\x01", (ledger.MaxLeafSize-empty)/6)
	if err := reveal(text); err != nil {
		t.Fatalf("a reveal within the bound: %v", err)
	}
	e, err := l.Entry(1)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(e.Leaf, []byte(`"text":"\u0001`)) || len(e.Leaf) > ledger.RevealLeafSize([]byte(text)) {
		t.Fatalf("leaf of %d bytes, bound %d", len(e.Leaf), ledger.RevealLeafSize([]byte(text)))
	}
	// One more control character would pass the limit: the bound says
	// so, and Append refuses it (the real player name and index are
	// small, but a backslash name of 256 bytes and posted_at are here).
	text += "\x01"
	if ledger.RevealLeafSize([]byte(text)) <= ledger.MaxLeafSize {
		t.Fatal("the bound lets through a text six bytes over")
	}
	if err := reveal(strings.Repeat("\x01", (ledger.MaxLeafSize-empty)/6+5)); err == nil || !strings.Contains(err.Error(), "the leaf would be") ||
		strings.Contains(err.Error(), "replay") || !strings.Contains(err.Error(), "a reveal's text") {
		t.Fatalf("a reveal over the limit: %v, want refused in a reveal's terms (trial 5a: it spoke of a result's replay)", err)
	}
}
