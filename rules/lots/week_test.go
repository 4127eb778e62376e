package lots

import (
	"bytes"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/sealedhq/sealed/commit"
	"github.com/sealedhq/sealed/rules/secret"
)

// weekVector reads testdata/week/NAME.txt: its commitment header and the
// reveal bytes after the blank line.
func weekVector(t *testing.T, name string) (commit.Commitment, []byte) {
	t.Helper()
	b, err := os.ReadFile("testdata/week/" + name + ".txt")
	if err != nil {
		t.Fatal(err)
	}
	head, body, _ := bytes.Cut(b, []byte("\n\n"))
	line, _, _ := strings.Cut(string(head), "\n")
	c, err := commit.ParseCommitment(strings.TrimPrefix(line, "commitment: "))
	if err != nil {
		t.Fatal(err)
	}
	return c, body
}

func utc(t *testing.T, s string) time.Time {
	t.Helper()
	v, err := time.Parse(time.RFC3339, s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestWeek judges a week of the lot auction with rules/secret and concludes
// it. Week 2026-W10, UTC: Auction Phase Monday 2026-03-02 to Thursday
// 03-05, revelation date Sunday 2026-03-08 00:00. Worked by hand:
//
//   - alice (post 1, Mon 09:00) bids 15 on lot 1 and 5 on lot 2, reveals
//     Friday: counts.
//   - bob (post 2, Mon 10:00) bids 15 on lot 1, reveals Friday: counts.
//   - bob (post 3, Tue) posts again while post 2 is outstanding: fails (S1);
//     its Friday reveal does not count.
//   - carol (post 4) bids 20 on lot 2 and edits the post on Tuesday, before
//     maturation: fails (S4).
//   - dan (post 6) bids 8 on lot 2 and reveals Sunday 00:30: late, fails.
//   - erin (post 7) submits a Hand, a heart flush, reveals Saturday: placed
//     1st, prize 10 points, her five hearts destroyed.
//
// Conclusion: lot 1, alice and bob both bid 15; alice's post is earlier
// (S7): alice. Lot 2: only alice's 5 stands: alice. First-price: alice
// 30 - 15 - 5 = 10; bob keeps 40; erin 0 + 10 = 10.
func TestWeek(t *testing.T) {
	ca, ta := weekVector(t, "alice")
	cb, tb := weekVector(t, "bob")
	cb2, tb2 := weekVector(t, "bob-again")
	cc, tc := weekVector(t, "carol")
	cd, td := weekVector(t, "dan")
	ce, te := weekVector(t, "erin")
	st := func(i int64, s string) secret.Stamp { return secret.Stamp{Index: i, IntegratedAt: utc(t, s)} }
	bid := func(i int64, s, player string, c commit.Commitment) secret.Post {
		return secret.Post{Stamp: st(i, s), Player: player, ActionType: secret.ActionBid, Channel: "#auctions", Commitment: c}
	}
	rv := func(i int64, s string, of int64, player string, text []byte) secret.Reveal {
		return secret.Reveal{Stamp: st(i, s), Commit: of, Player: player, Text: text}
	}
	h := secret.History{
		Posts: []secret.Post{
			bid(1, "2026-03-02T09:00:00Z", "alice", ca),
			bid(2, "2026-03-02T10:00:00Z", "bob", cb),
			bid(3, "2026-03-03T10:00:00Z", "bob", cb2),
			bid(4, "2026-03-02T11:00:00Z", "carol", cc),
			bid(6, "2026-03-03T12:00:00Z", "dan", cd),
			{Stamp: st(7, "2026-03-04T08:00:00Z"), Player: "erin", ActionType: secret.ActionHand, Channel: "#game-actions", Commitment: ce},
		},
		Edits: []secret.Edit{{Stamp: st(5, "2026-03-03T11:00:00Z"), Commit: 4, Player: "carol"}},
		Reveals: []secret.Reveal{
			rv(10, "2026-03-06T09:00:00Z", 1, "alice", ta),
			rv(11, "2026-03-06T10:00:00Z", 2, "bob", tb),
			rv(12, "2026-03-06T11:00:00Z", 3, "bob", tb2),
			rv(13, "2026-03-06T12:00:00Z", 4, "carol", tc),
			rv(14, "2026-03-08T00:30:00Z", 6, "dan", td),
			rv(15, "2026-03-07T09:00:00Z", 7, "erin", te),
		},
	}
	var g secret.Game
	j, err := g.Judge(h, utc(t, "2026-03-08T01:00:00Z"))
	if err != nil {
		t.Fatal(err)
	}
	wantFail := map[int64]secret.Reason{3: secret.AttemptOutstanding, 4: secret.EditedBeforeMaturation, 6: secret.NotRevealed}
	for _, a := range j.Actions {
		if r, ok := wantFail[a.Post.Index]; ok {
			if a.State != secret.Failed || a.Failure.Reason != r {
				t.Errorf("post %d: %s %+v, want failed: %s", a.Post.Index, a.State, a.Failure, r)
			}
		} else if a.State != secret.Revealed {
			t.Errorf("post %d: %s %+v, want revealed", a.Post.Index, a.State, a.Failure)
		}
	}
	bids, hands := FromJudgement(j, g.Calendar, secret.Week{Year: 2026, Number: 10})
	if len(bids) != 2 || len(hands) != 1 {
		t.Fatalf("week input: %d bid actions, %d Hands; want 2 and 1", len(bids), len(hands))
	}
	heart := func(s ...string) []secret.Card {
		var cs []secret.Card
		for _, x := range s {
			c, _ := secret.ParseCard(x)
			cs = append(cs, c)
		}
		return cs
	}
	out, err := Conclude(Input{
		Lots:        []string{"1", "2"},
		Points:      map[string]int64{"alice": 30, "bob": 40, "carol": 25, "dan": 10, "erin": 0},
		Possessions: map[string][]secret.Card{"erin": heart("9H", "8H", "4H", "3H", "2H", "AS")},
		Prizes:      []int64{10},
		Bids:        bids,
		Hands:       hands,
	})
	if err != nil {
		t.Fatal(err)
	}
	if out.Lots[0].Winner != "alice" || out.Lots[1].Winner != "alice" || out.Lots[1].Price != 5 {
		t.Fatalf("lots = %+v, want alice takes 1 (15) and 2 (5)", out.Lots)
	}
	want := map[string]int64{"alice": 10, "bob": 40, "carol": 25, "dan": 10, "erin": 10}
	for p, n := range want {
		if out.Points[p] != n {
			t.Errorf("points of %s = %d, want %d", p, out.Points[p], n)
		}
	}
	if len(out.Hands) != 1 || out.Hands[0].Place != 1 || out.Hands[0].Strength != "flush, nine high" {
		t.Fatalf("hands = %+v, want erin placed 1 with a nine-high flush", out.Hands)
	}
	if got := out.Possessions["erin"]; len(got) != 1 || got[0].String() != "AS" {
		t.Fatalf("erin keeps %v, want [AS]", got)
	}
}
