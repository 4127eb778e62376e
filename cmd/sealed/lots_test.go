package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The reveal texts of the week: bytes and their commitments, each
// computed with: printf %s "TEXT" | sha256sum (the same texts and hashes
// as verify/testdata/actions and lots.txtar).
var weekTexts = map[string]struct{ text, hash string }{
	"alice":      {"bid 15 on lot 1\nbid 5 on lot 2\nsalt: a1x", "fa5ff666c15e621e5e85affe3c20ca2e8e824d3654e0c67f1503272a3f0c1500"},
	"bob":        {"bid 15 on lot 1\nsalt: b0b", "93ea4dacf289de2e35d58ba5cd064cc7bb23663b79869427d570f86e056bd735"},
	"bob-again":  {"bid 30 on lot 1\nsalt: b2", "9bd612ebbb11339c5f85a7d2574b2d1ba66a7fdb939cfc44d57e271c11bb85cb"},
	"carol":      {"bid 20 on lot 2\nsalt: c4", "322f79c4c73d716822e2eea98b936f653492c54d1eec9a152b32d9c4ca24ab2d"},
	"dan":        {"bid 8 on lot 2\nsalt: d9", "207d24c4f2c4756af646560e15dc7dd5cba996c50f4cddee954fd5204bb4cc47"},
	"erin":       {"hand: 2H 5H 8H JH KH\nsalt: e1", "b46c7dcb54b93c32d27a9e3f529cf07405788dc1619fb82157230367621c7d0d"},
	"frank-hand": {"hand: 5C 6D 7S 8H 9C\nsalt: f2", "7a311e64ba043dbb53324c2b40aa3b41532d40b5d2f977c9c9441781ee08c33a"},
	"frank":      {"bid 5 on lot 3\nsalt: f3", "df2371d9d42cc99cdeef4bd4d70844c5f78e8e922ee7d90d09705ff992bdc47b"},
	"gina":       {"bid 20 on lot 2\nbid 20 on lot 3\nsalt: g5", "693fe87c780d8b866c30c9e32795064a383f4f196ce8d8bfe69a4261b96ba124"},
}

