package bargain

import (
	"testing"
)

// counting is the seed 000102...1f; its pools are in testdata/pools/counting.txt.
var counting = func() []byte {
	b := make([]byte, 32)
	for i := range b {
		b[i] = byte(i)
	}
	return b
}()

func decimals(r Results) (scores, give [Seats]string) {
	for s := 0; s < Seats; s++ {
		scores[s] = FormatDecimal(&r.Scores[s])
		give[s] = FormatDecimal(&r.Giveaway[s])
	}
	return
}

// TestDeadlineAfterMatchThree plays the episode worked by hand in
// verify/testdata/bargain_handworked.md (seed 000102...1f, maxTurns 2): two
// deals and a no_deal at the cliff, then a deadline. Reason "deadline";
// scores over the three settled matches only.
func TestDeadlineAfterMatchThree(t *testing.T) {
	e, err := NewEpisode(counting, Config{Matches: 6, MaxTurns: 2})
	if err != nil {
		t.Fatal(err)
	}
	// Before the first match is between matches too: a deadline is legal.
	if err := e.Deadline(); err != nil {
		t.Fatal(err)
	}
	if r := e.Results(); r.Reason != ReasonDeadline || r.MatchesPlayed != 0 {
		t.Fatalf("deadline before play: %+v", r)
	}
	if err := e.Reset(counting, Config{Matches: 6, MaxTurns: 2}); err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		accept bool
		take   Vector
	}{
		{false, Vector{2, 4, 0}}, {true, Vector{}}, // match 0: deal [10, 6]
		{false, Vector{0, 2, 0}}, {true, Vector{}}, // match 1: deal [2, 10]
		{false, Vector{2, 3, 1}}, {false, Vector{0, 0, 1}}, // match 2: no_deal
	}
	k := 0
	for m := 0; m < 3; m++ {
		if _, err := e.BeginMatch(); err != nil {
			t.Fatal(err)
		}
		if m == 2 {
			if err := e.Deadline(); ruleOf(err) != RuleDeadlineBetweenMatches {
				t.Fatalf("deadline inside a match: %v", err)
			}
		}
		for e.Current() != nil {
			var err error
			if steps[k].accept {
				_, err = e.Accept("", "")
			} else {
				_, err = e.Offer(steps[k].take, "", "")
			}
			if err != nil {
				t.Fatalf("step %d: %v", k, err)
			}
			k++
		}
	}
	if err := e.Deadline(); err != nil {
		t.Fatal(err)
	}
	if _, err := e.BeginMatch(); ruleOf(err) != RuleEpisodeOver {
		t.Errorf("match after the deadline: %v", err)
	}
	r := e.Results()
	scores, give := decimals(r)
	if r.Reason != ReasonDeadline || r.MatchesPlayed != 3 || r.MaxMatches != 6 ||
		r.Points != [3]int{12, 6, 10} || r.Matches != [3]int{2, 2, 2} || r.Deals != [3]int{2, 1, 1} ||
		scores != [3]string{"0.6000", "0.3000", "0.5000"} || give != [3]string{"2.0000", "2.0000", "-4.0000"} {
		t.Errorf("results %+v scores %v giveaway %v", r, scores, give)
	}
}

// TestScoresThirds: in a 6-match episode where the opener takes the whole
// pool and the other accepts, a deadline after 5 settled matches leaves
// seat 0 with 4 matches and seats 1 and 2 with 3. Worked by hand: openers
// of matches 0..4 are seats 0,0,1,1,2; seat 1 (matches 0,2,3) banks
// 0+10+10 = 20 of 30 -> 0.6667, giveaway (10-10-10)/3 = -3.3333; seat 2
// (matches 1,2,4) banks 10 of 30 -> 0.3333, giveaway (10+10-10)/3 = 3.3333;
// seat 0 (matches 0,1,3,4) banks 20 of 40 -> 0.5000, giveaway 0.
func TestScoresThirds(t *testing.T) {
	e, err := NewEpisode(counting, DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	var plays, opens [Seats]int
	for m := 0; m < 5; m++ {
		p, err := e.BeginMatch()
		if err != nil {
			t.Fatal(err)
		}
		plays[p.Seats[0]]++
		plays[p.Seats[1]]++
		opens[p.Opener]++
		if _, err := e.Offer(p.Pool, "", ""); err != nil {
			t.Fatal(err)
		}
		if _, err := e.Accept("", ""); err != nil {
			t.Fatal(err)
		}
	}
	if err := e.Deadline(); err != nil {
		t.Fatal(err)
	}
	r := e.Results()
	scores, give := decimals(r)
	if r.Points != [3]int{20, 20, 10} || r.Matches != [3]int{4, 3, 3} || r.Deals != [3]int{4, 3, 3} ||
		scores != [3]string{"0.5000", "0.6667", "0.3333"} || give != [3]string{"0.0000", "-3.3333", "3.3333"} || r.Reason != ReasonDeadline {
		t.Errorf("results %+v scores %v giveaway %v", r, scores, give)
	}
	if plays != r.Matches || opens != [3]int{2, 2, 1} {
		t.Errorf("plays %v opens %v", plays, opens)
	}
}

// TestSixMatchEpisodeComplete: six matches played to their end give every
// seat 4 plays and 2 openings and reason "complete"; with no settled match
// every score and giveaway is 0.0000.
func TestSixMatchEpisodeComplete(t *testing.T) {
	e, _ := NewEpisode(counting, DefaultConfig())
	r := e.Results()
	if s, g := decimals(r); s != [3]string{"0.0000", "0.0000", "0.0000"} || g != s || r.Reason != "" {
		t.Errorf("before play: %v %v %q", s, g, r.Reason)
	}
	var opens [Seats]int
	for m := 0; m < 6; m++ {
		p, err := e.BeginMatch()
		if err != nil {
			t.Fatal(err)
		}
		opens[p.Opener]++
		if _, err := e.BeginMatch(); ruleOf(err) != RuleMatchInPlay {
			t.Fatalf("second match at once: %v", err)
		}
		for e.Current() != nil { // to the cliff: every match no_deal
			if _, err := e.Offer(Vector{}, "", ""); err != nil {
				t.Fatal(err)
			}
		}
	}
	r = e.Results()
	if r.Matches != [3]int{4, 4, 4} || opens != [3]int{2, 2, 2} || r.Deals != [3]int{} || r.Reason != ReasonComplete || r.MatchesPlayed != 6 {
		t.Errorf("results %+v opens %v", r, opens)
	}
	if err := e.Deadline(); ruleOf(err) != RuleEpisodeOver {
		t.Errorf("deadline after complete: %v", err)
	}
	if _, err := e.Offer(Vector{}, "", ""); ruleOf(err) != RuleEpisodeOver {
		t.Errorf("offer after complete: %v", err)
	}
}

func TestConfigValidate(t *testing.T) {
	good := []Config{{3, 2}, {6, 12}, {6, 10}, {3, 8}}
	bad := []Config{{0, 10}, {4, 10}, {7, 10}, {6, 0}, {6, 13}, {6, 14}, {6, 9}}
	for _, c := range good {
		if err := c.Validate(); err != nil {
			t.Errorf("%+v: %v", c, err)
		}
	}
	for _, c := range bad {
		if err := c.Validate(); err == nil {
			t.Errorf("%+v accepted", c)
		}
		if _, err := NewEpisode(counting, c); err == nil {
			t.Errorf("NewEpisode %+v accepted", c)
		}
	}
	if _, err := NewEpisode(counting[:31], DefaultConfig()); err == nil {
		t.Error("31-byte seed accepted")
	}
}
