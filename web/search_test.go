package web

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/sealedhq/sealed/ledger"
)

// TestSearchSeedCommitmentAndPlayer: a seed commitment (the hash of a
// seed-commit entry) is found and goes to its entry; a player's name goes
// to the entries naming the player, which lists exactly them; an unknown
// name is a 404 that names it, escaped.
func TestSearchSeedCommitmentAndPlayer(t *testing.T) {
	f := newFixture(t)
	// printf %s 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f | sha256sum
	const seedCommitment = "6c86c6aac5fb24bcf5d9939cb7d7d5645ce39418f449e03b262dd4fa14b4b92b"
	f.add(t, "seed-commit", "2026-03-08T12:00:00Z", &ledger.Body{Kind: ledger.KindSeedCommit, Game: "auction", MatchID: "m9",
		RulesVersion: "auction-0.2", Config: []byte(`{"players":3}`), Commitment: seedCommitment})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := f.w.WaitCheckpoint(ctx, 10); err != nil {
		t.Fatal(err)
	}
	s := f.server(t, nil)
	for _, q := range []string{seedCommitment, "sha256:" + strings.ToUpper(seedCommitment)} {
		w := do(s, "GET", "/search?q="+url.QueryEscape(q), "")
		if want := fmt.Sprintf("/entry/%d", f.idx["seed-commit"]); w.Code != http.StatusSeeOther || w.Header().Get("Location") != want {
			t.Errorf("search %q: %d to %q, want 303 to %q", q, w.Code, w.Header().Get("Location"), want)
		}
	}
	// alice's entries, by the fixture's table: the commit at 0, the reveal at 3.
	w := do(s, "GET", "/ledger?player=alice", "")
	if w.Code != http.StatusOK {
		t.Fatalf("/ledger?player=alice: %d", w.Code)
	}
	body := w.Body.String()
	for _, want := range []string{`href="/entry/0"`, `href="/entry/3"`, "2 entries"} {
		if !strings.Contains(body, want) {
			t.Errorf("/ledger?player=alice lacks %q", want)
		}
	}
	for _, absent := range []string{`href="/entry/1"`, `href="/entry/4"`, `href="/entry/6"`} {
		if strings.Contains(body, absent) {
			t.Errorf("/ledger?player=alice has %q, an entry of another player", absent)
		}
	}
	w = do(s, "GET", "/search?q="+url.QueryEscape("<b>zed</b>"), "")
	if w.Code != http.StatusNotFound || !strings.Contains(w.Body.String(), "&lt;b&gt;zed&lt;/b&gt;") || strings.Contains(w.Body.String(), "<b>zed") {
		t.Errorf("search of an unknown name: %d %s", w.Code, w.Body.String())
	}
	if w := do(s, "GET", "/ledger?player=zed", ""); w.Code != http.StatusNotFound {
		t.Errorf("/ledger?player=zed: %d, want 404", w.Code)
	}
}

