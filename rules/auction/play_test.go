package auction

import (
	"encoding/hex"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

func bots(t testing.TB, seed []byte, names ...string) []Bot {
	t.Helper()
	out := make([]Bot, len(names))
	for s, n := range names {
		b, err := NewBot(n, seed, s)
		if err != nil {
			t.Fatal(err)
		}
		out[s] = b
	}
	return out
}

func TestPlayTruthfulHand(t *testing.T) {
	// Three truthful bots bid their values (capped at credits) under first
	// pricing on the hand table (values in match_test.go):
	// item 1 [20 49 18] -> seat 1 pays 49, profit 0, 51 credits left;
	// item 2 [20 46 55] -> seat 2 pays 55, profit 0, 45 left;
	// item 3 [54 46 5] -> seat 0 pays 54, profit 0, 46 left.
	cfg := handConfig(FirstPrice)
	cfg.TalkRounds = 1
	r, err := Play(handSeed, cfg, bots(t, handSeed, "truthful", "truthful", "truthful"))
	if err != nil {
		t.Fatal(err)
	}
	// Per item: item_up, 3 value_private, 3 talk, bidding_open, 3 bids,
	// bids_revealed, item_result, profit_update = 14; 3 items + auction_end.
	// printf %s 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f | sha256sum
	if r.SeedCommitment != "6c86c6aac5fb24bcf5d9939cb7d7d5645ce39418f449e03b262dd4fa14b4b92b" || r.Seed != hex.EncodeToString(handSeed) {
		t.Errorf("seed %s commitment %s", r.Seed, r.SeedCommitment)
	}
	if len(r.Events) != 43 {
		t.Fatalf("%d events, want 43", len(r.Events))
	}
	var winners []int
	for _, e := range r.Events {
		if e.Type == EventItemResult {
			winners = append(winners, *e.Winner, *e.Price, *e.Profit)
		}
	}
	if want := []int{1, 49, 0, 2, 55, 0, 0, 54, 0}; !reflect.DeepEqual(winners, want) {
		t.Errorf("winner, price, profit per item %v, want %v", winners, want)
	}
	end := r.Events[len(r.Events)-1]
	if want := []PlayerState{{0, 46, 0, 1}, {1, 51, 0, 1}, {2, 45, 0, 1}}; !reflect.DeepEqual(end.Players, want) {
		t.Errorf("auction_end players %v, want %v", end.Players, want)
	}
	if r.Events[4].Type != EventAction || r.Events[4].Action != "say" || *r.Events[4].Message != "Item 1 is worth 20 to me." {
		t.Errorf("event 4 = %+v, want seat 0's say", r.Events[4])
	}
}

func TestPlayReproducible(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Players = 8
	names := []string{"truthful", "shading", "random", "idle", "random", "shading", "truthful", "random"}
	a, err := Play(handSeed, cfg, bots(t, handSeed, names...))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Play(handSeed, cfg, bots(t, handSeed, names...))
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	if string(ja) != string(jb) {
		t.Fatal("two plays of the same seed and bots differ")
	}
	if !strings.Contains(string(ja), `"type":"timeout","item":1,"seat":3,"phase":"bid"`) {
		t.Error("the idle bot's bid timeout is not in the replay")
	}
}

func TestNewBotUnknown(t *testing.T) {
	if _, err := NewBot("greedy", handSeed, 0); err == nil || !strings.Contains(err.Error(), "truthful, shading, random, idle") {
		t.Errorf("unknown bot: %v", err)
	}
	if _, err := Play(handSeed, handConfig(FirstPrice), bots(t, handSeed, "idle")); err == nil {
		t.Error("one bot for three seats was accepted")
	}
}

func BenchmarkMatch8x10(b *testing.B) {
	cfg := DefaultConfig()
	cfg.Players = 8
	bids := make([]int, 8)
	for i := range bids {
		bids[i] = 3 * i
	}
	b.ReportAllocs()
	for b.Loop() {
		m, _ := NewMatch(handSeed, cfg)
		for !m.Over() {
			t := m.Turn()
			if t.Phase == PhaseTalk {
				m.Apply(Action{Kind: Pass, Seat: t.Seat})
			} else {
				m.Apply(Action{Kind: Bid, Seat: t.Seat, Amount: min(bids[t.Seat], m.credits[t.Seat])})
			}
		}
	}
}

func TestEncodeRoundTrip(t *testing.T) {
	cfg := handConfig(FirstPrice)
	cfg.Stake = dec("2.50")
	r, err := Play(handSeed, cfg, bots(t, handSeed, "truthful", "random", "shading"))
	if err != nil {
		t.Fatal(err)
	}
	r.Events[5].Message = ptr("<b>&</b>")
	data, err := r.Encode()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), `"message":"<b>&</b>"`) {
		t.Error("HTML characters were escaped")
	}
	if !strings.Contains(string(data), "\n    {\"type\":\"item_up\",\"item\":1},\n") {
		t.Errorf("events are not one per line:\n%s", data)
	}
	var back Replay
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	want, _ := json.Marshal(r)
	got, _ := json.Marshal(&back)
	if string(got) != string(want) {
		t.Errorf("round trip differs:\n%s\n%s", got, want)
	}
}
