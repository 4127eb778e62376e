package web

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/sealedhq/sealed/commit"
	"github.com/sealedhq/sealed/ledger"
	"github.com/sealedhq/sealed/rules/secret"
	"github.com/sealedhq/sealed/verify"
)

// TestCommitmentAnswersMatchReference: the answers of GET
// /api/v1/commitments/{c} and GET /c/{c}, built in pooled views reused
// from one commitment to the next (fewer or more actions, reveals and
// edits than the view held before) with the phase help remembered per
// judgement instant, are byte for byte json.Marshal of a view built
// afresh (viewOf) and the template's page of it, with the Content-Length
// of those bytes; for every commitment of the fixture (with bids and a
// Hand posted in the Bartering Phase: phase help) and of a generated
// ledger, at three instants, in shuffled orders.
func TestCommitmentAnswersMatchReference(t *testing.T) {
	r, err := newRenderer()
	if err != nil {
		t.Fatal(err)
	}
	n, helps := 0, 0
	wrong := newFixture(t)
	for i, p := range []struct{ name, when, player, typ string }{
		{"late-bid-1", "2026-03-07T13:00:00Z", "alice", secret.ActionBid},
		{"late-bid-2", "2026-03-07T14:00:00Z", "bob", secret.ActionBid},
		{"late-hand", "2026-03-07T15:00:00Z", "alice", secret.ActionHand},
	} {
		c := commit.Sum([]byte(fmt.Sprintf("late %d\nsalt: wrong-phase", i)))
		wrong.add(t, p.name, p.when, &ledger.Body{Kind: ledger.KindCommit, Player: p.player, ActionType: p.typ, Channel: "#auctions", Commitment: hex.EncodeToString(c[:])})
	}
	for _, f := range []*fixture{wrong, genFixture(t, 4)} {
		h, err := verify.LoadHistory(f.r)
		if err != nil {
			t.Fatal(err)
		}
		var cs []commit.Commitment
		for _, p := range h.Posts {
			cs = append(cs, p.Commitment)
		}
		now := at(t, "2026-03-04T12:00:00Z")
		s := f.server(t, func(o *Options) { o.Now = func() time.Time { return now } })
		rng := rand.New(rand.NewPCG(3, 3))
		for _, when := range []string{"2026-03-04T12:00:00Z", "2026-03-08T12:00:00Z", "2026-03-09T12:00:00Z", "2026-03-08T12:00:00Z"} {
			now = at(t, when)
			s.judge.invalidate()
			for range 2 {
				rng.Shuffle(len(cs), func(i, j int) { cs[i], cs[j] = cs[j], cs[i] })
				for _, c := range cs {
					jd, idx, err := s.judge.lookup(c)
					if err != nil {
						t.Fatal(err)
					}
					if len(idx) == 0 {
						continue // posted after now
					}
					ref := viewOf(jd, idx, c, s.o.Game)
					wantJSON, err := json.Marshal(ref)
					if err != nil {
						t.Fatal(err)
					}
					wantPage := templatePage(t, r, ref)
					for _, a := range ref.Actions {
						if a.PhaseHelp != "" {
							helps++
						}
					}
					for _, x := range []struct{ path, want, ct string }{
						{"/api/v1/commitments/" + c.String(), string(wantJSON), "application/json"},
						{"/c/" + c.String(), wantPage, "text/html; charset=UTF-8"},
					} {
						w := do(s, http.MethodGet, x.path, "")
						if w.Code != http.StatusOK {
							t.Fatalf("GET %s: %d %s", x.path, w.Code, w.Body)
						}
						if got := w.Body.String(); got != x.want {
							t.Errorf("GET %s at %s:\n got %s\nwant %s", x.path, when, got, x.want)
						}
						if got := w.Header().Get("Content-Length"); got != strconv.Itoa(len(x.want)) {
							t.Errorf("GET %s: Content-Length %s, want %d", x.path, got, len(x.want))
						}
						if got := w.Header().Get("Content-Type"); got != x.ct {
							t.Errorf("GET %s: Content-Type %q, want %q", x.path, got, x.ct)
						}
						checkSecurityHeaders(t, w)
						n++
					}
				}
			}
		}
	}
	if helps == 0 {
		t.Error("no view had phase help")
	}
	t.Logf("%d answers compared, %d actions with phase help", n, helps)
}