// TestSearchIndexOnePass: the search index is filled by the judgement's
// pass over the checked entries, both when that pass reads the entries
// itself and when another caller checked them first (read back); it then
// holds, for every player, replay digest and seed commitment, exactly the
// entries a plain read of every body names. An entry appended by another
// writer is found by the next search that misses it, and, once the
// judgement is checked again, listed on its player's page.
func TestSearchIndexOnePass(t *testing.T) {
	for _, checkedFirst := range []bool{false, true} {
		t.Run(fmt.Sprintf("checked-first=%v", checkedFirst), func(t *testing.T) {
			f := newFixture(t)
			ctx := context.Background()
			if checkedFirst {
				if _, err := f.r.VerifiedSize(ctx); err != nil {
					t.Fatal(err)
				}
			}
			s := f.server(t, func(o *Options) { o.JudgeTTL = time.Millisecond })
			if w := do(s, "GET", "/search?q=alice", ""); w.Code != http.StatusSeeOther {
				t.Fatalf("search alice: %d", w.Code)
			}
			// Appended by the writer, which the server does not hear of.
			const seedCommitment = "6c86c6aac5fb24bcf5d9939cb7d7d5645ce39418f449e03b262dd4fa14b4b92b"
			f.add(t, "seed-commit", "2026-03-08T12:00:00Z", &ledger.Body{Kind: ledger.KindSeedCommit, Game: "auction", MatchID: "m9",
				RulesVersion: "auction-0.2", Config: []byte(`{"players":3}`), Commitment: seedCommitment})
			alice := f.idx["alice"]
			f.add(t, "alice-edit", "2026-03-08T13:00:00Z", &ledger.Body{Kind: ledger.KindEdit, Commit: &alice, Player: "alice"})
			f.add(t, "oscar", "2026-03-08T14:00:00Z", &ledger.Body{Kind: ledger.KindCommit, Player: "oscar", ActionType: "bid", Channel: "#auctions",
				Commitment: strings.Repeat("ab", 32)})
			d := f.digest["auction"]
			f.add(t, "auction-again", "2026-03-08T15:00:00Z", &ledger.Body{Kind: ledger.KindResult, Game: "auction", MatchID: "again", ReplaySHA256: d, Summary: []byte(`{"note":"test"}`)})
			for q, want := range map[string]string{
				seedCommitment: fmt.Sprintf("/entry/%d", f.idx["seed-commit"]),
				"oscar":        "/ledger?player=oscar",
			} {
				if w := do(s, "GET", "/search?q="+url.QueryEscape(q), ""); w.Code != http.StatusSeeOther || w.Header().Get("Location") != want {
					t.Errorf("search %q after the append: %d to %q, want %q", q, w.Code, w.Header().Get("Location"), want)
				}
			}
			time.Sleep(5 * time.Millisecond) // past the judgement's TTL
			if w := do(s, "GET", "/ledger?player=alice", ""); !strings.Contains(w.Body.String(), fmt.Sprintf(`href="/entry/%d"`, f.idx["alice-edit"])) {
				t.Errorf("/ledger?player=alice after the edit: %d, lacks the edit entry %d", w.Code, f.idx["alice-edit"])
			}
			// Every name the bodies hold, read plainly, against the index.
			players, results, seeds := map[string][]int64{}, map[string][]int64{}, map[string][]int64{}
			es, err := f.r.Entries(0, ledger.MaxEntries)
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range es {
				b, err := e.Body()
				if err != nil {
					t.Fatal(err)
				}
				if b.Player != "" {
					players[b.Player] = append(players[b.Player], e.Index)
				}
				switch e.Kind {
				case ledger.KindResult:
					results[b.ReplaySHA256] = append(results[b.ReplaySHA256], e.Index)
				case ledger.KindSeedCommit:
					seeds[b.Commitment] = append(seeds[b.Commitment], e.Index)
				}
			}
			if len(players) != 4 || len(results) != 3 || len(seeds) != 1 {
				t.Fatalf("the fixture names %d players, %d digests, %d seeds", len(players), len(results), len(seeds))
			}
			for p, want := range players {
				got, err := s.judge.entriesOfPlayer(p)
				if err != nil || fmt.Sprint(got) != fmt.Sprint(want) {
					t.Errorf("entries of %q: %v %v, want %v", p, got, err, want)
				}
			}
			for dg, want := range results {
				got, err := s.judge.resultsNaming(dg)
				var idx []int64
				for _, r := range got {
					idx = append(idx, r.Index)
				}
				if err != nil || fmt.Sprint(idx) != fmt.Sprint(want) {
					t.Errorf("results naming %s: %v %v, want %v", dg, idx, err, want)
				}
			}
			for c, want := range seeds {
				if got, err := s.judge.seedCommitsOf(c); err != nil || fmt.Sprint(got) != fmt.Sprint(want) {
					t.Errorf("seed-commits of %s: %v %v, want %v", c, got, err, want)
				}
			}
		})
	}
}

