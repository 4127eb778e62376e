package bargain

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"testing"
)

// TestHaggleChoice: worked by hand for pool 2,4,1 and values 1,2,0 (match 0
// of the counting seed). Takes worth >= 8, cheapest first: worth 8 is
// reached by 0,4,0 (4 items), 2,3,0 (5) and 0,4,1 (5); the fewest items
// wins, so Greedy's opening offer is 0,4,0.
func TestHaggleChoice(t *testing.T) {
	v := View{Pool: Vector{2, 4, 1}, Values: Vector{1, 2, 0}, Turn: 1, MaxTurns: 10}
	if d := (Greedy{}).Decide(v); d.Accept || d.Take != (Vector{0, 4, 0}) {
		t.Errorf("greedy turn 1: %+v", d)
	}
	// Fair on turn 1 asks for 10: the cheapest take worth 10 with the fewest
	// items is 2,4,0 (the ball is worth 0 to it).
	if d := (Fair{}).Decide(v); d.Accept || d.Take != (Vector{2, 4, 0}) || d.Message != "I ask for 10 of my 10." {
		t.Errorf("fair turn 1: %+v", d)
	}
	// A standing offer leaving it 1,2,0 (worth 5): Greedy (R = 8) refuses on
	// turn 4, accepts on its last turn 10 (R = 3); Fair accepts from R <= 5.
	v.HasStanding, v.Receive, v.Turn = true, Vector{1, 2, 0}, 4
	if d := (Greedy{}).Decide(v); d.Accept {
		t.Errorf("greedy accepted 5 on turn 4")
	}
	v.Turn = 10
	if d := (Greedy{}).Decide(v); !d.Accept {
		t.Errorf("greedy refused 5 on its last turn")
	}
}

// TestFairReservation: R(t) = 10 - round(5 (t-1) / 9) for T = 10, worked by
// hand: t = 1..8 gives 10, 9, 9, 8, 8, 7, 7, 6; turns 9 and 10 are a
// seat's last, R = 1. The bot accepts a standing offer worth exactly R and
// refuses one worth R-1.
func TestFairReservation(t *testing.T) {
	want := []int{10, 9, 9, 8, 8, 7, 7, 6, 1, 1}
	// Pool 4,1,1 and values 1,2,4 (4 + 2 + 4 = 10): every worth 0..10 can
	// be received: the ball if w >= 4, the hat if 2 more remain, then books.
	recv := func(w int) Vector {
		var v Vector
		if w >= 4 {
			v[2], w = 1, w-4
		}
		if w >= 2 {
			v[1], w = 1, w-2
		}
		v[0] = w
		return v
	}
	for turn, r := range want {
		v := View{Pool: Vector{4, 1, 1}, Values: Vector{1, 2, 4}, Turn: turn + 1, MaxTurns: 10, HasStanding: true}
		for _, w := range []int{r, r - 1} {
			v.Receive = recv(w)
			if got := v.Receive.Dot(v.Values); got != w || v.Receive[0] > 4 {
				t.Fatalf("bad fixture: %v worth %d, want %d", v.Receive, got, w)
			}
			if d := (Fair{}).Decide(v); d.Accept != (w >= r) {
				t.Errorf("turn %d: worth %d accepted=%v, R=%d", turn+1, w, d.Accept, r)
			}
		}
	}
}

// TestPlayEpisodeDeterministic: the same seed and bots give byte-identical
// replays, every pairing of bots plays legally over many seeds, and a
// greedy table has deals and no-deals both possible.
func TestPlayEpisodeDeterministic(t *testing.T) {
	bots := [Seats]Bot{Greedy{}, Fair{}, Fair{}}
	a, err := PlayEpisode(counting, DefaultConfig(), bots, PlayOptions{})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := PlayEpisode(counting, DefaultConfig(), bots, PlayOptions{})
	ja, _ := a.Encode()
	jb, _ := b.Encode()
	if !bytes.Equal(ja, jb) {
		t.Fatal("two plays of one seed differ")
	}
	// printf %s 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f | sha256sum
	if a.SeedCommitment != "6c86c6aac5fb24bcf5d9939cb7d7d5645ce39418f449e03b262dd4fa14b4b92b" {
		t.Errorf("commitment %s", a.SeedCommitment)
	}
	outcomes := map[Outcome]int{}
	for i := 0; i < 300; i++ {
		seed := sha256.Sum256([]byte(fmt.Sprint(i)))
		var set [Seats]Bot
		for s := range set {
			set[s] = []Bot{Greedy{}, Fair{}}[(i>>s)&1]
		}
		cfg := Config{Matches: 6, MaxTurns: 2 + 2*(i%6)}
		r, err := PlayEpisode(seed[:], cfg, set, PlayOptions{})
		if err != nil {
			t.Fatalf("seed %d: %v", i, err)
		}
		for _, ev := range r.Events {
			if ev.Kind == EventMatchEnd {
				outcomes[ev.Outcome]++
			}
		}
		if r.Results.Reason != ReasonComplete || r.Results.MatchesPlayed != 6 {
			t.Fatalf("seed %d: %+v", i, r.Results)
		}
	}
	if outcomes[OutcomeDeal] == 0 || outcomes[OutcomeNoDeal] == 0 {
		t.Errorf("outcomes %v: expected both deals and no-deals", outcomes)
	}
	if _, err := PlayEpisode(counting, DefaultConfig(), [Seats]Bot{Greedy{}, nil, Fair{}}, PlayOptions{}); err == nil {
		t.Error("nil bot accepted")
	}
	if _, err := PlayEpisode(counting, DefaultConfig(), bots, PlayOptions{StopAfter: 6}); err == nil {
		t.Error("StopAfter 6 of 6 accepted")
	}
	if _, err := BotByName("nice"); err == nil {
		t.Error("unknown bot accepted")
	}
}
