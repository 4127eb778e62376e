package bargain

import (
	"errors"
	"strings"
	"testing"
)

// plan0 is match 0 of seed 000102...1f, from
// python3 testdata/pool_vectors.py 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f 6:
// seats 0 and 1, opener 0, pool 2,4,1, values 1,2,0 and 2,0,6.
var plan0 = MatchPlan{Match: 0, Seats: [2]int{0, 1}, Opener: 0, Pool: Vector{2, 4, 1}, Values: [2]Vector{{1, 2, 0}, {2, 0, 6}}}

func ruleOf(err error) Rule {
	var ae *ActionError
	if errors.As(err, &ae) {
		return ae.Rule
	}
	return ""
}

func TestAcceptOnTurnOneIsIllegal(t *testing.T) {
	m, err := NewMatch(plan0, 10)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Accept("", ""); ruleOf(err) != RuleAcceptStandingOffer {
		t.Fatalf("accept on turn 1: %v", err)
	}
	// Nothing changed: still turn 1, seat 0 to move, and an offer is legal.
	if m.Turn() != 1 || m.Actor() != 0 || m.Ended() {
		t.Fatalf("state moved: turn %d actor %d ended %v", m.Turn(), m.Actor(), m.Ended())
	}
	mv, err := m.Offer(Vector{2, 4, 0}, "", "")
	// Worked by hand: seat 0 takes 2 books and 4 hats, 2*1 + 4*2 = 10; seat 1
	// gets the ball, 6.
	if err != nil || mv.Turn != 1 || mv.Seat != 0 || mv.Other != 1 || mv.Worth != [2]int{10, 6} || mv.Ended {
		t.Fatalf("offer: %+v %v", mv, err)
	}
	mv, err = m.Accept("", "")
	if err != nil || mv.Turn != 2 || mv.Seat != 1 || mv.Take != (Vector{0, 0, 1}) || mv.Payoff != [2]int{10, 6} || mv.Outcome != OutcomeDeal || mv.TurnsUsed != 2 {
		t.Fatalf("accept: %+v %v", mv, err)
	}
	if _, err := m.Offer(Vector{}, "", ""); ruleOf(err) != RuleMatchInPlay {
		t.Errorf("offer after the deal: %v", err)
	}
}

// TestTurnCliff: with no accept by turn maxTurns the match ends no_deal and
// both bank 0; the opener moves on odd turns.
func TestTurnCliff(t *testing.T) {
	for _, maxTurns := range []int{2, 10, 12} {
		p := plan0
		p.Opener = 1 // seat 1 opens: it moves on odd turns
		m, err := NewMatch(p, maxTurns)
		if err != nil {
			t.Fatal(err)
		}
		for turn := 1; turn <= maxTurns; turn++ {
			wantActor := 1
			if turn%2 == 0 {
				wantActor = 0
			}
			if m.Actor() != wantActor {
				t.Fatalf("turn %d: actor %d, want %d", turn, m.Actor(), wantActor)
			}
			mv, err := m.Offer(Vector{1, 1, 1}, "", "")
			if err != nil {
				t.Fatal(err)
			}
			if mv.Ended != (turn == maxTurns) {
				t.Fatalf("maxTurns %d turn %d: ended %v", maxTurns, turn, mv.Ended)
			}
			if mv.Ended && (mv.Outcome != OutcomeNoDeal || mv.Payoff != [2]int{0, 0} || mv.TurnsUsed != maxTurns) {
				t.Fatalf("cliff: %+v", mv)
			}
		}
		if _, err := m.Accept("", ""); ruleOf(err) != RuleMatchInPlay {
			t.Errorf("accept after the cliff: %v", err)
		}
	}
	for _, bad := range []int{0, 1, 3, 11, 14, -2} {
		if _, err := NewMatch(plan0, bad); err == nil {
			t.Errorf("maxTurns %d accepted", bad)
		}
	}
}

func TestOfferLegality(t *testing.T) {
	m, _ := NewMatch(plan0, 10)
	for _, take := range []Vector{{3, 0, 0}, {0, 5, 0}, {0, 0, 2}, {-1, 0, 0}} {
		if _, err := m.Offer(take, "", ""); ruleOf(err) != RuleTakeWithinCounts {
			t.Errorf("take %v: %v", take, err)
		}
	}
	long := strings.Repeat("ü", MaxMessageRunes+1)
	if _, err := m.Offer(Vector{}, long, ""); ruleOf(err) != RuleMessageLength {
		t.Errorf("201-rune message: %v", err)
	}
	if _, err := m.Offer(Vector{}, "", strings.Repeat("n", MaxNotesRunes+1)); ruleOf(err) != RuleNotesLength {
		t.Errorf("401-rune notes: %v", err)
	}
	if m.Turn() != 1 {
		t.Fatalf("illegal offers moved the turn to %d", m.Turn())
	}
	// 200 two-byte runes (400 bytes) and 400 runes of notes are legal; an
	// empty take and the whole pool are within counts.
	if _, err := m.Offer(Vector{}, strings.Repeat("ü", MaxMessageRunes), strings.Repeat("n", MaxNotesRunes)); err != nil {
		t.Errorf("200-rune message: %v", err)
	}
	if _, err := m.Offer(Vector{2, 4, 1}, "", ""); err != nil {
		t.Errorf("whole pool: %v", err)
	}
}

func TestNewMatchRejectsBadPlans(t *testing.T) {
	bad := []func(p *MatchPlan){
		func(p *MatchPlan) { p.Seats = [2]int{1, 1} },
		func(p *MatchPlan) { p.Seats = [2]int{0, 3} },
		func(p *MatchPlan) { p.Opener = 2 },
		func(p *MatchPlan) { p.Pool = Vector{2, 4, 2} },
		func(p *MatchPlan) { p.Values[1] = Vector{1, 2, 0} },
	}
	for i, f := range bad {
		p := plan0
		f(&p)
		if _, err := NewMatch(p, 10); err == nil {
			t.Errorf("case %d: bad plan %+v accepted", i, p)
		}
	}
}