// TestSearchPlayerNamedLikeIndexOrHash (newcomer trial 6, design note 2):
// writers accept a player named "12" or with 64 hex digits; a search for
// the name finds the player when no entry has that index and nothing has
// that hash. An index the ledger holds still goes to its entry.
func TestSearchPlayerNamedLikeIndexOrHash(t *testing.T) {
	f := newFixture(t)
	hexName := strings.Repeat("0123456789abcdef", 4)
	// Any commitments will do: these actions are never revealed.
	f.add(t, "twelve", "2026-03-08T12:00:00Z", &ledger.Body{Kind: ledger.KindCommit, Player: "12", ActionType: "bid", Channel: "#auctions",
		Commitment: strings.Repeat("12", 32)})
	f.add(t, "hexname", "2026-03-08T13:00:00Z", &ledger.Body{Kind: ledger.KindCommit, Player: hexName, ActionType: "bid", Channel: "#auctions",
		Commitment: strings.Repeat("34", 32)})
	f.add(t, "three", "2026-03-08T14:00:00Z", &ledger.Body{Kind: ledger.KindCommit, Player: "3", ActionType: "bid", Channel: "#auctions",
		Commitment: strings.Repeat("56", 32)})
	s := f.server(t, nil)
	for q, want := range map[string]string{
		"12":    "/ledger?player=12", // the ledger has 12 entries: index 12 is past its end
		hexName: "/ledger?player=" + hexName,
		"3":     "/entry/3", // an index the ledger holds goes to its entry
		"99":    "/entry/99",
	} {
		w := do(s, "GET", "/search?q="+url.QueryEscape(q), "")
		if w.Code != http.StatusSeeOther || w.Header().Get("Location") != want {
			t.Errorf("search %q: %d to %q, want 303 to %q", q, w.Code, w.Header().Get("Location"), want)
		}
	}
	if w := do(s, "GET", "/search?q="+strings.Repeat("ab", 32), ""); w.Code != http.StatusNotFound {
		t.Errorf("a hash nothing has and no player is named: %d, want 404", w.Code)
	}
}

// TestSearchLookalikeName: a search, or a player page, for a name no
// entry names but that renders like a player's (the NFD form of an NFC
// name, a Cyrillic letter for a Latin one) is still a 404, and names the
// player it looks like, both spelled out, with a link to their entries;
// a name like no player's gets the plain 404. (Trial 10c: the 404 said
// "no entry names the player "Zoë"" for the NFD form of the player
// "Zoë", the two identical on the page.)
func TestSearchLookalikeName(t *testing.T) {
	f := newFixture(t)
	// "Zo\u00eb", NFC: Z o U+00EB; its NFD form is Z o e U+0308.
	f.add(t, "zoe", "2026-03-02T12:00:00Z", &ledger.Body{Kind: ledger.KindCommit, Player: "Zo\u00eb", ActionType: "bid", Channel: "#auctions",
		Commitment: "b6df194f85ff09e98c9e4753cb08e989e15a70324df604cc6eef65e7b6eec1fa"})
	s := f.server(t, nil)
	for _, c := range []struct{ q, player, link, spelled string }{
		{"\u0430lice", "alice", `href="/ledger?player=alice"`, `&#34;\u0430lice&#34;`},
		{"Zoe\u0308", "Zo\u00eb", `href="/ledger?player=Zo%C3%AB"`, `&#34;Zoe\u0308&#34;`},
	} {
		for _, target := range []string{"/search?q=" + url.QueryEscape(c.q), "/ledger?player=" + url.QueryEscape(c.q)} {
			w := do(s, "GET", target, "")
			body := w.Body.String()
			if w.Code != http.StatusNotFound {
				t.Errorf("%s: %d, want 404", target, w.Code)
			}
			for _, want := range []string{"looks like the player &#34;" + c.player + "&#34;", c.link, c.spelled} {
				if !strings.Contains(body, want) {
					t.Errorf("%s lacks %q:\n%s", target, want, body)
				}
			}
		}
	}
	// Zoë's page: one entry, "1 entry", not "1 entries".
	if w := do(s, "GET", "/ledger?player="+url.QueryEscape("Zo\u00eb"), ""); w.Code != http.StatusOK || !strings.Contains(w.Body.String(), ">1 entry · page 1 of 1") {
		t.Errorf("Zo\u00eb's page: %d\n%s", w.Code, w.Body.String())
	}
	w := do(s, "GET", "/search?q=zed", "")
	if w.Code != http.StatusNotFound || strings.Contains(w.Body.String(), "looks like") {
		t.Errorf("search zed: %d %s", w.Code, w.Body.String())
	}
}

