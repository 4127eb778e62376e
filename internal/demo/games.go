package demo

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/cockroachdb/apd/v3"
	"github.com/sealedhq/sealed/commit"
	"github.com/sealedhq/sealed/rules/auction"
	"github.com/sealedhq/sealed/rules/bargain"
)

// BargainRulesVersion is the rules_version of the demo's Negotiation Games
// seed commitment: seed 002 names no version, so the replay format stands
// for it.
const BargainRulesVersion = bargain.ReplayFormat

// match is one game the demo plays: what its seed-commit and result
// entries carry.
type match struct {
	game, id, rules string
	config          json.RawMessage
	seed            commit.Seed
	replay          []byte
	summary         json.RawMessage
	events          int
}

// auctionSeats are the built-in bots at the demo's five-seat table.
var auctionSeats = []string{"truthful", "shading", "random", "truthful", "shading"}

// playAuction plays a paid five-seat, ten-item first-price Blind Auction
// (stake 10, rake 0.05: pot, rake and payouts are exact decimals) with the
// built-in bots from a fresh seed.
func playAuction(id string) (*match, error) {
	seed, err := commit.NewSeed()
	if err != nil {
		return nil, err
	}
	cfg := auction.DefaultConfig()
	cfg.Stake, _, _ = apd.NewFromString("10")
	cfg.Rake, _, _ = apd.NewFromString("0.05")
	bots := make([]auction.Bot, cfg.Players)
	for s := range bots {
		if bots[s], err = auction.NewBot(auctionSeats[s%len(auctionSeats)], seed[:], s); err != nil {
			return nil, err
		}
	}
	r, err := auction.Play(seed[:], cfg, bots)
	if err != nil {
		return nil, err
	}
	data, err := r.Encode()
	if err != nil {
		return nil, err
	}
	conf, err := json.Marshal(cfg)
	if err != nil {
		return nil, err
	}
	sum, err := json.Marshal(struct {
		Seats   []string             `json:"seats"`
		Ranking []auction.Standing   `json:"ranking"`
		Pot     *apd.Decimal         `json:"pot,omitempty"`
		Rake    *apd.Decimal         `json:"rake,omitempty"`
		Payouts []auction.SeatPayout `json:"payouts,omitempty"`
	}{r.Seats, r.Results.Ranking, r.Results.Pot, r.Results.Rake, r.Results.Payouts})
	if err != nil {
		return nil, err
	}
	return &match{game: "auction", id: id, rules: auction.RulesVersion, config: conf, seed: seed, replay: data, summary: sum, events: len(r.Events)}, nil
}

// bargainSeats are the built-in bots of the demo's episode, seat 0 first.
var bargainSeats = [bargain.Seats]string{"greedy", "fair", "fair"}

// playBargain plays a six-match Negotiation Games episode with the
// built-in bots from a fresh seed. Scores and giveaways are exact decimals
// printed with bargain.ScorePlaces places.
func playBargain(id string) (*match, error) {
	seed, err := commit.NewSeed()
	if err != nil {
		return nil, err
	}
	var bots [bargain.Seats]bargain.Bot
	for s, n := range bargainSeats {
		if bots[s], err = bargain.BotByName(n); err != nil {
			return nil, err
		}
	}
	cfg := bargain.DefaultConfig()
	r, err := bargain.PlayEpisode(seed[:], cfg, bots, bargain.PlayOptions{})
	if err != nil {
		return nil, err
	}
	data, err := r.Encode()
	if err != nil {
		return nil, err
	}
	conf, err := json.Marshal(cfg)
	if err != nil {
		return nil, err
	}
	res := r.Results
	scores, give := make([]string, bargain.Seats), make([]string, bargain.Seats)
	for s := range bargain.Seats {
		scores[s], give[s] = bargain.FormatDecimal(&res.Scores[s]), bargain.FormatDecimal(&res.Giveaway[s])
	}
	sum, err := json.Marshal(struct {
		Seats    []string `json:"seats"`
		Points   []int    `json:"points"`
		Scores   []string `json:"scores"`
		Giveaway []string `json:"giveaway"`
		Played   int      `json:"matches_played"`
		Reason   string   `json:"reason"`
	}{bargainSeats[:], res.Points[:], scores, give, res.MatchesPlayed, string(res.Reason)})
	if err != nil {
		return nil, err
	}
	return &match{game: "bargain", id: id, rules: BargainRulesVersion, config: conf, seed: seed, replay: data, summary: sum, events: len(r.Events)}, nil
}

// headline is one line about a match's result for the summary.
func (m *match) headline() string {
	switch m.game {
	case "auction":
		var s struct {
			Seats   []string           `json:"seats"`
			Ranking []auction.Standing `json:"ranking"`
			Pot     string             `json:"pot"`
		}
		if json.Unmarshal(m.summary, &s) != nil || len(s.Ranking) == 0 {
			return ""
		}
		top := s.Ranking[0]
		name := ""
		if top.Seat < len(s.Seats) {
			name = " (" + s.Seats[top.Seat] + ")"
		}
		if s.Pot == "" {
			return fmt.Sprintf("seat %d%s ranks first with profit %d (a free table)", top.Seat, name, top.Score)
		}
		return fmt.Sprintf("seat %d%s ranks first with profit %d; pot %s", top.Seat, name, top.Score, s.Pot)
	case "bargain":
		var s struct {
			Scores []string `json:"scores"`
		}
		if json.Unmarshal(m.summary, &s) != nil {
			return ""
		}
		return "scores " + strings.Join(s.Scores, ", ") + " (seats 0, 1, 2: " + strings.Join(bargainSeats[:], ", ") + ")"
	}
	return ""
}
