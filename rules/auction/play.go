package auction

import (
	"fmt"

	"github.com/sealedhq/sealed/commit"
)

// Play plays a whole match of cfg from the 32-byte seed, bots[s] acting for
// seat s, and returns its replay with every event and the results. A bot's
// illegal action is played as a timeout. It returns an error for a bad
// config (wrapping ErrConfig), a seed that is not 32 bytes, or a number of
// bots other than cfg.Players.
func Play(seed []byte, cfg Config, bots []Bot) (*Replay, error) {
	m, err := NewMatch(seed, cfg)
	if err != nil {
		return nil, err
	}
	if len(bots) != cfg.Players {
		return nil, fmt.Errorf("%d bots for %d players, expected one per seat", len(bots), cfg.Players)
	}
	var s commit.Seed
	copy(s[:], seed) // NewMatch checked the length
	r := &Replay{Format: ReplayFormat, RulesVersion: RulesVersion, Config: cfg,
		SeedCommitment: s.Commitment().String(), Seed: s.String()}
	for _, b := range bots {
		r.Seats = append(r.Seats, b.Name())
	}
	ev := func(e Event) { r.Events = append(r.Events, e) }
	players := func() []PlayerState {
		ps := make([]PlayerState, cfg.Players)
		for s := range ps {
			ps[s] = m.Player(s)
		}
		return ps
	}
	for item := 1; item <= cfg.Items; item++ {
		ev(Event{Type: EventItemUp, Item: item})
		for s := 0; s < cfg.Players; s++ {
			ev(Event{Type: EventValuePrivate, Item: item, Seat: ptr(s), Value: ptr(m.Value(item, s))})
		}
		var res *ItemResult
		for {
			t := m.Turn()
			if t.Phase == PhaseBid && t.Seat == 0 {
				ev(Event{Type: EventBiddingOpen, Item: item})
			}
			p := m.Player(t.Seat)
			a := bots[t.Seat].Act(View{Turn: t, Value: m.Value(item, t.Seat), Credits: p.Credits, Profit: p.Profit, Config: &cfg})
			a.Seat = t.Seat
			if m.Check(a) != nil {
				a = Action{Kind: Timeout, Seat: t.Seat}
			}
			if res, err = m.Apply(a); err != nil {
				return nil, err // cannot happen: a was checked
			}
			e := Event{Item: item, Seat: ptr(t.Seat)}
			switch a.Kind {
			case Timeout:
				e.Type, e.Phase = EventTimeout, string(t.Phase)
			case Say, Pass:
				e.Type, e.Action = EventAction, a.Kind.String()
				if a.Kind == Say {
					e.Message = ptr(a.Message)
				}
			case Bid:
				e.Type, e.Amount = EventBidPlaced, ptr(a.Amount)
				if a.Message != "" {
					e.Message = ptr(a.Message)
				}
			}
			ev(e)
			if res != nil {
				break
			}
		}
		bids := make([]SeatBid, cfg.Players)
		for s := range bids {
			bids[s] = SeatBid{Seat: s, Amount: res.Bids[s]}
		}
		ev(Event{Type: EventBidsRevealed, Item: item, Bids: bids})
		ev(ResultEvent(res))
		ev(Event{Type: EventProfitUpdate, Item: item, Players: players()})
	}
	ev(Event{Type: EventAuctionEnd, Players: players()})
	r.Results.Ranking = m.Ranking()
	pay, err := Payouts(cfg, r.Results.Ranking)
	if err != nil {
		return nil, err
	}
	if pay != nil {
		r.Results.Pot, r.Results.Rake = &pay.Pot, &pay.Rake
		for s := range pay.Amounts {
			r.Results.Payouts = append(r.Results.Payouts, SeatPayout{Seat: s, Amount: &pay.Amounts[s]})
		}
	}
	return r, nil
}

// ResultEvent returns the item_result event for res: winner, price, value,
// profit and tie_break for a sold item, unsold: true otherwise.
func ResultEvent(res *ItemResult) Event {
	e := Event{Type: EventItemResult, Item: res.Item}
	if !res.Sold {
		e.Unsold = true
		return e
	}
	e.Winner, e.Price, e.Value, e.Profit = ptr(res.Winner), ptr(res.Price), ptr(res.Value), ptr(res.Profit)
	e.TieBreak = res.TieBreak
	return e
}

func ptr[T any](v T) *T { return &v }