// TestVerifyNamesHiddenCharacters: the /verify answer re-shows the reveal
// in its text box as the bytes themselves (so that it can be checked
// again), where a bidi control reorders the text around it; the answer
// names each such character with its byte offset, as the commitment page
// does. (Trial 10c: it named none.) The commitment is
// printf 'a\xe2\x80\xaeb\nsalt: \xe2\x81\xa6q' | sha256sum.
func TestVerifyNamesHiddenCharacters(t *testing.T) {
	f := newFixture(t)
	s := f.server(t, nil)
	const h = "08607355be31fd247f056dcb5a9a95d99ff0c2d3c2d36e0a8b64afe5d06d6ff0"
	form := url.Values{"hash": {h}, "reveal": {"a\u202eb\r\nsalt: \u2066q"}}.Encode()
	w := do(s, "POST", "/verify", form, "Content-Type", "application/x-www-form-urlencoded")
	body := w.Body.String()
	if w.Code != http.StatusOK || !strings.Contains(body, "Match: the reveal hashes to the commitment") {
		t.Fatalf("POST /verify: %d\n%s", w.Code, body)
	}
	// Offsets in the bytes checked (CRLF turned into LF): U+202E at 1,
	// U+2066 at 1+3+1+1+6 = 12.
	for _, want := range []string{"contains U&#43;202E RIGHT-TO-LEFT OVERRIDE at byte 1", "contains U&#43;2066 LEFT-TO-RIGHT ISOLATE at byte 12"} {
		if !strings.Contains(body, want) {
			t.Errorf("POST /verify lacks %q:\n%s", want, body)
		}
	}
	w = do(s, "POST", "/verify", url.Values{"hash": {h}, "reveal": {"plain"}}.Encode(), "Content-Type", "application/x-www-form-urlencoded")
	if strings.Contains(w.Body.String(), "reorder the text") {
		t.Errorf("POST /verify of plain text notes hidden characters:\n%s", w.Body.String())
	}
}

// TestCommitmentRevealTimeOfRecord: a reveal imported with its posted_at
// shows that time ("posted in the channel"), the one the judge compares
// with the window, beside its integration time; a reveal that hashes to
// the commitment but came before the maturation date says it did not
// count, not only "matches the commitment" (trial 10c: an early reveal
// showed only its integration time and "matches the commitment").
func TestCommitmentRevealTimeOfRecord(t *testing.T) {
	f := newFixture(t)
	v := readVector(t, "weak") // "I bid 15 on lot 3\nsalt: 42"
	f.add(t, "dora", "2026-03-08T00:00:00Z", &ledger.Body{Kind: ledger.KindCommit, Player: "dora", ActionType: "bid", Channel: "#auctions",
		Commitment: v.Commitment, PostedAt: "2026-03-02T12:00:00Z"})
	c, text := f.idx["dora"], string(v.Text)
	// Wednesday 10:00, before Thursday 2026-03-05 00:00, the maturation date.
	f.add(t, "dora-reveal", "2026-03-08T00:00:01Z", &ledger.Body{Kind: ledger.KindReveal, Commit: &c, Player: "dora", Text: &text, PostedAt: "2026-03-04T10:00:00Z"})
	s := f.server(t, nil)
	w := do(s, "GET", "/c/"+v.Commitment, "")
	body := w.Body.String()
	if w.Code != http.StatusOK {
		t.Fatalf("/c: %d", w.Code)
	}
	for _, want := range []string{
		"integrated 2026-03-08 00:00:01 UTC; posted in the channel 2026-03-04 10:00:00 UTC · 26 bytes",
		`<span class="ok">matches the commitment</span> · <span class="bad">this reveal did not count</span>`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("/c/%s lacks %q:\n%s", v.Commitment, want, body)
		}
	}
	// alice's reveal counted: it says so, and not that it did not.
	w = do(s, "GET", "/c/"+readVector(t, "bid").Commitment, "")
	if b := w.Body.String(); !strings.Contains(b, "this reveal counted") || strings.Contains(b, "did not count") {
		t.Errorf("alice's commitment page:\n%s", b)
	}
}
