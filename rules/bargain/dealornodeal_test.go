package bargain

import (
	"bufio"
	"encoding/json"
	"os"
	"testing"
)

// dondRecord is one line of testdata/dealornodeal_sample.jsonl (FAIR "Deal
// or No Deal", Lewis et al. 2017, CC BY-NC 4.0; see testdata/README.md).
type dondRecord struct {
	Counts   Vector  `json:"counts"`
	ValuesA  Vector  `json:"values_a"`
	ValuesB  Vector  `json:"values_b"`
	Outcome  string  `json:"outcome"`
	TakeA    *Vector `json:"take_a"`
	TakeB    *Vector `json:"take_b"`
	UtilityA int     `json:"utility_a"`
	UtilityB int     `json:"utility_b"`
	First    string  `json:"first_speaker"`
	Source   string  `json:"source"`
}

func readDealOrNoDeal(t *testing.T) []dondRecord {
	t.Helper()
	f, err := os.Open("testdata/dealornodeal_sample.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []dondRecord
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var r dondRecord
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("line %d: %v", len(out)+1, err)
		}
		out = append(out, r)
	}
	if len(out) != 500 {
		t.Fatalf("%d records, want 500", len(out))
	}
	return out
}

// TestDealOrNoDealPoolsAreValid: every real pool and valuation pair passes
// the validator (the data's README records the same check made when the
// sample was built).
func TestDealOrNoDealPoolsAreValid(t *testing.T) {
	for _, r := range readDealOrNoDeal(t) {
		if err := ValidatePool(r.Counts, r.ValuesA, r.ValuesB); err != nil {
			t.Errorf("%s: %v", r.Source, err)
		}
	}
}

// TestDealOrNoDealScores replays every real negotiation through the rules:
// a deal as one offer (the first speaker takes what the data says it
// received) and one accept, which must bank exactly utility_a and
// utility_b; a no-deal as offers to the turn cliff, which banks 0 and 0.
func TestDealOrNoDealScores(t *testing.T) {
	deals, noDeals := 0, 0
	for _, r := range readDealOrNoDeal(t) {
		opener := 0
		if r.First == "b" {
			opener = 1
		}
		plan := MatchPlan{Seats: [2]int{0, 1}, Opener: opener, Pool: r.Counts, Values: [2]Vector{r.ValuesA, r.ValuesB}}
		m, err := NewMatch(plan, DefaultMaxTurns)
		if err != nil {
			t.Fatalf("%s: %v", r.Source, err)
		}
		switch r.Outcome {
		case "deal":
			deals++
			take := *r.TakeA
			if opener == 1 {
				take = *r.TakeB
			}
			if _, err := m.Offer(take, "", ""); err != nil {
				t.Fatalf("%s: offer: %v", r.Source, err)
			}
			mv, err := m.Accept("", "")
			if err != nil {
				t.Fatalf("%s: accept: %v", r.Source, err)
			}
			if mv.Outcome != OutcomeDeal || mv.Payoff != [2]int{r.UtilityA, r.UtilityB} {
				t.Errorf("%s: %s %v, want deal [%d %d]", r.Source, mv.Outcome, mv.Payoff, r.UtilityA, r.UtilityB)
			}
		case "no_deal":
			noDeals++
			var mv Move
			for turn := 1; turn <= DefaultMaxTurns; turn++ {
				if mv, err = m.Offer(r.Counts, "", ""); err != nil {
					t.Fatalf("%s: turn %d: %v", r.Source, turn, err)
				}
			}
			if !mv.Ended || mv.Outcome != OutcomeNoDeal || mv.Payoff != [2]int{0, 0} || r.UtilityA != 0 || r.UtilityB != 0 {
				t.Errorf("%s: %v %s %v, data %d %d; want no_deal [0 0]", r.Source, mv.Ended, mv.Outcome, mv.Payoff, r.UtilityA, r.UtilityB)
			}
		default:
			t.Fatalf("%s: outcome %q", r.Source, r.Outcome)
		}
	}
	// Composition from testdata/README.md: 371 deals, 79 + 47 + 3 no-deals.
	if deals != 371 || noDeals != 129 {
		t.Errorf("%d deals and %d no-deals, want 371 and 129", deals, noDeals)
	}
}
