package verify

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/sealedhq/sealed/rules/bargain"
)

// TestDerivationBargain: what CheckReplayDerived derives from the docs
// example (testdata/bargain_example.json, docs/replays.md "Example") does
// not move when the replay's claims do: with match 0's pool claimed
// [4,4,4], the first offer's worth [4,4], the first matchEnd's payoff
// [9,9] and scores[0] 0.99 (the newcomer trial's edit), the derivation is
// the example's own values (pool [3,2,2]; worth [10,2]; payoff [6,8];
// points 15, 8, 10; scores 0.7500, 0.4000, 0.5000; match 2 no_deal after
// 4 turns), and the report is CheckReplay's.
func TestDerivationBargain(t *testing.T) {
	b := readTestdata(t, "bargain_example.json")
	bad := []byte(strings.NewReplacer(`"pool":[3,2,2]`, `"pool":[4,4,4]`, `"worth":[10,2]`, `"worth":[4,4]`,
		`"outcome":"deal","payoff":[6,8]`, `"outcome":"deal","payoff":[9,9]`, `"scores":[0.7500,`, `"scores":[0.99,`).Replace(b))
	for _, data := range [][]byte{[]byte(b), bad} {
		rep, d, err := CheckReplayDerived(data, ReplayOptions{})
		if err != nil {
			t.Fatal(err)
		}
		want, _ := CheckReplay(data)
		if !reflect.DeepEqual(rep, want) {
			t.Errorf("report %+v; CheckReplay's %+v", rep, want)
		}
		bd := d.Bargain
		if d.Auction != nil || bd == nil || bd.Engine || len(bd.Matches) != 3 {
			t.Fatalf("derivation %+v", d)
		}
		m0 := &bd.Matches[0]
		if m0.Plan.Pool != (bargain.Vector{3, 2, 2}) || m0.Plan.Values != [2]bargain.Vector{{2, 0, 2}, {0, 1, 4}} ||
			len(m0.Moves) != 3 || m0.Moves[0].Move.Worth != [2]int{10, 2} || m0.Moves[0].Event != 2 || m0.Moves[0].Text != "I ask for 10 of my 10." {
			t.Errorf("match 0: %+v", m0)
		}
		if end := m0.Settled(); end == nil || end.Payoff != [2]int{6, 8} || end.Outcome != bargain.OutcomeDeal || end.TurnsUsed != 3 {
			t.Errorf("match 0 settled by %+v", end)
		}
		if end := bd.Matches[2].Settled(); end == nil || end.Outcome != bargain.OutcomeNoDeal || end.TurnsUsed != 4 {
			t.Errorf("match 2 settled by %+v", end)
		}
		if bd.Results.Points != [3]int{15, 8, 10} || bd.Scores != [3]string{"0.7500", "0.4000", "0.5000"} ||
			bd.Giveaway != [3]string{"1.5000", "-1.0000", "-0.5000"} || bd.Results.Reason != bargain.ReasonComplete {
			t.Errorf("results %+v scores %q giveaway %q", bd.Results, bd.Scores, bd.Giveaway)
		}
	}
	// Events that end inside match 1 (after its first offer): match 1 is
	// begun, its one move applied, and not settled.
	i := strings.Index(b, `    {"kind":"offer","match":1,"turn":2`)
	cut := b[:i] + `    {"kind":"end","match":1,"text":"complete"}` + "\n  ],\n" + b[strings.Index(b, `  "results"`):]
	_, d, err := CheckReplayDerived([]byte(cut), ReplayOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if m := d.Bargain.Matches; len(m) != 2 || len(m[1].Moves) != 1 || m[1].Settled() != nil || d.Bargain.Results.MatchesPlayed != 1 {
		t.Errorf("cut inside match 1: %+v", d.Bargain)
	}
}

// TestDerivationEngine: an engine replay's derivation carries the aliases
// its integer seed gives and scores in the engine's float form: the docs
// example (testdata/engine_example.json: Widget, Rivet, Sprocket; scores
// 0.55, 0.9, 0.9; giveaway 2.5, -2.0, -0.5), and for every replay the
// engine wrote (generated with Metta-AI/cogame-negotiation-games, MIT) the
// report is CheckReplay's and the derivation's results are the file's.
func TestDerivationEngine(t *testing.T) {
	_, d, err := CheckReplayDerived([]byte(readTestdata(t, "engine_example.json")), ReplayOptions{})
	if err != nil {
		t.Fatal(err)
	}
	bd := d.Bargain
	if !bd.Engine || bd.Names != [3]string{"Widget", "Rivet", "Sprocket"} || bd.Scores != [3]string{"0.55", "0.9", "0.9"} ||
		bd.Giveaway != [3]string{"2.5", "-2.0", "-0.5"} || bd.Results.Points != [3]int{11, 18, 18} {
		t.Errorf("derivation %+v", bd)
	}
	files, _ := filepath.Glob(filepath.Join(engineDir, "*.json"))
	if len(files) != 65 {
		t.Fatalf("%d engine replays", len(files))
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		rep, d, err := CheckReplayDerived(data, ReplayOptions{})
		want, _ := CheckReplay(data)
		if err != nil || !reflect.DeepEqual(rep, want) || !rep.Clean() {
			t.Fatalf("%s: %v %+v; CheckReplay's %+v", f, err, rep, want)
		}
		p := d.Bargain.Results.Points
		if want := fmt.Sprintf(`"points":[%d,%d,%d]`, p[0], p[1], p[2]); !strings.Contains(string(data), want) {
			t.Errorf("%s: derived points %v", f, p)
		}
	}
}

// TestDerivationAuction: the docs example auction
// (testdata/auction_example.json: item 1 to seat 1 for 36, value 49,
// profit 13; item 2 to seat 1 for 34, value 46, profit 12; seat 1 ranked 1
// with profit 25 and 30 credits; pot 30.00, rake 1.50, seat 1 paid 28.50)
// derives the same with item 1's claimed value 777 and profit 555; cut
// after item 1, it derives item 1 and the standings after it, and no
// ranking or payouts.
func TestDerivationAuction(t *testing.T) {
	a := readTestdata(t, "auction_example.json")
	bad := edit(t, a, `"winner":1,"price":36,"value":49,"profit":13`, `"winner":1,"price":36,"value":777,"profit":555`)
	rep, d, err := CheckReplayDerived(bad, ReplayOptions{})
	if err != nil || len(rep.Differences) != 2 {
		t.Fatalf("%v %+v", err, rep)
	}
	ad := d.Auction
	if d.Bargain != nil || ad == nil || !ad.Complete || len(ad.Items) != 2 {
		t.Fatalf("derivation %+v", d)
	}
	if it := ad.Items[0]; [3]int(it.Bids[:3]) != [3]int{20, 36, 30} || it.Winner != 1 || it.Price != 36 || it.Value != 49 || it.Profit != 13 {
		t.Errorf("item 1: %+v", it)
	}
	if it := ad.Items[1]; it.Winner != 1 || it.Price != 34 || it.Value != 46 || it.Profit != 12 {
		t.Errorf("item 2: %+v", it)
	}
	if p := ad.Players[1]; p.Credits != 30 || p.Profit != 25 || p.ItemsWon != 2 {
		t.Errorf("seat 1: %+v", p)
	}
	if len(ad.Ranking) != 3 || ad.Ranking[0].Seat != 1 || ad.Ranking[0].Score != 25 || ad.Payout == nil ||
		ad.Payout.Pot.Text('f') != "30.00" || ad.Payout.Rake.Text('f') != "1.50" || ad.Payout.Amounts[1].Text('f') != "28.50" {
		t.Errorf("ranking %+v payout %+v", ad.Ranking, ad.Payout)
	}

	i := strings.Index(a, `    {"type":"item_up","item":2}`)
	cut := a[:i] + "    " + `{"type":"auction_end","players":[]}` + "\n  ],\n" + a[strings.Index(a, `  "results"`):]
	rep, d, err = CheckReplayDerived([]byte(cut), ReplayOptions{})
	if err != nil || rep.Clean() {
		t.Fatalf("cut: %v %+v", err, rep)
	}
	ad = d.Auction
	if ad.Complete || len(ad.Items) != 1 || ad.Ranking != nil || ad.Payout != nil || ad.Players[1].Credits != 64 {
		t.Errorf("cut after item 1: %+v", ad)
	}
}