// TestLotsWeekThroughCLI records week 2026-W13 (UTC; Auction Phase Monday
// 03-23 to Thursday 03-26 00:00, revelation date Sunday 03-29 00:00) with
// the CLI, every entry with --posted-at, and concludes it. Worked by hand
// (points before: alice 50, bob 40, carol 30, dan 20, erin 10, frank 0,
// gina 30, hank 5; prizes 10, 5):
//
//   - #2 bob's second bid, posted while #1 is outstanding: fails (S1).
//   - #3 carol's bid, edited Tuesday before maturation: fails (S4).
//   - #5 dan's bid, revealed Sunday 00:30: late, fails.
//   - #10 hank posts alice's commitment: recorded, flagged as a copy, and
//     never revealed: fails.
//   - Hands: erin's flush (king high) beats frank's straight (nine high):
//     erin 1st +10, frank 2nd +5, their five cards destroyed.
//   - gina's bids 20 + 20 = 40 > 30 points: both fail (S6).
//   - Lot 1: alice 15 and bob 15, alice's post earlier (S7): alice, 15.
//     Lot 2: alice 5. Lot 3: frank 5 (affordable only after his prize).
//   - Points after: alice 30, bob 40, carol 30, dan 20, erin 20, frank 0,
//     gina 30, hank 5.
func TestLotsWeekThroughCLI(t *testing.T) {
	db, key := newCLILedger(t)
	dir := t.TempDir()
	L := []string{"--db", db, "--key", key}
	post := func(player, typ, name, at string) {
		mustRun(t, 0, "", append([]string{"action", "post", "--player", player, "--type", typ, "--commitment", weekTexts[name].hash, "--posted-at", at}, L...)...)
	}
	reveal := func(player, commit, name, at string) {
		f := filepath.Join(dir, name+".txt")
		if err := os.WriteFile(f, []byte(weekTexts[name].text), 0o600); err != nil {
			t.Fatal(err)
		}
		mustRun(t, 0, "", append([]string{"action", "reveal", "--player", player, "--commit", commit, "--file", f, "--posted-at", at}, L...)...)
	}
	post("alice", "bid", "alice", "2026-03-23T09:00:00Z")                                                                                       // 0
	post("bob", "bid", "bob", "2026-03-23T10:00:00Z")                                                                                           // 1
	post("bob", "bid", "bob-again", "2026-03-24T10:00:00Z")                                                                                     // 2
	post("carol", "bid", "carol", "2026-03-24T11:00:00Z")                                                                                       // 3
	mustRun(t, 0, "", append([]string{"action", "edit", "--player", "carol", "--commit", "3", "--posted-at", "2026-03-24T12:00:00Z"}, L...)...) // 4
	post("dan", "bid", "dan", "2026-03-24T12:30:00Z")                                                                                           // 5
	post("erin", "hand", "erin", "2026-03-25T08:00:00Z")                                                                                        // 6
	post("frank", "hand", "frank-hand", "2026-03-25T09:00:00Z")                                                                                 // 7
	post("frank", "bid", "frank", "2026-03-25T10:00:00Z")                                                                                       // 8
	post("gina", "bid", "gina", "2026-03-25T11:00:00Z")                                                                                         // 9
	post("hank", "bid", "alice", "2026-03-25T12:00:00Z")                                                                                        // 10
	reveal("alice", "0", "alice", "2026-03-27T09:00:00Z")
	reveal("bob", "1", "bob", "2026-03-27T10:00:00Z")
	reveal("bob", "2", "bob-again", "2026-03-27T10:05:00Z")
	reveal("carol", "3", "carol", "2026-03-27T11:00:00Z")
	reveal("erin", "6", "erin", "2026-03-28T09:00:00Z")
	reveal("frank", "7", "frank-hand", "2026-03-28T09:10:00Z")
	reveal("frank", "8", "frank", "2026-03-28T09:20:00Z")
	reveal("gina", "9", "gina", "2026-03-28T09:30:00Z")
	reveal("dan", "5", "dan", "2026-03-29T00:30:00Z") // 19

	points := filepath.Join(dir, "points.json")
	cards := filepath.Join(dir, "cards.json")
	if err := os.WriteFile(points, []byte(`{"alice": 50, "bob": 40, "carol": 30, "dan": 20, "erin": 10, "frank": 0, "gina": 30, "hank": 5}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cards, []byte(`{"erin": ["2H","5H","8H","JH","KH","AS"], "frank": ["5C","6D","7S","8H","9C"]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	stdout, _ := mustRun(t, 0, "", "--json", "lots", "conclude", "--db", db, "--week", "2026-W13", "--points", points, "--possessions", cards, "--prizes", "10,5")
	var out struct {
		At      string `json:"at"`
		Actions []struct {
			Post    struct{ Index int64 }
			State   string
			Failure *struct {
				Reason string
				Why    struct{ Text string }
			}
			Flags []struct{ Kind string }
		}
		Outcome struct {
			Hands []struct {
				Player string
				Place  int
			}
			Lots []struct {
				Lot, Winner string
				Price       int64
			}
			Bids []struct {
				Player, Lot, Status string
			}
			Points      map[string]int64
			Possessions map[string][]string
		}
	}
	if err := json.Unmarshal([]byte(stdout), &out); err != nil {
		t.Fatal(err)
	}
	if out.At != "2026-03-29T00:00:00Z" {
		t.Errorf("concluded at %s", out.At)
	}
	failed := map[int64]string{}
	for _, a := range out.Actions {
		if a.Failure != nil {
			failed[a.Post.Index] = a.Failure.Reason
			if a.Failure.Why.Text == "" {
				t.Errorf("failure of %d not explained", a.Post.Index)
			}
		}
		if a.Post.Index == 10 && (len(a.Flags) != 1 || a.Flags[0].Kind != "copied commitment") {
			t.Errorf("hank's post not flagged as a copy: %+v", a.Flags)
		}
	}
	wantFailed := map[int64]string{2: "new attempt while another is outstanding", 3: "edited before maturation", 5: "not revealed by the revelation date", 10: "not revealed by the revelation date"}
	if len(failed) != len(wantFailed) {
		t.Errorf("failed %v, want %v", failed, wantFailed)
	}
	for i, r := range wantFailed {
		if failed[i] != r {
			t.Errorf("action %d failed %q, want %q", i, failed[i], r)
		}
	}
	places := map[string]int{}
	for _, h := range out.Outcome.Hands {
		places[h.Player] = h.Place
	}
	if places["erin"] != 1 || places["frank"] != 2 {
		t.Errorf("placements %v", places)
	}
	lots := map[string]string{}
	for _, l := range out.Outcome.Lots {
		lots[l.Lot] = fmt.Sprintf("%s %d", l.Winner, l.Price)
	}
	if lots["1"] != "alice 15" || lots["2"] != "alice 5" || lots["3"] != "frank 5" || len(lots) != 3 {
		t.Errorf("lots %v", lots)
	}
	for _, b := range out.Outcome.Bids {
		if b.Player == "gina" && b.Status != "failed" {
			t.Errorf("gina's bid on %s %s", b.Lot, b.Status)
		}
	}
	want := map[string]int64{"alice": 30, "bob": 40, "carol": 30, "dan": 20, "erin": 20, "frank": 0, "gina": 30, "hank": 5}
	for p, n := range want {
		if out.Outcome.Points[p] != n {
			t.Errorf("points of %s: %d, want %d", p, out.Outcome.Points[p], n)
		}
	}
	if c := out.Outcome.Possessions["erin"]; len(c) != 1 || c[0] != "AS" {
		t.Errorf("erin keeps %v", c)
	}

	// The text output explains the same.
	stdout, _ = mustRun(t, 0, "", "lots", "conclude", "--db", db, "--week", "2026-W13", "--points", points, "--possessions", cards, "--prizes", "10,5")
	for _, s := range []string{
		"#5 dan bid posted 2026-03-24T12:30:00Z (posted_at): failed: not revealed by the revelation date",
		"reveal at ledger index 19 came at or after the revelation date: late, does not count",
		"lot 1: alice for 15",
		"alice 50 -> 30 (won lots [1 2])",
		"#6 erin [2H 5H 8H JH KH]: placed 1 (flush, king high), prize 10",
	} {
		if !strings.Contains(stdout, s) {
			t.Errorf("text output lacks %q:\n%s", s, stdout)
		}
	}

	// The ledger the CLI wrote audits clean.
	r, err := readLedger(t, db).Audit(context.Background(), nil)
	if err != nil || !r.OK || r.Size != 20 {
		t.Fatalf("audit %+v, %v; want clean with 20 entries", r, err)
	}
}
