package web

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/sealedhq/sealed/rules/secret"
	"github.com/sealedhq/sealed/verify"
)

// templatePage is the commitment page as html/template renders it: the
// reference pageWriter must match.
func templatePage(t *testing.T, r *renderer, v *commitmentView) string {
	t.Helper()
	var buf bytes.Buffer
	if err := r.Render(&buf, "commitment", v, nil); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// TestCommitmentPageMatchesTemplate: the commitment page pageWriter writes
// is byte for byte the template's, for every commitment of the fixture
// (markup in a reveal, hidden characters, a near miss) and of generated
// ledgers (edits, flags, failures of every kind), and for views whose
// every text field is drawn from quotes, markup, NUL, plus signs, hidden
// and invalid characters.
func TestCommitmentPageMatchesTemplate(t *testing.T) {
	r, err := newRenderer()
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, f := range []*fixture{newFixture(t), genFixture(t, 4)} {
		for _, when := range []string{"2026-03-04T12:00:00Z", "2026-03-09T12:00:00Z"} {
			now := at(t, when)
			s := f.server(t, func(o *Options) { o.Now = func() time.Time { return now } })
			h, err := verify.LoadHistory(f.r)
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range h.Posts {
				v, err := s.lookupCommitment(p.Commitment)
				if err != nil {
					continue // posted after now
				}
				got, ok := r.frame.commitmentPage(v)
				if !ok {
					t.Errorf("%s: pageWriter declined a ledger's view", p.Commitment)
					continue
				}
				if want := templatePage(t, r, v); string(got) != want {
					t.Errorf("%s at %s:\n got %s\nwant %s", p.Commitment, when, got, want)
				}
				n++
			}
		}
	}
	rng := rand.New(rand.NewPCG(7, 7))
	pieces := []string{"a", "Bob", " ", "<script>", "</p>", "&amp;", "\"", "'", "+", "\x00", "\n", "\u202e", "\u200b", "\ufeff", "\xff", "\xe2\x80", "é", "😀", "—", "·", "S1", "#"}
	str := func() string {
		var b strings.Builder
		for range rng.IntN(6) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		return b.String()
	}
	strs := func() []string {
		var ss []string
		for range rng.IntN(3) {
			ss = append(ss, str())
		}
		return ss
	}
	tm := func() time.Time {
		if rng.IntN(4) == 0 {
			return time.Time{}
		}
		return time.Date(2026, 3, 2+rng.IntN(7), rng.IntN(24), rng.IntN(60), rng.IntN(60), rng.IntN(1e9), time.FixedZone("x", 3600*rng.IntN(3)))
	}
	readings := []string{"", "S1", "S2", "S4", "S5", "S9", str()}
	expl := func() secret.Explanation {
		e := secret.Explanation{Rule: str(), Reading: readings[rng.IntN(len(readings))], Text: str()}
		if rng.IntN(2) == 0 {
			e.Rule = secret.RuleNewAttempt
		}
		for range rng.IntN(3) {
			e.Times = append(e.Times, secret.TimeUsed{What: str(), At: tm()})
		}
		return e
	}
	for range 300 {
		v := &commitmentView{Commitment: "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef", JudgedAt: tm()}
		for range 1 + rng.IntN(3) {
			a := actionView{Index: rng.Int64N(1000), Player: str(), PlayerNotes: strs(), ActionType: str(), Channel: str(),
				IntegratedAt: tm(), PostedAt: tm(), State: secret.State(str()), Maturation: tm(), Revelation: tm(), PhaseHelp: str()}
			if rng.IntN(2) == 0 {
				a.Failure = &secret.Failure{Reason: secret.Reason(str()), At: tm(), Why: expl()}
			}
			if rng.IntN(2) == 0 {
				d := &secret.Declaration{}
				for range rng.IntN(3) {
					d.Bids = append(d.Bids, secret.Bid{Amount: str(), Lot: str()})
				}
				for range rng.IntN(3) {
					d.Hand = append(d.Hand, secret.Card{})
				}
				a.Declaration = d
			}
			for range rng.IntN(4) {
				a.Decisions = append(a.Decisions, expl())
			}
			for range rng.IntN(3) {
				a.Flags = append(a.Flags, secret.Flag{Kind: secret.FlagKind(str()), Text: str()})
			}
			for range rng.IntN(3) {
				a.Reveals = append(a.Reveals, revealView{Index: rng.Int64N(1000), Player: str(), PlayerNotes: strs(), IntegratedAt: tm(),
					Bytes: rng.IntN(100), Match: rng.IntN(2) == 0, Counted: rng.IntN(2) == 0, Hints: strs(), Notes: strs(), raw: []byte(str())})
			}
			for range rng.IntN(3) {
				a.Edits = append(a.Edits, editView{Index: rng.Int64N(1000), Player: str(), IntegratedAt: tm()})
			}
			v.Actions = append(v.Actions, a)
		}
		got, ok := r.frame.commitmentPage(v)
		if !ok {
			continue // left to the template
		}
		if want := templatePage(t, r, v); string(got) != want {
			t.Fatalf("drawn view:\n got %q\nwant %q", got, want)
		}
		n++
	}
	t.Logf("%d pages compared", n)
}

// TestCommitmentPageDeclines: a view pageWriter cannot vouch for (a
// commitment that is not lowercase hex) is left to the template.
func TestCommitmentPageDeclines(t *testing.T) {
	r, err := newRenderer()
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := r.frame.commitmentPage(&commitmentView{Commitment: `"><script>`}); ok {
		t.Error("pageWriter wrote a page for a commitment that is not hex")
	}
}
